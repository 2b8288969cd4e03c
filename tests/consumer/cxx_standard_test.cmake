# cmake -P script: compiles SOURCE with CXX -std=c++17 against INCLUDES ("|"-separated) and checks
# that the compilation fails, that its first error is Armada's "needs C++20" message and that
# nothing but the stop that follows it (one more line saying "error") is reported.
string(REPLACE "|" ";" includes "${INCLUDES}")
list(TRANSFORM includes PREPEND "-I")
execute_process(COMMAND ${CXX} -std=c++17 -fsyntax-only ${includes} ${SOURCE}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(rc EQUAL 0)
  message(FATAL_ERROR "cxx standard test: compiling with -std=c++17 succeeded")
endif()
string(REPLACE ";" "," text "${out}")  # one list entry per line
string(REGEX MATCHALL "[^\n]*error[^\n]*" error_lines "${text}")
list(FILTER error_lines EXCLUDE REGEX "^ *[0-9]* \\|")  # the compiler's quoted source lines
list(LENGTH error_lines count)
list(GET error_lines 0 first)
if(NOT first MATCHES "needs C\\+\\+20: compile with -std=c\\+\\+20")
  message(FATAL_ERROR "cxx standard test: the first error is not Armada's C++20 message: ${first}")
endif()
if(count GREATER 2)
  message(FATAL_ERROR "cxx standard test: ${count} error lines, expected the C++20 message and the stop")
endif()
message("cxx standard test: one clear error first (${count} error lines in all)")
