// armada-bench's command line (parsed on every rank alike, so every rank takes the same exit).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace armada::bench::suite {

/// Benchmark families, in run order.
inline const std::vector<std::string> kFamilies{"contig", "strided", "overlap", "aggregate", "atomic", "fence", "cold", "memory", "ucx"};
/// The transports run by default: every one this build registers, in its order (rma::transports();
/// "shm": one node; the others are values of ARMADA_TRANSPORT between virtual nodes).
std::vector<std::string> registered_transports();
inline const std::vector<std::string> kTransports = registered_transports();

struct Options {
  std::vector<std::string> transports = kTransports;  ///< --transports
  std::vector<std::string> families = kFamilies;      ///< --only (or subcommands)
  std::vector<std::size_t> sizes;                     ///< --sizes (contiguous sweep)
  std::vector<std::size_t> nsegs;                     ///< --segments (strided sweep)
  int reps = 5;                 ///< --reps
  double rep_seconds = 0.02;    ///< --rep-ms
  bool quick = false;           ///< --quick
  std::string output_dir = "."; ///< --output-dir
  std::string name = "armada-bench";  ///< --name: file stem of json, csv, gp
  bool plot = true;             ///< --no-plot
  bool rotate = true;           ///< --no-rotate
  bool pin = true;              ///< --no-pin
  int vnode_size = 1;           ///< --vnode-size: ARMADA_NODE_SIZE of the inter-node passes (0: physical)
  std::string plot_from;        ///< --plot FILE.json: only draw the plots of a results file
  bool help = false;
};

/// Parses argv[1..argc). The first argument may be a family name (a subcommand: the same as
/// --only NAME). Throws std::invalid_argument naming the option and the value.
Options parse_options(int argc, const char* const* argv);

std::string usage(const char* program);

}  // namespace armada::bench::suite
