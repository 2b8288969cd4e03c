# The shm transport's row of the transports' table (cmake/ArmadaTransports.cmake): on-node
# targets through shared memory. Its configuration is the default one: one node, 1, 2 and 4 ranks.
armada_transport(shm ORDER 10 ENTRY kShmTransport HOT_SOURCES shm_transport.cpp
  CAPABILITIES node_memory one_sided_atomics any_thread_level)
armada_transport_config(shm RANKS 1 2 4 LAYER QUICK)
