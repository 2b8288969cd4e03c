# The mpi-rma transport's row of the transports' table (cmake/ArmadaTransports.cmake): MPI-3
# one-sided windows.
armada_transport(mpi-rma ORDER 30 ENTRY kMpiRmaTransport LABEL mpirma
  SOURCES datatypes.cpp init.cpp leftovers.cpp mpi_rma_mutex.cpp mpi_rma_transport.cpp strided.cpp vector.cpp
          windows.cpp
  CAPABILITIES crosses_hosts one_sided_atomics exclusive_atomics mpi_data_path mpi_windows any_thread_level)

# Its one-sided components (docs/mpi-quirks.md). ARMADA_MPI_RMA_ENV is what rma::init selects
# when it starts MPI itself (Open MPI: osc sm for windows inside one host, osc ucx for the rest);
# ARMADA_MPI_RMA_UCX_ENV forces the inter-node component (osc ucx) on every window, so one machine
# also runs the path clusters take. Other MPIs: their default.
set(ARMADA_MPI_RMA_ENV "")
set(ARMADA_MPI_RMA_UCX_ENV "")
if(ARMADA_MPI_VENDOR STREQUAL "openmpi")
  if(ARMADA_SANITIZE MATCHES "thread")
    # Under ThreadSanitizer, loading osc ucx crashes every process when a thread exits: glibc
    # releases the stack through Open MPI's memory hooks into libucm, whose rwlock TSan
    # intercepts after it tore the thread's state down. osc sm alone still runs the transport's
    # own threading (progress thread, pending table, mutex slots) on MPI_Win_allocate windows;
    # the variants that need osc ucx (Win_create windows, osc ucx everywhere) are left out.
    set(ARMADA_MPI_RMA_ENV OMPI_MCA_osc=sm)
    set(ARMADA_MPI_RMA_NEEDS_UCX_SKIPPED ON)
  else()
    # UCX_USE_MT_MUTEX=y: what rma::init sets with osc (rma/src/transport/mpi_rma/init.cpp).
    set(ARMADA_MPI_RMA_ENV OMPI_MCA_osc=sm,ucx UCX_USE_MT_MUTEX=y)
    set(ARMADA_MPI_RMA_UCX_ENV OMPI_MCA_osc=ucx UCX_USE_MT_MUTEX=y)
  endif()
endif()
# As rma::init selects it; osc ucx on every window (the inter-node component); segment memory from
# node shared memory exposed with MPI_Win_create (needs osc ucx).
armada_transport_config(mpirma.vnode1 RANKS 2 4 NODE_SIZE 1 ENV ${ARMADA_MPI_RMA_ENV} LAYER)
armada_transport_config(mpirma.vnode2 RANKS 4 NODE_SIZE 2 ENV ${ARMADA_MPI_RMA_ENV} LAYER)
if(ARMADA_MPI_RMA_UCX_ENV)
  armada_transport_config(mpirma-ucx.vnode1 RANKS 2 4 NODE_SIZE 1 ENV ${ARMADA_MPI_RMA_UCX_ENV} CAPABILITIES variant)
endif()
if(NOT ARMADA_MPI_RMA_NEEDS_UCX_SKIPPED)
  armada_transport_config(mpirma-shm.vnode1 RANKS 2 NODE_SIZE 1 ENV ARMADA_MPI_MEMORY=shm ${ARMADA_MPI_RMA_ENV}
    CAPABILITIES variant)
  armada_transport_config(mpirma-shm.vnode2 RANKS 4 NODE_SIZE 2 ENV ARMADA_MPI_MEMORY=shm ${ARMADA_MPI_RMA_ENV}
    CAPABILITIES variant)
endif()

# On the emulated cluster: OMPI_MCA_osc=sm,ucx and UCX_USE_MT_MUTEX=y, which a program that starts
# MPI itself must set: Open MPI's default osc rdma cannot make windows over TCP (the clear error
# without it is its own case: mpi-rma-without-osc-ucx, tests/cluster/CMakeLists.txt) and UCX's
# default spin lock stalls threads that share cores (mpi-rma-spin-lock: only for the warning's
# case; docs/mpi-quirks.md).
armada_transport_cluster(mpi-rma DEFAULT ENV OMPI_MCA_osc=sm,ucx UCX_USE_MT_MUTEX=y)
armada_transport_cluster(mpi-rma-without-osc-ucx)
armada_transport_cluster(mpi-rma-spin-lock ENV OMPI_MCA_osc=sm,ucx)
