// Family "cold": operations on memory the target has just written, so that every operation moves
// cache lines between cores (or has the serving side fetch them) instead of hitting a warm cache.
// Per iteration the target rewrites (and checks) the memory, both sides meet, the origin times
// its operations, both meet again; only the operations are timed. Five measurements:
//   put        512 independent 8-byte puts into distinct lines, then a fence
//   get_chain  512 dependent 8-byte gets: each slot names the next (pointer chasing: a latency)
//   fetch_add_chain  the same chain walked with fetch-adds of 1
//   put, get   of 1 MiB the target has just written
// against MPI one-sided operations and, when ranks 0 and 1 share a host, plain loads and stores
// into rank 1's memory through an MPI shared-memory window (peer_*). Target memory: region A
// (segment and MPI window), or the peer window, with this layout: 512 slots 256 bytes apart at 0,
// the 1 MiB block at kBlockAt.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <numeric>
#include <random>

#include "common/pattern.hpp"
#include "suite/families/common.hpp"

namespace armada::bench::suite {

namespace {

constexpr std::size_t kSlots = 512, kStride = 256;   // distinct lines, no adjacent-pair prefetch
constexpr std::size_t kBlock = 1 * MiB, kBlockAt = 1 * MiB, kArea = kBlockAt + kBlock;
constexpr std::size_t kWarm = 2;                     // untimed iterations before each timed run
constexpr std::uint64_t kPutSeed = 3001, kBlockGetSeed = 3002;

enum class Kind : std::int64_t { Put, GetChain, FetchAddChain, PutBlock, GetBlock };

/// What both sides derive alike: the put slots in a fixed random order, a random single cycle
/// through the slots (slot k's word names the next: (g + 1) << 32 | next << 8, so a fetch-add of
/// 1 keeps the link readable), and the 1 MiB patterns.
struct Plan {
  std::vector<std::size_t> offsets, next;
  std::vector<std::byte> put_block, get_block;
  Plan() : offsets(kSlots), next(kSlots), put_block(kBlock), get_block(kBlock) {
    for (std::size_t k = 0; k < kSlots; ++k) offsets[k] = k * kStride;
    std::mt19937_64 rng(7);
    std::shuffle(offsets.begin(), offsets.end(), rng);
    std::iota(next.begin(), next.end(), std::size_t{0});
    for (std::size_t i = kSlots - 1; i > 0; --i) std::swap(next[i], next[std::uniform_int_distribution<std::size_t>(0, i - 1)(rng)]);
    fill_pattern(put_block.data(), kBlock, kPutSeed);
    fill_pattern(get_block.data(), kBlock, kBlockGetSeed);
  }
  static long value(std::size_t g, std::size_t k) { return static_cast<long>(g * kSlots + k + 1); }
  long link(std::size_t g, std::size_t k) const { return static_cast<long>(((g + 1) << 32) | (next[k] << 8)); }
  static std::size_t follow(long w) {
    const auto k = static_cast<std::size_t>((static_cast<unsigned long>(w) >> 8) & 0xFFFFFF);
    return k < kSlots ? k : 0;  // a corrupt word: the check reports it
  }
  /// Empty if got[s] are the words of iteration g (plus `add`) met walking from slot 0.
  std::string check_chain(std::size_t g, const std::vector<long>& got, long add) const {
    std::size_t k = 0;
    for (std::size_t s = 0; s < got.size(); ++s) {
      if (got[s] != link(g, k) + add)
        return "step " + std::to_string(s) + " (slot " + std::to_string(k) + ") read " + std::to_string(got[s]) +
               ", expected " + std::to_string(link(g, k) + add);
      k = next[k];
    }
    return {};
  }
};

const Plan& plan() {
  static const Plan the_plan;
  return the_plan;
}

std::atomic_ref<long> word_at(std::byte* base, std::size_t offset) { return std::atomic_ref<long>(*reinterpret_cast<long*>(base + offset)); }

/// The target's rewrite before iteration g; returns a problem with what iteration g - 1 left.
std::string touch(Kind kind, std::byte* base, std::size_t g) {
  const Plan& pl = plan();
  std::string problem;
  switch (kind) {
    case Kind::Put:
      for (std::size_t k = 0; k < kSlots; ++k) {
        auto w = word_at(base, pl.offsets[k]);
        if (g > 0 && problem.empty() && w.load() != Plan::value(g - 1, k))
          problem = "slot " + std::to_string(k) + " holds " + std::to_string(w.load()) + ", expected " + std::to_string(Plan::value(g - 1, k));
        w.store(-1);
      }
      break;
    case Kind::GetChain:
    case Kind::FetchAddChain:
      for (std::size_t k = 0; k < kSlots; ++k) {
        auto w = word_at(base, k * kStride);
        if (kind == Kind::FetchAddChain && g > 0 && problem.empty() && w.load() != pl.link(g - 1, k) + 1)
          problem = "counter " + std::to_string(k) + " is " + std::to_string(w.load()) + ", expected " + std::to_string(pl.link(g - 1, k) + 1);
        w.store(pl.link(g, k));
      }
      break;
    case Kind::PutBlock:
      if (g > 0 && std::memcmp(base + kBlockAt, pl.put_block.data(), kBlock) != 0) problem = "the 1 MiB block differs from the source";
      std::memset(base + kBlockAt, static_cast<int>(g & 0x7f), kBlock);
      break;
    case Kind::GetBlock:
      std::memcpy(base + kBlockAt, pl.get_block.data(), kBlock);
      store_word(base + kBlockAt, g);
      store_word(base + kBlockAt + kBlock - 8, g);
      break;
  }
  return problem;
}

/// One contestant: its operation on iteration g (timed), and the origin's check of it (untimed).
struct ColdRun {
  std::string method;
  Mem mem;
  std::function<void(std::size_t)> op;
  std::function<std::string(std::size_t)> check;  // may be empty
  std::size_t next = 0;                           // iterations done (g of the next one)
  Outcome out;
};

/// The origin's side of the interleaved cold measurement: per repetition, each contestant runs
/// kWarm + iters iterations in step with the target.
void run_cold(Pass& p, Kind kind, std::vector<ColdRun>& runs, std::size_t iters, std::size_t ops_per_iter) {
  for (ColdRun& r : runs) r.out.verified = true;
  for (int rep = 0; rep < p.opt->reps; ++rep)
    for (ColdRun& r : runs) {
      send_command(p, T, {Cmd::Cold, r.mem, static_cast<std::int64_t>(kind), i64(r.next), i64(kWarm + iters)});
      Stopwatch watch;
      for (std::size_t it = 0; it < kWarm + iters; ++it) {
        const std::size_t g = r.next++;
        pair_step(p);
        if (it >= kWarm) watch.start();
        r.op(g);
        if (it >= kWarm) watch.stop();
        if (r.check && !local_check(p, "cold " + r.out.op + " " + r.method, r.check(g))) r.out.verified = false;
        pair_step(p);
      }
      if (reply(p, T) != 0) {
        ++p.failures;
        std::fprintf(stderr, "[rank 0] VERIFICATION FAILED [%s]: cold %s %s (checked by rank 1)\n", p.transport.c_str(),
                     r.out.op.c_str(), r.method.c_str());
        r.out.verified = false;
      }
      r.out.us.push_back(watch.total() / static_cast<double>(iters * ops_per_iter) * 1e6);
      r.out.iterations = iters;
    }
}

/// The contestants of `kind`: Armada on the segment, MPI on the window, loads and stores on the
/// peer window (each only where available).
std::vector<ColdRun> contestants(Pass& p, Kind kind, std::vector<long>& vals, std::vector<long>& got) {
  const Plan& pl = plan();
  std::byte* const seg = p.seg + p.layout.a();
  std::byte* const peer = p.peer;
  const std::size_t win = p.layout.a();
  const bool mpi = p.win.ok();
  std::vector<ColdRun> runs;
  auto add = [&runs](bool available, const char* method, Mem mem, std::function<void(std::size_t)> op,
                     std::function<std::string(std::size_t)> check) {
    if (available) runs.push_back(ColdRun{method, mem, std::move(op), std::move(check), 0, Outcome{}});
  };
  auto chain_check = [&pl, &got](std::size_t g) { return pl.check_chain(g, got, 0); };
  auto walk = [&got](auto&& step) {  // follows the chain from slot 0, step(k) reading slot k
    std::size_t k = 0;
    for (std::size_t s = 0; s < kSlots; ++s) k = Plan::follow(got[s] = step(k));
  };
  auto block_check = [&p, &pl](std::size_t g) -> std::string {
    if (load_word(p.dst) != g || load_word(p.dst + kBlock - 8) != g ||
        std::memcmp(p.dst + 8, pl.get_block.data() + 8, kBlock - 16) != 0)
      return "data differs from what the target wrote in iteration " + std::to_string(g);
    return {};
  };
  auto put_slots = [&pl, &vals](auto&& store) {  // store(value, slot offset) for every slot
    return [&pl, &vals, store](std::size_t g) {
      for (std::size_t k = 0; k < kSlots; ++k) vals[k] = Plan::value(g, k);
      for (std::size_t k = 0; k < kSlots; ++k) store(&vals[k], pl.offsets[k]);
    };
  };
  switch (kind) {
    case Kind::Put:
      add(true, "armada", Mem::Segment, [&, put = put_slots([seg](long* v, std::size_t at) { rma::put(v, seg + at, 8, T); })](std::size_t g) {
            put(g);
            rma::fence(T);  // complete before the target checks them
          }, {});
      add(peer, "peer_store", Mem::Peer, put_slots([peer](long* v, std::size_t at) { word_at(peer, at).store(*v, std::memory_order_relaxed); }), {});
      add(mpi, "mpi_put_flush", Mem::Window, put_slots([&p, win](long* v, std::size_t at) { p.win.put_flush(v, 8, T, win + at); }), {});
      break;
    case Kind::GetChain:
      add(true, "armada", Mem::Segment, [=](std::size_t) {
            walk([&](std::size_t k) { long v; rma::get(seg + k * kStride, &v, 8, T); return v; });
          }, chain_check);
      add(peer, "peer_load", Mem::Peer, [=](std::size_t) {
            walk([&](std::size_t k) { return word_at(peer, k * kStride).load(std::memory_order_relaxed); });
          }, chain_check);
      add(mpi, "mpi_get_flush", Mem::Window, [=, &p](std::size_t) {
            walk([&](std::size_t k) { long v; p.win.get_flush(&v, 8, T, win + k * kStride); return v; });
          }, chain_check);
      break;
    case Kind::FetchAddChain:
      add(true, "armada", Mem::Segment, [=](std::size_t) {
            walk([&](std::size_t k) { return rma::fetch_add(rma::GlobalPtr<long>(T, reinterpret_cast<long*>(seg + k * kStride)), 1L); });
          }, chain_check);
      add(peer, "peer_atomic", Mem::Peer, [=](std::size_t) {
            walk([&](std::size_t k) { return word_at(peer, k * kStride).fetch_add(1); });
          }, chain_check);
      add(mpi, "mpi_fetch_and_op", Mem::Window, [=, &p](std::size_t) {
            walk([&](std::size_t k) { return p.win.fetch_add(1, T, win + k * kStride); });
          }, chain_check);
      break;
    case Kind::PutBlock:
      add(true, "armada", Mem::Segment, [=, &p](std::size_t) { rma::put(p.src, seg + kBlockAt, kBlock, T); rma::fence(T); }, {});
      add(peer, "peer_memcpy", Mem::Peer, [=, &p](std::size_t) { std::memcpy(peer + kBlockAt, p.src, kBlock); clobber(peer); }, {});
      add(mpi, "mpi_put_flush", Mem::Window, [=, &p](std::size_t) { p.win.put_flush(p.src, kBlock, T, win + kBlockAt); }, {});
      break;
    case Kind::GetBlock:
      add(true, "armada", Mem::Segment, [=, &p](std::size_t) { rma::get(seg + kBlockAt, p.dst, kBlock, T); }, block_check);
      add(peer, "peer_memcpy", Mem::Peer, [=, &p](std::size_t) { std::memcpy(p.dst, peer + kBlockAt, kBlock); clobber(p.dst); }, block_check);
      add(mpi, "mpi_get_flush", Mem::Window, [=, &p](std::size_t) { p.win.get_flush(p.dst, kBlock, T, win + kBlockAt); }, block_check);
      break;
  }
  return runs;
}

struct KindInfo {
  Kind kind;
  const char* op;
  const char* label;
  bool block;
};
constexpr KindInfo kKinds[] = {
    {Kind::Put, "put", "8 B put, 512 independent", false},
    {Kind::GetChain, "get_chain", "8 B get, dependent chain", false},
    {Kind::FetchAddChain, "fetch_add_chain", "fetch_add, dependent chain", false},
    {Kind::PutBlock, "put", "1 MiB put", true},
    {Kind::GetBlock, "get", "1 MiB get", true},
};

void cold_kind(Pass& p, const KindInfo& info) {
  p.progress->next("cold " + p.transport + " " + info.label);
  std::vector<long> vals(kSlots), got(kSlots);
  if (info.kind == Kind::PutBlock) std::memcpy(p.src, plan().put_block.data(), kBlock);
  std::vector<ColdRun> runs = contestants(p, info.kind, vals, got);
  for (ColdRun& r : runs) r.out.op = info.op, r.out.method = r.method;
  const std::size_t iters = info.block ? (p.opt->quick ? 8 : 40) : (p.opt->quick ? 10 : 100);
  run_cold(p, info.kind, runs, iters, info.block ? 1 : kSlots);
  const std::size_t bytes = info.block ? kBlock : 8;
  for (ColdRun& r : runs) add_records(p, "cold", r.out, bytes, 0, 0, static_cast<double>(bytes), info.block);
  const Unit unit = info.block ? Unit::GBps : Unit::Micros;
  for (std::size_t i = 1; i < runs.size(); ++i) row(p, info.label, bytes, unit, runs[0].out, &runs[i].out);
  if (runs.size() == 1) row(p, info.label, bytes, unit, runs[0].out, nullptr);
}

}  // namespace

long cold_target(Pass& p, const Command& m) {
  std::byte* base = m.mem == Mem::Peer ? p.peer
                    : m.mem == Mem::Window ? p.win.local() + p.layout.a()
                                           : static_cast<std::byte*>(p.bases[1]) + p.layout.a();
  long failures = 0;
  for (std::int64_t it = 0; it < m.c; ++it) {
    const auto g = static_cast<std::size_t>(m.b + it);
    if (m.mem == Mem::Window) p.win.sync();
    const std::string problem = touch(static_cast<Kind>(m.a), base, g);
    if (m.mem == Mem::Window) p.win.sync();
    if (!problem.empty()) {
      fail(p, "cold: what the origin left in iteration " + std::to_string(g - 1), problem);
      ++failures;
    }
    pair_step(p);
    pair_step(p);
  }
  return failures;
}

void open_peer_window(Pass& p) {
  MPI_Comm_split(p.comm, p.me <= 1 && p.same_host ? 0 : MPI_UNDEFINED, p.me, &p.pair);
  if (p.pair == MPI_COMM_NULL) {
    if (p.me <= 1) p.peer_error = "ranks 0 and 1 are on different hosts";
    return;
  }
  MPI_Comm_set_errhandler(p.pair, MPI_ERRORS_RETURN);
  void* base = nullptr;
  const int rc = MPI_Win_allocate_shared(p.me == 1 ? static_cast<MPI_Aint>(kArea) : 0, 1, MPI_INFO_NULL, p.pair, &base, &p.peer_win);
  int ok = rc == MPI_SUCCESS, all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, p.pair);
  if (!all) {
    if (rc == MPI_SUCCESS) MPI_Win_free(&p.peer_win);
    p.peer_win = MPI_WIN_NULL;
    p.peer_error = "MPI_Win_allocate_shared failed: " + mpi_error_string(rc);
    return;
  }
  MPI_Aint size = 0;
  int disp = 0;
  void* peer = nullptr;
  MPI_Win_shared_query(p.peer_win, 1, &size, &disp, &peer);
  p.peer = static_cast<std::byte*>(peer);
  if (p.me == 1) std::memset(p.peer, 0, kArea);
  MPI_Barrier(p.pair);
}

void close_peer_window(Pass& p) {
  if (p.peer_win != MPI_WIN_NULL) MPI_Win_free(&p.peer_win);
  if (p.pair != MPI_COMM_NULL) MPI_Comm_free(&p.pair);
  p.peer = nullptr;
}

void family_cold(Pass& p) {
  section(p, "cold [" + p.transport + "]: the target rewrites the memory between iterations (us per op over 512 "
                   "slots in distinct lines; GB/s for 1 MiB; ratio = armada / baseline)");
  if (!p.peer) p.table->note("peer (shared-window) baselines unavailable: " + p.peer_error);
  for (const KindInfo& k : kKinds) cold_kind(p, k);
}

}  // namespace armada::bench::suite
