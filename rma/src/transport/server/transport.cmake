# The server transport's row of the transports' table (cmake/ArmadaTransports.cmake): a helper
# thread per node executes other nodes' requests (MPI two-sided). Configurations: 1 or 2 ranks per
# virtual node with direct delivery; cooperative clustering (g = 2); every byte as MPI messages
# (the path between hosts).
armada_transport(server ORDER 20 ENTRY kServerTransport
  SOURCES direct.cpp init.cpp node_server.cpp server_transport.cpp
  CAPABILITIES crosses_hosts helper_thread mpi_data_path stall_warning)
armada_transport_config(server.vnode1 RANKS 2 4 NODE_SIZE 1 ENV ARMADA_SERVER_DIRECT=on LAYER QUICK)
armada_transport_config(server.vnode2 RANKS 4 NODE_SIZE 2 ENV ARMADA_SERVER_DIRECT=on LAYER)
armada_transport_config(server.cluster2 RANKS 4 NODE_SIZE 1 ENV ARMADA_SERVER_CLUSTER=2 ARMADA_SERVER_DIRECT=on
  CAPABILITIES variant)
armada_transport_config(server-msg.vnode1 RANKS 2 4 NODE_SIZE 1 ENV ARMADA_SERVER_DIRECT=off LAYER CAPABILITIES variant)
# Between hosts the data goes as MPI messages over the TCP BTL.
armada_transport_cluster(server DEFAULT)
