# The toy transport's row of the transports' table (cmake/ArmadaTransports.cmake), for
# tests/rma/toy_transport/check.sh. Its one configuration: one rank per virtual node, every byte
# as messages. The conformance programs run in it but for test_transport_info, which checks each
# known transport's own facts (a transport that joins the tree adds its branch there).
armada_transport(toy ORDER 35 ENTRY kToyTransport SOURCES toy_transport.cpp
  CAPABILITIES crosses_hosts helper_thread mpi_data_path)
armada_transport_config(toy.vnode1 RANKS 2 NODE_SIZE 1 ENV ARMADA_SERVER_DIRECT=off GTEST_FILTER=-TransportInfo.*)
