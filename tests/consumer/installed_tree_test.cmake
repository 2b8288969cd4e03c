# cmake -P script: installs the build into a scratch prefix and checks what a user of the
# installed tree meets:
#   1. the layout: ARMCI's headers (message.h) under include/armada/armci, none at the top level;
#      docs, examples and every pkg-config file present;
#   2. a C-only CMake project (no C++ enabled) with find_package(Armada): arrays C API and ARMCI;
#   3. pkg-config: mpicc with armada-arrays and with armada-armci, mpicxx with armada-arrays;
#      GA's C API with pkg-config armada-ga and with bin/armada-ga-config (GA's ga-config);
#   4. the installed examples built on their own against the installed package.
# Every program is run under mpiexec with 2 ranks and checks its own result.
include(${CMAKE_CURRENT_LIST_DIR}/install_common.cmake)

function(require_file path)
  if(NOT EXISTS "${path}")
    message(FATAL_ERROR "installed tree test: ${path} is missing")
  endif()
endfunction()
function(pkg_flags out)
  run(${PKG_CONFIG} --cflags --libs ${ARGN})
  string(STRIP "${run_output}" flags)
  separate_arguments(flags UNIX_COMMAND "${flags}")
  set(${out} ${flags} PARENT_SCOPE)
endfunction()

install_scratch()

# 1. Layout.
foreach(header message.h armci.h armcix.h)
  if(EXISTS "${prefix}/include/${header}")
    message(FATAL_ERROR "installed tree test: ${header} is in the top-level include folder")
  endif()
  require_file("${prefix}/include/armada/armci/${header}")
endforeach()
set(doc "${prefix}/share/doc/armada")
foreach(file README.md docs/arrays.md docs/armci.md docs/building.md examples/CMakeLists.txt
             examples/stencil.c examples/matmul.cpp)
  require_file("${doc}/${file}")
endforeach()
foreach(pc armada-rma armada-arrays armada-armci armada-ga armada-ga-fortran armada-ga-fortran-i8)
  require_file("${libdir}/pkgconfig/${pc}.pc")
endforeach()
foreach(header ga.h ga-mpi.h gacommon.h macdecls.h global.fh mafdecls.fh ga-mpi.fh)  # GA's names, in their own folder
  require_file("${prefix}/include/armada/ga/${header}")
endforeach()
require_file("${prefix}/bin/armada-ga-config")
require_file("${doc}/examples/ga_example.c")
require_file("${doc}/examples/ga_fortran.F90")

# 2. C-only CMake project.
run(${CMAKE_COMMAND} -S "${SOURCE_DIR}/c_project" -B "${WORK_DIR}/c_build" -G "${GENERATOR}"
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=${CONFIG} -DMPI_C_COMPILER=${MPICC})
run(${CMAKE_COMMAND} --build "${WORK_DIR}/c_build")
run(${launch} "${WORK_DIR}/c_build/arrays_program")
run(${launch} "${WORK_DIR}/c_build/armci_program")

# 3. pkg-config.
set(ENV{PKG_CONFIG_PATH} "${libdir}/pkgconfig")
pkg_flags(arrays_flags armada-arrays)
run(${MPICC} "${SOURCE_DIR}/c_project/arrays_program.c" ${arrays_flags} -o "${WORK_DIR}/pc_arrays_c")
run(${launch} "${WORK_DIR}/pc_arrays_c")
run(${MPICXX} -std=c++20 "${doc}/examples/scatter_gather.cpp" ${arrays_flags} -o "${WORK_DIR}/pc_arrays_cxx")
run(${launch} "${WORK_DIR}/pc_arrays_cxx")
pkg_flags(armci_flags armada-armci)
run(${MPICC} "${SOURCE_DIR}/c_project/armci_program.c" ${armci_flags} -o "${WORK_DIR}/pc_armci")
run(${launch} "${WORK_DIR}/pc_armci")
pkg_flags(ga_flags armada-ga)
run(${MPICC} "${doc}/examples/ga_example.c" ${ga_flags} -lm -o "${WORK_DIR}/pc_ga")
run(${launch} "${WORK_DIR}/pc_ga")
run("${prefix}/bin/armada-ga-config" --cflags)
string(STRIP "${run_output}" ga_cflags)
separate_arguments(ga_cflags UNIX_COMMAND "${ga_cflags}")
run("${prefix}/bin/armada-ga-config" --libs)
string(STRIP "${run_output}" ga_libs)
separate_arguments(ga_libs UNIX_COMMAND "${ga_libs}")
run(${MPICC} ${ga_cflags} "${doc}/examples/ga_example.c" -o "${WORK_DIR}/config_ga" ${ga_libs} -lm)
run(${launch} "${WORK_DIR}/config_ga")

# 4. The installed examples, standalone.
run(${CMAKE_COMMAND} -S "${doc}/examples" -B "${WORK_DIR}/examples_build" -G "${GENERATOR}"
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=${CONFIG})
run(${CMAKE_COMMAND} --build "${WORK_DIR}/examples_build")
run(${launch} "${WORK_DIR}/examples_build/example_stencil_c")
run(${launch} "${WORK_DIR}/examples_build/example_matmul")
run(${launch} "${WORK_DIR}/examples_build/example_ga_c")
message("installed tree test: layout, C-only find_package, pkg-config (C, C++, ARMCI, GA), armada-ga-config and the installed examples all passed")
