// Which ranks share a node: the map the router and the transports read.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace armada::rma::detail {

struct Topology {
  std::vector<int> node_of;               // per world rank
  std::vector<int> host_of;               // per world rank: its physical node (lowest world rank there)
  std::vector<std::vector<int>> members;  // per node, ascending world ranks
  std::vector<std::string> host_name;     // per world rank: MPI_Get_processor_name (messages name hosts)

  bool same_node(int a, int b) const {
    return node_of[static_cast<std::size_t>(a)] == node_of[static_cast<std::size_t>(b)];
  }
};

}  // namespace armada::rma::detail
