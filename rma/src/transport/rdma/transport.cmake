# The rdma transport's row of the transports' table (cmake/ArmadaTransports.cmake): UCX's UCP,
# built only where UCX is found (Debian: libucx-dev).
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(ARMADA_UCX QUIET IMPORTED_TARGET GLOBAL ucx)
endif()
set(_rdma_unavailable "")
set(ARMADA_HAVE_RDMA ON)  # its own tests and bench/'s raw UCX baseline ask
if(ARMADA_UCX_FOUND)
  message(STATUS "Armada: UCX ${ARMADA_UCX_VERSION} found: the rdma transport (ARMADA_TRANSPORT=rdma) is built")
else()
  set(_rdma_unavailable "UCX not found (pkg-config ucx), install libucx-dev")
  set(ARMADA_HAVE_RDMA OFF)
endif()
armada_transport(rdma ORDER 40 ENTRY kRdmaTransport UNAVAILABLE "${_rdma_unavailable}"
  SOURCES init.cpp rdma_transport.cpp service.cpp ucx.cpp
  LIBRARIES $<BUILD_INTERFACE:PkgConfig::ARMADA_UCX>
  CAPABILITIES crosses_hosts helper_thread exclusive_atomics any_thread_level stall_warning)
# UCX over shared memory and CMA (sm,self): long transfers by CMA, short RMA and atomics on
# segment memory UCX emulates over shared memory; UCX over TCP (tcp,self): the between-hosts path,
# emulated in software (both: the request service progresses the worker; docs/rma.md). Set for
# Armada's UCX context only (ARMADA_UCX_TLS): the MPI library's own UCX keeps its defaults (MPICH
# 4.0 with UCX 1.13 over TCP hangs in MPI_Finalize at 4 ranks on its own, openucx/ucx#8738).
armada_transport_config(rdma.vnode1 RANKS 2 4 NODE_SIZE 1 ENV ARMADA_UCX_TLS=sm,self CAPABILITIES one_sided_atomics LAYER)
armada_transport_config(rdma.vnode2 RANKS 4 NODE_SIZE 2 ENV ARMADA_UCX_TLS=sm,self CAPABILITIES one_sided_atomics)
armada_transport_config(rdma-tcp.vnode1 RANKS 2 4 NODE_SIZE 1 ENV ARMADA_UCX_TLS=tcp,self CAPABILITIES variant)
armada_transport_config(rdma-tcp.vnode2 RANKS 4 NODE_SIZE 2 ENV ARMADA_UCX_TLS=tcp,self CAPABILITIES variant)
# Between hosts: UCX over TCP, the path clusters without RDMA NICs take.
armada_transport_cluster(rdma DEFAULT ENV UCX_TLS=tcp,self)
