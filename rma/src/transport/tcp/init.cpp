// The tcp transport's registration: its name, settings and factory (transport/plugin.hpp).
#include "armada/rma/error.hpp"
#include "transport/plugin.hpp"
#include "transport/tcp/sockets.hpp"
#include "transport/tcp/tcp_transport.hpp"

namespace armada::rma::detail {

namespace {
constexpr SettingRow kTcpSettings[] = {
    {.doc = {"ARMADA_TCP_IF", "string", "",
             "tcp: the network interfaces (comma separated names, e.g. 'eth0,ib0') whose IPv4 addresses a "
             "rank publishes for other ranks to connect to, tried in the kernel's order. Empty: every "
             "interface that is up, loopback excepted (loopback alone where there is no other)."},
     .store = field<&TcpSettings::interfaces>},
    {.doc = {"ARMADA_TCP_SPIN_US", "int", "50",
             "tcp: how long an origin polls for the answer to a get, an atomic or a fence before it sleeps in "
             "the kernel until the answer arrives, in microseconds; it sleeps at once where the machine's CPUs "
             "have all been busy (a polling thread that lost its core would wait for a time slice). 0: sleep at "
             "once."},
     .min = 0, .max = 1000000, .store = field<&TcpSettings::spin_us>},
    {.doc = {"ARMADA_TCP_SERVICE_SPIN_US", "int", "50",
             "tcp: how long the service thread keeps polling its connections after a frame before it sleeps in "
             "epoll, in microseconds, while the machine has an idle CPU the thread may run on (fewer threads "
             "running than CPUs, and the thread not bound to a subset of them); else it sleeps at once. 0: "
             "never poll. Polling saves a request the thread's wake-up where a CPU is idle (emulated cluster, "
             "8 B get 29-39 -> 12-17 us) and would cost it where the CPUs are busy: a polling thread that loses its "
             "core waits for another thread's time slice, where a sleeping one woken by a frame runs at once "
             "(a busy process beside each rank: 29 us asleep, 166 us polling regardless). Busy means three looks in "
             "a row, 10 us apart, found no CPU idle: a thread that runs for a moment does not end a poll."},
     .min = 0, .max = 1000000, .store = field<&TcpSettings::service_spin_us>},
    {.doc = {"ARMADA_TCP_WAITER_POLL_US", "int", "2",
             "tcp: a rank's thread waiting in the library (a flag, a collective, a lock) runs the requests that "
             "have reached this process, looking at most once per this many microseconds (each look is a system "
             "call that takes no lock unless it found something: a waiter that loses its core while it looks stalls nobody). "
             "A request the waiter finds costs no wake-up of the service thread (emulated cluster, 8 B "
             "put_notify seen by a waiting rank: 11.8 us looking every 20 us, 9.2 every 2). 0: only the service "
             "thread runs them."},
     .min = 0, .max = 1000000, .store = field<&TcpSettings::waiter_poll_us>},
    {.doc = {"ARMADA_TCP_CONNECT_TIMEOUT_MS", "int", "10000",
             "tcp: how long a first contact waits for each published address of its target to accept, in "
             "milliseconds; then the operation fails naming the rank and the addresses tried."},
     .min = 1, .max = 3600000, .store = field<&TcpSettings::connect_timeout_ms>},
};
// Auto tries tcp only where every rank has an interface to publish (ARMADA_TCP_IF may name one
// this host lacks): elsewhere it passes to the next candidate instead of failing init.
std::string unavailable(const Config& config) {
  try {
    tcp::local_addresses("rma::init (tcp availability)", config.text("ARMADA_TCP_IF"));
    return "";
  } catch (const Error& e) {
    return e.what();
  }
}

}  // namespace

extern const TransportEntry kTcpTransport{
    .name = "tcp",
    .role = TransportRole::InterNode,
    .summary = "its own TCP connections, one per pair of processes made on first contact and used both ways: a put "
               "is one frame with its target address; a service thread asleep in epoll runs each process's requests",
    .settings = kTcpSettings,
    .new_settings = new_settings<TcpSettings>,
    .below_thread_multiple = nullptr,  // MPI only at init, on the calling thread
    .auto_preference = 2,  // where rdma does not suit: suits_as_default (no fabric device)
    .unavailable = unavailable,
    .start = [](const TransportContext& context) -> std::unique_ptr<Transport> {
      return std::make_unique<TcpTransport>(context, context.settings_as<TcpSettings>());
    },
};

}  // namespace armada::rma::detail
