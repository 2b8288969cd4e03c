#include "options.hpp"

#include <algorithm>
#include <charconv>
#include <set>
#include <sstream>

namespace armada::apps::ccsd {

const char* to_string(Impl i) {
  switch (i) {
    case Impl::armada: return "armada";
    case Impl::ga: return "ga";
    case Impl::dgemm: return "dgemm";
  }
  return "?";
}

std::string usage() {
  return "usage: armada-ccsd [--occ O] [--virt V] [--tile T] [--irreps N] [--schedule dynamic|static|locality]\n"
         "                   [--impl armada,ga,dgemm] [--check] [--json FILE]\n"
         "  --occ, --virt  occupied and virtual orbitals (>= 1; default 24 and 96)\n"
         "  --tile         largest tile, in orbitals (1 .. min(O, V); default min(16, O, V))\n"
         "  --irreps       irreducible representations: 1, 2, 4 or 8 (default 4)\n"
         "  --schedule     dynamic: tasks from a shared counter (read_inc); static: round-robin;\n"
         "                 locality: each rank first takes the tasks whose streamed blocks it owns\n"
         "                 (read_inc on its list's counter), then the other ranks' (default dynamic)\n"
         "  --impl         implementations to run in this launch, in order (default armada):\n"
         "                 armada, ga (Global Arrays on ARMCI-MPI), dgemm (local dgemm limit)\n"
         "  --check        compare every element of R with a serial reference on rank 0\n"
         "  --json FILE    also write the JSON result lines to FILE\n";
}

namespace {

[[noreturn]] void fail(const std::string& what) { throw InputError("armada-ccsd: " + what); }

std::int64_t integer(const std::string& option, const std::string& value) {
  std::int64_t x = 0;
  const char* end = value.data() + value.size();
  auto [p, ec] = std::from_chars(value.data(), end, x);
  if (ec != std::errc() || p != end) fail(option + " '" + value + "': not an integer");
  return x;
}

std::vector<Impl> impl_list(const std::string& value, bool ga_available) {
  std::vector<Impl> list;
  std::istringstream in(value);
  std::string name;
  std::set<std::string> seen;
  while (std::getline(in, name, ',')) {
    if (!seen.insert(name).second) fail("--impl '" + value + "': '" + name + "' listed twice");
    if (name == "armada") list.push_back(Impl::armada);
    else if (name == "dgemm") list.push_back(Impl::dgemm);
    else if (name == "ga") {
      if (!ga_available)
        fail("--impl '" + value + "': this armada-ccsd was built without Global Arrays (needs libglobalarrays-dev, "
             "libarmci-mpi-dev, libscalapack-openmpi-dev at configure time)");
      list.push_back(Impl::ga);
    } else fail("--impl '" + value + "': unknown implementation '" + name + "' (armada, ga, dgemm)");
  }
  if (list.empty()) fail("--impl '" + value + "': names no implementation");
  return list;
}

}  // namespace

Options parse_options(int argc, const char* const* argv, bool ga_available) {
  Options o;
  std::set<std::string> given;
  for (int i = 1; i < argc; ++i) {
    const std::string opt = argv[i];
    if (opt == "--help" || opt == "-h") {
      o.help = true;
      return o;
    }
    if (opt == "--check") {
      o.check = true;
      continue;
    }
    static const std::set<std::string> with_value{"--occ", "--virt", "--tile", "--irreps", "--schedule", "--impl", "--json"};
    if (!with_value.count(opt)) fail("unknown option '" + opt + "'\n" + usage());
    if (!given.insert(opt).second) fail(opt + " given twice");
    if (i + 1 >= argc) fail(opt + " needs a value");
    const std::string value = argv[++i];
    if (opt == "--occ") o.settings.occ = integer(opt, value);
    else if (opt == "--virt") o.settings.virt = integer(opt, value);
    else if (opt == "--tile") o.settings.tile = integer(opt, value);
    else if (opt == "--irreps") {
      const std::int64_t n = integer(opt, value);
      if (n < 0 || n > 1024) fail("--irreps " + value + ": must be 1, 2, 4 or 8");
      o.settings.irreps = static_cast<int>(n);
    } else if (opt == "--schedule") {
      if (value == "dynamic") o.schedule = Schedule::dynamic;
      else if (value == "static") o.schedule = Schedule::static_round_robin;
      else if (value == "locality") o.schedule = Schedule::locality;
      else fail("--schedule '" + value + "': use dynamic, static or locality");
    } else if (opt == "--impl") o.impls = impl_list(value, ga_available);
    else if (opt == "--json") {
      if (value.empty()) fail("--json '': needs a file name");
      o.json_file = value;
    }
  }
  // Options not given take the documented case (docs/apps.md); a smaller --occ or --virt
  // without --tile shrinks the default tile to fit.
  if (!given.count("--occ")) o.settings.occ = documented_case.occ;
  if (!given.count("--virt")) o.settings.virt = documented_case.virt;
  if (!given.count("--irreps")) o.settings.irreps = documented_case.irreps;
  if (!given.count("--tile"))
    o.settings.tile = std::max<std::int64_t>(1, std::min({documented_case.tile, o.settings.occ, o.settings.virt}));
  validate(o.settings);
  return o;
}

}  // namespace armada::apps::ccsd
