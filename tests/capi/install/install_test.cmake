# cmake -P script: installs the build into a scratch prefix, then builds an ARMCI C program
# against the installed library three ways and runs each under mpiexec:
#   1. mpicc prog.c -I<prefix>/include/armada/armci -L<prefix>/lib -larmada_armci   (nothing else)
#   2. mpicc $(pkg-config --cflags --libs armada-armci)
#   3. CMake: find_package(Armada), target_link_libraries(... armada::armci)
# run(), pkg_flags(), build_against_prefix() and install_scratch() (prefix, libdir, launch;
# LD_LIBRARY_PATH set so the executables find libarmada_armci, which finds its own
# dependencies: libarmada_rma beside it, MPI).
include(${CMAKE_CURRENT_LIST_DIR}/../../consumer/install_common.cmake)
install_scratch()

# 1. Plain mpicc with one -l.
run(${MPICC} "${PROGRAM}" -I${prefix}/include/armada/armci -L${libdir} -larmada_armci -o "${WORK_DIR}/plain")
run(${launch} "${WORK_DIR}/plain")

# 2. pkg-config.
set(ENV{PKG_CONFIG_PATH} "${libdir}/pkgconfig")
pkg_flags(flags armada-armci)
run(${MPICC} "${PROGRAM}" ${flags} -o "${WORK_DIR}/pkgconfig")
run(${launch} "${WORK_DIR}/pkgconfig")

# 3. CMake package.
build_against_prefix("${SOURCE_DIR}" "${WORK_DIR}/build" -DMPI_C_COMPILER=${MPICC} -DPROGRAM=${PROGRAM})
run(${launch} "${WORK_DIR}/build/armci_consumer")
message("armci install test: linked with -larmada_armci alone, with pkg-config and with CMake; all ran")
