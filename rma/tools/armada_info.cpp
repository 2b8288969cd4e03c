// armada-info: prints Armada's settings (name, type, default, current value, meaning) and, when
// started under mpiexec, the node topology and transports the runtime sees.
//
//   armada-info              settings table
//   armada-info --markdown   the same table as Markdown (docs/configuration.md is made from it)
//   mpiexec -n 4 armada-info --topology
#include <cstdio>
#include <cstring>
#include <string>

#include "armada/rma/rma.hpp"

namespace rma = armada::rma;

int main(int argc, char** argv) {
  bool markdown = false, topology = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--markdown")) markdown = true;
    else if (!std::strcmp(argv[i], "--topology")) topology = true;
    else {
      std::fprintf(stderr, "usage: armada-info [--markdown] [--topology]\n");
      return 2;
    }
  }
  if (markdown) {
    std::printf("| Variable | Type | Default | Meaning |\n|---|---|---|---|\n");
    for (const rma::Setting& s : rma::settings())
      std::printf("| `%s` | %s | `%s` | %s |\n", s.name, s.type, s.default_value, s.meaning);
    return 0;
  }
  if (!topology) {
    std::printf("Armada settings (environment variables read at init):\n");
    for (const rma::Setting& s : rma::settings())
      std::printf("  %-20s %-6s default %-6s now %-6s\n      %s\n", s.name, s.type, s.default_value,
                  rma::setting_value(s).c_str(), s.meaning);
    return 0;
  }
  try {
    rma::Session session(&argc, &argv);
    const int me = rma::rank();
    if (me == 0) {
      std::printf("%d ranks on %d node(s)\n", rma::size(), rma::node_count());
      for (int n = 0; n < rma::node_count(); ++n) {
        std::printf("  node %d:", n);
        for (int r : rma::node_ranks(n)) std::printf(" %d", r);
        std::printf("\n");
      }
      std::printf("transports from rank 0:");
      for (int r = 0; r < rma::size(); ++r)
        std::printf(" %d:%s%s", r, rma::transport_name(r), rma::server_direct(r) ? "(direct)" : "");
      std::printf("\n");
    }
    // Node servers report their buffer memory, in rank order.
    const rma::ServerStats st = rma::server_stats();
    for (int r = 0; r < rma::size(); ++r) {
      if (r == me && st.running)
        std::printf("  node server on rank %d: %d clients, %zu bytes of buffers, VmRSS +%ld KiB\n", me,
                    st.clients, st.buffer_bytes, st.rss_growth_kb);
      std::fflush(stdout);
      rma::barrier();
    }
  } catch (const rma::Error& e) {
    std::fprintf(stderr, "armada-info: %s\n", e.what());
    return 1;
  }
  return 0;
}
