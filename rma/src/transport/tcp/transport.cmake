# The tcp transport's row of the transports' table (cmake/ArmadaTransports.cmake): the
# transport's own TCP connections between nodes (no MPI on the data path), a service thread per
# process asleep in epoll. auto's choice where rdma does not suit and no host has a fabric device.
armada_transport(tcp ORDER 50 ENTRY kTcpTransport
  SOURCES fabric.cpp init.cpp link.cpp service.cpp sockets.cpp tcp_transport.cpp
  CAPABILITIES crosses_hosts helper_thread any_thread_level stall_warning)
armada_transport_config(tcp.vnode1 RANKS 2 4 NODE_SIZE 1)
armada_transport_config(tcp.vnode2 RANKS 4 NODE_SIZE 2)
# Between hosts: the hosts' veth addresses.
armada_transport_cluster(tcp DEFAULT)
