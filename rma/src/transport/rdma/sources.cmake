# The rdma transport (UCX's UCP), built only where UCX is found (Debian: libucx-dev).
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(ARMADA_UCX IMPORTED_TARGET GLOBAL ucx)
endif()
if(ARMADA_UCX_FOUND)
  message(STATUS "Armada: UCX ${ARMADA_UCX_VERSION} found: the rdma transport (ARMADA_TRANSPORT=rdma) is built")
  target_sources(armada_rma PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/init.cpp
    ${CMAKE_CURRENT_LIST_DIR}/rdma_transport.cpp
    ${CMAKE_CURRENT_LIST_DIR}/service.cpp
    ${CMAKE_CURRENT_LIST_DIR}/ucx.cpp)
  target_link_libraries(armada_rma PRIVATE $<BUILD_INTERFACE:PkgConfig::ARMADA_UCX>)
  target_compile_definitions(armada_rma PRIVATE ARMADA_HAVE_RDMA=1)
  set(ARMADA_HAVE_RDMA ON CACHE INTERNAL "the rdma transport is built")
else()
  message(STATUS "Armada: UCX not found (pkg-config ucx): no rdma transport (install libucx-dev)")
  set(ARMADA_HAVE_RDMA OFF CACHE INTERNAL "the rdma transport is built")
endif()
