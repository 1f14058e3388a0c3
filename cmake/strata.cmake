# strata_library(NAME SOURCES ... DEPS ...): a static, PIC library of one layer.
function(strata_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(${name} PUBLIC ${ARG_DEPS})
endfunction()

# The tests that scripts/test.sh also builds with -DSTRATA_TSAN=ON and runs there
# (`ctest -L tsan`): those exercising Strata's threads - the simulator (memory, command
# processor and copy engine, launches, the SM worker pool), the KMD, the HAL CTS, the
# driver end to end (driver + HAL + KMD + simulator in one process) and the JIT cache.
# Each name is a strata_test target; the TSan stage builds exactly these targets.
set(STRATA_TSAN_TESTS
  hw_memory_test hw_sim_test hw_sim_launch_test hw_sm_test
  kmd_range_allocator_test kmd_page_tables_test kmd_ring_test kmd_device_test
  hal_cts_test
  cuda_driver_e2e_test
  jit_cache_test)

# Environment every test runs with: the simulator checks that the compiled code's
# control bits cover every dependency (STRATA_CHECK_HAZARDS, hw/sim/sm/hazard_check.h),
# so a scheduling bug fails the test that runs the code rather than going unnoticed.
set(STRATA_TEST_ENVIRONMENT "STRATA_CHECK_HAZARDS=1")

# strata_test(NAME SOURCES ... DEPS ... [LABELS ...]): a GoogleTest binary registered
# with ctest, labelled "unit" plus LABELS (plus "tsan" for STRATA_TSAN_TESTS).
# Each test runs with a fresh JIT cache directory.
function(strata_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gtest_main Threads::Threads)
  add_test(NAME ${name} COMMAND ${name})
  set(labels unit ${ARG_LABELS})
  if(name IN_LIST STRATA_TSAN_TESTS)
    list(APPEND labels tsan)
  endif()
  set_tests_properties(${name} PROPERTIES
    ENVIRONMENT "STRATA_CACHE_DIR=${CMAKE_BINARY_DIR}/test-cache/${name};STRATA_ARCH_DIR=${STRATA_ARCH_DIR};${STRATA_TEST_ENVIRONMENT}"
    LABELS "${labels}")
endfunction()
