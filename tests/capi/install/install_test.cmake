# cmake -P script: installs the build into a scratch prefix, then builds an ARMCI C program
# against the installed library three ways and runs each under mpiexec:
#   1. mpicc prog.c -I<prefix>/include -L<prefix>/lib -larmada_armci   (nothing else)
#   2. mpicc $(pkg-config --cflags --libs armada-armci)
#   3. CMake: find_package(Armada), target_link_libraries(... armada::armci)
include(${CMAKE_CURRENT_LIST_DIR}/install_steps.cmake)
# The executables find libarmada_armci through the loader path; the library finds its own
# dependencies (libarmada_rma beside it, MPI) by itself.
install_build()

# 1. Plain mpicc with one -l.
run(${MPICC} "${PROGRAM}" -I${prefix}/include -L${libdir} -larmada_armci -o "${WORK_DIR}/plain")
run(${launch} "${WORK_DIR}/plain")

# 2. pkg-config.
set(ENV{PKG_CONFIG_PATH} "${libdir}/pkgconfig")
run(${PKG_CONFIG} --cflags --libs armada-armci)
string(STRIP "${run_output}" flags)
separate_arguments(flags UNIX_COMMAND "${flags}")
run(${MPICC} "${PROGRAM}" ${flags} -o "${WORK_DIR}/pkgconfig")
run(${launch} "${WORK_DIR}/pkgconfig")

# 3. CMake package.
run(${CMAKE_COMMAND} -S "${SOURCE_DIR}" -B "${WORK_DIR}/build" -G "${GENERATOR}"
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=${CONFIG} -DMPI_C_COMPILER=${MPICC} -DPROGRAM=${PROGRAM})
run(${CMAKE_COMMAND} --build "${WORK_DIR}/build")
run(${launch} "${WORK_DIR}/build/armci_consumer")
message("armci install test: linked with -larmada_armci alone, with pkg-config and with CMake; all ran")
