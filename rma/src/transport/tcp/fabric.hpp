// Whether a host has a network faster than its TCP stack, for ARMADA_TRANSPORT=auto: the tcp
// transport suits as the default only where the hosts have no fabric device, so that MPI itself
// runs over TCP too. With one (InfiniBand, RoCE, Omni-Path, EFA: /sys/class/infiniband; HPE
// Slingshot: /sys/class/cxi), rdma reaches it through UCX, or the server through MPI's own path.
#pragma once

#include <string>
#include <vector>

namespace armada::rma::detail::tcp {

/// The fabric devices under `sysfs_class` (normally /sys/class), as "infiniband/mlx5_0", sorted;
/// empty when there is none (or no such folder).
std::vector<std::string> fabric_devices(const std::string& sysfs_class);

}  // namespace armada::rma::detail::tcp
