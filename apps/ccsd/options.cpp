#include "options.hpp"

#include <algorithm>
#include <stdexcept>

#include "armada/programs/options.hpp"

namespace armada::apps::ccsd {

const char* to_string(Impl i) {
  switch (i) {
    case Impl::armada: return "armada";
    case Impl::ga: return "ga";
    case Impl::ga_tce: return "ga-tce";
    case Impl::dgemm: return "dgemm";
    case Impl::dgemm_streamed: return "dgemm-streamed";
  }
  return "?";
}

Schedule schedule_of(Impl i, Schedule chosen) { return i == Impl::ga_tce ? Schedule::tce : chosen; }

namespace {

using programs::Kind;

/// The table, bound to `o`.
programs::CommandLine table(Options& o, bool ga_available, std::string& schedule, std::vector<std::string>& impls) {
  return programs::CommandLine(
      {.name = "armada-ccsd"},
      {{.name = "--occ", .kind = Kind::integer, .value_name = "O", .help = "occupied orbitals (>= 1)", .default_text = "24",
        .min = 0, .max = 1 << 20, .long_target = &o.settings.occ},
       {.name = "--virt", .kind = Kind::integer, .value_name = "V", .help = "virtual orbitals (>= 1)", .default_text = "96",
        .min = 0, .max = 1 << 20, .long_target = &o.settings.virt},
       {.name = "--tile", .kind = Kind::integer, .value_name = "T", .help = "largest tile, in orbitals (1 .. min(O, V))",
        .default_text = "min(16, O, V)", .min = 0, .max = 1 << 20, .long_target = &o.settings.tile},
       {.name = "--irreps", .kind = Kind::integer, .help = "irreducible representations: 1, 2, 4 or 8", .default_text = "4",
        .min = 0, .max = 8, .int_target = &o.settings.irreps},
       {.name = "--schedule", .kind = Kind::choice, .value_name = "S",
        .help = "dynamic: tasks from a shared counter (read_inc); static: round-robin;\n"
                "locality: each rank first takes the tasks whose streamed blocks it owns\n"
                "(read_inc on its list's counter), then the other ranks';\n"
                "tce: NWChem TCE's pattern (a task per output and contraction block pair,\n"
                "blocking gets and accumulate; the baseline)",
        .default_text = "dynamic", .choices = {"dynamic", "static", "locality", "tce"}, .text_target = &schedule},
       {.name = "--impl", .kind = Kind::list, .value_name = "I[,I..]",
        .help = "implementations to run in this launch, in order:\n"
                "armada, ga (Global Arrays on ARMCI-MPI), ga-tce (Global Arrays, schedule tce),\n"
                "dgemm (local dgemm limit), dgemm-streamed (the same, each streamed\n"
                "operand read from memory as the contraction reads it)",
        .default_text = "armada", .choices = {"armada", "ga", "ga-tce", "dgemm", "dgemm-streamed"}, .list_target = &impls,
        .take = [&impls, ga_available](const std::string&) {
          for (std::size_t i = 0; i < impls.size(); ++i)
            for (std::size_t j = 0; j < i; ++j)
              if (impls[i] == impls[j]) return "lists '" + impls[i] + "' twice";
          for (const std::string& name : impls)
            if ((name == "ga" || name == "ga-tce") && !ga_available)
              return std::string(
                  "names " + name + ", but this armada-ccsd was built without Global Arrays (needs libglobalarrays-dev, "
                  "libarmci-mpi-dev, libscalapack-openmpi-dev at configure time)");
          return std::string();
        }},
       {.name = "--repeats", .kind = Kind::integer, .help = "run the --impl list N times, the order rotating;\n"
                "each figure is the median repetition's, with the range", .default_text = "1",
        .min = 1, .max = 1000, .int_target = &o.repeats},
       {.name = "--check", .help = "compare every element of R with a serial reference on rank 0", .flag_target = &o.check},
       {.name = "--json", .kind = Kind::text, .value_name = "FILE", .help = "also write the JSON result lines to FILE",
        .nonempty = true, .text_target = &o.json_file}});
}

}  // namespace

std::string usage() {
  Options o;
  std::string schedule;
  std::vector<std::string> impls;
  return table(o, true, schedule, impls).usage();
}

Options parse_options(int argc, const char* const* argv, bool ga_available) {
  Options o;
  std::string schedule = "dynamic";
  std::vector<std::string> impls;
  const programs::CommandLine command_line = table(o, ga_available, schedule, impls);
  programs::Parsed given;
  try {
    given = command_line.parse(argc, argv);
  } catch (const std::invalid_argument& e) {
    throw InputError("armada-ccsd: " + std::string(e.what()) + "\n" + command_line.usage());
  }
  o.help = given.help;
  if (o.help) return o;
  o.schedule = schedule == "static" ? Schedule::static_round_robin
               : schedule == "locality" ? Schedule::locality
               : schedule == "tce"      ? Schedule::tce
                                        : Schedule::dynamic;
  if (given.has("--impl")) {
    o.impls.clear();
    for (const std::string& name : impls)
      o.impls.push_back(name == "ga"               ? Impl::ga
                        : name == "ga-tce"         ? Impl::ga_tce
                        : name == "dgemm"          ? Impl::dgemm
                        : name == "dgemm-streamed" ? Impl::dgemm_streamed
                                                   : Impl::armada);
  }
  // Options not given take the documented case (docs/apps.md); a smaller --occ or --virt
  // without --tile shrinks the default tile to fit.
  if (!given.has("--occ")) o.settings.occ = documented_case.occ;
  if (!given.has("--virt")) o.settings.virt = documented_case.virt;
  if (!given.has("--irreps")) o.settings.irreps = documented_case.irreps;
  if (!given.has("--tile"))
    o.settings.tile = std::max<std::int64_t>(1, std::min({documented_case.tile, o.settings.occ, o.settings.virt}));
  validate(o.settings);
  return o;
}

}  // namespace armada::apps::ccsd
