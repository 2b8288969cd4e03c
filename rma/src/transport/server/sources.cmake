# The server transport (a helper thread per node, MPI two-sided). Included by rma/CMakeLists.txt.
target_sources(armada_rma PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/direct.cpp
  ${CMAKE_CURRENT_LIST_DIR}/init.cpp
  ${CMAKE_CURRENT_LIST_DIR}/node_server.cpp
  ${CMAKE_CURRENT_LIST_DIR}/server_transport.cpp)
