# Finds the dependencies of every Armada layer. Debian package names are in scripts/setup.sh.

# --- MPI ------------------------------------------------------------------------------------
# ARMADA_MPI picks the implementation when several are installed side by side (Debian installs
# mpicc.openmpi / mpicc.mpich and mpiexec.openmpi / mpiexec.mpich). Explicit MPI_*_COMPILER or
# MPIEXEC_EXECUTABLE settings always win.
set(ARMADA_MPI "openmpi" CACHE STRING "MPI implementation to build against: openmpi or mpich")
set_property(CACHE ARMADA_MPI PROPERTY STRINGS openmpi mpich)
if(NOT ARMADA_MPI MATCHES "^(openmpi|mpich)$")
  message(FATAL_ERROR "ARMADA_MPI='${ARMADA_MPI}': use openmpi or mpich")
endif()
# Sets cache variable <var> to program <name> when <var> is unset and the program exists (an
# explicit setting always wins): how Debian's per-MPI programs (mpicc.openmpi, h5pcc.mpich, ...)
# are chosen.
function(armada_default_program var name doc)
  if(NOT ${var})
    find_program(_armada_program NAMES ${name} NO_CACHE)
    if(_armada_program)
      set(${var} "${_armada_program}" CACHE FILEPATH "${doc}")
    endif()
  endif()
endfunction()
armada_default_program(MPI_C_COMPILER mpicc.${ARMADA_MPI} "MPI C wrapper")
armada_default_program(MPI_CXX_COMPILER mpicxx.${ARMADA_MPI} "MPI CXX wrapper")
armada_default_program(MPIEXEC_EXECUTABLE mpiexec.${ARMADA_MPI} "MPI launcher")
find_package(MPI 3.0 REQUIRED COMPONENTS C CXX)

# Which launcher we drive decides the flags tests need (Open MPI refuses root and
# oversubscription unless told; MPICH's Hydra needs neither).
execute_process(COMMAND "${MPIEXEC_EXECUTABLE}" --version
  OUTPUT_VARIABLE _mpiexec_version ERROR_VARIABLE _mpiexec_version TIMEOUT 20)
if(_mpiexec_version MATCHES "Open MPI|OpenRTE")
  set(ARMADA_MPI_VENDOR "openmpi")
elseif(_mpiexec_version MATCHES "HYDRA|MPICH")
  set(ARMADA_MPI_VENDOR "mpich")
else()
  set(ARMADA_MPI_VENDOR "unknown")
endif()
# The vendor's pkg-config packages for MPI's C and C++ parts (the Requires of Armada's .pc files).
set(ARMADA_MPI_PC_C "")
set(ARMADA_MPI_PC_CXX "")
if(ARMADA_MPI_VENDOR STREQUAL "openmpi")
  set(ARMADA_MPI_PC_C "ompi-c")
  set(ARMADA_MPI_PC_CXX "ompi-cxx")
elseif(ARMADA_MPI_VENDOR STREQUAL "mpich")
  set(ARMADA_MPI_PC_C "mpich")
  set(ARMADA_MPI_PC_CXX "mpich")
endif()

# --- BLAS / LAPACK / Eigen (used by linalg/ and apps/) -------------------------------------
set(BLA_VENDOR OpenBLAS)
find_package(BLAS REQUIRED)
find_package(LAPACK REQUIRED)
find_package(Eigen3 3.3 REQUIRED NO_MODULE)

# --- GoogleTest -------------------------------------------------------------------------------
if(ARMADA_BUILD_TESTS)
  find_package(GTest 1.10 REQUIRED)
endif()

# --- Threads, librt ---------------------------------------------------------------------------
find_package(Threads REQUIRED)

# --- Parallel HDF5 (optional): arrays' save/load/checkpoint (armada/arrays/io.hpp) ------------
# Debian installs one HDF5 per MPI side by side (libhdf5-openmpi-dev, libhdf5-mpich-dev): the
# one built on the MPI we use is found through its compiler wrapper (h5pcc.<vendor>) and its
# directories, and must be a parallel build (H5_HAVE_PARALLEL). Without it arrays' I/O
# functions throw rma::Unsupported.
set(ARMADA_WITH_HDF5 "AUTO" CACHE STRING "Build arrays' parallel HDF5 I/O: AUTO, ON or OFF")
set_property(CACHE ARMADA_WITH_HDF5 PROPERTY STRINGS AUTO ON OFF)
set(ARMADA_HAVE_HDF5 OFF)
if(NOT ARMADA_WITH_HDF5 STREQUAL "OFF")
  set(_armada_hdf5_flavor ${ARMADA_MPI_VENDOR})
  if(_armada_hdf5_flavor STREQUAL "unknown")
    set(_armada_hdf5_flavor ${ARMADA_MPI})
  endif()
  armada_default_program(HDF5_C_COMPILER_EXECUTABLE h5pcc.${_armada_hdf5_flavor} "HDF5 C compiler wrapper (parallel)")
  set(HDF5_PREFER_PARALLEL TRUE)
  find_package(HDF5 COMPONENTS C QUIET)
  set(_armada_hdf5_why "")
  if(NOT HDF5_FOUND)
    set(_armada_hdf5_why "no HDF5 found")
  elseif(NOT HDF5_IS_PARALLEL)
    set(_armada_hdf5_why "HDF5 at ${HDF5_INCLUDE_DIRS} is not a parallel build")
  else()
    # FindHDF5 trusts the wrapper; check the configuration header itself, and that it is the
    # build for our MPI (Debian's directories are named after it).
    find_file(_armada_h5pubconf H5pubconf.h PATHS ${HDF5_INCLUDE_DIRS} NO_DEFAULT_PATH NO_CACHE)
    if(_armada_h5pubconf)
      file(STRINGS "${_armada_h5pubconf}" _armada_h5_parallel REGEX "^#define H5_HAVE_PARALLEL 1")
    endif()
    if(NOT _armada_h5_parallel)
      set(_armada_hdf5_why "H5pubconf.h in ${HDF5_INCLUDE_DIRS} does not define H5_HAVE_PARALLEL")
    elseif(HDF5_INCLUDE_DIRS MATCHES "hdf5/(openmpi|mpich)" AND NOT CMAKE_MATCH_1 STREQUAL _armada_hdf5_flavor)
      set(_armada_hdf5_why "the parallel HDF5 found (${HDF5_INCLUDE_DIRS}) is built on ${CMAKE_MATCH_1}, not ${_armada_hdf5_flavor}")
    endif()
  endif()
  if(_armada_hdf5_why STREQUAL "")
    set(ARMADA_HAVE_HDF5 ON)
    if(NOT TARGET armada_hdf5)
      add_library(armada_hdf5 INTERFACE)
      target_include_directories(armada_hdf5 SYSTEM INTERFACE ${HDF5_INCLUDE_DIRS})
      target_compile_definitions(armada_hdf5 INTERFACE ${HDF5_DEFINITIONS})
      target_link_libraries(armada_hdf5 INTERFACE ${HDF5_C_LIBRARIES} MPI::MPI_C)
    endif()
    message(STATUS "Parallel HDF5 ${HDF5_VERSION} (${_armada_hdf5_flavor}): arrays' HDF5 I/O is built")
  elseif(ARMADA_WITH_HDF5 STREQUAL "ON")
    message(FATAL_ERROR "ARMADA_WITH_HDF5=ON but ${_armada_hdf5_why} "
                        "(Debian: libhdf5-${_armada_hdf5_flavor}-dev, see scripts/setup.sh)")
  else()
    message(STATUS "Parallel HDF5 not available (${_armada_hdf5_why}): arrays' save/load/checkpoint "
                   "will throw rma::Unsupported (Debian: libhdf5-${_armada_hdf5_flavor}-dev)")
  endif()
else()
  message(STATUS "ARMADA_WITH_HDF5=OFF: arrays' save/load/checkpoint will throw rma::Unsupported")
endif()

# --- libibverbs (the RDMA transport; optional) ------------------------------------------------
set(ARMADA_WITH_VERBS "AUTO" CACHE STRING "Build the libibverbs NIC backend: AUTO, ON or OFF")
set_property(CACHE ARMADA_WITH_VERBS PROPERTY STRINGS AUTO ON OFF)
set(ARMADA_HAVE_VERBS OFF)
if(NOT ARMADA_WITH_VERBS STREQUAL "OFF")
  find_path(IBVERBS_INCLUDE_DIR infiniband/verbs.h)
  find_library(IBVERBS_LIBRARY ibverbs)
  if(IBVERBS_INCLUDE_DIR AND IBVERBS_LIBRARY)
    set(ARMADA_HAVE_VERBS ON)
    if(NOT TARGET armada_ibverbs)
      add_library(armada_ibverbs INTERFACE)
      target_include_directories(armada_ibverbs INTERFACE "${IBVERBS_INCLUDE_DIR}")
      target_link_libraries(armada_ibverbs INTERFACE "${IBVERBS_LIBRARY}")
    endif()
  elseif(ARMADA_WITH_VERBS STREQUAL "ON")
    message(FATAL_ERROR "ARMADA_WITH_VERBS=ON but libibverbs was not found (Debian: libibverbs-dev)")
  endif()
endif()

# --- Debian's Global Arrays (optional): baselines and compatibility tests -------------------------
# libglobalarrays-dev ships a static libga per MPI; its ARMCI comes either from ARMCI-MPI
# (libarmci-mpi-dev: the baselines, target armada_ga_on_armci_mpi) or from Armada's own ARMCI
# library (the compatibility tests put ${ARMADA_GA_LIBRARY}, a static archive, on the link line
# right before armada::armci, then armada_ga_runtime). Both need ScaLAPACK for the same MPI,
# BLAS/LAPACK and the gfortran runtime GA was built with (armada_ga_runtime).
find_path(ARMADA_GA_INCLUDE_DIR ga.h)
find_library(ARMADA_GA_LIBRARY NAMES libga-${ARMADA_MPI}.a)
find_library(ARMADA_ARMCI_MPI_LIBRARY NAMES libarmci-${ARMADA_MPI}.a)
find_library(ARMADA_SCALAPACK_LIBRARY NAMES scalapack-${ARMADA_MPI})
find_library(ARMADA_GFORTRAN_LIBRARY NAMES gfortran libgfortran.so.5)
set(ARMADA_HAVE_GA OFF)
if(ARMADA_GA_INCLUDE_DIR AND ARMADA_GA_LIBRARY AND ARMADA_SCALAPACK_LIBRARY AND ARMADA_GFORTRAN_LIBRARY)
  set(ARMADA_HAVE_GA ON)
  add_library(armada_ga_without_armci INTERFACE)
  target_include_directories(armada_ga_without_armci SYSTEM INTERFACE ${ARMADA_GA_INCLUDE_DIR})
  target_link_libraries(armada_ga_without_armci INTERFACE ${ARMADA_GA_LIBRARY})
  # What libga needs after its ARMCI, in link order.
  add_library(armada_ga_runtime INTERFACE)
  target_link_libraries(armada_ga_runtime INTERFACE ${ARMADA_SCALAPACK_LIBRARY} LAPACK::LAPACK BLAS::BLAS
                        ${ARMADA_GFORTRAN_LIBRARY} MPI::MPI_C m)
endif()
set(ARMADA_HAVE_GA_ON_ARMCI_MPI OFF)
if(ARMADA_HAVE_GA AND ARMADA_ARMCI_MPI_LIBRARY)
  set(ARMADA_HAVE_GA_ON_ARMCI_MPI ON)
  # GA's ARMCI symbols are C ARMCI_* from libarmci-<mpi>.a; armada::rma is C++-namespaced, and
  # armada's own ARMCI library must NOT be linked beside this target, so the two never meet.
  add_library(armada_ga_on_armci_mpi INTERFACE)
  target_link_libraries(armada_ga_on_armci_mpi INTERFACE armada_ga_without_armci ${ARMADA_ARMCI_MPI_LIBRARY}
                        armada_ga_runtime)
endif()
