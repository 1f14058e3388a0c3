# cmake -DSTRATA=<strata CLI> -DPROGRAM=<virtual_clock> -P virtual_clock_determinism.cmake
# Runs the program with STRATA_HOST_TIME=none under STRATA_THREADS=1 and =2 and requires
# bit-identical "TIMES" lines: modeled times must not depend on host threads.
foreach(threads 1 2)
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env STRATA_HOST_TIME=none STRATA_THREADS=${threads}
            ${STRATA} run ${PROGRAM}
    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "STRATA_THREADS=${threads}: exit ${rc}\n${out}\n${err}")
  endif()
  string(REGEX MATCH "TIMES[^\n]*" times_${threads} "${out}")
  if(times_${threads} STREQUAL "")
    message(FATAL_ERROR "STRATA_THREADS=${threads}: no TIMES line\n${out}")
  endif()
  message(STATUS "STRATA_THREADS=${threads}: ${times_${threads}}")
endforeach()
if(NOT times_1 STREQUAL times_2)
  message(FATAL_ERROR "modeled times differ:\n  1 thread:  ${times_1}\n  2 threads: ${times_2}")
endif()
