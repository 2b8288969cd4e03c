#include "transport/rdma/termination.hpp"

#include <signal.h>

#include <atomic>
#include <mutex>

namespace armada::rma::detail::rdma {

namespace {

constexpr int kSignals[] = {SIGTERM, SIGINT, SIGHUP};
constexpr int kCount = sizeof kSignals / sizeof kSignals[0];

struct sigaction g_previous[kCount];
// One word, so that noting a signal and ending the last deferral cannot interleave (a handler in
// another thread that saw a deferral live must not note its signal after that deferral ended
// and looked for one: the signal would be lost and the launcher's SIGKILL, a second later, could
// land inside the window). Bits 0-7: the signal noted (0: none); above: live deferrals.
constexpr unsigned kDepthUnit = 1u << 8;
constexpr unsigned kSignalMask = kDepthUnit - 1;
std::atomic<unsigned> g_state{0};

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
  unsigned state = g_state.load(std::memory_order_acquire);
  while (state >= kDepthUnit) {  // a deferral is live: note the signal (the first one noted wins)
    const unsigned noted = (state & kSignalMask) ? state : state | static_cast<unsigned>(signo);
    if (g_state.compare_exchange_weak(state, noted, std::memory_order_acq_rel)) return;
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
  g_state.fetch_add(kDepthUnit, std::memory_order_acq_rel);
}

TerminationDeferred::~TerminationDeferred() {
  unsigned state = g_state.load(std::memory_order_acquire);
  unsigned next = 0;
  do {  // the last deferral to end takes the noted signal with it, in the same step
    next = state - kDepthUnit;
    if (next < kDepthUnit) next = 0;
  } while (!g_state.compare_exchange_weak(state, next, std::memory_order_acq_rel));
  if (next == 0 && (state & kSignalMask)) forward(static_cast<int>(state & kSignalMask), nullptr, nullptr);
}

}  // namespace armada::rma::detail::rdma
