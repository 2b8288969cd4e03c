// The tcp transport's service thread: one per process, it accepts the connections of the
// processes that address this one first, and runs what arrives on every link (link.hpp) when no
// thread of this process is already reading it, so a target makes progress whatever its own
// thread does (ARMCI's unilateral progress), and a nonblocking get's answer lands while its
// origin computes.
//
// It never polls while idle: it blocks in epoll_wait on the listening socket, the links (one-shot
// watches, renewed by whoever read the link last) and a private eventfd (stop), so the arrival of
// a frame wakes it. That is the point of this transport beside the server one (which polls MPI):
// on a host where every core runs a rank, or where other processes compute, a request costs the
// kernel's wake-up, not a wait for a polling thread's turn. After a frame it keeps polling for
// ARMADA_TCP_SERVICE_SPIN_US, but only while the machine has an idle CPU
// (transport/base/idle_cpus.hpp): there the next request of a ping-pong saves the wake-up, and no
// thread that has work loses its core.
//
// A rank's own thread that waits in the library (a flag, a collective, a lock) serves too
// (poll_once, from the transport's poll()): it is awake and on a core already; and an origin
// waiting for an answer reads its link itself (link.hpp). While such a thread polls in a tight
// loop (waiter_polls), the service thread is not even woken: the links' watches sit in an epoll
// set of their own, which the thread's set holds as one more descriptor, switched off meanwhile.
// A sleeping thread's wake-up is paid by the sender's kernel inside its send (on the emulated
// cluster 5 -> 8-11 us per 8-byte send with a thread asleep on the receiving socket: the
// ping-pong half 5 -> 11-15 us), whether or not the woken thread finds anything to do.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "transport/base/idle_cpus.hpp"
#include "transport/tcp/link.hpp"
#include "transport/tcp/sockets.hpp"

namespace armada::rma::detail::tcp {

class Service {
 public:
  /// Starts the thread on `listener` (non-blocking). Links accepted on it run nothing until their
  /// Hello carries host.job_key (a stray connection is closed). Polls for `spin_ns` after a frame
  /// that said the next comes soon (kNextSoon), or while `idle_cpu` says a CPU is idle (it must
  /// outlive the service). host.rearm is set here.
  Service(Fd listener, LinkHost& host, long spin_ns, const IdleCpuProbe& idle_cpu);
  /// Stops and joins the thread, then closes every link.
  ~Service();
  Service(const Service&) = delete;
  Service& operator=(const Service&) = delete;

  /// A link this process opened to `peer` (connected, its Hello not yet sent): watched from now on.
  Link& add_opened(Fd fd, int peer);

  /// Serves what is ready now: for a rank's thread that waits in the library anyway, so that a
  /// request that comes meanwhile costs no wake-up of the service thread. `look_at_last_link`:
  /// first a direct look at the link served last (it holds that link's read turn for a recv:
  /// only where the caller will not lose its core meanwhile, or it would stall the link's frames).
  void poll_once(bool look_at_last_link);
  /// A thread starts (true) or stops (false) calling poll_once in a tight loop (Transport::
  /// polling): while any does, arrivals do not wake the service thread. Calls come in pairs.
  void waiter_polls(bool starts) noexcept;

  std::uint64_t wakeups() const noexcept { return wakeups_.load(std::memory_order_relaxed); }
  /// Turns in which a polling thread found frames on the link served last, read directly.
  std::uint64_t direct_reads() const noexcept { return direct_reads_.load(std::memory_order_relaxed); }
  /// How often the links' set was switched off for waiters, and whether it is watched now.
  std::uint64_t waiter_spells() const noexcept { return spells_.load(std::memory_order_relaxed); }
  bool links_watched() const noexcept { return !switched_off_.load(std::memory_order_relaxed); }
  int links_accepted() const noexcept { return accepted_.load(std::memory_order_relaxed); }
  int links_opened() const noexcept { return opened_.load(std::memory_order_relaxed); }

 private:
  void run();
  bool serve_links();  // the service thread's look at the links' set: false if nothing was served
  bool look_at_last(bool service_thread);  // a direct look at the link served last (Link::look): the same
  bool serve_event(std::uint64_t tag, bool service_thread);  // false: nothing served
  void accept_all();
  void rearm(Link& link, bool output);
  Link& keep(std::unique_ptr<Link> link);

  Fd listener_;
  LinkHost& host_;
  long spin_ns_;
  const IdleCpuProbe& idle_cpu_;
  Fd epoll_;        // the service thread's: stop_, listener_ and links_epoll_
  Fd links_epoll_;  // the links' one-shot watches
  Fd stop_;
  std::mutex waiters_mutex_;
  int waiters_ = 0;  // threads polling in a tight loop (waiter_polls): links_epoll_ is switched off in epoll_
  std::mutex links_mutex_;
  std::vector<std::unique_ptr<Link>> links_;  // kept until the end: the transport holds pointers
  bool mid_frame_ = false;                    // the link served last stopped inside a frame
  bool next_soon_ = false;                    // its last request said the next comes soon (kNextSoon)
  std::atomic<Link*> last_served_{nullptr};  // by any thread, from a fired watch (kept: links_)
  std::atomic<std::uint64_t> wakeups_{0}, spells_{0}, direct_reads_{0};
  std::atomic<bool> switched_off_{false};
  std::atomic<int> accepted_{0}, opened_{0};
  std::thread thread_;
};

}  // namespace armada::rma::detail::tcp
