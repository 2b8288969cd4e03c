// Family "atomic": fetch-add and lock + unlock latency against MPI_Fetch_and_op, MPI_Win_lock,
// one MPI send/recv round trip and one round trip over a plain TCP socket between the same ranks
// (what any remote atomic needs at least; measured here, alternated with the atomics, because
// the link's speed drifts between the families of a launch) and the same operations on the
// origin's own memory. Verified: the previous values of the fetch-adds run in sequence,
// and fetch-adds and locked get + put increments from both sides at once (the origin through the
// pass's transport, the target on its own memory) all add up.
#include <atomic>
#include <cstring>

#include "common/pattern.hpp"
#include "suite/families/common.hpp"

namespace armada::bench::suite {

namespace {

struct Counters {
  long adds = 0, madds = 0, bad = 0, mbad = 0;
  long local = 0;
  std::atomic<int> spin{0};
};

void add_contestants(Pass& p, Counters& k, std::vector<Contestant>& cs, std::vector<std::string>& ops) {
  const Layout& L = p.layout;
  const rma::GlobalPtr<long> counter(T, reinterpret_cast<long*>(p.seg + L.slots() + Layout::kCounter));
  cs.emplace_back("armada", timed([&k, counter] {
                    if (rma::fetch_add(counter, 1L) != k.adds) ++k.bad;
                    ++k.adds;
                  }));
  ops.push_back("fetch_add");
  cs.emplace_back("armada", timed([&p] {
                    p.mutexes.lock(0, T);
                    p.mutexes.unlock(0, T);
                  }));
  ops.push_back("lock_unlock");
  if (p.win.ok()) {
    cs.emplace_back("mpi_fetch_and_op", timed([&p, &k, &L] {
                      if (p.win.fetch_add(1, T, L.slots() + Layout::kMpiCounter) != k.madds) ++k.mbad;
                      ++k.madds;
                    }));
    ops.push_back("fetch_add");
  }
  if (p.lock_win.ok()) {
    cs.emplace_back("mpi_win_lock_excl", timed([&p] {
                      p.lock_win.lock_exclusive(T);
                      p.lock_win.unlock(T);
                    }));
    ops.push_back("lock_unlock");
  }
  cs.emplace_back("mpi_pingpong_rtt", [&p](std::size_t n) {  // one whole 8-byte round trip per iteration
    const Rotation one(8, 8, false);
    call(p, T, {Cmd::Echo, Mem::Segment, 8, i64(n), i64(one.step), i64(one.count), 0});
    const double t = pingpong(p.comm, T, kTagPing, p.src, p.recv, 8, n, one);
    return t;
  });
  ops.push_back("round_trip");
  if (p.link.ok()) {
    cs.emplace_back("socket_pingpong_rtt", [&p](std::size_t n) {
      const Rotation one(8, 8, false);
      call(p, T, {Cmd::SocketEcho, Mem::Link, 8, i64(n), i64(one.step), i64(one.count), 0});
      return p.link.pingpong(p.src, p.link_recv, 8, n, one, 0);
    });
    ops.push_back("round_trip");
  }
  cs.emplace_back("local_atomic", timed([&k] {
                    const long old = std::atomic_ref<long>(k.local).fetch_add(1);
                    clobber(&old);
                  }));
  ops.push_back("fetch_add");
  cs.emplace_back("local_spinlock", timed([&k] {
                    while (k.spin.exchange(1, std::memory_order_acquire) != 0) {
                    }
                    k.spin.store(0, std::memory_order_release);
                  }));
  ops.push_back("lock_unlock");
}

/// Both sides at once: n fetch-adds and n locked increments each. True if the counters hold the
/// timed adds plus 2n, and 2n.
bool both_sides(Pass& p, long adds) {
  const Layout& L = p.layout;
  const long n = p.opt->quick ? 200 : 2000;
  const rma::GlobalPtr<long> counter(T, reinterpret_cast<long*>(p.seg + L.slots() + Layout::kCounter));
  const rma::GlobalPtr<long> locked(T, reinterpret_cast<long*>(p.seg + L.slots() + Layout::kLocked));
  call(p, T, {Cmd::MixedAtomic, Mem::Segment, n});
  for (long i = 0; i < n; ++i) {
    rma::fetch_add(counter, 1L);
    p.mutexes.lock(0, T);
    rma::put_value(rma::get_value(locked) + 1, locked);
    p.mutexes.unlock(0, T);
  }
  reply(p, T);  // the target is done
  const std::int64_t c = call(p, T, {Cmd::GetLong, Mem::Segment, i64(L.slots() + Layout::kCounter)});
  const std::int64_t l = call(p, T, {Cmd::GetLong, Mem::Segment, i64(L.slots() + Layout::kLocked)});
  const bool ok = local_check(p, "fetch_add from both sides", c == adds + 2 * n ? "" : "counter is " + std::to_string(c) +
                                                                                     ", expected " + std::to_string(adds + 2 * n));
  return local_check(p, "locked increments from both sides",
                     l == 2 * n ? "" : "counter is " + std::to_string(l) + ", expected " + std::to_string(2 * n)) && ok;
}

void verify(Pass& p, Counters& k, std::vector<Outcome>& out) {
  const Layout& L = p.layout;
  const bool sides = both_sides(p, k.adds);
  for (Outcome& o : out) {
    if (o.method == "armada") {
      o.verified = sides && (o.op != "fetch_add" || local_check(p, "fetch_add", k.bad ? std::to_string(k.bad) + " previous values out of sequence" : ""));
    } else if (o.method == "mpi_fetch_and_op") {
      const std::int64_t v = call(p, T, {Cmd::GetLong, Mem::Window, i64(L.slots() + Layout::kMpiCounter)});
      o.verified = local_check(p, "MPI_Fetch_and_op", k.mbad ? std::to_string(k.mbad) + " previous values out of sequence" : "") &&
                   local_check(p, "MPI_Fetch_and_op counter", v == k.madds ? "" : "is " + std::to_string(v) + ", expected " + std::to_string(k.madds));
    } else if (o.method == "mpi_pingpong_rtt") {
      o.verified = local_check(p, "MPI ping-pong 8 B echo", check_pattern(p.recv, 8, 8000));
    } else if (o.method == "socket_pingpong_rtt") {
      o.verified = local_check(p, "TCP socket ping-pong 8 B echo", check_pattern(p.link_recv, 8, 8000));
    } else if (o.method == "local_atomic") {
      o.verified = local_check(p, "local atomic", k.local > 0 ? "" : "no increment");
    } else {
      o.verified = true;  // the locks move no data; their result is the lock's own correctness
    }
    add_records(p, "atomic", o, 8, 0, 0, 0, false);
  }
}

}  // namespace

void family_atomic(Pass& p) {
  const Layout& L = p.layout;
  section(p, "read-modify-write and lock [" + p.transport + "] (us; ratio = armada / MPI, armada / one MPI round trip, "
                   "armada / local)");
  p.progress->next("atomic " + p.transport);
  call(p, T, {Cmd::SetLong, Mem::Segment, i64(L.slots() + Layout::kCounter), 0});
  call(p, T, {Cmd::SetLong, Mem::Segment, i64(L.slots() + Layout::kLocked), 0});
  if (p.win.ok()) call(p, T, {Cmd::SetLong, Mem::Window, i64(L.slots() + Layout::kMpiCounter), 0});
  fill_pattern(p.src, 8, 8000);
  std::memset(p.recv, 0, 8);
  if (p.link.ok()) std::memset(p.link_recv, 0, 8);
  Counters k;
  std::vector<Contestant> cs;
  std::vector<std::string> ops;
  add_contestants(p, k, cs, ops);
  std::vector<Outcome> out = run_all(p, cs, ops);
  verify(p, k, out);
  Outcome* rtt = find(out, "mpi_pingpong_rtt");
  for (const char* op : {"fetch_add", "lock_unlock"}) {
    Outcome* a = find(out, "armada", op);
    Outcome* mpi = find(out, op == std::string("fetch_add") ? "mpi_fetch_and_op" : "mpi_win_lock_excl");
    row(p, op, 8, Unit::Micros, *a, mpi);
    row(p, std::string(op) + " vs MPI round trip", 8, Unit::Micros, *a, rtt);
    if (Outcome* socket_rtt = find(out, "socket_pingpong_rtt"))
      row(p, std::string(op) + " vs socket round trip", 8, Unit::Micros, *a, socket_rtt);
    row(p, std::string(op) + " vs local", 8, Unit::Micros, *a, find(out, op == std::string("fetch_add") ? "local_atomic" : "local_spinlock"));
  }
}

}  // namespace armada::bench::suite
