# The mpi-rma transport (MPI-3 one-sided windows). Included by rma/CMakeLists.txt.
target_sources(armada_rma PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/datatypes.cpp
  ${CMAKE_CURRENT_LIST_DIR}/init.cpp
  ${CMAKE_CURRENT_LIST_DIR}/leftovers.cpp
  ${CMAKE_CURRENT_LIST_DIR}/mpi_rma_mutex.cpp
  ${CMAKE_CURRENT_LIST_DIR}/mpi_rma_transport.cpp
  ${CMAKE_CURRENT_LIST_DIR}/strided.cpp
  ${CMAKE_CURRENT_LIST_DIR}/vector.cpp
  ${CMAKE_CURRENT_LIST_DIR}/windows.cpp)
