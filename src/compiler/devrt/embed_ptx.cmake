# Writes OUT, a C++ file defining strata::compiler::devrt::kLibraryPtx: the text of PTX
# (empty when PTX is not given: Strata built without nvcc).
set(text "")
if(PTX)
  file(READ ${PTX} text)
endif()
file(WRITE ${OUT}.tmp "// Generated from src/compiler/devrt/heap.cu by embed_ptx.cmake.\n"
  "namespace strata::compiler::devrt {\n"
  "extern const char kLibraryPtx[];\n"
  "const char kLibraryPtx[] = R\"strata_devrt(${text})strata_devrt\";\n"
  "}  // namespace strata::compiler::devrt\n")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different ${OUT}.tmp ${OUT})
