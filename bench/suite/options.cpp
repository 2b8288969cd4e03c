#include "suite/options.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <stdexcept>

#include "armada/rma/runtime.hpp"
#include "common/sizes.hpp"

namespace armada::bench::suite {

namespace {

long parse_long(const std::string& option, const std::string& text, long lo, long hi) {
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (errno != 0 || end == text.c_str() || *end != '\0' || v < lo || v > hi)
    throw std::invalid_argument(option + ": '" + text + "' is not an integer in [" + std::to_string(lo) + ", " +
                                std::to_string(hi) + "]");
  return v;
}

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ",") + s;
  return out;
}

/// The items of a list option, each checked against `known`, in the order of `known`.
std::vector<std::string> pick(const std::string& option, const std::string& text, const std::vector<std::string>& known) {
  const auto items = split_list(option, text);
  for (const auto& item : items)
    if (std::find(known.begin(), known.end(), item) == known.end())
      throw std::invalid_argument(option + ": unknown value '" + item + "' (choose from " + joined(known) + ")");
  std::vector<std::string> out;
  for (const auto& k : known)
    if (std::find(items.begin(), items.end(), k) != items.end()) out.push_back(k);
  return out;
}

/// A transport list: "shm" or any ARMADA_TRANSPORT value; whether rma::init accepts it is
/// found out at run time (a new transport needs no change here). Order kept, duplicates dropped.
std::vector<std::string> transports(const std::string& option, const std::string& text) {
  std::vector<std::string> out;
  for (const auto& t : split_list(option, text)) {
    const bool word = std::all_of(t.begin(), t.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    });
    if (!word)
      throw std::invalid_argument(option + ": '" + t + "' is not a transport name (lower-case letters, digits, '-', '_'; e.g. " +
                                  joined(kTransports) + ")");
    if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
  }
  return out;
}

}  // namespace

std::vector<std::string> registered_transports() {
  std::vector<std::string> names;
  for (const armada::rma::RegisteredTransport& t : armada::rma::transports()) names.emplace_back(t.name);
  return names;
}

Options parse_options(int argc, const char* const* argv) {
  Options o;
  bool reps_given = false, rep_ms_given = false;
  int i = 1;
  if (argc > 1 && argv[1][0] != '-') {  // a subcommand
    o.families = pick("subcommand", argv[1], kFamilies);
    i = 2;
  }
  for (; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
      return argv[++i];
    };
    if (a == "--help" || a == "-h") o.help = true;
    else if (a == "--quick") o.quick = true;
    else if (a == "--reps") o.reps = static_cast<int>(parse_long(a, value(), 1, 1000)), reps_given = true;
    else if (a == "--rep-ms") o.rep_seconds = static_cast<double>(parse_long(a, value(), 1, 10000)) / 1000, rep_ms_given = true;
    else if (a == "--transports") o.transports = transports(a, value());
    else if (a == "--only") o.families = pick(a, value(), kFamilies);
    else if (a == "--sizes") o.sizes = parse_sizes(a, value());
    else if (a == "--segments") o.nsegs = parse_sizes(a, value());
    else if (a == "--output-dir" || a == "-o") {
      o.output_dir = value();
      if (o.output_dir.empty()) throw std::invalid_argument(a + ": needs a directory name");
    } else if (a == "--name") {
      o.name = value();
      if (o.name.empty() || o.name.find('/') != std::string::npos)
        throw std::invalid_argument(a + ": '" + o.name + "' must be a non-empty file stem without '/'");
    } else if (a == "--no-plot") o.plot = false;
    else if (a == "--no-rotate") o.rotate = false;
    else if (a == "--no-pin") o.pin = false;
    else if (a == "--vnode-size") o.vnode_size = static_cast<int>(parse_long(a, value(), 0, 1 << 20));
    else if (a == "--plot") o.plot_from = value();
    else throw std::invalid_argument("unknown option '" + a + "' (see --help)");
  }
  for (std::size_t s : o.sizes) {
    if (s > (std::size_t{1} << 30)) throw std::invalid_argument("--sizes: " + std::to_string(s) + " is above the 1 GiB limit");
    if (s % 8 != 0)
      throw std::invalid_argument("--sizes: " + std::to_string(s) +
                                  " is not a multiple of 8 (the data checks compare 8-byte words)");
  }
  for (std::size_t s : o.nsegs)
    if (s > 4096) throw std::invalid_argument("--segments: " + std::to_string(s) + " is above the limit of 4096 segments");
  if (o.quick) {
    if (!reps_given) o.reps = 3;
    if (!rep_ms_given) o.rep_seconds = 0.003;
  }
  if (o.sizes.empty()) o.sizes = o.quick ? std::vector<std::size_t>{8, 4096, 1 << 20} : pow2_range(8, 4 << 20);
  if (o.nsegs.empty()) o.nsegs = o.quick ? std::vector<std::size_t>{1, 32, 1024} : pow2_range(1, 1024);
  return o;
}

std::string usage(const char* program) {
  return std::string("usage: mpiexec -n 2 ") + program + " [FAMILY] [options]\n" +
         "Families (all by default; a FAMILY argument or --only selects): " + joined(kFamilies) + "\n" +
         "  --transports T,..  transports to measure, each in its own rma::init pass, in this order (default " +
         joined(kTransports) + ";\n"
         "                     any other name is passed as ARMADA_TRANSPORT: a pass rma::init refuses is reported as\n"
         "                     not available in this build)\n"
         "  --only F,..        families to run\n"
         "  --sizes S          contiguous sizes: LO:HI (powers of two, e.g. 8:4M) or a list 8,4K,1M (default 8:4M)\n"
         "  --segments S       strided/vector segment counts, same forms (default 1:1024)\n"
         "  --reps N           repetitions of every measurement; median, min and max are reported (default 5, 3 with --quick)\n"
         "  --rep-ms MS        target duration of one repetition (default 20, 3 with --quick)\n"
         "  --quick            short run: few sizes, short repetitions (the smoke test)\n"
         "  --output-dir DIR   where NAME.json, NAME.csv, NAME.gp and the PNG plots go (default .)\n"
         "  --name NAME        file stem (default armada-bench)\n"
         "  --no-plot          do not draw the plots (JSON and CSV only)\n"
         "  --plot FILE.json   only draw the plots of an earlier results file (no MPI measurement)\n"
         "  --no-rotate        reuse one buffer per operation instead of rotating over a large region\n"
         "  --no-pin           keep the launcher's CPU affinity (default: rank 0 and 1 pin their main thread)\n"
         "  --vnode-size K     ARMADA_NODE_SIZE of the server and mpi-rma passes (default 1: every rank a node;\n"
         "                     0: physical nodes, for clusters with ranks 0 and 1 on different hosts)\n"
         "  --help             this text\n"
         "Exit status: 0 all data verified, 1 a verification failed, 2 usage error, 4 plotting failed.\n";
}

}  // namespace armada::bench::suite
