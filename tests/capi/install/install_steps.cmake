# Shared by the cmake -P scripts that test an installed tree (install_test, ga_recipe_test).

# Runs a command, echoes its output, stops the test if it fails; leaves the output in run_output.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  message("${out}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${CMAKE_CURRENT_LIST_FILE}: '${ARGN}' failed (${rc})")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

# Installs BUILD_DIR into WORK_DIR/prefix (WORK_DIR emptied first); sets prefix, libdir, and launch
# (the LAUNCH list, '|'-separated) and points the loader at libdir.
macro(install_build)
  file(REMOVE_RECURSE "${WORK_DIR}")
  set(prefix "${WORK_DIR}/prefix")
  run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}" --config "${CONFIG}")
  file(GLOB libdir LIST_DIRECTORIES true "${prefix}/lib*")
  list(GET libdir 0 libdir)
  string(REPLACE "|" ";" launch "${LAUNCH}")
  set(ENV{LD_LIBRARY_PATH} "${libdir}")
endmacro()
