// The registered transports: one line each. Order is registration order: the settings table
// lists their rows in it, and ARMADA_TRANSPORT's accepted values follow it.
#include "transport/plugin.hpp"

namespace armada::rma::detail {

// Each transport's folder defines its entry (transport/<name>/entry.cpp).
extern const TransportEntry kShmTransport;
extern const TransportEntry kServerTransport;
extern const TransportEntry kMpiRmaTransport;
extern const TransportEntry kRdmaTransport;  // built where UCX is found (ARMADA_HAVE_RDMA)

namespace {
constexpr const TransportEntry* kTransports[] = {
    &kShmTransport,
    &kServerTransport,
    &kMpiRmaTransport,
#if ARMADA_HAVE_RDMA
    &kRdmaTransport,
#endif
};
}  // namespace

std::span<const TransportEntry* const> transport_entries() { return kTransports; }

const TransportEntry* find_transport(std::string_view name) {
  for (const TransportEntry* e : kTransports)
    if (name == e->name) return e;
  return nullptr;
}

}  // namespace armada::rma::detail
