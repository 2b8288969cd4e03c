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

# pkg_flags(<out> <module...>): pkg-config's --cflags --libs of the modules (the caller sets
# PKG_CONFIG_PATH), as a list for a compiler's command line.
function(pkg_flags out)
  run(${PKG_CONFIG} --cflags --libs ${ARGN})
  string(STRIP "${run_output}" flags)
  separate_arguments(flags UNIX_COMMAND "${flags}")
  set(${out} ${flags} PARENT_SCOPE)
endfunction()

# build_against_prefix(<source dir> <build dir> [-D...]): configures the CMake project in source
# dir against the scratch prefix (find_package(Armada) finds the installed tree) and builds it.
function(build_against_prefix source binary)
  run(${CMAKE_COMMAND} -S "${source}" -B "${binary}" -G "${GENERATOR}" -DCMAKE_PREFIX_PATH=${prefix}
      -DCMAKE_BUILD_TYPE=${CONFIG} ${ARGN})
  run(${CMAKE_COMMAND} --build "${binary}")
endfunction()
