#include "suite/options.hpp"

#include <algorithm>
#include <stdexcept>

#include "armada/programs/options.hpp"
#include "armada/rma/runtime.hpp"
#include "common/sizes.hpp"

namespace armada::bench::suite {

namespace {

using programs::Kind;

/// A transport list: "shm" or any ARMADA_TRANSPORT value; whether rma::init accepts it is
/// found out at run time (a new transport needs no change here). Order kept, duplicates dropped.
std::vector<std::string> transports(const std::string& option, const std::vector<std::string>& items) {
  std::vector<std::string> out;
  for (const auto& t : items) {
    const bool word = std::all_of(t.begin(), t.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    });
    if (!word)
      throw programs::UsageError(option + ": '" + t + "' is not a transport name (lower-case letters, digits, '-', '_'; e.g. " +
                                 programs::joined(kTransports, ",") + ")");
    if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
  }
  return out;
}

/// The items of `chosen` in the order of `known`.
std::vector<std::string> in_order(const std::vector<std::string>& known, const std::vector<std::string>& chosen) {
  std::vector<std::string> out;
  for (const auto& k : known)
    if (std::find(chosen.begin(), chosen.end(), k) != chosen.end()) out.push_back(k);
  return out;
}

/// The table, bound to `o` (and to the raw values the post-processing reads).
struct Table {
  std::string subcommand;
  std::vector<std::string> only, transport_items;
  int rep_ms = 20;
  programs::CommandLine command_line;

  explicit Table(Options& o, const std::string& program)
      : command_line(
            {.name = program,
             .launch = "mpiexec -n 2 ",
             .description = "Families (all by default; a FAMILY argument or --only selects): " +
                            programs::joined(kFamilies, ",") + "\n",
             .epilogue = "Exit status: 0 all data verified, 1 a verification failed, 2 usage error, 4 plotting failed.\n",
             .last_wins = true},  // scripts/bench.sh adds --output-dir to the user's options
            {{.name = "subcommand", .kind = Kind::choice, .value_name = "FAMILY", .help = "run this family only",
              .choices = kFamilies, .text_target = &subcommand},
             {.name = "--transports", .kind = Kind::list, .value_name = "T,..",
              .help = "transports to measure, each in its own rma::init pass, in this order;\n"
                      "any other name is passed as ARMADA_TRANSPORT: a pass rma::init refuses is reported as\n"
                      "not available in this build",
              .default_text = programs::joined(kTransports, ","), .list_target = &transport_items,
              .take = [this, &o](const std::string&) {
                o.transports = transports("--transports", transport_items);
                return std::string();
              }},
             {.name = "--only", .kind = Kind::list, .value_name = "F,..", .help = "families to run", .choices = kFamilies,
              .list_target = &only},
             {.name = "--sizes", .kind = Kind::text, .value_name = "S",
              .help = "contiguous sizes: LO:HI (powers of two, e.g. 8:4M) or a list 8,4K,1M", .default_text = "8:4M",
              .take = [&o](const std::string& v) {
                o.sizes = parse_sizes("--sizes", v);
                return std::string();
              }},
             {.name = "--segments", .kind = Kind::text, .value_name = "S",
              .help = "strided/vector segment counts, same forms", .default_text = "1:1024",
              .take = [&o](const std::string& v) {
                o.nsegs = parse_sizes("--segments", v);
                return std::string();
              }},
             {.name = "--reps", .kind = Kind::integer,
              .help = "repetitions of every measurement; median, min and max are reported",
              .default_text = "5, 3 with --quick", .min = 1, .max = 1000, .int_target = &o.reps},
             {.name = "--rep-ms", .kind = Kind::integer, .value_name = "MS", .help = "target duration of one repetition",
              .default_text = "20, 3 with --quick", .min = 1, .max = 10000, .int_target = &rep_ms},
             {.name = "--quick", .help = "short run: few sizes, short repetitions (the smoke test)", .flag_target = &o.quick},
             {.name = "--output-dir", .kind = Kind::text, .value_name = "DIR",
              .help = "where NAME.json, NAME.csv, NAME.gp and the PNG plots go", .default_text = ".", .nonempty = true,
              .alias = "-o", .text_target = &o.output_dir},
             {.name = "--name", .kind = Kind::text, .value_name = "NAME", .help = "file stem", .default_text = "armada-bench",
              .text_target = &o.name,
              .take = [](const std::string& v) {
                return v.empty() || v.find('/') != std::string::npos ? std::string("must be a non-empty file stem without '/'")
                                                                     : std::string();
              }},
             {.name = "--no-plot", .help = "do not draw the plots (JSON and CSV only)", .flag_target = &o.plot, .flag_value = false},
             {.name = "--plot", .kind = Kind::text, .value_name = "FILE.json",
              .help = "only draw the plots of an earlier results file (no MPI measurement)", .text_target = &o.plot_from},
             {.name = "--no-rotate", .help = "reuse one buffer per operation instead of rotating over a large region",
              .flag_target = &o.rotate, .flag_value = false},
             {.name = "--no-pin", .help = "keep the launcher's CPU affinity (default: rank 0 and 1 pin their main thread)",
              .flag_target = &o.pin, .flag_value = false},
             {.name = "--vnode-size", .kind = Kind::integer, .value_name = "K",
              .help = "ARMADA_NODE_SIZE of the server and mpi-rma passes (default 1: every rank a node;\n"
                      "0: physical nodes, for clusters with ranks 0 and 1 on different hosts)",
              .min = 0, .max = 1 << 20, .int_target = &o.vnode_size}}) {}
};

}  // namespace

std::vector<std::string> registered_transports() {
  std::vector<std::string> names;
  for (const armada::rma::RegisteredTransport& t : armada::rma::transports()) names.emplace_back(t.name);
  return names;
}

Options parse_options(int argc, const char* const* argv) {
  Options o;
  Table table(o, "armada-bench");
  const programs::Parsed parsed = table.command_line.parse(argc, argv);
  o.help = parsed.help;
  o.rep_seconds = table.rep_ms / 1000.0;
  if (parsed.has("--only")) o.families = in_order(kFamilies, table.only);
  else if (parsed.has("subcommand")) o.families = {table.subcommand};
  for (std::size_t s : o.sizes) {
    if (s > (std::size_t{1} << 30)) throw programs::UsageError("--sizes: " + std::to_string(s) + " is above the 1 GiB limit");
    if (s % 8 != 0)
      throw programs::UsageError("--sizes: " + std::to_string(s) +
                                 " is not a multiple of 8 (the data checks compare 8-byte words)");
  }
  for (std::size_t s : o.nsegs)
    if (s > 4096) throw programs::UsageError("--segments: " + std::to_string(s) + " is above the limit of 4096 segments");
  if (o.quick) {
    if (!parsed.has("--reps")) o.reps = 3;
    if (!parsed.has("--rep-ms")) o.rep_seconds = 0.003;
  }
  if (o.sizes.empty()) o.sizes = o.quick ? std::vector<std::size_t>{8, 4096, 1 << 20} : pow2_range(8, 4 << 20);
  if (o.nsegs.empty()) o.nsegs = o.quick ? std::vector<std::size_t>{1, 32, 1024} : pow2_range(1, 1024);
  return o;
}

std::string usage(const char* program) {
  Options o;
  return Table(o, program).command_line.usage();
}

}  // namespace armada::bench::suite
