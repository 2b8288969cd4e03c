// What the tests of waits that serve their node share (tests/rma/test_server_waits.cpp and the
// layers above rma, tests/linalg/test_layer_waits.cpp): the node server thread of rank 0's
// process is held (hold_node_server_threads, as a thread that never gets a core), so only rank 0
// itself, while it waits inside the library, can execute the requests that reach its node. Rank 0
// enters a blocking call first; the last rank, on another node, first needs rank 0's node to
// execute a request and only then enters the same call. A wait that blocks without serving hangs:
// a watchdog ends the job after kWatchdogSeconds, naming the call.
#pragma once

#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "armada/rma/rma.hpp"
#include "transport/server/node_server.hpp"

namespace armada::rma::test {

inline constexpr int kWatchdogSeconds = 30;

// Ends the job (MPI_Abort) if not destroyed within kWatchdogSeconds: a hang fails the row at
// once, saying which call hung, instead of running into ctest's timeout.
class Watchdog {
 public:
  explicit Watchdog(std::string what) : what_(std::move(what)), thread_([this] { watch(); }) {}
  ~Watchdog() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

 private:
  void watch() {
    std::unique_lock lock(mutex_);
    if (cv_.wait_for(lock, std::chrono::seconds(kWatchdogSeconds), [&] { return done_; })) return;
    std::fprintf(stderr,
                 "[rank %d] %s did not complete within %d s: a wait that does not serve its node server's "
                 "requests (the thread is held)\n",
                 rank(), what_.c_str(), kWatchdogSeconds);
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 3);
  }

  std::string what_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;  // last: starts once the rest is built
};

// Whether this row has the shape the tests need (the same answer on every rank): the server
// transport between nodes, and the last rank on another node than rank 0, which runs its node's
// server (the first rank of a node does).
inline bool server_shape() {
  return size() > 1 && !same_node(0, size() - 1) && transport_choice().rfind("server", 0) == 0;
}

// Rank 0 holds its node server's thread; then every rank runs `call`, the last rank only after
// rank 0 is inside it (300 ms later) and after `first` (a request rank 0's node must execute).
inline void while_held_then(const std::string& what, const std::function<void()>& call,
                            const std::function<void()>& first) {
  const int me = rank(), last = size() - 1;
  barrier();
  if (me == 0) detail::hold_node_server_threads(true);
  barrier();  // the hold is in force (this barrier's wait serves)
  {
    const Watchdog dog(what);
    if (me == last) {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      first();
    }
    call();
  }
  if (me == 0) detail::hold_node_server_threads(false);
  barrier();
}

}  // namespace armada::rma::test
