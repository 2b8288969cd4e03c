// armada-bench internals: one transport pass (rma::init ... rma::finalize) and its families.
//
// Rank 0 is the origin and drives everything; every other rank runs serve(): between commands it
// sleeps (MPI_Test with a growing nap), so a node server on its node has a CPU, and on command
// it fills or checks its memory or takes part in an MPI baseline. Rank 1 is the target of every
// family but "fence", which targets ranks 1..P-1.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "armada/rma/rma.hpp"
#include "common/measure.hpp"
#include "common/mpi_baseline.hpp"
#include "common/pattern.hpp"
#include "common/progress.hpp"
#include "common/socket_baseline.hpp"
#include "common/results.hpp"
#include "common/sizes.hpp"
#include "suite/options.hpp"
#include "suite/report.hpp"

namespace armada::bench::suite {

constexpr std::size_t KiB = 1024;
constexpr std::size_t MiB = 1024 * KiB;
constexpr int kStreamWindow = 8;   // MPI_Isend per round of the send/recv bandwidth baseline

/// Memory on the target (rank 1): in its rma segment and, with the same layout, its MPI window.
///   [0, R)        region A: puts land here
///   [R, 2R)       region B: get sources (the target writes a pattern once per pass)
///   [2R, 3R)      region C: accumulates and the aggregation test's scattered puts
///   [3R, 4R)      region D: puts each followed by a fence, the strided family's local-stride variant
///   [4R, 5R)      region E: put_notify's data (the contig family's notify stream and ping-pong)
///   [5R, 5R+S)    slots: counters, the overlap family's flag, the fence family's words, notify flags
/// Rank 0 and ranks 2 and up have just the slots, at offset 0 (rank 0's: the notify ping-pong's
/// echoes and flag; ranks 2 and up: the fence family's words).
/// The cold family uses region A (see families/cold.cpp); every family fills what it reads first.
struct Layout {
  std::size_t region = 0;  // R
  std::size_t a() const noexcept { return 0; }
  std::size_t b() const noexcept { return region; }
  std::size_t c() const noexcept { return 2 * region; }
  std::size_t d() const noexcept { return 3 * region; }
  std::size_t e() const noexcept { return 4 * region; }
  std::size_t slots() const noexcept { return 5 * region; }
  std::size_t target_bytes() const noexcept { return 5 * region + kSlotBytes; }
  /// Offset of the slots of world rank r (r >= 1).
  std::size_t slots_of(int r) const noexcept { return r == 1 ? slots() : 0; }
  static constexpr std::size_t kSlotBytes = 64 * KiB;
  // Slots (offsets from slots()).
  static constexpr std::size_t kCounter = 0;      // fetch_add
  static constexpr std::size_t kLocked = 256;     // increments under the mutex
  static constexpr std::size_t kMpiCounter = 512; // MPI_Fetch_and_op
  static constexpr std::size_t kFence = 1024;     // fence family: one 8-byte word per origin iteration
  static constexpr std::size_t kFlag = 2048;      // overlap, target busy: the origin's put ends the target's loop
  static constexpr std::size_t kSpins = 2304;     // overlap, target busy: the target's published spin count
  static constexpr std::size_t kNotify = 2560;    // contig, put_notify stream: its flag (the call count)
  static constexpr std::size_t kNotifyPing = 2816;  // contig, notify ping-pong: the origin's flag at the target
  // Rank 0's slots: the notify ping-pong's echoes land at kEcho (at most kEchoBytes), its flag at kEchoFlag.
  static constexpr std::size_t kEcho = 0;
  static constexpr std::size_t kEchoBytes = 32 * KiB;
  static constexpr std::size_t kEchoFlag = 48 * KiB;
};

/// Seed of the pattern the target writes into region B (word i of B is pattern_word(i, seed)).
constexpr std::uint64_t kGetSeed = 0xB0B;

using bench::Rotation;

enum class Cmd : std::int64_t {
  Quit, Fill, Check, CheckStrided, CheckDoubles, CheckScatter, SetLong, GetLong, Echo, StreamReceive, CheckStream,
  Spin, MixedAtomic, Cold, ServerStats, UcxBaseline, SocketEcho, SocketStreamReceive, NotifyEcho
};
/// Target memory a command names: the rma segment, the MPI window, or the shared-memory window of
/// the cold family's peer baseline (same layout); Link: the target's receive buffers of the TCP
/// socket baseline (CheckStream only).
enum class Mem : std::int64_t { Segment, Window, Peer, Link };
struct Command {
  Cmd cmd;
  Mem mem = Mem::Segment;
  std::int64_t a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0;
};
constexpr int kTagCommand = 11, kTagReply = 12, kTagPing = 13, kTagData = 14, kTagAck = 15, kTagStep = 16;

using bench::scatter_offsets;

/// Double i of the accumulate source: small integers and halves, exact in any sum used here.
inline double acc_value(std::size_t i) noexcept { return static_cast<double>(i % 1000) * 0.5; }

struct Pass {
  const Options* opt = nullptr;
  Report* report = nullptr;
  int run = 0;                    // index of this pass in report->runs
  ResultWriter* table = nullptr;  // the human table (root only)
  Progress* progress = nullptr;
  std::string transport;

  int me = 0, nranks = 0;
  MPI_Comm comm = MPI_COMM_NULL;  // a duplicate of the world: commands and MPI baselines
  Layout layout;
  std::vector<void*> bases;       // rma segment bases, per rank
  std::byte* seg = nullptr;       // rank 1's segment (its address; local memory on rank 1)
  rma::MutexSet mutexes;
  MpiWindow win;                  // same layout as the segment, under lock_all
  MpiWindow lock_win;             // for MPI_Win_lock/unlock
  std::byte* src = nullptr;       // origin: R bytes of pattern sources
  std::byte* dst = nullptr;       // origin: R bytes of get destinations
  std::byte* mdst = nullptr;      // origin: R bytes of MPI get destinations
  std::byte* recv = nullptr;      // origin: the region, the ping-pong's echoes
  double* acc_src = nullptr;      // origin: R bytes of doubles acc_value(i)
  std::byte* scratch = nullptr;   // origin: R bytes, destination of the local baselines (memcpy, axpy, scatter)
  std::byte* echo = nullptr;      // target: the region (or kStreamWindow pages-rounded max_bytes), echo and stream receive buffers
  SocketLink link;                // ranks 0 and 1: a plain TCP connection, the link's own limit
  std::byte* link_recv = nullptr; // origin: R bytes, the socket ping-pong's echoes
  std::byte* link_echo = nullptr; // target: like echo, for the socket ping-pong and stream
  bool same_host = false;         // ranks 0 and 1 share a host (MPI then goes over shared memory)
  MPI_Comm pair = MPI_COMM_NULL;  // ranks 0 and 1 when they share a host: the peer window's communicator
  MPI_Win peer_win = MPI_WIN_NULL;
  std::byte* peer = nullptr;      // rank 1's shared-window memory as rank 0 and rank 1 address it
  std::string peer_error;         // why there is no peer window
  std::size_t max_bytes = 0;      // largest contiguous size of the pass
  double busy_ns = 0;             // origin: calibrated computation loop
  long notify_sets = 0;           // origin: put_notify stream calls so far (its flag's last value)
  long notify_pings = 0;          // origin: notify ping-pong round trips so far (both flags' last value)
  long failures = 0;
};

// ---- the origin's side of the protocol (suite/target.cpp) ---------------------------------------
void send_command(const Pass& p, int rank, const Command& m);
std::int64_t reply(const Pass& p, int rank);
std::int64_t call(const Pass& p, int rank, const Command& m);
/// Reports a failed data check (rank, what, detail) and counts it.
void fail(Pass& p, const std::string& what, const std::string& detail);
/// A check run by rank `rank`: the reply is 0 when the data was right (the rank printed the
/// failure otherwise; it is counted on the origin too).
void remote_check(Pass& p, int rank, const Command& m, const std::string& what);
/// Every rank but 0: serve commands until Quit.
void serve(Pass& p);
/// Ranks 0 and 1 meet (a zero-byte exchange on the pass's communicator).
void pair_step(const Pass& p);

// ---- the cold family's target side and its peer window (suite/families/cold.cpp) -----------------
/// Collective over the pass: a shared-memory window of rank 1 mapped by rank 0 when they share
/// a host (the cold family's peer baselines); otherwise p.peer stays null with peer_error set.
void open_peer_window(Pass& p);
void close_peer_window(Pass& p);
/// Target: the cold loop of command m (the origin runs the matching loop); returns the failures.
long cold_target(Pass& p, const Command& m);
/// Rank 1: the raw UCX baseline's target (suite/families/ucx.cpp): registers memory for the
/// origin's raw worker and serves it until the origin's step message.
void ucx_target(Pass& p, const Command& m);
/// Any rank but 0: sends its node server's counters to rank 0 (suite/families/memory.cpp).
void server_stats_reply(Pass& p);

// ---- the families (suite/families/*.cpp); origin only --------------------------------------------
void family_contig(Pass& p);
void family_strided(Pass& p);
void family_overlap(Pass& p);
void family_aggregate(Pass& p);
void family_atomic(Pass& p);
void family_fence(Pass& p);
void family_cold(Pass& p);
void family_memory(Pass& p);
void family_ucx(Pass& p);

/// A family: its run function and the number of progress steps it shows.
struct Family {
  const char* name;
  void (*run)(Pass&);
  std::size_t (*steps)(const Options&, int nranks);
};
/// The family named `name` (one of kFamilies). Throws std::logic_error for another name.
const Family& family(const std::string& name);

}  // namespace armada::bench::suite
