// armada-info: prints Armada's settings (name, type, default, current value, meaning): rma's
// and its transports', then linalg's (when linalg is built), and the transports built in and,
// when started under mpiexec, the node topology and transports the runtime sees.
//
//   armada-info              settings table, transports
//   armada-info --markdown   the same table as Markdown (docs/configuration.md is made from it)
//   mpiexec -n 4 armada-info --topology
#include <cstdio>
#include <string>
#include <vector>

#include "armada/programs/options.hpp"
#include "armada/rma/rma.hpp"
#ifdef ARMADA_INFO_WITH_LINALG
#include "armada/linalg/settings.hpp"
#endif

namespace rma = armada::rma;

namespace {

std::string facts(const std::vector<rma::TransportFact>& list) {
  std::string out;
  for (const rma::TransportFact& f : list) out += " " + f.key + "=" + f.value;
  return out;
}

// "  1: server  one-sided: -  (server=1 direct=yes)"
void print_route(int target, const rma::TransportInfo& t) {
  std::string one_sided;
  if (t.caps.put_get_one_sided) one_sided += " put/get";
  if (t.caps.acc_one_sided) one_sided += " acc";
  if (t.caps.rmw_one_sided) one_sided += " rmw";
  if (t.caps.mutex_one_sided) one_sided += " mutex";
  std::printf("  %d: %s  one-sided:%s%s\n", target, t.name.c_str(), one_sided.empty() ? " -" : one_sided.c_str(),
              t.route.empty() ? "" : ("  (" + facts(t.route).substr(1) + ")").c_str());
}

// This rank's cost facts of every transport it uses, once per transport.
std::string process_facts() {
  std::string out, seen;
  for (int r = 0; r < rma::size(); ++r) {
    const rma::TransportInfo t = rma::transport_info(r);
    if (t.name == "none" || seen.find("|" + t.name + "|") != std::string::npos) continue;
    seen += "|" + t.name + "|";
    if (!t.process.empty()) out += " " + t.name + ":" + facts(t.process);
  }
  return out;
}

// Every layer's settings: rma's table (the core's and each transport's rows), then the rows of
// the layers above that declare them in rma's form.
std::vector<rma::Setting> all_settings() {
  std::vector<rma::Setting> all(rma::settings().begin(), rma::settings().end());
#ifdef ARMADA_INFO_WITH_LINALG
  for (const rma::SettingRule& rule : armada::linalg::settings()) all.push_back(rule.doc);
#endif
  return all;
}

}  // namespace

int main(int argc, char** argv) {
  bool markdown = false, topology = false;
  const armada::programs::CommandLine command_line(
      {.name = "armada-info", .description = "Armada's settings and transports; under mpiexec, the topology.\n"},
      {{.name = "--markdown", .help = "the settings table as Markdown (docs/configuration.md)", .flag_target = &markdown},
       {.name = "--topology", .help = "nodes, ranks and the transport to each rank (run it under mpiexec)",
        .flag_target = &topology}});
  if (const auto exit_code = command_line.handle(argc, argv, true)) return *exit_code;
  if (markdown) {
    std::printf("| Variable | Type | Default | Meaning |\n|---|---|---|---|\n");
    for (const rma::Setting& s : all_settings())
      std::printf("| `%s` | %s | `%s` | %s |\n", s.name, s.type, s.default_value, s.meaning);
    for (const rma::RegisteredTransport& t : rma::transports())
      if (t.library_variables) std::printf("| `%s<NAME>` | string | | %s |\n", t.library_variables, t.library_variables_meaning);
    return 0;
  }
  if (!topology) {
    std::printf("Armada settings (environment variables; rma's are read at init, linalg's at its first call):\n");
    for (const rma::Setting& s : all_settings())
      std::printf("  %-20s %-6s default %-6s now %-6s\n      %s\n", s.name, s.type, s.default_value,
                  rma::setting_value(s).c_str(), s.meaning);
    for (const rma::RegisteredTransport& t : rma::transports())
      if (t.library_variables) std::printf("  %s<NAME>\n      %s\n", t.library_variables, t.library_variables_meaning);
    // The last section: tests/rma/check_transport_table.sh reads it.
    std::printf("Transports built in (ARMADA_TRANSPORT names the inter-node one):\n");
    for (const rma::RegisteredTransport& t : rma::transports())
      std::printf("  %-8s %-10s %s\n", t.name, t.inter_node ? "inter-node" : "node", t.summary);
    return 0;
  }
  try {
    rma::Session session("armada-info", &argc, &argv);
    const int me = rma::rank();
    if (me == 0) {
      std::printf("%d ranks on %d node(s)\n", rma::size(), rma::node_count());
      for (int n = 0; n < rma::node_count(); ++n) {
        std::printf("  node %d:", n);
        for (int r : rma::node_ranks(n)) std::printf(" %d", r);
        std::printf("\n");
      }
      std::printf("inter-node transport: %s\n", rma::transport_choice().c_str());
      std::printf("symmetric arena: %s\n", rma::symmetric_arena().c_str());
      const rma::Config& c = rma::config();
      const std::string& configured = c.text("ARMADA_SPIN_LIMIT");
      std::printf("waits spin %d rounds before they yield (ARMADA_SPIN_LIMIT=%s%s)\n", c.spin_limit, configured.c_str(),
                  configured != "-1"          ? ""
                  : c.spin_limit == 0 ? ": rank 0's host has more ranks than cores"
                                      : ": rank 0's host has a core for each of its ranks");
      std::printf("transports from rank 0:\n");
      for (int r = 0; r < rma::size(); ++r) print_route(r, rma::transport_info(r));
    }
    // What each rank's transports cost it (node servers, helper threads), in rank order.
    const std::string costs = process_facts();
    for (int r = 0; r < rma::size(); ++r) {
      if (r == me && !costs.empty()) std::printf("  rank %d:%s\n", me, costs.c_str());
      std::fflush(stdout);
      rma::barrier();
    }
  } catch (const rma::Error& e) {
    std::fprintf(stderr, "armada-info: %s\n", e.what());
    return 1;
  }
  return 0;
}
