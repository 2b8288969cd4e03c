# The shm transport (same node). Included by rma/CMakeLists.txt.
target_sources(armada_rma PRIVATE ${CMAKE_CURRENT_LIST_DIR}/shm_transport.cpp)
