#include "transport/rdma/termination.hpp"

#include <signal.h>

#include <atomic>
#include <mutex>

namespace armada::rma::detail::rdma {

namespace {

constexpr int kSignals[] = {SIGTERM, SIGINT, SIGHUP};
constexpr int kCount = sizeof kSignals / sizeof kSignals[0];

struct sigaction g_previous[kCount];
std::atomic<int> g_depth{0};    // live TerminationDeferred objects
std::atomic<int> g_pending{0};  // the signal noted meanwhile (0: none)

int index_of(int signo) {
  for (int i = 0; i < kCount; ++i)
    if (kSignals[i] == signo) return i;
  return -1;
}

// Acts on `signo` as the program would have without us (async-signal-safe).
void forward(int signo, siginfo_t* info, void* context) {
  const int i = index_of(signo);
  const struct sigaction& before = g_previous[i];
  if (before.sa_flags & SA_SIGINFO) {
    before.sa_sigaction(signo, info, context);
  } else if (before.sa_handler == SIG_DFL) {
    sigaction(signo, &before, nullptr);  // the default action: the process ends at raise()
    raise(signo);
  } else if (before.sa_handler != SIG_IGN) {
    before.sa_handler(signo);
  }
}

void on_signal(int signo, siginfo_t* info, void* context) {
  if (g_depth.load(std::memory_order_acquire) > 0) {
    g_pending.store(signo, std::memory_order_release);
    return;
  }
  forward(signo, info, context);
}

void install_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction ours {};
    ours.sa_sigaction = on_signal;
    ours.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&ours.sa_mask);
    for (int i = 0; i < kCount; ++i) {
      sigaction(kSignals[i], nullptr, &g_previous[i]);
      if (!(g_previous[i].sa_flags & SA_SIGINFO) && g_previous[i].sa_handler == SIG_IGN) continue;  // stays ignored
      sigaction(kSignals[i], &ours, nullptr);
    }
  });
}

}  // namespace

TerminationDeferred::TerminationDeferred() {
  install_once();
  g_depth.fetch_add(1, std::memory_order_acq_rel);
}

TerminationDeferred::~TerminationDeferred() {
  if (g_depth.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  if (const int signo = g_pending.exchange(0, std::memory_order_acq_rel)) forward(signo, nullptr, nullptr);
}

}  // namespace armada::rma::detail::rdma
