#include "transport/base/termination.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <mutex>

namespace armada::rma::detail {

namespace {

constexpr int kSignals[] = {SIGTERM, SIGINT, SIGHUP};
constexpr int kCount = sizeof kSignals / sizeof kSignals[0];

struct sigaction g_previous[kCount];
// One word, so that noting a signal, ending the last deferral and the process setting out to end
// cannot interleave. A handler in another thread that saw a deferral live must not note its
// signal after that deferral ended and looked for one (the signal would be lost and the
// launcher's SIGKILL, a second later, could land inside the window); and once a handler has seen
// no deferral live and lets the process end, no thread may open a new one (it could create a
// segment in the microseconds the kernel takes to end every thread). Bits 0-7: the signal noted
// (0: none); bit 8: ending (the process is on its way out: new deferrals wait for the end);
// above: live deferrals.
constexpr unsigned kSignalMask = 0xffu;
constexpr unsigned kEnding = 1u << 8;
constexpr unsigned kDepthUnit = 1u << 9;
std::atomic<unsigned> g_state{0};

int index_of(int signo) {
  for (int i = 0; i < kCount; ++i)
    if (kSignals[i] == signo) return i;
  return -1;
}

// Whether the program's disposition for `signo` ends the process (the default action).
bool ends_the_process(int signo) {
  const struct sigaction& before = g_previous[index_of(signo)];
  return !(before.sa_flags & SA_SIGINFO) && before.sa_handler == SIG_DFL;
}

// Acts on `signo` as the program would have without us (async-signal-safe).
void forward(int signo, siginfo_t* info, void* context) {
  const struct sigaction& before = g_previous[index_of(signo)];
  if (before.sa_flags & SA_SIGINFO) {
    before.sa_sigaction(signo, info, context);
  } else if (before.sa_handler == SIG_DFL) {
    // The default action: the process ends. Sent to the process, not this thread: a thread ending
    // a deferral may block the signal, another thread takes it.
    sigaction(signo, &before, nullptr);
    kill(getpid(), signo);
  } else if (before.sa_handler != SIG_IGN) {
    before.sa_handler(signo);
  }
}

// The state once `signo` is acted on with no deferral live: ending if that ends the process.
unsigned acted_on(unsigned state, int signo) { return ends_the_process(signo) ? state | kEnding : state; }

void on_signal(int signo, siginfo_t* info, void* context) {
  unsigned state = g_state.load(std::memory_order_acquire);
  for (;;) {
    if (state & kEnding) return;  // the process is already ending
    // A deferral is live: note the signal (the first one noted wins); otherwise act on it.
    const bool live = state >= kDepthUnit;
    const unsigned next = live ? ((state & kSignalMask) ? state : state | static_cast<unsigned>(signo))
                               : acted_on(state, signo);
    if (g_state.compare_exchange_weak(state, next, std::memory_order_acq_rel)) {
      if (!live) forward(signo, info, context);
      return;
    }
  }
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
  unsigned state = g_state.load(std::memory_order_acquire);
  for (;;) {
    while (state & kEnding) {  // another thread is ending the process: this one waits for the end
      pause();
      state = g_state.load(std::memory_order_acquire);
    }
    if (g_state.compare_exchange_weak(state, state + kDepthUnit, std::memory_order_acq_rel)) return;
  }
}

TerminationDeferred::~TerminationDeferred() {
  unsigned state = g_state.load(std::memory_order_acquire);
  unsigned next = 0;
  do {  // the last deferral to end takes the noted signal with it, in the same step
    next = state - kDepthUnit;
    if (next < kDepthUnit && (next & kSignalMask)) next = acted_on(0, static_cast<int>(next & kSignalMask));
  } while (!g_state.compare_exchange_weak(state, next, std::memory_order_acq_rel));
  const unsigned noted = state & kSignalMask;
  if (next < kDepthUnit && noted) forward(static_cast<int>(noted), nullptr, nullptr);
}

}  // namespace armada::rma::detail
