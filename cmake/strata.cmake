# strata_library(NAME SOURCES ... DEPS ...): a static, PIC library of one layer.
function(strata_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(${name} PUBLIC ${ARG_DEPS})
endfunction()

# strata_test(NAME SOURCES ... DEPS ...): a GoogleTest binary registered with ctest.
# Each test runs with a fresh JIT cache directory.
function(strata_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gtest_main Threads::Threads)
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES
    ENVIRONMENT "STRATA_CACHE_DIR=${CMAKE_BINARY_DIR}/test-cache/${name};STRATA_ARCH_DIR=${STRATA_ARCH_DIR}"
    LABELS "unit;${ARG_LABELS}")
endfunction()
