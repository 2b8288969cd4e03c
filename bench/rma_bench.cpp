// armada-bench-rma: the shared-memory (same node) rma core against its baselines.
//
// Rank 0 is the origin, rank 1 the target (a single rank targets itself; ranks 2 and up only
// take part in the collective setup). Every figure is measured R times (--reps) and reported
// as median [min .. max], interleaved repetition by repetition with the baselines it is
// compared with, all in this one launch:
//   memcpy         memcpy between two buffers of rank 0 (hot figures)
//   peer_memcpy    plain loads/stores into the target's memory through an MPI-3 shared
//                  window (MPI_Win_allocate_shared + MPI_Win_shared_query), for cold figures
//   mpi_*          MPI-3 RMA on an MPI_Win_allocate window under MPI_Win_lock_all
//   local_*        the same work done locally (atomic, spinlock, axpy, scattered stores)
// "hot" repeats the operation on the same memory; "cold" makes the target write the memory
// between the origin's iterations, so that every operation moves cache lines between cores.
// Each operation kind's data is verified; any mismatch makes the exit status 1.
//
//   mpiexec -n 2 armada-bench-rma [--quick] [--reps N] [--output results.json]
#include <mpi.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <numeric>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "armada/rma/rma.hpp"
#include "common/host.hpp"
#include "common/measure.hpp"
#include "common/mpi_baseline.hpp"
#include "common/options.hpp"
#include "common/pattern.hpp"
#include "common/results.hpp"
#include "common/session.hpp"
#include "common/stats.hpp"
#include "common/timing.hpp"

namespace rma = armada::rma;
namespace bench = armada::bench;
using bench::Stats;
using bench::Unit;

namespace {

constexpr std::size_t KiB = 1024;
constexpr std::size_t MiB = 1024 * KiB;

// ---- memory layout ----------------------------------------------------------------------------
// The target's rma segment: a 16 MiB data region, then a slot region. The MPI window and the
// shared window on the target use the same layout with a 1 MiB data region.
constexpr std::size_t kDataBytes = 16 * MiB;
constexpr std::size_t kSmallDataBytes = 1 * MiB;
constexpr std::size_t kSlotBytes = 256 * KiB;
// Inside the slot region:
constexpr std::size_t kColdSlots = 512;        // cold 8-byte operations: one slot per ...
constexpr std::size_t kColdStride = 256;       // ... 256 bytes (distinct lines, no pair prefetch)
constexpr std::size_t kHotSlot = 192 * KiB;    // hot 8-byte put/get
constexpr std::size_t kHotCounter = kHotSlot + 256;
constexpr std::size_t kLockCounter = kHotSlot + 512;
// Origin buffers (rank 0, private): kLocalBytes each.
constexpr std::size_t kLocalBytes = 16 * MiB;
// Strided operations compared with a contiguous one of the same size use this remote offset
// (past the 2 MiB extent of the largest strided case) and this local offset.
constexpr std::size_t kContigCompareOffset = 4 * MiB;
constexpr std::size_t kContigCompareLocal = 8 * MiB;
// Scattered puts: 1000 distinct 8-byte slots of the first 1 MiB of the data region.
constexpr std::size_t kScatterOps = 1000;
constexpr std::size_t kScatterRegion = 1 * MiB;

const char* const kGroups = "contig,strided,acc,atomic,mutex,scatter";

// ---- patterns (common/pattern.hpp) ------------------------------------------------------------
using bench::check_pattern;
using bench::check_zero;
using bench::fill_pattern;
using bench::load_word;
using bench::store_word;

// ---- context ----------------------------------------------------------------------------------

/// One memory area of the target: `origin_view` is the address the origin passes to the
/// operation (an rma address, or a directly usable pointer for the shared window); `local` is
/// the target's own pointer to it (valid on the target only). `slots` is the slot region offset.
struct Area {
  std::byte* origin_view = nullptr;
  std::byte* local = nullptr;
  std::size_t slots = 0;
};

struct Ctx {
  bench::Options opt;
  int me = 0, nranks = 1;
  int target_rank = 0;
  bool origin = false;        // this rank issues the operations (world rank 0)
  bool target = false;        // this rank owns the target memory (rank 1, or 0 alone)
  bool two = false;           // origin and target are different processes
  MPI_Comm pair = MPI_COMM_NULL;

  Area seg;                   // the rma segment
  bool raw_ok = false;        // shared window available (two ranks only)
  Area raw;
  MPI_Win raw_win = MPI_WIN_NULL;
  bool mpi_ok = false;        // MPI_Win_allocate window under lock_all
  Area mpi;                   // origin_view unused: MPI addresses by displacement
  bench::MpiWindow mpi_win;
  bool mpi_lock_ok = false;   // a second window for MPI_Win_lock / MPI_Win_unlock
  bench::MpiWindow mpi_lock_win;
  std::string mpi_error;

  rma::MutexSet mutexes;
  std::byte* src = nullptr;   // origin-local buffers
  std::byte* dst = nullptr;
  std::byte* scratch = nullptr;
  bench::ResultWriter* out = nullptr;
  long failures = 0;
};

void fail(Ctx& c, const std::string& what, const std::string& detail) {
  ++c.failures;
  std::fprintf(stderr, "[rank %d] VERIFICATION FAILED: %s: %s\n", c.me, what.c_str(), detail.c_str());
  std::fflush(stderr);
}

void expect(Ctx& c, const std::string& what, const std::string& problem) {
  if (!problem.empty()) fail(c, what, problem);
}

// ---- synchronization of the pair ----------------------------------------------------------------

void pair_barrier(const Ctx& c) {
  if (c.two) MPI_Barrier(c.pair);
}

/// A step of the program: both ranks synchronize, then the target (or origin) does `f`.
/// With one rank, rank 0 plays both roles in turn.
template <class F>
void step_target(Ctx& c, F&& f) {
  pair_barrier(c);
  if (c.target) f();
}

template <class F>
void step_origin(Ctx& c, F&& f) {
  pair_barrier(c);
  if (c.origin) f();
}

/// The origin's value of `v`, on both ranks.
long long share(const Ctx& c, long long v) {
  if (c.two) MPI_Bcast(&v, 1, MPI_LONG_LONG, 0, c.pair);
  return v;
}

// ---- measurement ------------------------------------------------------------------------------

using bench::Contestant;
using bench::looped;

/// Origin only. The interleaved measurement of common/measure.hpp; `work` is bytes per
/// operation for GB/s (one operation per iteration).
std::vector<Stats> measure(const Ctx& c, std::vector<Contestant>& cs, Unit unit, double work) {
  for (Contestant& k : cs) {
    k.unit = unit;
    k.per_iter = unit == Unit::GBps ? work : 1;
  }
  return bench::measure(cs, c.opt.reps, c.opt.rep_seconds);
}

/// A cold contestant, run by both ranks. Per iteration g: the target runs touch(g) (writes the
/// memory the operation will use, and checks what the previous iteration left there); both
/// synchronize; the origin runs prepare(g) untimed, op(g) timed, check(g) untimed; both
/// synchronize. Only op(g) is timed.
struct Cold {
  std::string name;
  std::function<void(std::size_t)> touch;
  std::function<void(std::size_t)> op;
  std::function<void(std::size_t)> prepare;  // may be empty
  std::function<void(std::size_t)> check;    // may be empty
};

std::vector<Stats> measure_cold(const Ctx& c, std::vector<Cold>& cs, Unit unit, double work,
                                std::size_t iters, std::size_t ops_per_iter) {
  constexpr std::size_t kWarm = 2;
  std::vector<std::vector<double>> samples(cs.size());
  std::vector<std::size_t> next(cs.size(), 0);
  for (int r = 0; r < c.opt.reps; ++r)
    for (std::size_t i = 0; i < cs.size(); ++i) {
      bench::Stopwatch watch;
      for (std::size_t it = 0; it < kWarm + iters; ++it) {
        const std::size_t g = next[i]++;
        if (c.target) cs[i].touch(g);
        pair_barrier(c);
        if (c.origin) {
          if (cs[i].prepare) cs[i].prepare(g);
          if (it >= kWarm) watch.start();
          cs[i].op(g);
          if (it >= kWarm) watch.stop();
          if (cs[i].check) cs[i].check(g);
        }
        pair_barrier(c);
      }
      if (c.origin)
        samples[i].push_back(bench::figure(unit, unit == Unit::GBps ? work : 1, watch.total(), iters * ops_per_iter));
    }
  std::vector<Stats> stats;
  for (const auto& s : samples) stats.push_back(bench::summarize(s));
  return stats;
}

/// Origin only: one record per baseline (contestants 1..n compared with contestant 0).
void emit(Ctx& c, const std::string& bench_name, const std::string& label, std::size_t bytes,
          const std::string& variant, Unit unit, const std::vector<std::string>& names,
          const std::vector<Stats>& stats, const std::vector<bench::Field>& extra = {}) {
  bench::Result r;
  r.bench = bench_name;
  r.label = label;
  r.bytes = bytes;
  r.variant = variant;
  r.unit = unit;
  r.armada = stats[0];
  r.fields = extra;
  if (names.size() == 1) {
    c.out->add(r);
    return;
  }
  for (std::size_t i = 1; i < names.size(); ++i) {
    r.baseline = names[i];
    r.baseline_stats = stats[i];
    c.out->add(r);
  }
}

std::vector<std::string> names_of(const std::vector<Contestant>& cs) {
  std::vector<std::string> v;
  for (const auto& k : cs) v.push_back(k.name);
  return v;
}

std::vector<std::string> names_of(const std::vector<Cold>& cs) {
  std::vector<std::string> v;
  for (const auto& k : cs) v.push_back(k.name);
  return v;
}

// ---- MPI helpers ------------------------------------------------------------------------------

void mpi_put(const Ctx& c, const void* src, std::size_t bytes, std::size_t disp) {
  c.mpi_win.put_flush(src, bytes, c.target_rank, disp);
}

void mpi_get(const Ctx& c, void* dst, std::size_t bytes, std::size_t disp) {
  c.mpi_win.get_flush(dst, bytes, c.target_rank, disp);
}

long mpi_fetch_add(const Ctx& c, long value, std::size_t disp) { return c.mpi_win.fetch_add(value, c.target_rank, disp); }

/// On the target: makes its own stores to the MPI window visible to MPI (and MPI's to it).
void mpi_sync(const Ctx& c) {
  if (c.mpi_ok) c.mpi_win.sync();
}

// ---- contiguous put and get -------------------------------------------------------------------

std::vector<std::size_t> bandwidth_sizes(const Ctx& c) {
  if (c.opt.quick) return {8, 4 * KiB, 1 * MiB};
  return {8, 64, 512, 4 * KiB, 32 * KiB, 256 * KiB, 1 * MiB, 4 * MiB, 16 * MiB};
}

void bench_latency_hot(Ctx& c) {
  const int T = c.target_rank;
  std::byte* const rslot = c.seg.origin_view + c.seg.slots + kHotSlot;
  const std::size_t mslot = c.mpi.slots + kHotSlot;
  c.out->section("8-byte latency, hot (us per operation; ratio = armada / baseline, lower is better)");

  // put
  step_origin(c, [&] {
    fill_pattern(c.src, 8, 101);
    std::vector<Contestant> cs;
    cs.push_back({"armada", looped([&](std::size_t) { rma::put(c.src, rslot, 8, T); })});
    cs.push_back({"memcpy", looped([&](std::size_t) {
                    std::memcpy(c.scratch, c.src, 8);
                    bench::clobber(c.scratch);
                  })});
    if (c.mpi_ok) cs.push_back({"mpi_put_flush", looped([&](std::size_t) { mpi_put(c, c.src, 8, mslot); })});
    emit(c, "put_lat", "put", 8, "hot", Unit::Micros, names_of(cs), measure(c, cs, Unit::Micros, 8));
    rma::fence(T);
  });
  step_target(c, [&] {
    expect(c, "put 8 B (hot)", check_pattern(c.seg.local + c.seg.slots + kHotSlot, 8, 101));
    if (c.mpi_ok) {
      mpi_sync(c);
      expect(c, "MPI_Put 8 B (hot)", check_pattern(c.mpi.local + c.mpi.slots + kHotSlot, 8, 101));
    }
  });

  // get
  step_target(c, [&] {
    fill_pattern(c.seg.local + c.seg.slots + kHotSlot, 8, 102);
    if (c.mpi_ok) {
      fill_pattern(c.mpi.local + c.mpi.slots + kHotSlot, 8, 102);
      mpi_sync(c);
    }
  });
  step_origin(c, [&] {
    std::memset(c.dst, 0, 16);
    std::vector<Contestant> cs;
    cs.push_back({"armada", looped([&](std::size_t) { rma::get(rslot, c.dst, 8, T); })});
    cs.push_back({"memcpy", looped([&](std::size_t) {
                    std::memcpy(c.scratch, c.src, 8);
                    bench::clobber(c.scratch);
                  })});
    if (c.mpi_ok) cs.push_back({"mpi_get_flush", looped([&](std::size_t) { mpi_get(c, c.dst + 8, 8, mslot); })});
    emit(c, "get_lat", "get", 8, "hot", Unit::Micros, names_of(cs), measure(c, cs, Unit::Micros, 8));
    expect(c, "get 8 B (hot)", check_pattern(c.dst, 8, 102));
    if (c.mpi_ok) expect(c, "MPI_Get 8 B (hot)", check_pattern(c.dst + 8, 8, 102));
  });
}

void bench_bandwidth_hot(Ctx& c) {
  const int T = c.target_rank;
  c.out->section("contiguous bandwidth, hot (GB/s; ratio = armada / baseline, higher is better)");
  const auto sizes = bandwidth_sizes(c);
  for (std::size_t si = 0; si < sizes.size(); ++si) {
    const std::size_t n = sizes[si];
    const bool with_mpi = c.mpi_ok && n == 1 * MiB;
    const std::uint64_t put_seed = 1000 + si, get_seed = 2000 + si;

    step_origin(c, [&] {
      fill_pattern(c.src, n, put_seed);
      std::vector<Contestant> cs;
      cs.push_back({"armada", looped([&](std::size_t) { rma::put(c.src, c.seg.origin_view, n, T); })});
      cs.push_back({"memcpy", looped([&](std::size_t) {
                      std::memcpy(c.scratch, c.src, n);
                      bench::clobber(c.scratch);
                    })});
      if (with_mpi) cs.push_back({"mpi_put_flush", looped([&](std::size_t) { mpi_put(c, c.src, n, 0); })});
      emit(c, "put_bw", "put", n, "hot", Unit::GBps, names_of(cs), measure(c, cs, Unit::GBps, double(n)));
      rma::fence(T);
    });
    step_target(c, [&] {
      expect(c, "put " + bench::format_bytes(n) + " (hot)", check_pattern(c.seg.local, n, put_seed));
      if (with_mpi) {
        mpi_sync(c);
        expect(c, "MPI_Put " + bench::format_bytes(n), check_pattern(c.mpi.local, n, put_seed));
      }
    });

    step_target(c, [&] {
      fill_pattern(c.seg.local, n, get_seed);
      if (with_mpi) {
        fill_pattern(c.mpi.local, n, get_seed);
        mpi_sync(c);
      }
    });
    step_origin(c, [&] {
      std::memset(c.dst, 0, n);
      std::vector<Contestant> cs;
      cs.push_back({"armada", looped([&](std::size_t) { rma::get(c.seg.origin_view, c.dst, n, T); })});
      cs.push_back({"memcpy", looped([&](std::size_t) {
                      std::memcpy(c.scratch, c.src, n);
                      bench::clobber(c.scratch);
                    })});
      if (with_mpi) cs.push_back({"mpi_get_flush", looped([&](std::size_t) { mpi_get(c, c.scratch + n, n, 0); })});
      emit(c, "get_bw", "get", n, "hot", Unit::GBps, names_of(cs), measure(c, cs, Unit::GBps, double(n)));
      expect(c, "get " + bench::format_bytes(n) + " (hot)", check_pattern(c.dst, n, get_seed));
      if (with_mpi) expect(c, "MPI_Get " + bench::format_bytes(n), check_pattern(c.scratch + n, n, get_seed));
    });
  }
}

/// The cold slots: kColdSlots offsets (in the slot region) in a fixed random order.
std::vector<std::size_t> cold_slot_offsets() {
  std::vector<std::size_t> off(kColdSlots);
  for (std::size_t k = 0; k < kColdSlots; ++k) off[k] = k * kColdStride;
  std::mt19937_64 rng(7);
  std::shuffle(off.begin(), off.end(), rng);
  return off;
}

long& slot_at(std::byte* base, std::size_t offset) { return *reinterpret_cast<long*>(base + offset); }

/// A dependent chain over the cold slots: slot k (at k * kColdStride) holds the index of the
/// next slot of one random cycle through all of them, so every access waits for the previous
/// one (no overlap of cache misses: the figure is a latency). A slot's word is
/// (iteration + 1) << 32 | next << 8, so a fetch_add of 1 keeps the link readable.
struct Chain {
  std::vector<std::size_t> next;
  explicit Chain(std::size_t n) : next(n) {
    std::iota(next.begin(), next.end(), std::size_t{0});
    std::mt19937_64 rng(11);
    for (std::size_t i = n - 1; i > 0; --i) {  // Sattolo: a single cycle
      std::uniform_int_distribution<std::size_t> pick(0, i - 1);
      std::swap(next[i], next[pick(rng)]);
    }
  }
  std::size_t size() const noexcept { return next.size(); }
  static long word(std::size_t g, std::size_t next_slot) noexcept {
    return static_cast<long>(((g + 1) << 32) | (next_slot << 8));
  }
  long word_of(std::size_t g, std::size_t k) const noexcept { return word(g, next[k]); }
  /// The slot a word links to (0 if the word is corrupt, which the check then reports).
  std::size_t follow(long w) const noexcept {
    const auto k = static_cast<std::size_t>((static_cast<unsigned long>(w) >> 8) & 0xFFFFFF);
    return k < next.size() ? k : 0;
  }
  /// Empty if got[s], s = 0..n-1, are the words of iteration g met walking from slot 0.
  std::string check(std::size_t g, const std::vector<long>& got, long add) const {
    std::size_t k = 0;
    for (std::size_t s = 0; s < got.size(); ++s) {
      if (got[s] != word_of(g, k) + add)
        return "step " + std::to_string(s) + " (slot " + std::to_string(k) + ") read " + std::to_string(got[s]) +
               ", expected " + std::to_string(word_of(g, k) + add);
      k = next[k];
    }
    return {};
  }
};

std::size_t cold_iterations(const Ctx& c, bool large) {
  if (c.opt.quick) return large ? 8 : 10;
  return large ? 40 : 100;
}

void bench_latency_cold(Ctx& c) {
  const int T = c.target_rank;
  const auto off = cold_slot_offsets();
  const std::size_t K = off.size();
  c.out->section("8-byte latency, cold: the target writes " + std::to_string(K) +
                 " slots (distinct lines) between iterations; us per op over the batch");
  std::vector<long> vals(K), got(K);
  auto value = [K](std::size_t g, std::size_t k) { return static_cast<long>(g * K + k + 1); };

  // put: the origin writes value(g, k); before iteration g+1 the target checks it and
  // overwrites the slot (so the line is modified in the target's cache again).
  auto touch_put = [&](std::byte* base, bool mpi, const char* what) {
    return [&, base, mpi, what](std::size_t g) {
      if (mpi) mpi_sync(c);
      for (std::size_t k = 0; k < K; ++k) {
        std::atomic_ref<long> s(slot_at(base, off[k]));
        if (g > 0 && s.load(std::memory_order_relaxed) != value(g - 1, k))
          fail(c, what, "slot " + std::to_string(k) + " holds " + std::to_string(s.load()) + ", expected " +
                            std::to_string(value(g - 1, k)));
        s.store(-1, std::memory_order_relaxed);
      }
      if (mpi) mpi_sync(c);
    };
  };
  auto prepare_put = [&](std::size_t g) {
    for (std::size_t k = 0; k < K; ++k) vals[k] = value(g, k);
  };
  {
    std::vector<Cold> cs;
    std::byte* rs = c.seg.origin_view + c.seg.slots;
    cs.push_back({"armada", touch_put(c.seg.local + c.seg.slots, false, "put 8 B (cold)"),
                  [&, rs](std::size_t) {
                    for (std::size_t k = 0; k < K; ++k) rma::put(&vals[k], rs + off[k], 8, T);
                  },
                  prepare_put, {}});
    if (c.raw_ok) {
      std::byte* ps = c.raw.origin_view + c.raw.slots;
      cs.push_back({"peer_memcpy", touch_put(c.raw.local + c.raw.slots, false, "store 8 B to peer (cold)"),
                    [&, ps](std::size_t) {
                      for (std::size_t k = 0; k < K; ++k) std::memcpy(ps + off[k], &vals[k], 8);
                      bench::clobber(ps);
                    },
                    prepare_put, {}});
    }
    if (c.mpi_ok)
      cs.push_back({"mpi_put_flush", touch_put(c.mpi.local + c.mpi.slots, true, "MPI_Put 8 B (cold)"),
                    [&](std::size_t) {
                      for (std::size_t k = 0; k < K; ++k) mpi_put(c, &vals[k], 8, c.mpi.slots + off[k]);
                    },
                    prepare_put, {}});
    auto st = measure_cold(c, cs, Unit::Micros, 8, cold_iterations(c, false), K);
    if (c.origin)
      emit(c, "put_lat", "put (independent stream)", 8, "cold", Unit::Micros, names_of(cs), st,
           {bench::field("ops_per_batch", (long long)K), bench::field("dependent", std::string("no"))});
  }

  // get: a dependent chain through K lines the target has just written (pointer chasing).
  const Chain chain(K);
  auto touch_chain = [&](std::byte* base, bool mpi) {
    return [&, base, mpi](std::size_t g) {
      for (std::size_t k = 0; k < K; ++k)
        std::atomic_ref<long>(slot_at(base, k * kColdStride)).store(chain.word_of(g, k), std::memory_order_relaxed);
      if (mpi) mpi_sync(c);
    };
  };
  auto check_chain = [&](const char* what) {
    return [&, what](std::size_t g) { expect(c, what, chain.check(g, got, 0)); };
  };
  {
    std::vector<Cold> cs;
    std::byte* rs = c.seg.origin_view + c.seg.slots;
    cs.push_back({"armada", touch_chain(c.seg.local + c.seg.slots, false),
                  [&, rs](std::size_t) {
                    std::size_t k = 0;
                    for (std::size_t s = 0; s < K; ++s) {
                      rma::get(rs + k * kColdStride, &got[s], 8, T);
                      k = chain.follow(got[s]);
                    }
                  },
                  {}, check_chain("get 8 B (cold chain)")});
    if (c.raw_ok) {
      std::byte* ps = c.raw.origin_view + c.raw.slots;
      cs.push_back({"peer_load", touch_chain(c.raw.local + c.raw.slots, false),
                    [&, ps](std::size_t) {
                      std::size_t k = 0;
                      for (std::size_t s = 0; s < K; ++s) {
                        got[s] = std::atomic_ref<long>(slot_at(ps, k * kColdStride)).load(std::memory_order_relaxed);
                        k = chain.follow(got[s]);
                      }
                    },
                    {}, check_chain("load 8 B from peer (cold chain)")});
    }
    if (c.mpi_ok)
      cs.push_back({"mpi_get_flush", touch_chain(c.mpi.local + c.mpi.slots, true),
                    [&](std::size_t) {
                      std::size_t k = 0;
                      for (std::size_t s = 0; s < K; ++s) {
                        mpi_get(c, &got[s], 8, c.mpi.slots + k * kColdStride);
                        k = chain.follow(got[s]);
                      }
                    },
                    {}, check_chain("MPI_Get 8 B (cold chain)")});
    auto st = measure_cold(c, cs, Unit::Micros, 8, cold_iterations(c, false), K);
    if (c.origin)
      emit(c, "get_lat", "get (dependent chain)", 8, "cold", Unit::Micros, names_of(cs), st,
           {bench::field("ops_per_batch", (long long)K), bench::field("dependent", std::string("yes"))});
  }
}

void bench_bandwidth_cold(Ctx& c) {
  const int T = c.target_rank;
  constexpr std::size_t n = 1 * MiB;
  constexpr std::uint64_t kPutSeed = 3001, kGetSeed = 3002;
  c.out->section("1 MiB bandwidth, cold: the target writes the whole region between iterations (GB/s)");
  // Expected contents, private to each rank.
  std::vector<std::byte> expect_put(n), expect_get(n);
  fill_pattern(expect_put.data(), n, kPutSeed);
  fill_pattern(expect_get.data(), n, kGetSeed);
  if (c.origin) std::memcpy(c.src, expect_put.data(), n);

  // put: the target checks the previous iteration's data, then overwrites the region.
  auto touch_put = [&](std::byte* base, bool mpi, const char* what) {
    return [&, base, mpi, what](std::size_t g) {
      if (mpi) mpi_sync(c);
      if (g > 0 && std::memcmp(base, expect_put.data(), n) != 0) fail(c, what, "region differs from the source");
      std::memset(base, static_cast<int>(g & 0x7f), n);
      if (mpi) mpi_sync(c);
    };
  };
  {
    std::vector<Cold> cs;
    cs.push_back({"armada", touch_put(c.seg.local, false, "put 1 MiB (cold)"),
                  [&](std::size_t) { rma::put(c.src, c.seg.origin_view, n, T); }, {}, {}});
    if (c.raw_ok)
      cs.push_back({"peer_memcpy", touch_put(c.raw.local, false, "memcpy 1 MiB to peer (cold)"),
                    [&](std::size_t) {
                      std::memcpy(c.raw.origin_view, c.src, n);
                      bench::clobber(c.raw.origin_view);
                    },
                    {}, {}});
    if (c.mpi_ok)
      cs.push_back({"mpi_put_flush", touch_put(c.mpi.local, true, "MPI_Put 1 MiB (cold)"),
                    [&](std::size_t) { mpi_put(c, c.src, n, 0); }, {}, {}});
    auto st = measure_cold(c, cs, Unit::GBps, double(n), cold_iterations(c, true), 1);
    if (c.origin) emit(c, "put_bw", "put", n, "cold", Unit::GBps, names_of(cs), st);
  }

  // get: the target writes the region (tagged with g in its first and last word).
  auto touch_get = [&](std::byte* base, bool mpi) {
    return [&, base, mpi](std::size_t g) {
      std::memcpy(base, expect_get.data(), n);
      store_word(base, g);
      store_word(base + n - 8, g);
      if (mpi) mpi_sync(c);
    };
  };
  auto check_get = [&](const char* what) {
    return [&, what](std::size_t g) {
      if (load_word(c.dst) != g || load_word(c.dst + n - 8) != g ||
          std::memcmp(c.dst + 8, expect_get.data() + 8, n - 16) != 0)
        fail(c, what, "data differs from what the target wrote in iteration " + std::to_string(g));
    };
  };
  {
    std::vector<Cold> cs;
    cs.push_back({"armada", touch_get(c.seg.local, false),
                  [&](std::size_t) { rma::get(c.seg.origin_view, c.dst, n, T); }, {},
                  check_get("get 1 MiB (cold)")});
    if (c.raw_ok)
      cs.push_back({"peer_memcpy", touch_get(c.raw.local, false),
                    [&](std::size_t) {
                      std::memcpy(c.dst, c.raw.origin_view, n);
                      bench::clobber(c.dst);
                    },
                    {}, check_get("memcpy 1 MiB from peer (cold)")});
    if (c.mpi_ok)
      cs.push_back({"mpi_get_flush", touch_get(c.mpi.local, true),
                    [&](std::size_t) { mpi_get(c, c.dst, n, 0); }, {}, check_get("MPI_Get 1 MiB (cold)")});
    auto st = measure_cold(c, cs, Unit::GBps, double(n), cold_iterations(c, true), 1);
    if (c.origin) emit(c, "get_bw", "get", n, "cold", Unit::GBps, names_of(cs), st);
  }
}

void bench_contig(Ctx& c) {
  bench_latency_hot(c);
  bench_bandwidth_hot(c);
  if (c.two) {
    bench_latency_cold(c);
    bench_bandwidth_cold(c);
  } else {
    c.out->note("(cold variants need two ranks: skipped)");
  }
}

// ---- strided ----------------------------------------------------------------------------------

void bench_strided(Ctx& c) {
  const int T = c.target_rank;
  const std::vector<std::size_t> seg_sizes{16, 1 * KiB};
  const std::vector<std::size_t> counts =
      c.opt.quick ? std::vector<std::size_t>{1, 64, 1024} : std::vector<std::size_t>{1, 4, 16, 64, 256, 1024};
  c.out->section("strided 2-D, hot: count = {seg, nseg}, remote stride 2*seg, local stride ls (GB/s)");
  std::uint64_t seed = 4000;
  for (const std::size_t seg : seg_sizes)
    for (const std::size_t nseg : counts)
      for (const std::size_t ls : c.opt.quick ? std::vector<std::size_t>{seg} : std::vector<std::size_t>{seg, 2 * seg}) {
        const std::size_t rs = 2 * seg, bytes = seg * nseg;
        const std::size_t count[2] = {seg, nseg};
        const std::size_t lstride[1] = {ls}, rstride[1] = {rs};
        const bool compare_contig = nseg == counts.back();
        const std::string shape = std::to_string(seg) + "Bx" + std::to_string(nseg) + " ls=" + std::to_string(ls);
        const std::vector<bench::Field> extra{bench::field("seg_bytes", (long long)seg), bench::field("nseg", (long long)nseg),
                                              bench::field("local_stride", (long long)ls),
                                              bench::field("remote_stride", (long long)rs)};
        const std::uint64_t put_seed = ++seed, get_seed = ++seed;

        // put
        step_target(c, [&] { std::memset(c.seg.local, 0, rs * nseg); });
        step_origin(c, [&] {
          fill_pattern(c.src, ls * nseg, put_seed);
          std::vector<Contestant> cs;
          cs.push_back({"armada", looped([&](std::size_t) {
                          rma::put_strided(c.src, lstride, c.seg.origin_view, rstride, count, T);
                        })});
          cs.push_back({"memcpy", looped([&](std::size_t) {
                          std::memcpy(c.scratch, c.src, bytes);
                          bench::clobber(c.scratch);
                        })});
          if (compare_contig)
            cs.push_back({"armada_contiguous", looped([&](std::size_t) {
                            rma::put(c.src, c.seg.origin_view + kContigCompareOffset, bytes, T);
                          })});
          emit(c, "put_strided_bw", "put_strided " + shape, bytes, "hot", Unit::GBps, names_of(cs),
               measure(c, cs, Unit::GBps, double(bytes)), extra);
          rma::fence(T);
        });
        step_target(c, [&] {
          for (std::size_t j = 0; j < nseg; ++j) {
            const std::byte* run = c.seg.local + j * rs;
            std::string e = check_pattern(run, seg, put_seed, j * ls / 8);
            if (e.empty()) e = check_zero(run + seg, rs - seg);
            if (!e.empty()) {
              fail(c, "put_strided " + shape, "segment " + std::to_string(j) + ": " + e);
              break;
            }
          }
        });

        // get
        step_target(c, [&] { fill_pattern(c.seg.local, rs * nseg, get_seed); });
        step_origin(c, [&] {
          std::memset(c.dst, 0, ls * nseg);
          std::vector<Contestant> cs;
          cs.push_back({"armada", looped([&](std::size_t) {
                          rma::get_strided(c.seg.origin_view, rstride, c.dst, lstride, count, T);
                        })});
          cs.push_back({"memcpy", looped([&](std::size_t) {
                          std::memcpy(c.scratch, c.src, bytes);
                          bench::clobber(c.scratch);
                        })});
          if (compare_contig)
            cs.push_back({"armada_contiguous", looped([&](std::size_t) {
                            rma::get(c.seg.origin_view + kContigCompareOffset, c.dst + kContigCompareLocal, bytes, T);
                          })});
          emit(c, "get_strided_bw", "get_strided " + shape, bytes, "hot", Unit::GBps, names_of(cs),
               measure(c, cs, Unit::GBps, double(bytes)), extra);
          for (std::size_t j = 0; j < nseg; ++j) {
            const std::byte* run = c.dst + j * ls;
            std::string e = check_pattern(run, seg, get_seed, j * rs / 8);
            if (e.empty() && ls > seg) e = check_zero(run + seg, ls - seg);
            if (!e.empty()) {
              fail(c, "get_strided " + shape, "segment " + std::to_string(j) + ": " + e);
              break;
            }
          }
        });
      }
}

// ---- accumulate -------------------------------------------------------------------------------

void bench_acc(Ctx& c) {
  const int T = c.target_rank;
  const std::vector<std::size_t> sizes =
      c.opt.quick ? std::vector<std::size_t>{4 * KiB, 1 * MiB} : std::vector<std::size_t>{4 * KiB, 64 * KiB, 1 * MiB};
  c.out->section("accumulate double (dst += scale * src), hot (GB/s of src consumed)");
  auto src_value = [](std::size_t i) { return static_cast<double>(i % 8 + 1); };
  for (const std::size_t n : sizes)
    for (const double scale : {1.0, 2.0}) {
      const std::size_t count = n / sizeof(double);
      long long issued = 0;
      step_target(c, [&] { std::memset(c.seg.local, 0, n); });
      step_origin(c, [&] {
        auto* s = reinterpret_cast<double*>(c.src);
        for (std::size_t i = 0; i < count; ++i) s[i] = src_value(i);
        std::vector<Contestant> cs;
        auto acc_loop = looped([&](std::size_t) {
          rma::acc(rma::AccType::Double, &scale, c.src, c.seg.origin_view, n, T);
        });
        cs.push_back({"armada", [&issued, acc_loop](std::size_t iters) mutable {
                        issued += static_cast<long long>(iters);
                        return acc_loop(iters);
                      }});
        cs.push_back({"memcpy", looped([&](std::size_t) {
                        std::memcpy(c.scratch, c.src, n);
                        bench::clobber(c.scratch);
                      })});
        cs.push_back({"local_axpy", looped([&](std::size_t) {
                        double* __restrict d = reinterpret_cast<double*>(c.scratch);
                        const double* __restrict x = reinterpret_cast<const double*>(c.src);
                        const double a = scale;
                        const std::size_t m = count;
                        for (std::size_t i = 0; i < m; ++i) d[i] += a * x[i];
                        bench::clobber(d);
                      })});
        char label[32];
        std::snprintf(label, sizeof label, "acc double scale=%g", scale);
        emit(c, "acc_bw", label, n, "hot", Unit::GBps, names_of(cs), measure(c, cs, Unit::GBps, double(n)),
             {bench::field("scale", scale)});
        rma::fence(T);
      });
      issued = share(c, issued);
      step_target(c, [&] {
        const auto* d = reinterpret_cast<const double*>(c.seg.local);
        for (std::size_t i = 0; i < count; ++i) {
          const double want = static_cast<double>(issued) * scale * src_value(i);
          if (d[i] != want) {
            char buf[160];
            std::snprintf(buf, sizeof buf, "element %zu is %.17g, expected %.17g after %lld accumulates", i, d[i],
                          want, issued);
            fail(c, "acc " + bench::format_bytes(n), buf);
            break;
          }
        }
      });
    }
}

// ---- atomics ----------------------------------------------------------------------------------

void bench_atomic(Ctx& c) {
  const int T = c.target_rank;
  c.out->section("fetch_add on a long, hot (us per operation; lower is better)");
  {
    long long issued = 0, mpi_issued = 0;
    auto* remote = reinterpret_cast<long*>(c.seg.origin_view + c.seg.slots + kHotCounter);
    const std::size_t mdisp = c.mpi.slots + kHotCounter;
    step_target(c, [&] {
      slot_at(c.seg.local + c.seg.slots, kHotCounter) = 0;
      if (c.mpi_ok) {
        slot_at(c.mpi.local + c.mpi.slots, kHotCounter) = 0;
        mpi_sync(c);
      }
    });
    step_origin(c, [&] {
      long local_counter = 0;
      std::vector<Contestant> cs;
      auto armada_loop = looped([&](std::size_t) {
        const long old = rma::fetch_add(rma::GlobalPtr<long>(T, remote), 1L);
        bench::clobber(&old);
      });
      cs.push_back({"armada", [&issued, armada_loop](std::size_t n) mutable {
                      issued += static_cast<long long>(n);
                      return armada_loop(n);
                    }});
      cs.push_back({"local_atomic", looped([&](std::size_t) {
                      const long old = std::atomic_ref<long>(local_counter).fetch_add(1);
                      bench::clobber(&old);
                    })});
      if (c.mpi_ok) {
        auto mpi_loop = looped([&](std::size_t) { mpi_fetch_add(c, 1, mdisp); });
        cs.push_back({"mpi_fetch_and_op", [&mpi_issued, mpi_loop](std::size_t n) mutable {
                        mpi_issued += static_cast<long long>(n);
                        return mpi_loop(n);
                      }});
      }
      emit(c, "fetch_add_lat", "fetch_add", 8, "hot", Unit::Micros, names_of(cs), measure(c, cs, Unit::Micros, 8));
    });
    issued = share(c, issued);
    mpi_issued = share(c, mpi_issued);
    step_target(c, [&] {
      const long v = std::atomic_ref<long>(slot_at(c.seg.local + c.seg.slots, kHotCounter)).load();
      if (v != issued)
        fail(c, "fetch_add (hot)", "counter is " + std::to_string(v) + " after " + std::to_string(issued) + " adds");
      if (c.mpi_ok) {
        mpi_sync(c);
        const long m = slot_at(c.mpi.local + c.mpi.slots, kHotCounter);
        if (m != mpi_issued)
          fail(c, "MPI_Fetch_and_op (hot)", "counter is " + std::to_string(m) + " after " + std::to_string(mpi_issued) + " adds");
      }
    });
  }

  if (!c.two) {
    c.out->note("(cold variant needs two ranks: skipped)");
    return;
  }
  // Cold: the target stores a fresh chain word into each of K counters (distinct lines) between
  // iterations; the origin walks the chain with fetch_add(1), each next counter named by the
  // value the previous fetch_add returned, so the atomics cannot overlap; the target then
  // checks every counter was incremented once.
  const std::size_t K = kColdSlots;
  const Chain chain(K);
  c.out->section("fetch_add, cold: dependent chain through " + std::to_string(K) +
                 " counters the target has just written (us per op)");
  std::vector<long> got(K);
  auto touch = [&](std::byte* base, bool mpi, const char* what) {
    return [&, base, mpi, what](std::size_t g) {
      if (mpi) mpi_sync(c);
      for (std::size_t k = 0; k < K; ++k) {
        std::atomic_ref<long> s(slot_at(base, k * kColdStride));
        if (g > 0 && s.load() != chain.word_of(g - 1, k) + 1)
          fail(c, what, "counter " + std::to_string(k) + " is " + std::to_string(s.load()) + ", expected " +
                            std::to_string(chain.word_of(g - 1, k) + 1));
        s.store(chain.word_of(g, k));
      }
      if (mpi) mpi_sync(c);
    };
  };
  auto check = [&](const char* what) {
    return [&, what](std::size_t g) { expect(c, what, chain.check(g, got, 0)); };
  };
  std::vector<Cold> cs;
  std::byte* rs = c.seg.origin_view + c.seg.slots;
  cs.push_back({"armada", touch(c.seg.local + c.seg.slots, false, "fetch_add (cold)"),
                [&, rs](std::size_t) {
                  std::size_t k = 0;
                  for (std::size_t s = 0; s < K; ++s) {
                    got[s] = rma::fetch_add(rma::GlobalPtr<long>(T, reinterpret_cast<long*>(rs + k * kColdStride)), 1L);
                    k = chain.follow(got[s]);
                  }
                },
                {}, check("fetch_add (cold)")});
  if (c.raw_ok) {
    std::byte* ps = c.raw.origin_view + c.raw.slots;
    cs.push_back({"peer_atomic", touch(c.raw.local + c.raw.slots, false, "atomic fetch_add on peer (cold)"),
                  [&, ps](std::size_t) {
                    std::size_t k = 0;
                    for (std::size_t s = 0; s < K; ++s) {
                      got[s] = std::atomic_ref<long>(slot_at(ps, k * kColdStride)).fetch_add(1);
                      k = chain.follow(got[s]);
                    }
                  },
                  {}, check("atomic fetch_add on peer (cold)")});
  }
  if (c.mpi_ok)
    cs.push_back({"mpi_fetch_and_op", touch(c.mpi.local + c.mpi.slots, true, "MPI_Fetch_and_op (cold)"),
                  [&](std::size_t) {
                    std::size_t k = 0;
                    for (std::size_t s = 0; s < K; ++s) {
                      got[s] = mpi_fetch_add(c, 1, c.mpi.slots + k * kColdStride);
                      k = chain.follow(got[s]);
                    }
                  },
                  {}, check("MPI_Fetch_and_op (cold)")});
  auto st = measure_cold(c, cs, Unit::Micros, 8, cold_iterations(c, false), K);
  if (c.origin)
    emit(c, "fetch_add_lat", "fetch_add (dependent chain)", 8, "cold", Unit::Micros, names_of(cs), st,
         {bench::field("ops_per_batch", (long long)K), bench::field("dependent", std::string("yes"))});
}

// ---- mutexes ----------------------------------------------------------------------------------

void bench_mutex(Ctx& c) {
  const int T = c.target_rank;
  c.out->section("mutex 0 of the target: lock + unlock, uncontended (us per pair)");
  step_origin(c, [&] {
    std::atomic<int> spin{0};
    std::vector<Contestant> cs;
    cs.push_back({"armada", looped([&](std::size_t) {
                    c.mutexes.lock(0, T);
                    c.mutexes.unlock(0, T);
                  })});
    cs.push_back({"local_spinlock", looped([&](std::size_t) {
                    while (spin.exchange(1, std::memory_order_acquire) != 0) {
                    }
                    spin.store(0, std::memory_order_release);
                  })});
    if (c.mpi_lock_ok)
      cs.push_back({"mpi_win_lock_excl", looped([&](std::size_t) {
                      c.mpi_lock_win.lock_exclusive(T);
                      c.mpi_lock_win.unlock(T);
                    })});
    emit(c, "lock_unlock_lat", "lock+unlock", 0, "hot", Unit::Micros, names_of(cs), measure(c, cs, Unit::Micros, 0));
  });

  // Verification: both ranks increment a counter in the target's segment under the mutex
  // with an unprotected get / put; no increment may be lost.
  const long rounds = c.opt.quick ? 200 : 2000;
  auto* counter = reinterpret_cast<long*>(c.seg.origin_view + c.seg.slots + kLockCounter);
  step_target(c, [&] { slot_at(c.seg.local + c.seg.slots, kLockCounter) = 0; });
  pair_barrier(c);
  if (c.origin || c.target)
    for (long i = 0; i < rounds; ++i) {
      c.mutexes.lock(0, T);
      const long v = rma::get_value(rma::GlobalPtr<long>(T, counter));
      rma::put_value(v + 1, rma::GlobalPtr<long>(T, counter));
      rma::fence(T);
      c.mutexes.unlock(0, T);
    }
  step_target(c, [&] {
    const long want = rounds * (c.two ? 2 : 1);
    const long v = slot_at(c.seg.local + c.seg.slots, kLockCounter);
    if (v != want)
      fail(c, "mutex", "counter is " + std::to_string(v) + " after " + std::to_string(want) + " protected increments");
  });
}

// ---- scattered puts ---------------------------------------------------------------------------

void bench_scatter(Ctx& c) {
  const int T = c.target_rank;
  c.out->section("1000 scattered 8-byte puts into 1 MiB (us per batch of 1000; lower is better)");
  // Distinct random slots (same on both ranks: fixed seed).
  std::vector<std::size_t> slot(kScatterRegion / 8);
  std::iota(slot.begin(), slot.end(), std::size_t{0});
  std::mt19937_64 rng(2024);
  for (std::size_t k = 0; k < kScatterOps; ++k) {
    std::uniform_int_distribution<std::size_t> pick(k, slot.size() - 1);
    std::swap(slot[k], slot[pick(rng)]);
  }
  slot.resize(kScatterOps);
  std::vector<std::size_t> order(kScatterOps);  // order[j]: the j-th slot in ascending order
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return slot[a] < slot[b]; });

  // Values by method (tag): element k goes to slot[k].
  enum Method { kBlocking = 1, kVector, kVectorSorted, kAggregate };
  std::vector<std::vector<long>> vals(5, std::vector<long>(kScatterOps));
  for (int m = 1; m <= 4; ++m)
    for (std::size_t k = 0; k < kScatterOps; ++k) vals[m][k] = m * 1000000L + static_cast<long>(k) + 1;
  auto pointers = [&](int m, bool sorted, std::vector<void*>& src, std::vector<void*>& dst) {
    src.resize(kScatterOps);
    dst.resize(kScatterOps);
    for (std::size_t j = 0; j < kScatterOps; ++j) {
      const std::size_t k = sorted ? order[j] : j;
      src[j] = &vals[m][k];
      dst[j] = c.seg.origin_view + slot[k] * 8;
    }
  };
  std::vector<void*> src_v, dst_v, src_s, dst_s, src_b, dst_b, src_a, dst_a;
  pointers(kBlocking, false, src_b, dst_b);
  pointers(kVector, false, src_v, dst_v);
  pointers(kVectorSorted, true, src_s, dst_s);
  pointers(kAggregate, false, src_a, dst_a);
  const rma::IoSet set_v{src_v, dst_v, 8}, set_s{src_s, dst_s, 8};

  auto blocking = [&] {
    for (std::size_t k = 0; k < kScatterOps; ++k) rma::put(src_b[k], dst_b[k], 8, T);
  };
  auto put_vec = [&] { rma::put_vector(std::span(&set_v, 1), T); };
  auto put_vec_sorted = [&] { rma::put_vector(std::span(&set_s, 1), T); };
  auto aggregate = [&](rma::Aggregate& agg) {
    for (std::size_t k = 0; k < kScatterOps; ++k) agg.put(src_a[k], dst_a[k], 8);
    agg.wait();
  };

  // Verify each method once: zero the region, run it, the target checks every slot.
  const char* const names[] = {"", "blocking puts", "put_vector", "put_vector (ascending)", "Aggregate"};
  for (int m = 1; m <= 4; ++m) {
    step_target(c, [&] { std::memset(c.seg.local, 0, kScatterRegion); });
    step_origin(c, [&] {
      if (m == kBlocking) blocking();
      if (m == kVector) put_vec();
      if (m == kVectorSorted) put_vec_sorted();
      if (m == kAggregate) {
        rma::Aggregate agg(T);
        aggregate(agg);
      }
      rma::fence(T);
    });
    step_target(c, [&] {
      const auto* words = reinterpret_cast<const long*>(c.seg.local);
      std::size_t nonzero = 0;
      for (std::size_t i = 0; i < kScatterRegion / 8; ++i) nonzero += words[i] != 0;
      std::string e;
      for (std::size_t k = 0; k < kScatterOps && e.empty(); ++k)
        if (words[slot[k]] != vals[m][k])
          e = "slot " + std::to_string(slot[k]) + " holds " + std::to_string(words[slot[k]]) + ", expected " +
              std::to_string(vals[m][k]);
      if (e.empty() && nonzero != kScatterOps)
        e = std::to_string(nonzero) + " words written, expected " + std::to_string(kScatterOps);
      expect(c, std::string("scattered ") + names[m], e);
    });
  }

  step_origin(c, [&] {
    std::byte* local = c.scratch;
    std::memset(local, 0, kScatterRegion);
    std::vector<Contestant> cs;
    cs.push_back({"blocking", looped([&](std::size_t) { blocking(); })});
    cs.push_back({"vector", looped([&](std::size_t) { put_vec(); })});
    cs.push_back({"vector_sorted", looped([&](std::size_t) { put_vec_sorted(); })});
    cs.push_back({"aggregate", [&](std::size_t n) {
                    rma::Aggregate agg(T);
                    const auto t0 = bench::Clock::now();
                    for (std::size_t i = 0; i < n; ++i) aggregate(agg);
                    return bench::seconds(t0, bench::Clock::now());
                  }});
    cs.push_back({"local_scatter", looped([&](std::size_t) {
                    for (std::size_t k = 0; k < kScatterOps; ++k) std::memcpy(local + slot[k] * 8, &vals[1][k], 8);
                    bench::clobber(local);
                  })});
    const auto st = measure(c, cs, Unit::Micros, 0);
    const std::vector<bench::Field> extra{bench::field("ops", (long long)kScatterOps)};
    const std::size_t bytes = kScatterOps * 8;
    emit(c, "scatter_put_blocking", "1000 x rma::put", bytes, "hot", Unit::Micros, {"armada", "local_scatter"},
         {st[0], st[4]}, extra);
    emit(c, "scatter_put_vector", "put_vector (random order)", bytes, "hot", Unit::Micros,
         {"armada", "local_scatter", "armada_vector_sorted"}, {st[1], st[4], st[2]}, extra);
    emit(c, "scatter_put_vector_sorted", "put_vector (ascending)", bytes, "hot", Unit::Micros,
         {"armada", "local_scatter"}, {st[2], st[4]}, extra);
    emit(c, "scatter_aggregate", "Aggregate 1000 put + wait", bytes, "hot", Unit::Micros,
         {"armada", "local_scatter", "armada_vector"}, {st[3], st[4], st[1]}, extra);
  });
}

// ---- setup ------------------------------------------------------------------------------------

/// The MPI baselines: an MPI_Win_allocate window under lock_all (put, get, fetch_and_op), a
/// second one for MPI_Win_lock, and (two ranks) a shared window for plain loads and stores.
/// Window creation errors are reported, not fatal: the figures are then left out.
void create_mpi_windows(Ctx& c) {
  const bool owner = c.me == c.target_rank;
  const std::size_t small = kSmallDataBytes + kSlotBytes;
  c.mpi_ok = c.mpi_win.create(MPI_COMM_WORLD, owner ? small : 0, true);
  if (!c.mpi_ok) c.mpi_error = c.mpi_win.error();
  c.mpi.local = c.mpi_win.local();
  c.mpi.slots = kSmallDataBytes;
  c.mpi_lock_ok = c.mpi_lock_win.create(MPI_COMM_WORLD, owner ? 64 : 0, false);
  if (!c.mpi_lock_ok && c.mpi_error.empty()) c.mpi_error = c.mpi_lock_win.error();

  if (c.two && c.pair != MPI_COMM_NULL) {
    MPI_Comm_set_errhandler(c.pair, MPI_ERRORS_RETURN);
    void* base = nullptr;
    const int rc = MPI_Win_allocate_shared(owner ? static_cast<MPI_Aint>(small) : 0, 1, MPI_INFO_NULL, c.pair, &base, &c.raw_win);
    if (rc != MPI_SUCCESS && c.mpi_error.empty()) c.mpi_error = "MPI_Win_allocate_shared: " + bench::mpi_error_string(rc);
    int ok = rc == MPI_SUCCESS, all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, c.pair);
    c.raw_ok = all != 0;
    if (c.raw_ok) {
      MPI_Aint size = 0;
      int disp = 0;
      void* peer = nullptr;
      MPI_Win_shared_query(c.raw_win, 1, &size, &disp, &peer);
      c.raw.origin_view = static_cast<std::byte*>(peer);
      c.raw.local = static_cast<std::byte*>(base);
      c.raw.slots = kSmallDataBytes;
      if (owner) std::memset(base, 0, small);
    } else if (rc == MPI_SUCCESS) {
      MPI_Win_free(&c.raw_win);
    }
    MPI_Comm_set_errhandler(c.pair, MPI_ERRORS_ARE_FATAL);
  }
}

void free_mpi_windows(Ctx& c) {
  if (c.raw_ok) MPI_Win_free(&c.raw_win);
  c.mpi_lock_win.free();
  c.mpi_win.free();
}

/// Pins rank 0 and rank 1 to the first and second CPU of the affinity mask the launcher gave
/// (so that "cold" really moves lines between two cores and neither migrates). A mask of one
/// CPU (the launcher bound the rank) is left alone. Returns what was done.
std::string pin_to_cpu(const Ctx& c) {
  if (!c.opt.pin || c.me > 1) return "not pinned";
  const std::string done = bench::pin_to_cpu_index(c.me);
  return done.rfind("cpu ", 0) == 0 ? "pinned to " + done : done;
}

/// The CPU each of ranks 0 and 1 runs on now, as "a,b" (on rank 0).
std::string current_cpus(const Ctx& c) {
  int cpu = sched_getcpu(), other = cpu;
  if (c.two) {
    if (c.me == 1) MPI_Send(&cpu, 1, MPI_INT, 0, 77, c.pair);
    if (c.me == 0) MPI_Recv(&other, 1, MPI_INT, 1, 77, c.pair, MPI_STATUS_IGNORE);
  }
  return c.two ? std::to_string(cpu) + "," + std::to_string(other) : std::to_string(cpu);
}

using bench::load_average;

std::vector<bench::Field> run_description(const Ctx& c, const std::string& pinning, const std::string& cpus) {
  auto env = [](const char* name) { return bench::env_or(name, "(default)"); };
  return {bench::field("ranks", (long long)c.nranks),
          bench::field("origin", 0LL),
          bench::field("target", (long long)c.target_rank),
          bench::field("reps", (long long)c.opt.reps),
          bench::field("rep_ms", c.opt.rep_seconds * 1000),
          bench::field("quick", std::string(c.opt.quick ? "yes" : "no")),
          bench::field("host", bench::host_name()),
          bench::field("mpi", bench::mpi_library_version()),
          bench::field("OMPI_MCA_osc", env("OMPI_MCA_osc")),
          bench::field("OMPI_MCA_btl", env("OMPI_MCA_btl")),
          bench::field("mpi_rma_baseline", std::string(c.mpi_ok ? "yes" : "no")),
          bench::field("peer_shared_window", std::string(c.raw_ok ? "yes" : (c.two ? "no" : "n/a"))),
          bench::field("pinning", pinning),
          bench::field("cpus", cpus),
          bench::field("loadavg_start", load_average())};
}

int run(int argc, char** argv) {
  Ctx c;
  c.me = rma::rank();
  c.nranks = rma::size();
  const bool root = c.me == 0;

  // Options (every rank parses the same arguments, so every rank takes the same exit).
  try {
    c.opt = bench::parse_options(argc, argv);
  } catch (const std::invalid_argument& e) {
    if (root) std::fprintf(stderr, "armada-bench-rma: %s\n%s", e.what(), bench::usage(argv[0], kGroups).c_str());
    return 2;
  }
  if (const std::string g = bench::unknown_group(c.opt, kGroups); !g.empty()) {
    if (root) std::fprintf(stderr, "armada-bench-rma: --only: unknown group '%s' (groups: %s)\n", g.c_str(), kGroups);
    return 2;
  }
  if (c.opt.help) {
    if (root) std::printf("%s", bench::usage(argv[0], kGroups).c_str());
    return 0;
  }

  c.target_rank = c.nranks > 1 ? 1 : 0;
  c.origin = c.me == 0;
  c.target = c.me == c.target_rank;
  c.two = c.nranks > 1;
  if (!rma::same_node(0, c.target_rank)) {
    if (root)
      std::fprintf(stderr, "armada-bench-rma: ranks 0 and 1 are on different nodes; this benchmark measures the "
                           "shared-memory (same node) path. Run both on one node.\n");
    return 2;
  }
  if (root) {
    if (c.nranks == 1)
      std::printf("armada-bench-rma: 1 rank: rank 0 targets its own segment (cold variants need 2 ranks).\n");
    else if (c.nranks > 2)
      std::printf("armada-bench-rma: started with %d ranks; only ranks 0 (origin) and 1 (target) take part, "
                  "the others (%s) only join the setup and wait.\n", c.nranks,
                  c.nranks == 3 ? "rank 2" : ("ranks 2.." + std::to_string(c.nranks - 1)).c_str());
  }

  // The file is opened on rank 0 before anything is measured; every rank learns if it failed.
  const std::unique_ptr<bench::ResultWriter> out = bench::open_writer(MPI_COMM_WORLD, root, c.opt.output, "armada-bench-rma");
  if (!out) return 2;
  c.out = out.get();

  // Collective setup over the world.
  MPI_Comm_split(MPI_COMM_WORLD, c.me <= 1 ? 0 : MPI_UNDEFINED, c.me, &c.pair);
  const std::vector<void*> bases = rma::allocate(c.target ? kDataBytes + kSlotBytes : 4096);
  c.seg.origin_view = static_cast<std::byte*>(bases[static_cast<std::size_t>(c.target_rank)]);
  c.seg.local = c.target ? c.seg.origin_view : nullptr;
  c.seg.slots = kDataBytes;
  if (c.target) std::memset(c.seg.local, 0, kDataBytes + kSlotBytes);
  c.mutexes = rma::MutexSet::create(1);
  create_mpi_windows(c);
  if (c.origin) {
    c.src = static_cast<std::byte*>(rma::allocate_local(kLocalBytes));
    c.dst = static_cast<std::byte*>(rma::allocate_local(kLocalBytes));
    c.scratch = static_cast<std::byte*>(rma::allocate_local(kLocalBytes));
    std::memset(c.src, 1, kLocalBytes);  // map every page before anything is timed
    std::memset(c.dst, 2, kLocalBytes);
    std::memset(c.scratch, 3, kLocalBytes);
  }
  std::string mpi_error = c.mpi_error;
  if (root && (!c.mpi_ok || (c.two && !c.raw_ok))) {
    std::printf("note: MPI window baseline %s, shared-window baseline %s%s%s\n", c.mpi_ok ? "available" : "UNAVAILABLE",
                c.raw_ok ? "available" : "UNAVAILABLE", mpi_error.empty() ? "" : ": ", mpi_error.c_str());
  }
  const std::string pinning = pin_to_cpu(c);
  std::string cpus;
  if (c.me <= 1) cpus = current_cpus(c);
  if (root && c.two && cpus.find(',') != std::string::npos &&
      cpus.substr(0, cpus.find(',')) == cpus.substr(cpus.find(',') + 1))
    std::printf("WARNING: origin and target run on the same CPU (%s); cold figures do not move data between "
                "cores and every handshake waits for the scheduler.\n", cpus.c_str());
  c.out->meta(run_description(c, pinning, cpus));

  const auto t0 = bench::Clock::now();
  if (c.me <= 1) {
    if (bench::selected(c.opt, "contig")) bench_contig(c);
    if (bench::selected(c.opt, "strided")) bench_strided(c);
    if (bench::selected(c.opt, "acc")) bench_acc(c);
    if (bench::selected(c.opt, "atomic")) bench_atomic(c);
    if (bench::selected(c.opt, "mutex")) bench_mutex(c);
    if (bench::selected(c.opt, "scatter")) bench_scatter(c);
    const std::string cpus_end = current_cpus(c);
    if (root && cpus_end != cpus) std::printf("note: cpus (rank 0, rank 1) were %s at the start, %s now\n", cpus.c_str(), cpus_end.c_str());
    pair_barrier(c);
  }
  // Ranks that do not take part wait here without spinning on a core.
  MPI_Request request;
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  for (int done = 0; !done;) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (!done && c.me > 1) usleep(2000);
  }

  const int status = bench::finish_run(MPI_COMM_WORLD, root, *c.out, c.opt.output, t0, c.failures);
  if (c.origin) {
    rma::free_local(c.src);
    rma::free_local(c.dst);
    rma::free_local(c.scratch);
  }
  free_mpi_windows(c);
  c.mutexes.destroy();
  rma::free(bases[static_cast<std::size_t>(c.me)]);
  if (c.pair != MPI_COMM_NULL) MPI_Comm_free(&c.pair);
  return status;
}

}  // namespace

int main(int argc, char** argv) { return bench::run_in_session("armada-bench-rma", argc, argv, run); }
