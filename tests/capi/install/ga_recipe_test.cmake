# cmake -P script: the recipe of docs/armci.md "Running an existing Global Arrays program",
# command for command. Installs the build into a scratch prefix, then builds a GA C program and
# a GA Fortran program against Debian's static libga and the installed libarmada_armci, and runs
# each with 2 ranks on one node and on two virtual nodes (ARMADA_NODE_SIZE=1; the Fortran
# program starts MPI with a plain mpi_init).
include(${CMAKE_CURRENT_LIST_DIR}/../../consumer/install_common.cmake)
install_scratch()
set(ga_libs -lga-${MPI_FLAVOUR} -L${libdir} -larmada_armci -lscalapack-${MPI_FLAVOUR} -llapack -lblas)

run(${MPICC} "${C_PROGRAM}" -o "${WORK_DIR}/ga_c" ${ga_libs} -lgfortran -lm)
run(${MPIFORT} -fdefault-integer-8 "${FORTRAN_PROGRAM}" -o "${WORK_DIR}/ga_fortran" ${ga_libs} -lm)
foreach(program ga_c ga_fortran)
  set(ENV{ARMADA_NODE_SIZE} 0)
  run(${launch} "${WORK_DIR}/${program}")
  set(ENV{ARMADA_NODE_SIZE} 1)
  run(${launch} "${WORK_DIR}/${program}")
endforeach()
message("GA recipe test: a GA C and a GA Fortran program built with the documented commands; all ran")
