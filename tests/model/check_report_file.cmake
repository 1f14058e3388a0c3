# `strata run --report-file F`: the report goes to F (not to stderr), names the kernels
# with their launch counts, and the program's exit status is kept.
# cmake -DSTRATA=... -DPROGRAM=... -DREPORT=... -P check_report_file.cmake
file(REMOVE ${REPORT})
execute_process(COMMAND ${STRATA} run --report-file ${REPORT} ${PROGRAM}
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "exit status ${status}\n${out}\n${err}")
endif()
if(err MATCHES "strata run --report")
  message(FATAL_ERROR "the report went to stderr:\n${err}")
endif()
file(READ ${REPORT} report)
foreach(line "void demo::scale<float>\\(float\\*, float, int\\) +3 " "add_one\\(int\\*, int\\) +5 ")
  if(NOT report MATCHES "${line}")
    message(FATAL_ERROR "the report lacks '${line}':\n${report}")
  endif()
endforeach()
