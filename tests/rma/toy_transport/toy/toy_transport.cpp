// A toy transport for tests/rma/toy_transport/check.sh: registered as "toy", it runs the server
// transport's code under its own name, so that the check shows what adding a transport takes (this
// folder, copied into rma/src/transport/) and runs the conformance programs through it between
// virtual nodes. It reaches the server only through its entry, as a transport may (plugin.hpp).
#include "transport/plugin.hpp"

namespace armada::rma::detail {

extern const TransportEntry kServerTransport;

namespace {

// The server reads its own rows' values (with their defaults) from the configuration.
std::unique_ptr<Transport> start_toy(const TransportContext& context) {
  const std::shared_ptr<void> settings = kServerTransport.new_settings();
  fill_settings(kServerTransport.settings, context.config, settings.get());
  TransportContext server_context = context;
  server_context.settings = settings.get();
  return kServerTransport.start(server_context);
}

const char* toy_below_thread_multiple(Config& config, std::string& lost) {
  return kServerTransport.below_thread_multiple(config, lost);
}

}  // namespace

// The entry its row names (ENTRY kToyTransport); extern, as a namespace-scope const is otherwise
// internal.
extern const TransportEntry kToyTransport{.name = "toy", .role = TransportRole::InterNode,
    .summary = "the server transport under another name (tests/rma/toy_transport)",
    .below_thread_multiple = toy_below_thread_multiple, .start = start_toy};

}  // namespace armada::rma::detail
