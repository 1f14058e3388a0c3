# Writes OUT: a header with a SHA-256 over every compiler source and the ISA tables.
# isa/latency.* and isa/reg_uses.* decide the control bits the scheduler writes.
file(GLOB_RECURSE files ${ROOT}/compiler/*.h ${ROOT}/compiler/*.cc ${ROOT}/compiler/*.cu ${ROOT}/isa/*.def
     ${ROOT}/isa/latency.* ${ROOT}/isa/reg_uses.*)
list(SORT files)
set(all "")
foreach(f ${files})
  file(SHA256 ${f} h)
  file(RELATIVE_PATH rel ${ROOT} ${f})
  string(APPEND all "${rel}:${h}\n")
endforeach()
string(SHA256 id "${all}")
file(WRITE ${OUT}.tmp "// Generated: hash of the compiler sources and the ISA table.\n#pragma once\n#define STRATA_COMPILER_BUILD_ID \"${id}\"\n")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different ${OUT}.tmp ${OUT})
