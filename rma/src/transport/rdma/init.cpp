// The rdma transport's registration: its name, settings and factory (transport/plugin.hpp).
#include "transport/plugin.hpp"
#include "transport/rdma/rdma_transport.hpp"

namespace armada::rma::detail {

namespace {
constexpr SettingRow kRdmaSettings[] = {
    {.doc = {"ARMADA_RDMA_PROGRESS", "string", "auto",
             "rdma: whether the request service thread also progresses this process's UCX worker, so "
             "that operations UCX emulates in software (over TCP; atomics on memory no device can "
             "reach) complete while the target computes. 'auto': when the probe at init finds a get "
             "or a fetch-add waiting for its target's worker; 'on', 'off': always, never. The thread "
             "sleeps in the kernel on the workers' event descriptors either way."},
     .choices = "auto|on|off"},
};
}  // namespace

extern const TransportEntry kRdmaTransport;
const TransportEntry kRdmaTransport{
    .name = "rdma",
    .role = TransportRole::InterNode,
    .summary = "UCX (UCP): one-sided put/get and atomics on registered memory (InfiniBand/RoCE, shared "
               "memory/CMA, TCP); accumulates and mutexes by a request service asleep on the worker's event fd",
    .settings = kRdmaSettings,
    .below_thread_multiple = nullptr,  // its thread never calls MPI: any thread level will do
    .start = [](const TransportContext& context) -> std::unique_ptr<Transport> {
      return std::make_unique<RdmaTransport>(context);
    },
};

}  // namespace armada::rma::detail
