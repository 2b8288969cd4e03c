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
     .choices = "auto|on|off", .store = field<&RdmaSettings::progress>},
    {.doc = {"ARMADA_RDMA_MEMORY", "string", "ucx",
             "rdma: who allocates segment memory. 'ucx': UCX (ucp_mem_map with ALLOCATE: shared memory "
             "that UCX's shared-memory transports reach one-sidedly for put, get and atomics, registered "
             "with every NIC as well); ranks of a node map each other's slices through the keys. 'node': "
             "the core's node shared memory, registered with UCX (between processes of one host UCX then "
             "reaches it only by CMA and emulates short operations and atomics with messages)."},
     .choices = "ucx|node",
     .store = [](void* s, const SettingValue& v) { static_cast<RdmaSettings*>(s)->ucx_memory = v.text == "ucx"; }},
};
}  // namespace

extern const TransportEntry kRdmaTransport{
    .name = "rdma",
    .role = TransportRole::InterNode,
    .summary = "UCX (UCP): one-sided put/get and atomics on registered memory (InfiniBand/RoCE, shared "
               "memory/CMA, TCP); accumulates and mutexes by a request service asleep on the worker's event fd",
    .settings = kRdmaSettings,
    .new_settings = new_settings<RdmaSettings>,
    .library_variables = rdma::kContextVariables.data(),
    .library_variables_meaning =
        "rdma: UCX's setting <NAME> (as UCX_<NAME>, e.g. ARMADA_UCX_TLS=tcp,self) for Armada's UCX context "
        "alone: it wins over UCX_<NAME> there and leaves the MPI library's own UCX as it is.",
    .below_thread_multiple = nullptr,  // its thread never calls MPI: any thread level will do
    .auto_preference = 1,
    .unavailable = [](const Config&) { return rdma::unavailable(); },
    .start = [](const TransportContext& context) -> std::unique_ptr<Transport> {
      return std::make_unique<RdmaTransport>(context);
    },
};

}  // namespace armada::rma::detail
