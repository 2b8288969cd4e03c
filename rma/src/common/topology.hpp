// Which ranks share a node: the map the router and the transports read.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace armada::rma::detail {

struct Topology {
  std::vector<int> node_of;               // per world rank
  std::vector<int> host_of;               // per world rank: its physical node (lowest world rank there)
  std::vector<std::vector<int>> members;  // per node, ascending world ranks
  // Per physical host, once (not per rank: docs/scaling.md): (its lowest world rank, its
  // MPI_Get_processor_name), ascending. Messages name hosts with it.
  std::vector<std::pair<int, std::string>> host_names;

  /// The name of world rank `rank`'s host.
  const std::string& host_name(int rank) const {
    const int host = host_of[static_cast<std::size_t>(rank)];
    return std::lower_bound(host_names.begin(), host_names.end(), host,
                            [](const std::pair<int, std::string>& h, int v) { return h.first < v; })
        ->second;
  }

  bool same_node(int a, int b) const {
    return node_of[static_cast<std::size_t>(a)] == node_of[static_cast<std::size_t>(b)];
  }
};

}  // namespace armada::rma::detail
