# What the installed-tree scripts share (include()d by cmake -P scripts): run a command and stop
# on failure, and install the build into a fresh scratch prefix.

# run(<command...>): prints its output, fails the test on a nonzero exit; run_output holds the
# output afterwards.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  message("${out}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "installed tree test: '${ARGN}' failed (${rc})")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

# install_scratch(): empties WORK_DIR, installs BUILD_DIR into WORK_DIR/prefix; sets prefix, libdir
# (LD_LIBRARY_PATH points there) and launch (LAUNCH's "|"-separated mpiexec command).
macro(install_scratch)
  file(REMOVE_RECURSE "${WORK_DIR}")
  set(prefix "${WORK_DIR}/prefix")
  run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}" --config "${CONFIG}")
  file(GLOB libdir LIST_DIRECTORIES true "${prefix}/lib*")
  list(GET libdir 0 libdir)
  string(REPLACE "|" ";" launch "${LAUNCH}")
  set(ENV{LD_LIBRARY_PATH} "${libdir}")
endmacro()
