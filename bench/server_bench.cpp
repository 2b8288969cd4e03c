// armada-bench-server: the server (inter-node) transport against MPI two-sided messages in the
// same launch.
//
// Run with ranks 0 and 1 on different (virtual) nodes, e.g. ARMADA_NODE_SIZE=1: rank 0 is the
// origin, rank 1 the target; rank 1's node server (a helper thread in rank 1) executes every
// operation. Ranks 2 and up only join the collective setup and the memory report.
//
// The target's main thread is driven by the origin through commands on a private communicator:
// between commands it sleeps (so its server thread has a core), for an MPI baseline it takes part
// (ping-pong echo, bandwidth receiver), and for the overlap benchmark it computes (spins on a flag
// in its own segment, no library call) until the origin sets the flag. Baselines:
//   mpi_pingpong_half   MPI_Send/MPI_Recv ping-pong, half the round trip (8 B or the size)
//   mpi_pingpong_rtt    the same, whole round trip (what a get or put+fence needs at least)
//   mpi_bw_window       a window of 8 MPI_Isend/MPI_Irecv of the size, then a 4-byte ack
//   armada_contiguous   strided cases: a contiguous Armada operation of the same byte count
// Every figure is the median over --reps repetitions, interleaved repetition by repetition with
// its baselines. Each operation's data is verified; a mismatch makes the exit status 1.
//
//   ARMADA_NODE_SIZE=1 mpiexec -n 2 armada-bench-server [--quick] [--output results.json]
//   ARMADA_NODE_SIZE=1 mpiexec -n 8 armada-bench-server --memory-only
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
#include <stdexcept>
#include <string>
#include <vector>

#include "armada/rma/rma.hpp"
#include "common/host.hpp"
#include "common/measure.hpp"
#include "common/mpi_baseline.hpp"
#include "common/options.hpp"
#include "common/overlap.hpp"
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

const char* const kProgram = "armada-bench-server";
const char* const kGroups = "latency,bandwidth,strided,overlap,atomic,memory";

// ---- memory layout ----------------------------------------------------------------------------
// The target's (rank 1's) segment: data regions, then a slot region.
constexpr std::size_t kPutOff = 0;              // contiguous put stream; gets read it back
constexpr std::size_t kPutFenceOff = 1 * MiB;   // put + fence
constexpr std::size_t kOverlapOff = 2 * MiB;    // the overlap benchmark's source (target-written)
constexpr std::uint64_t kOverlapSeed = 300;   // its pattern
constexpr std::size_t kContigCmpOff = 3 * MiB;  // contiguous comparison of the strided cases
constexpr std::size_t kStridedOff = 4 * MiB;    // strided cases (remote stride 2 x segment: 2 MiB)
constexpr std::size_t kDataBytes = 6 * MiB;
constexpr std::size_t kSlotBytes = 64 * KiB;
// Slots (offsets into the slot region), 256 bytes apart.
constexpr std::size_t kSlotPut = 0;             // 8-byte put stream; 8-byte gets read it back
constexpr std::size_t kSlotPutFence = 256;      // 8-byte put + fence
constexpr std::size_t kSlotFlag = 512;          // overlap: the origin sets it, the target spins on it
constexpr std::size_t kSlotSpins = 768;         // overlap: the target's spin count, published
constexpr std::size_t kSlotCounter = 1024;      // fetch_add counter
constexpr std::size_t kSlotLocked = 1280;       // counter incremented under the mutex
// Origin buffers (private): kLocalBytes each. Target MPI buffers: kWindow x 1 MiB, and 1 MiB.
constexpr std::size_t kLocalBytes = 4 * MiB;
constexpr int kWindow = 8;
constexpr std::size_t kMaxMpiBytes = 1 * MiB;

constexpr int T = 1;  // the target rank

// ---- the origin's commands to the target --------------------------------------------------------
enum class Cmd : std::int64_t {
  Quit, Fill, Check, CheckStrided, CheckWindow, SetLong, CheckLong,
  PingPong, Window, Spin, MixedFetchAdd, MixedMutex,
};
struct Command {
  Cmd cmd;
  std::int64_t a = 0, b = 0, c = 0, d = 0;
};
constexpr int kTagCommand = 1, kTagReply = 2, kTagPing = 3, kTagData = 4, kTagAck = 5;

struct Ctx {
  bench::Options opt;
  bool memory_only = false;
  int me = 0, nranks = 1;
  bool origin = false, target = false;
  MPI_Comm pair = MPI_COMM_NULL;           // ranks 0 and 1: commands and the MPI baselines
  std::byte* seg = nullptr;                // rank 1's segment (an rma address; local on rank 1)
  rma::MutexSet mutexes;
  std::byte* src = nullptr;                // origin: sources (patterns)
  std::byte* dst = nullptr;                // origin: get destinations
  std::byte* mpi_recv = nullptr;           // origin: ping-pong echo destination
  std::byte* echo = nullptr;               // target: ping-pong buffer
  std::byte* window = nullptr;             // target: kWindow receive buffers
  bench::ResultWriter* out = nullptr;
  long failures = 0;
  long long fetch_adds = 0;                // origin: server fetch_adds on kSlotCounter so far
  double busy_ns_per_iter = 0;             // origin: calibrated compute loop
};

std::byte* slot(const Ctx& c, std::size_t s) { return c.seg + kDataBytes + s; }

void fail(Ctx& c, const std::string& what, const std::string& detail) {
  ++c.failures;
  std::fprintf(stderr, "[rank %d] VERIFICATION FAILED: %s: %s\n", c.me, what.c_str(), detail.c_str());
  std::fflush(stderr);
}

bool expect(Ctx& c, const std::string& what, const std::string& problem) {
  if (problem.empty()) return true;
  fail(c, what, problem);
  return false;
}

using bench::sleep_us;
using bench::wait_sleeping;

// ---- origin side of the commands ----------------------------------------------------------------

void send_command(const Ctx& c, const Command& m) {
  MPI_Send(&m, sizeof m, MPI_BYTE, T, kTagCommand, c.pair);
}

std::int64_t reply(const Ctx& c) {
  std::int64_t v = 0;
  MPI_Recv(&v, 1, MPI_INT64_T, T, kTagReply, c.pair, MPI_STATUS_IGNORE);
  return v;
}

/// Sends a command and waits for its (first) reply.
std::int64_t call(const Ctx& c, const Command& m) {
  send_command(c, m);
  return reply(c);
}

// ---- the target's command loop ------------------------------------------------------------------

void target_reply(const Ctx& c, std::int64_t v) { MPI_Send(&v, 1, MPI_INT64_T, 0, kTagReply, c.pair); }

std::atomic_ref<std::int64_t> local_long(const Ctx& c, std::size_t s) {
  return std::atomic_ref<std::int64_t>(*reinterpret_cast<std::int64_t*>(slot(c, s)));
}

void serve(Ctx& c) {
  for (;;) {
    const Command m = bench::receive_sleeping<Command>(c.pair, 0, kTagCommand);
    switch (m.cmd) {
      case Cmd::Quit:
        return;
      case Cmd::Fill: {  // a = offset, b = bytes, c = seed (0: zeros)
        std::byte* p = c.seg + m.a;
        if (m.c == 0)
          std::memset(p, 0, static_cast<std::size_t>(m.b));
        else
          bench::fill_pattern(p, static_cast<std::size_t>(m.b), static_cast<std::uint64_t>(m.c));
        target_reply(c, 0);
        break;
      }
      case Cmd::Check: {  // a = offset, b = bytes, c = seed
        const bool ok = expect(c, "target memory at offset " + std::to_string(m.a) + " (" + bench::format_bytes(static_cast<std::size_t>(m.b)) + ")",
                               bench::check_pattern(c.seg + m.a, static_cast<std::size_t>(m.b), static_cast<std::uint64_t>(m.c)));
        target_reply(c, ok ? 0 : 1);
        break;
      }
      case Cmd::CheckStrided: {  // a = offset, b = segment bytes, c = segments, d = seed; stride 2b
        const auto seg = static_cast<std::size_t>(m.b);
        bool ok = true;
        for (std::int64_t i = 0; i < m.c && ok; ++i) {
          const std::byte* p = c.seg + m.a + static_cast<std::size_t>(i) * 2 * seg;
          const std::string what = "strided put " + bench::format_bytes(seg) + " x " + std::to_string(m.c) + ", segment " + std::to_string(i);
          ok = expect(c, what, bench::check_pattern(p, seg, static_cast<std::uint64_t>(m.d), static_cast<std::size_t>(i) * seg / 8)) &&
               expect(c, what + " (the gap after it)", bench::check_zero(p + seg, seg));
        }
        target_reply(c, ok ? 0 : 1);
        break;
      }
      case Cmd::CheckWindow: {  // a = bytes, b = seed
        bool ok = true;
        for (int w = 0; w < kWindow && ok; ++w)
          ok = expect(c, "MPI window receive buffer " + std::to_string(w),
                      bench::check_pattern(c.window + static_cast<std::size_t>(w) * kMaxMpiBytes, static_cast<std::size_t>(m.a),
                                           static_cast<std::uint64_t>(m.b)));
        target_reply(c, ok ? 0 : 1);
        break;
      }
      case Cmd::SetLong:  // a = slot, b = value
        local_long(c, static_cast<std::size_t>(m.a)).store(m.b);
        target_reply(c, 0);
        break;
      case Cmd::CheckLong: {  // a = slot, b = expected; replies the value
        const std::int64_t v = local_long(c, static_cast<std::size_t>(m.a)).load();
        if (v != m.b) fail(c, "counter at slot " + std::to_string(m.a), "is " + std::to_string(v) + ", expected " + std::to_string(m.b));
        target_reply(c, v);
        break;
      }
      case Cmd::PingPong: {  // a = iterations, b = bytes: echo what arrives
        target_reply(c, 0);
        bench::echo(c.pair, 0, kTagPing, c.echo, static_cast<std::size_t>(m.b), static_cast<std::size_t>(m.a),
                    bench::Rotation(static_cast<std::size_t>(m.b), 0, false));
        break;
      }
      case Cmd::Window: {  // a = iterations, b = bytes
        target_reply(c, 0);
        bench::stream_receive(c.pair, 0, kTagData, kTagAck, c.window, static_cast<std::size_t>(m.b), kWindow,
                              static_cast<std::size_t>(m.a), bench::stream_buffers(static_cast<std::size_t>(m.b), kMaxMpiBytes, kWindow));
        break;
      }
      case Cmd::Spin: {
        // Compute (spin on a flag of our own segment, no library call) until the origin's put
        // sets it; publish the spin count so the origin can see we are still inside.
        auto flag = local_long(c, kSlotFlag);
        auto spins_out = local_long(c, kSlotSpins);
        flag.store(0);
        spins_out.store(0);
        target_reply(c, 0);
        std::int64_t spins = 0;
        while (flag.load(std::memory_order_acquire) == 0) {
          if ((++spins & 1023) == 0) spins_out.store(spins, std::memory_order_relaxed);
        }
        const std::int64_t seen = flag.load();
        flag.store(0);
        target_reply(c, seen == 1 ? spins : -1);
        break;
      }
      case Cmd::MixedFetchAdd: {  // a = n: n local fetch_adds while the origin does n through the server
        target_reply(c, 0);
        rma::GlobalPtr<long> counter(T, reinterpret_cast<long*>(slot(c, kSlotCounter)));
        for (std::int64_t i = 0; i < m.a; ++i) rma::fetch_add(counter, 1L);
        target_reply(c, 0);
        break;
      }
      case Cmd::MixedMutex: {  // a = n: n locked increments while the origin does n
        target_reply(c, 0);
        rma::GlobalPtr<long> counter(T, reinterpret_cast<long*>(slot(c, kSlotLocked)));
        for (std::int64_t i = 0; i < m.a; ++i) {
          c.mutexes.lock(0, T);
          const long v = rma::get_value(counter);
          rma::put_value(v + 1, counter);
          c.mutexes.unlock(0, T);
        }
        target_reply(c, 0);
        break;
      }
    }
  }
}

// ---- measurement (origin) ---------------------------------------------------------------------

// The measurement loop, calibrated and interleaved (common/measure.hpp).
using bench::Contestant;
using bench::timed;

std::vector<Stats> measure(const Ctx& c, std::vector<Contestant>& cs) {
  return bench::measure(cs, c.opt.reps, c.opt.rep_seconds);
}

Stats scaled(Stats s, double f) {
  s.median *= f;
  s.min *= f;
  s.max *= f;
  return s;
}

/// One row per baseline (or one row without baseline).
void emit(Ctx& c, const std::string& bench_name, const std::string& label, std::size_t bytes, const std::string& variant,
          Unit unit, const Stats& armada, const std::vector<std::pair<std::string, Stats>>& baselines,
          const std::vector<bench::Field>& extra = {}) {
  bench::Result r;
  r.bench = bench_name;
  r.label = label;
  r.bytes = bytes;
  r.variant = variant;
  r.unit = unit;
  r.armada = armada;
  r.fields = extra;
  if (baselines.empty()) c.out->add(r);
  for (const auto& [name, stats] : baselines) {
    r.baseline = name;
    r.baseline_stats = stats;
    c.out->add(r);
  }
}

// MPI baselines, origin side (the target runs the matching command).
Contestant mpi_pingpong(Ctx& c, std::size_t bytes, std::uint64_t seed) {
  return {"mpi_pingpong_half", bytes <= 8 ? Unit::Micros : Unit::GBps, bytes <= 8 ? 2.0 : static_cast<double>(bytes),
          [&c, bytes, seed](std::size_t n) {
            bench::fill_pattern(c.src, bytes, seed);
            call(c, {Cmd::PingPong, static_cast<std::int64_t>(n), static_cast<std::int64_t>(bytes)});
            const double t = bench::pingpong(c.pair, T, kTagPing, c.src, c.mpi_recv, bytes, n, bench::Rotation(bytes, 0, false));
            // GB/s of a ping-pong: bytes moved one way per half round trip.
            return bytes <= 8 ? t : t / 2;
          }};
}

Contestant mpi_window(Ctx& c, std::size_t bytes) {
  return {"mpi_bw_window", Unit::GBps, static_cast<double>(bytes) * kWindow, [&c, bytes](std::size_t n) {
            call(c, {Cmd::Window, static_cast<std::int64_t>(n), static_cast<std::int64_t>(bytes)});
            return bench::stream_send(c.pair, T, kTagData, kTagAck, c.src, bytes, kWindow, n, bench::Rotation(bytes, 0, false));
          }};
}

// ---- 1. 8-byte latency ------------------------------------------------------------------------

void bench_latency(Ctx& c) {
  c.out->section("8-byte latency over the server transport (us per operation; ratio = armada / baseline, lower is better)");
  constexpr std::uint64_t kSeedPut = 11, kSeedPutFence = 12;
  std::byte* const rput = slot(c, kSlotPut);
  std::byte* const rputf = slot(c, kSlotPutFence);
  std::byte* const src_put = c.src + 2 * MiB;
  std::byte* const src_putf = c.src + 2 * MiB + 64;
  bench::fill_pattern(src_put, 8, kSeedPut);
  bench::fill_pattern(src_putf, 8, kSeedPutFence);
  std::memset(c.dst, 0, 8);

  std::vector<Contestant> cs;
  cs.push_back({"put", Unit::Micros, 1, [&](std::size_t n) {
                  const auto t0 = bench::Clock::now();
                  for (std::size_t i = 0; i < n; ++i) rma::put(src_put, rput, 8, T);
                  rma::fence(T);  // the stream's last put is remotely complete inside the time
                  return bench::seconds(t0, bench::Clock::now());
                }});
  cs.push_back({"put_fence", Unit::Micros, 1, timed([&] {
                  rma::put(src_putf, rputf, 8, T);
                  rma::fence(T);
                })});
  cs.push_back({"get", Unit::Micros, 1, timed([&] { rma::get(rput, c.dst, 8, T); })});
  cs.push_back(mpi_pingpong(c, 8, kSeedPut));
  const auto s = measure(c, cs);
  const Stats half = s[3], rtt = scaled(s[3], 2);
  emit(c, "put_lat", "put (local completion, stream)", 8, "server", Unit::Micros, s[0], {{"mpi_pingpong_half", half}});
  emit(c, "put_fence_lat", "put + fence(1)", 8, "server", Unit::Micros, s[1],
       {{"mpi_pingpong_half", half}, {"mpi_pingpong_rtt", rtt}});
  emit(c, "get_lat", "get", 8, "server", Unit::Micros, s[2], {{"mpi_pingpong_half", half}, {"mpi_pingpong_rtt", rtt}});

  // A get after the origin and the target were idle for 1 ms (the server may have backed off
  // into its sleep): only the get is timed.
  {
    const std::size_t n = c.opt.quick ? 20 : 100;
    std::vector<double> samples;
    for (int r = 0; r < c.opt.reps; ++r) {
      bench::Stopwatch watch;
      for (std::size_t i = 0; i < n; ++i) {
        sleep_us(1000);
        watch.start();
        rma::get(rput, c.dst + 8, 8, T);
        watch.stop();
      }
      samples.push_back(watch.total() / static_cast<double>(n) * 1e6);
    }
    emit(c, "get_lat_idle", "get after 1 ms idle", 8, "server", Unit::Micros, bench::summarize(samples),
         {{"mpi_pingpong_half", half}, {"mpi_pingpong_rtt", rtt}}, {bench::field("idle_us", 1000LL)});
  }

  const std::int64_t off_put = static_cast<std::int64_t>(kDataBytes + kSlotPut);
  const std::int64_t off_putf = static_cast<std::int64_t>(kDataBytes + kSlotPutFence);
  call(c, {Cmd::Check, off_put, 8, kSeedPut});
  call(c, {Cmd::Check, off_putf, 8, kSeedPutFence});
  expect(c, "get 8 B (reads back the put)", bench::check_pattern(c.dst, 8, kSeedPut));
  expect(c, "get 8 B after idle", bench::check_pattern(c.dst + 8, 8, kSeedPut));
  expect(c, "MPI ping-pong 8 B echo", bench::check_pattern(c.mpi_recv, 8, kSeedPut));
}

// ---- 2. contiguous bandwidth ------------------------------------------------------------------

void bench_bandwidth(Ctx& c) {
  c.out->section("contiguous bandwidth over the server transport (GB/s; ratio = armada / baseline, higher is better)");
  std::vector<std::size_t> sizes{1 * MiB};
  if (!c.opt.quick) sizes = {64 * KiB, 1 * MiB};
  for (std::size_t si = 0; si < sizes.size(); ++si) {
    const std::size_t n = sizes[si];
    const std::uint64_t seed = 100 + si;
    std::byte* const rput = c.seg + kPutOff;
    std::byte* const rputf = c.seg + kPutFenceOff;
    bench::fill_pattern(c.src, n, seed);
    std::memset(c.dst, 0, n);

    std::vector<Contestant> cs;
    cs.push_back({"put", Unit::GBps, double(n), [&, n](std::size_t iters) {
                    const auto t0 = bench::Clock::now();
                    for (std::size_t i = 0; i < iters; ++i) rma::put(c.src, rput, n, T);
                    rma::fence(T);
                    return bench::seconds(t0, bench::Clock::now());
                  }});
    cs.push_back({"put_fence", Unit::GBps, double(n), timed([&, n] {
                    rma::put(c.src, rputf, n, T);
                    rma::fence(T);
                  })});
    cs.push_back({"get", Unit::GBps, double(n), timed([&, n] { rma::get(rput, c.dst, n, T); })});
    cs.push_back(mpi_window(c, n));
    cs.push_back(mpi_pingpong(c, n, seed));
    const auto s = measure(c, cs);
    const std::vector<std::pair<std::string, Stats>> base{{"mpi_bw_window", s[3]}, {"mpi_pingpong_half", s[4]}};
    const std::vector<bench::Field> extra{bench::field("mpi_window", static_cast<long long>(kWindow))};
    emit(c, "put_bw", "put (local completion, stream)", n, "server", Unit::GBps, s[0], base, extra);
    emit(c, "put_fence_bw", "put + fence(1)", n, "server", Unit::GBps, s[1], base, extra);
    emit(c, "get_bw", "get", n, "server", Unit::GBps, s[2], base, extra);

    call(c, {Cmd::Check, static_cast<std::int64_t>(kPutOff), static_cast<std::int64_t>(n), static_cast<std::int64_t>(seed)});
    call(c, {Cmd::Check, static_cast<std::int64_t>(kPutFenceOff), static_cast<std::int64_t>(n), static_cast<std::int64_t>(seed)});
    call(c, {Cmd::CheckWindow, static_cast<std::int64_t>(n), static_cast<std::int64_t>(seed)});
    expect(c, "get " + bench::format_bytes(n) + " (reads back the put)", bench::check_pattern(c.dst, n, seed));
    expect(c, "MPI ping-pong " + bench::format_bytes(n) + " echo", bench::check_pattern(c.mpi_recv, n, seed));
  }
}

// ---- 2b. strided ------------------------------------------------------------------------------

void bench_strided(Ctx& c) {
  c.out->section("strided 2-D over the server transport (GB/s; remote stride 2 x segment; ratio = strided / contiguous)");
  const std::size_t segs[] = {16, 1 * KiB};
  constexpr std::size_t nseg = 1024;
  for (std::size_t si = 0; si < 2; ++si) {
    const std::size_t seg = segs[si], total = seg * nseg;
    const std::uint64_t seed = 200 + si;
    call(c, {Cmd::Fill, static_cast<std::int64_t>(kStridedOff), static_cast<std::int64_t>(2 * total), 0});
    bench::fill_pattern(c.src, total, seed);
    std::memset(c.dst, 0, total);
    std::memset(c.dst + 2 * MiB, 0, total);
    const std::size_t count[2] = {seg, nseg};
    const std::size_t local_stride[1] = {seg};
    const std::size_t remote_stride[1] = {2 * seg};
    std::byte* const rstr = c.seg + kStridedOff;
    std::byte* const rcont = c.seg + kContigCmpOff;

    std::vector<Contestant> cs;
    cs.push_back({"put_strided", Unit::GBps, double(total), [&](std::size_t iters) {
                    const auto t0 = bench::Clock::now();
                    for (std::size_t i = 0; i < iters; ++i) rma::put_strided(c.src, local_stride, rstr, remote_stride, count, T);
                    rma::fence(T);
                    return bench::seconds(t0, bench::Clock::now());
                  }});
    cs.push_back({"get_strided", Unit::GBps, double(total),
                  timed([&] { rma::get_strided(rstr, remote_stride, c.dst, local_stride, count, T); })});
    cs.push_back({"put", Unit::GBps, double(total), [&, total](std::size_t iters) {
                    const auto t0 = bench::Clock::now();
                    for (std::size_t i = 0; i < iters; ++i) rma::put(c.src, rcont, total, T);
                    rma::fence(T);
                    return bench::seconds(t0, bench::Clock::now());
                  }});
    cs.push_back({"get", Unit::GBps, double(total), timed([&, total] { rma::get(rcont, c.dst + 2 * MiB, total, T); })});
    const auto s = measure(c, cs);
    const std::vector<bench::Field> extra{bench::field("seg_bytes", static_cast<long long>(seg)),
                                          bench::field("nseg", static_cast<long long>(nseg)),
                                          bench::field("local_stride", static_cast<long long>(seg)),
                                          bench::field("remote_stride", static_cast<long long>(2 * seg))};
    const std::string shape = bench::format_bytes(seg) + " x " + std::to_string(nseg);
    emit(c, "put_strided_bw", "put_strided " + shape, total, "server", Unit::GBps, s[0], {{"armada_contiguous", s[2]}}, extra);
    emit(c, "get_strided_bw", "get_strided " + shape, total, "server", Unit::GBps, s[1], {{"armada_contiguous", s[3]}}, extra);

    call(c, {Cmd::CheckStrided, static_cast<std::int64_t>(kStridedOff), static_cast<std::int64_t>(seg),
             static_cast<std::int64_t>(nseg), static_cast<std::int64_t>(seed)});
    call(c, {Cmd::Check, static_cast<std::int64_t>(kContigCmpOff), static_cast<std::int64_t>(total), static_cast<std::int64_t>(seed)});
    expect(c, "get_strided " + shape + " (reads back the strided put)", bench::check_pattern(c.dst, total, seed));
    expect(c, "get " + bench::format_bytes(total) + " (contiguous comparison)", bench::check_pattern(c.dst + 2 * MiB, total, seed));
  }
}

// ---- 3. overlap -------------------------------------------------------------------------------

/// One overlap series. target_busy: the target computes (spins on a flag of its own segment, no
/// library call) from before the first get until we set the flag after the last, so every get is
/// served by its node server alone (unilateral progress). Otherwise the target idles (sleeps), so
/// its server has a core and the figure shows what the origin side allows.
void overlap_series(Ctx& c, bool target_busy) {
  constexpr std::size_t n = 1 * MiB;
  constexpr std::uint64_t seed = kOverlapSeed;
  std::byte* const remote = c.seg + kOverlapOff;
  const std::string who = target_busy ? "computing" : "idle";
  const std::string label = target_busy ? "get_nb+compute+wait, target busy" : "get_nb+compute+wait, target idle";
  long spins_before = 0;
  rma::GlobalPtr<long> spins(T, reinterpret_cast<long*>(slot(c, kSlotSpins)));
  if (target_busy) {
    call(c, {Cmd::Spin});
    sleep_us(2000);  // let it publish a first count
    spins_before = rma::get_value(spins);
  }

  // common/overlap.hpp: per repetition and fraction, time-bounded loops of the blocking get, the
  // computation alone and get_nb + computation + wait.
  const double fractions[] = {0, 0.25, 0.5, 1.0, 1.5, 2.0};
  std::uint64_t sink = 0;
  const auto points = bench::measure_overlap(
      fractions, c.opt.reps, c.opt.rep_seconds, c.busy_ns_per_iter, [&] { rma::get(remote, c.dst, n, T); },
      [&](std::uint64_t compute_iters) {
        rma::Handle h = rma::get_nb(remote, c.dst + 2 * MiB, n, T);
        sink += bench::busy(compute_iters);
        h.wait();
      });
  bench::clobber(&sink);

  if (target_busy) {
    // The target must still be inside its loop: its published count has grown, its flag is unset.
    const long spins_after = rma::get_value(spins);
    rma::put_value(1L, rma::GlobalPtr<long>(T, reinterpret_cast<long*>(slot(c, kSlotFlag))));
    rma::fence(T);
    const std::int64_t spins_total = reply(c);
    if (spins_total < 0) fail(c, "overlap", "the target left its loop with a flag value other than 1");
    if (!(spins_after > spins_before))
      fail(c, "overlap", "the target's spin count did not grow (" + std::to_string(spins_before) + " -> " +
                             std::to_string(spins_after) + "): it was not computing during the gets");
    else
      c.out->note("the target stayed in its computation loop throughout: its spin count grew " +
                  std::to_string(spins_before) + " -> " + std::to_string(spins_after) + " while the gets completed");
  }
  for (const bench::OverlapPoint& pt : points) {
    char variant[32];
    std::snprintf(variant, sizeof variant, "c=%d%%", static_cast<int>(pt.fraction * 100 + 0.5));
    emit(c, "overlap", label, n, variant, Unit::Percent, pt.overlap, {},
         {bench::field("target", who), bench::field("compute_fraction", pt.fraction), bench::field("t_get_us", pt.t_op_us),
          bench::field("t_compute_us", pt.t_compute_us), bench::field("t_total_us", pt.t_total_us)});
    char text[200];
    std::snprintf(text, sizeof text, "   compute %3.0f%% of a get: t_get %.1f us, t_compute %.1f us, t_total %.1f us (medians)",
                  pt.fraction * 100, pt.t_op_us, pt.t_compute_us, pt.t_total_us);
    c.out->note(text);
  }
  expect(c, "get 1 MiB (blocking, target " + who + ")", bench::check_pattern(c.dst, n, seed));
  expect(c, "get_nb 1 MiB (target " + who + ")", bench::check_pattern(c.dst + 2 * MiB, n, seed));
}

void bench_overlap(Ctx& c) {
  c.out->section("overlap: get_nb of 1 MiB, computation, wait (% of the blocking get time hidden, higher is better)");
  call(c, {Cmd::Fill, static_cast<std::int64_t>(kOverlapOff), static_cast<std::int64_t>(1 * MiB), kOverlapSeed});
  overlap_series(c, true);
  overlap_series(c, false);
}

// ---- 4. atomics and mutexes -------------------------------------------------------------------

void bench_atomic(Ctx& c) {
  c.out->section("fetch_add and lock + unlock over the server transport (us; ratio = armada / baseline, lower is better)");
  call(c, {Cmd::SetLong, static_cast<std::int64_t>(kSlotCounter), 0});
  call(c, {Cmd::SetLong, static_cast<std::int64_t>(kSlotLocked), 0});
  rma::GlobalPtr<long> counter(T, reinterpret_cast<long*>(slot(c, kSlotCounter)));
  rma::GlobalPtr<long> locked(T, reinterpret_cast<long*>(slot(c, kSlotLocked)));
  c.fetch_adds = 0;
  long bad_old = 0;
  std::vector<Contestant> cs;
  cs.push_back({"fetch_add", Unit::Micros, 1, timed([&] {
                  const long old = rma::fetch_add(counter, 1L);
                  if (old != c.fetch_adds) ++bad_old;
                  ++c.fetch_adds;
                })});
  cs.push_back({"lock_unlock", Unit::Micros, 1, timed([&] {
                  c.mutexes.lock(0, T);
                  c.mutexes.unlock(0, T);
                })});
  cs.push_back(mpi_pingpong(c, 8, 400));
  const auto s = measure(c, cs);
  const Stats half = s[2], rtt = scaled(s[2], 2);
  emit(c, "fetch_add_lat", "fetch_add (long)", 8, "server", Unit::Micros, s[0], {{"mpi_pingpong_half", half}, {"mpi_pingpong_rtt", rtt}});
  emit(c, "lock_unlock_lat", "lock + unlock (2 round trips)", 0, "server", Unit::Micros, s[1],
       {{"mpi_pingpong_half", half}, {"mpi_pingpong_rtt", rtt}});
  if (bad_old) fail(c, "fetch_add", std::to_string(bad_old) + " fetch_adds returned an unexpected previous value");
  call(c, {Cmd::CheckLong, static_cast<std::int64_t>(kSlotCounter), c.fetch_adds});

  // Mixed transports: the target adds locally (shared memory) while we add through its server.
  const std::int64_t mixed = c.opt.quick ? 500 : 5000;
  call(c, {Cmd::MixedFetchAdd, mixed});
  for (std::int64_t i = 0; i < mixed; ++i) rma::fetch_add(counter, 1L);
  reply(c);
  call(c, {Cmd::CheckLong, static_cast<std::int64_t>(kSlotCounter), c.fetch_adds + 2 * mixed});
  call(c, {Cmd::MixedMutex, mixed});
  for (std::int64_t i = 0; i < mixed; ++i) {
    c.mutexes.lock(0, T);
    const long v = rma::get_value(locked);
    rma::put_value(v + 1, locked);
    c.mutexes.unlock(0, T);
  }
  reply(c);
  call(c, {Cmd::CheckLong, static_cast<std::int64_t>(kSlotLocked), 2 * mixed});
  c.out->note("verified: fetch_add previous values and total; " + std::to_string(mixed) +
              " fetch_adds and " + std::to_string(mixed) + " locked get+put increments from each side "
              "(origin through the server, target through shared memory) add up exactly");
}

// ---- 5. server memory -------------------------------------------------------------------------

struct MemoryRow {
  long long running, clients, buffer_bytes, rss_growth_kb;
};

void bench_memory(Ctx& c) {
  const rma::ServerStats s = rma::server_stats();
  const MemoryRow mine{s.running ? 1 : 0, s.clients, static_cast<long long>(s.buffer_bytes), s.rss_growth_kb};
  std::vector<MemoryRow> all(static_cast<std::size_t>(c.nranks));
  MPI_Gather(&mine, 4, MPI_LONG_LONG, all.data(), 4, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  if (c.me != 0) return;
  const rma::Config& cfg = rma::config();
  // buffer_bytes is the request buffers plus two pipeline chunks (ARMADA_SERVER_CHUNK each), as
  // NodeServer allocates them; request_buffer_bytes is the part that grows with the clients.
  c.out->section("node server memory (bytes of request and pipeline buffers; rss_growth_kb in the records)");
  int servers = 0;
  long long sum = 0, lo = -1, hi = 0, rss_lo = -1, rss_hi = 0;
  for (int r = 0; r < c.nranks; ++r) {
    const MemoryRow& m = all[static_cast<std::size_t>(r)];
    if (!m.running) continue;
    ++servers;
    sum += m.buffer_bytes;
    lo = lo < 0 ? m.buffer_bytes : std::min(lo, m.buffer_bytes);
    hi = std::max(hi, m.buffer_bytes);
    rss_lo = rss_lo < 0 ? m.rss_growth_kb : std::min(rss_lo, m.rss_growth_kb);
    rss_hi = std::max(rss_hi, m.rss_growth_kb);
    Stats v;
    v.median = v.min = v.max = static_cast<double>(m.buffer_bytes);
    v.count = 1;
    emit(c, "server_memory", "server on rank " + std::to_string(r) + ": " + std::to_string(m.clients) + " clients", 0,
         "g=" + std::to_string(cfg.server_cluster), Unit::Bytes, v, {},
         {bench::field("rank", static_cast<long long>(r)), bench::field("clients", m.clients),
          bench::field("buffer_bytes", m.buffer_bytes),
          bench::field("request_buffer_bytes", m.buffer_bytes - 2LL * cfg.server_chunk),
          bench::field("rss_growth_kb", m.rss_growth_kb),
          bench::field("ranks", static_cast<long long>(c.nranks)), bench::field("nodes", static_cast<long long>(rma::node_count())),
          bench::field("cluster", static_cast<long long>(cfg.server_cluster))});
  }
  char text[300];
  if (servers == 0) {
    std::snprintf(text, sizeof text, "no node server runs (%d node%s: nothing to serve)", rma::node_count(),
                  rma::node_count() == 1 ? "" : "s");
  } else {
    std::snprintf(text, sizeof text,
                  "%d ranks, %d servers, cluster g=%d, %d buffers/client, inline %d B, chunk %d B: buffers per server "
                  "%lld..%lld B (of which request buffers %lld..%lld B, the rest the two pipeline chunks), total %lld B; "
                  "VmRSS growth per server %lld..%lld KiB",
                  c.nranks, servers, cfg.server_cluster, cfg.server_buffers, cfg.server_inline, cfg.server_chunk, lo, hi,
                  lo - 2LL * cfg.server_chunk, hi - 2LL * cfg.server_chunk, sum, rss_lo, rss_hi);
  }
  c.out->note(text);
}

// ---- the run ----------------------------------------------------------------------------------

/// Pins the calling (main) thread of rank 0 and rank 1 to the first and second CPU of the mask the
/// launcher gave; the node server threads, started by rma::init before this, keep the whole mask,
/// so the scheduler can move a server to whichever CPU is free. Returns what was done.
std::string pin_main_thread(const Ctx& c) {
  if (!c.opt.pin || c.me > 1) return "not pinned";
  const std::string done = bench::pin_to_cpu_index(c.me);
  return done.rfind("cpu ", 0) == 0 ? "main thread on " + done : done;
}

using bench::load_average;

struct Host {
  int cpus = 0;     // CPUs this process may run on
  int ranks = 0;    // ranks of the world on this host
  int servers = 0;  // node servers running on this host
};

/// Collective over the world.
Host host_load(const Ctx& c) {
  Host h;
  cpu_set_t mask;
  CPU_ZERO(&mask);
  h.cpus = sched_getaffinity(0, sizeof mask, &mask) == 0 ? CPU_COUNT(&mask) : static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  MPI_Comm local;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, c.me, MPI_INFO_NULL, &local);
  MPI_Comm_size(local, &h.ranks);
  const int mine = rma::server_stats().running ? 1 : 0;
  MPI_Allreduce(&mine, &h.servers, 1, MPI_INT, MPI_SUM, local);
  MPI_Comm_free(&local);
  return h;
}

std::vector<bench::Field> run_description(const Ctx& c, const std::string& pinning, const Host& host) {
  auto env = [](const char* name) { return bench::env_or(name, "(default)"); };
  const rma::Config& cfg = rma::config();
  std::vector<bench::Field> f{bench::field("ranks", static_cast<long long>(c.nranks)),
                              bench::field("nodes", static_cast<long long>(rma::node_count())),
                              bench::field("node_size", static_cast<long long>(cfg.node_size))};
  if (!c.memory_only)
    f.insert(f.end(), {bench::field("origin", 0LL), bench::field("target", static_cast<long long>(T)),
                       bench::field("transport", std::string(rma::transport_name(T)))});
  f.insert(f.end(), {bench::field("server_poll", std::string(cfg.server_poll ? "yes" : "no")),
                     bench::field("server_sleep_max_us", static_cast<long long>(cfg.server_sleep_max_us)),
                     bench::field("server_cluster", static_cast<long long>(cfg.server_cluster)),
                     bench::field("server_buffers", static_cast<long long>(cfg.server_buffers)),
                     bench::field("server_inline", static_cast<long long>(cfg.server_inline)),
                     bench::field("server_chunk", static_cast<long long>(cfg.server_chunk)),
                     bench::field("reps", static_cast<long long>(c.opt.reps)), bench::field("rep_ms", c.opt.rep_seconds * 1000),
                     bench::field("quick", std::string(c.opt.quick ? "yes" : "no")),
                     bench::field("memory_only", std::string(c.memory_only ? "yes" : "no")),
                     bench::field("host", bench::host_name()), bench::field("mpi", bench::mpi_library_version()),
                     bench::field("OMPI_MCA_btl", env("OMPI_MCA_btl")), bench::field("loadavg_start", load_average())});
  if (!c.memory_only) {
    f.push_back(bench::field("pinning", pinning));
    f.push_back(bench::field("host_cpus", static_cast<long long>(host.cpus)));
    f.push_back(bench::field("host_ranks", static_cast<long long>(host.ranks)));
    f.push_back(bench::field("host_servers", static_cast<long long>(host.servers)));
    f.push_back(bench::field("busy_ns_per_iter", c.busy_ns_per_iter));
  }
  return f;
}

std::string usage(const char* program) {
  std::string u = bench::usage(program, kGroups);
  const auto help = u.find("  --help");
  u.insert(help == std::string::npos ? u.size() : help,
           "  --memory-only   only the node servers' memory report (any number of ranks)\n");
  return u + "Ranks 0 and 1 must be on different nodes (on one machine: ARMADA_NODE_SIZE=1).\n";
}

int run(int argc, char** argv) {
  Ctx c;
  c.me = rma::rank();
  c.nranks = rma::size();
  const bool root = c.me == 0;

  // Options (every rank parses the same arguments, so every rank takes the same exit).
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (i > 0 && std::strcmp(argv[i], "--memory-only") == 0)
      c.memory_only = true;
    else
      args.push_back(argv[i]);
  }
  try {
    c.opt = bench::parse_options(static_cast<int>(args.size()), args.data());
  } catch (const std::invalid_argument& e) {
    if (root) std::fprintf(stderr, "%s: %s\n%s", kProgram, e.what(), usage(argv[0]).c_str());
    return 2;
  }
  if (const std::string g = bench::unknown_group(c.opt, kGroups); !g.empty()) {
    if (root) std::fprintf(stderr, "%s: --only: unknown group '%s' (groups: %s)\n", kProgram, g.c_str(), kGroups);
    return 2;
  }
  if (c.opt.help) {
    if (root) std::printf("%s", usage(argv[0]).c_str());
    return 0;
  }
  if (c.memory_only) c.opt.only = "memory";
  const bool timing = !c.memory_only && c.opt.only != "memory";
  if (timing && (c.nranks < 2 || rma::same_node(0, 1))) {
    if (root)
      std::fprintf(stderr, "%s: ranks 0 and 1 must be on different nodes to measure the server transport (%s); on one "
                           "machine set ARMADA_NODE_SIZE=1, or run only --memory-only.\n",
                   kProgram, c.nranks < 2 ? "there is only one rank" : "they share a node");
    return 2;
  }
  if (timing) {  // as seen from the origin (rank 1 reaches itself through shared memory)
    int server = root && std::strcmp(rma::transport_name(T), "server") == 0;
    MPI_Bcast(&server, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!server) {
      if (root) std::fprintf(stderr, "%s: rank 1 is reached through '%s', not the server transport\n", kProgram, rma::transport_name(T));
      return 2;
    }
  }
  c.origin = timing && c.me == 0;
  c.target = timing && c.me == T;

  const std::unique_ptr<bench::ResultWriter> out = bench::open_writer(MPI_COMM_WORLD, root, c.opt.output, kProgram);
  if (!out) return 2;
  c.out = out.get();

  // Collective setup.
  std::vector<void*> bases;
  if (timing) {
    MPI_Comm_split(MPI_COMM_WORLD, c.me <= 1 ? 0 : MPI_UNDEFINED, c.me, &c.pair);
    bases = rma::allocate(c.target ? kDataBytes + kSlotBytes : 0);
    c.seg = static_cast<std::byte*>(bases[T]);
    if (c.target) std::memset(c.seg, 0, kDataBytes + kSlotBytes);
    c.mutexes = rma::MutexSet::create(c.target ? 1 : 0);
    if (c.origin) {
      for (std::byte** p : {&c.src, &c.dst, &c.mpi_recv}) {
        *p = static_cast<std::byte*>(rma::allocate_local(kLocalBytes));
        std::memset(*p, 0, kLocalBytes);  // map every page before anything is timed
      }
      c.busy_ns_per_iter = bench::calibrate_busy();
    }
    if (c.target) {
      c.echo = static_cast<std::byte*>(rma::allocate_local(kMaxMpiBytes));
      c.window = static_cast<std::byte*>(rma::allocate_local(kWindow * kMaxMpiBytes));
      std::memset(c.echo, 0, kMaxMpiBytes);
      std::memset(c.window, 0, kWindow * kMaxMpiBytes);
    }
    rma::barrier();
  }
  // Threads that want a CPU on this host during the timing: the origin's and the target's main
  // threads, plus every node server on the host when they poll. More than the CPUs: time slicing.
  const Host host = host_load(c);
  const std::string pinning = timing ? pin_main_thread(c) : "not pinned";
  c.out->meta(run_description(c, pinning, host));
  if (root && timing && rma::config().server_poll && host.servers + 2 > host.cpus)
    std::printf("WARNING: ARMADA_SERVER_POLL=1 with %d node servers polling on this host, plus the origin and the "
                "target, on %d CPUs: the figures include time slicing (milliseconds) between busy threads.\n",
                host.servers, host.cpus);

  const auto t0 = bench::Clock::now();
  if (bench::selected(c.opt, "memory")) bench_memory(c);
  if (c.origin) {
    if (bench::selected(c.opt, "latency")) bench_latency(c);
    if (bench::selected(c.opt, "bandwidth")) bench_bandwidth(c);
    if (bench::selected(c.opt, "strided")) bench_strided(c);
    if (bench::selected(c.opt, "overlap")) bench_overlap(c);
    if (bench::selected(c.opt, "atomic")) bench_atomic(c);
    send_command(c, {Cmd::Quit});
  } else if (c.target) {
    serve(c);
  }
  // Everyone else (and the pair when done) meets here without spinning on a core.
  MPI_Request request;
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  wait_sleeping(request);

  const int status = bench::finish_run(MPI_COMM_WORLD, root, *c.out, c.opt.output, t0, c.failures, timing ? "all data correct" : "n/a");
  if (timing) {
    rma::barrier();
    for (std::byte* p : {c.src, c.dst, c.mpi_recv, c.echo, c.window})
      if (p) rma::free_local(p);
    c.mutexes.destroy();
    rma::free(bases[static_cast<std::size_t>(c.me)]);
    if (c.pair != MPI_COMM_NULL) MPI_Comm_free(&c.pair);
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) { return bench::run_in_session(kProgram, argc, argv, run); }
