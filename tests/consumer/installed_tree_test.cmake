# cmake -P script: installs the build into a scratch prefix and checks what a user of the
# installed tree meets:
#   1. the layout: ARMCI's headers (message.h) under include/armada/armci, none at the top level;
#      docs, examples and every pkg-config file present;
#   2. a C-only CMake project (no C++ enabled) with find_package(Armada): the arrays and linalg C
#      APIs and ARMCI; a Fortran-only project (module armada);
#   3. pkg-config, one program per API with the plain compilers (MPI's flags come through the
#      .pc files' Requires): rma, arrays and linalg in C++, arrays, linalg, ARMCI and GA in C,
#      the Fortran module; GA's C API also with bin/armada-ga-config (GA's ga-config);
#   4. the installed examples built on their own against the installed package.
# (consumer_test.cmake builds the C++ find_package project.) Every program is run under mpiexec
# with 2 ranks and checks its own result, without LD_LIBRARY_PATH: the programs find Armada's
# libraries through their rpath, as a user's first build must.
include(${CMAKE_CURRENT_LIST_DIR}/install_common.cmake)
cmake_policy(SET CMP0007 NEW)  # lists keep empty elements (an empty extra-flags field)

function(require_file path)
  if(NOT EXISTS "${path}")
    message(FATAL_ERROR "installed tree test: ${path} is missing")
  endif()
endfunction()

install_scratch()
unset(ENV{LD_LIBRARY_PATH})

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
set(pcs armada-rma armada-arrays armada-linalg armada-armci armada-ga)
if(FC)
  list(APPEND pcs armada-fortran armada-ga-fortran armada-ga-fortran-i8)
endif()
foreach(pc ${pcs})
  require_file("${libdir}/pkgconfig/${pc}.pc")
endforeach()
foreach(header ga.h ga-mpi.h gacommon.h macdecls.h global.fh mafdecls.fh ga-mpi.fh)  # GA's names, in their own folder
  require_file("${prefix}/include/armada/ga/${header}")
endforeach()
require_file("${prefix}/bin/armada-ga-config")
require_file("${doc}/examples/ga_example.c")
require_file("${doc}/examples/ga_fortran.F90")

# 2. C-only and Fortran-only CMake projects.
build_against_prefix("${SOURCE_DIR}/c_project" "${WORK_DIR}/c_build" -DMPI_C_COMPILER=${MPICC})
foreach(program arrays_program linalg_program armci_program)
  run(${launch} "${WORK_DIR}/c_build/${program}")
endforeach()
if(FC)
  build_against_prefix("${SOURCE_DIR}/fortran_project" "${WORK_DIR}/fortran_build" -DCMAKE_Fortran_COMPILER=${FC}
                       -DPROGRAM=${doc}/examples/heat.f90)
  run(${launch} "${WORK_DIR}/fortran_build/fortran_program")
endif()

# 3. pkg-config: <pc module>|<compiler>|<source>|<extra flags> per API.
set(ENV{PKG_CONFIG_PATH} "${libdir}/pkgconfig")
set(pkg_config_builds
  "armada-rma|${CXX},-std=c++20|${SOURCE_DIR}/project/consumer.cpp|"
  "armada-arrays|${CXX},-std=c++20|${doc}/examples/scatter_gather.cpp|"
  "armada-linalg|${CXX},-std=c++20|${SOURCE_DIR}/project/linalg_program.cpp|"
  "armada-arrays|${CC}|${SOURCE_DIR}/c_project/arrays_program.c|"
  "armada-linalg|${CC}|${SOURCE_DIR}/c_project/linalg_program.c|-lm"
  "armada-armci|${CC}|${SOURCE_DIR}/c_project/armci_program.c|"
  "armada-ga|${CC}|${doc}/examples/ga_example.c|-lm")
if(FC)
  list(APPEND pkg_config_builds "armada-fortran|${FC}|${doc}/examples/heat.f90|")
endif()
set(n 0)
foreach(build IN LISTS pkg_config_builds)
  string(REPLACE "|" ";" build "${build}")
  list(GET build 0 pc)
  list(GET build 1 compiler)
  list(GET build 2 source)
  list(GET build 3 extra)
  string(REPLACE "," ";" compiler "${compiler}")
  pkg_flags(flags ${pc})
  math(EXPR n "${n} + 1")
  set(program "${WORK_DIR}/pc_${n}_${pc}")
  run(${compiler} ${source} ${flags} ${extra} -o "${program}")
  run(${launch} "${program}")
endforeach()
run("${prefix}/bin/armada-ga-config" --cflags)
string(STRIP "${run_output}" ga_cflags)
separate_arguments(ga_cflags UNIX_COMMAND "${ga_cflags}")
run("${prefix}/bin/armada-ga-config" --libs)
string(STRIP "${run_output}" ga_libs)
separate_arguments(ga_libs UNIX_COMMAND "${ga_libs}")
run(${MPICC} ${ga_cflags} "${doc}/examples/ga_example.c" -o "${WORK_DIR}/config_ga" ${ga_libs} -lm)
run(${launch} "${WORK_DIR}/config_ga")

# GA's installation layouts (ga/compat): bin/ga-config, include/, lib/libga and lib/libarmci, as
# NWChem's EXTERNAL_GA_PATH build and Debian's GA users read them (tests/ga/check_ga_layout.sh).
foreach(layout "ga|8" "ga-i4|4")
  string(REPLACE "|" ";" layout "${layout}")
  list(GET layout 0 name)
  list(GET layout 1 bytes)
  set(mpifort "")
  if(FC)
    run("${libdir}/armada/${name}/bin/ga-config" --f77)
    string(STRIP "${run_output}" mpifort)
  endif()
  run(sh "${SOURCE_DIR}/../ga/check_ga_layout.sh" "${libdir}/armada/${name}" ${bytes} ${MPICC} "${mpifort}" "${doc}")
endforeach()

# 4. The installed examples, standalone.
build_against_prefix("${doc}/examples" "${WORK_DIR}/examples_build")
run(${launch} "${WORK_DIR}/examples_build/example_stencil_c")
run(${launch} "${WORK_DIR}/examples_build/example_matmul")
run(${launch} "${WORK_DIR}/examples_build/example_ga_c")
if(FC)
  run(${launch} "${WORK_DIR}/examples_build/example_heat_f")
endif()
message("installed tree test: layout, C-only and Fortran-only find_package, pkg-config for every API, armada-ga-config, GA's installation layouts and the installed examples all passed")
