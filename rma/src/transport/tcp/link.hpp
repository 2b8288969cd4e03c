// One TCP connection between two processes of the job, used both ways: each side sends its
// requests on it and answers the other's, so the bytes of one direction carry the kernel's
// acknowledgements of the other's (with a connection per direction, every frame's receiver
// sent an ACK segment of its own: on the emulated cluster a ping-pong's half took 8.4-8.7 us on
// two connections, 4.9-5.0 on one; docs/benchmarks.md, session 29).
//
// Reading. Whoever holds the link's read turn parses the incoming stream, whatever it carries:
// the peer's requests are run on this process's memory (answers sent back on the link), answers
// to this process's requests go to what is owed (a get's destination, an atomic's value). The
// service thread takes the turn when epoll reports bytes; an origin waiting for an answer takes
// it and sleeps in poll() on the socket, so a request that arrives meanwhile is run by that
// waiter, already awake. A thread that finds the turn taken by someone asleep on the socket
// leaves it (the holder re-arms the service's watch as it lets go, as PeerLock did).
//
// Writing. A frame goes out whole under the send lock. An origin's frame waits for room (its
// bytes must be in the kernel before the call returns), reading the link meanwhile when it can
// take the read turn. An answer never waits: what the socket does not take at once, or what
// cannot go now because another thread is mid-frame, is copied to the link's outbox, which
// every holder of the send lock empties before it lets go (and the service on EPOLLOUT). So no
// reader ever blocks on a peer that is not reading, and every sender that blocks leaves the
// reading to someone: two processes that both write more than the kernel buffers each drain
// the other.
#pragma once

#include <sys/uio.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "desc/runs.hpp"
#include "transport/tcp/protocol.hpp"
#include "transport/tcp/sockets.hpp"

namespace armada::rma::detail {
class NodeMemory;
}

namespace armada::rma::detail::tcp {

class Link;

/// What the links of a process share: its memory, the job, and the service's hooks.
struct LinkHost {
  std::uint64_t job_key;
  int me;
  NodeMemory& memory;
  /// A link accepted from another process said who it is (its Hello). True: the pair uses this
  /// link from now on; false: the one this process has or is opening (the Hello's answer says
  /// which, so that both ends of a pair that connected at the same moment use the same one).
  std::function<bool(Link&)> introduced;
  /// The link wants the service's watch again (one-shot): `output` also for room to send.
  std::function<void(Link&, bool output)> rearm;
  /// The link is read by a thread that waits on it: the service need not wake for it.
  std::function<void(Link&)> disarm;
  /// "rank 3 (10.1.0.2:40123)": for error messages.
  std::function<std::string(int rank)> describe;
  std::atomic<std::uint64_t> frames{0};         // requests run, by anyone
  std::atomic<std::uint64_t> waiter_frames{0};  // of which by a thread other than the service's
  std::atomic<std::uint64_t> payload_sleeps{0}; // sleeps for the rest of a direct payload (Link::sleep)
  std::atomic<std::uint64_t> next_soon_frames{0}; // requests run that said the next comes soon (kNextSoon)
};

/// An answer this process is owed: where its data goes, where its value goes.
struct Owed {
  std::byte* direct = nullptr;        // a contiguous get's destination
  std::optional<RunWalker> walker;    // a strided or vector get's runs
  std::uint64_t bytes = 0;            // the data it must carry
  std::uint64_t* value = nullptr;     // an atomic's old value, an unlock's verdict, an Ack's count

  static Owed value_into(std::uint64_t* value) {
    Owed o;
    o.value = value;
    return o;
  }
  static Owed data(std::uint64_t bytes) {
    Owed o;
    o.bytes = bytes;
    return o;
  }
};

/// How a wait for an answer behaves: polls for `spin_ns`, and after `stall_ms` (> 0) without a
/// byte calls `stalled` once (the warning naming the peer), then waits on.
struct WaitStyle {
  long spin_ns = 0;
  int stall_ms = -1;
  std::function<void()> stalled;
};

class Link {
 public:
  /// `peer`: the world rank at the other end, or -1 for an accepted link until its Hello.
  Link(Fd fd, LinkHost& host, int peer, bool opened);
  Link(const Link&) = delete;
  Link& operator=(const Link&) = delete;

  int fd() const noexcept { return fd_.get(); }
  int peer() const noexcept { return peer_.load(std::memory_order_acquire); }
  bool opened() const noexcept { return opened_; }
  bool closed() const noexcept { return closed_.load(std::memory_order_acquire); }

  /// Holds the send lock for one frame (or a frame sent in pieces); empties the outbox before
  /// it lets go. Errors (the peer gone) throw SystemError naming `op` and the peer.
  class Writer {
   public:
    Writer(Link& link, const char* op);
    ~Writer();
    Writer(const Writer&) = delete;
    Writer& operator=(const Writer&) = delete;
    /// Registers the answer the next request will get; its number on the link (for await).
    std::uint64_t owe(Owed owed);
    /// Sends every byte, reading the link while there is no room.
    void send(iovec* parts, int count);
    /// Set when a write went out since the last Ack (fence): under the send lock.
    bool& written() noexcept { return link_.written_; }
    /// Sends an Ack (fence): its answer's number, which every later fence of any thread waits for
    /// too while it is on its way (it covers their writes: answers come in order).
    std::uint64_t ack();
    /// A buffer for packing strided and vector data, kept with the link.
    std::vector<std::byte>& scratch() noexcept { return link_.scratch_; }

   private:
    Link& link_;
    const char* op_;
  };

  /// Waits until answer `seq` (from Writer::owe) is in. Throws the link's failure.
  void await(const char* op, std::uint64_t seq, const WaitStyle& style);
  /// Whether answer `seq` is in, after reading what has arrived.
  bool arrived(const char* op, std::uint64_t seq);

  // Done: the link is closed (or was never genuine); Idle: nothing had arrived (look only).
  enum class Turn { Served, Busy, Done, Idle };
  /// From the service (or a waiting rank's look) once the link's watch fired: reads what has
  /// arrived, runs it, sends what the outbox holds, re-arms the watch; Busy when another thread
  /// holds the read turn (it re-arms the watch).
  Turn serve(bool service_thread);
  /// The same without the watch having fired: a polling service thread reads the link it served
  /// last directly, one system call a look as a polling socket reader's, and leaves the watch
  /// armed (nothing to re-arm after a frame found so). Idle when nothing had arrived.
  Turn look(bool service_thread);
  /// Whether the last serve stopped inside a frame (the service does not spin then).
  bool mid_frame() const noexcept { return stage_ != Stage::Header || got_ > 0; }
  /// Whether the last request run on the link said its origin sends the next soon (kNextSoon).
  bool next_soon() const noexcept { return next_soon_.load(std::memory_order_relaxed); }
  /// Whether the last answer to this process's requests came less than `ns` ago.
  bool answered_within(long ns) const noexcept;

  std::uint64_t requests_sent() const noexcept { return owed_total_.load(std::memory_order_relaxed); }
  /// The last Ack sent on the link (0: none), and whether its answer is in.
  std::uint64_t last_ack() const noexcept { return last_ack_.load(std::memory_order_acquire); }
  bool answered(std::uint64_t seq) const noexcept { return answered_.load(std::memory_order_acquire) >= seq; }

  /// The service's one-shot watch is armed: set by Service::rearm, cleared by whoever takes its
  /// event or switches it off (a waiting origin).
  std::atomic<bool> watched{true};

 private:
  enum class Stage { Header, Descriptor, Payload };

  // The read turn: the service, finding it taken, leaves the link to the holder (turned_away_),
  // who re-arms the watch as it lets go.
  bool try_read();
  void end_read(bool rearm = false);
  Turn read_now(bool service_thread, bool watch_fired);  // serve and look
  // Parsing (under the read turn).
  // Serve: what has arrived, up to `budget` bytes (and the rest of a direct payload begun).
  // Drain: the same, never sleeping (a sender reading while it waits for room; a test).
  // Wait: until answer `until` is in, sleeping in poll() when nothing comes.
  enum class Pump { Serve, Drain, Wait };
  bool pump(Pump mode, std::size_t budget, std::uint64_t until, const WaitStyle* wait);
  // One sleep of pump's in poll(): for bytes, and for room while answers wait (`room_wanted`),
  // at most `timeout_ms` (-1: no limit); `payload_left`: bytes of a direct payload still to come.
  enum class Woke { Input, Room, Timeout, Failed };
  Woke sleep(bool room_wanted, int timeout_ms, std::uint64_t payload_left);
  bool consume();
  bool begin_frame();
  bool begin_payload();
  void deliver(const std::byte* data, std::size_t n);
  bool finish();
  bool run_request();
  void answer(std::uint64_t value, const std::byte* data, std::size_t bytes);
  void accumulate(const std::byte* src, std::byte* dst, std::size_t bytes);
  bool fail(std::string why);
  // Writing.
  enum class Flush { Done, NoRoom, Busy };
  int send_outbox(bool block);   // with the send lock: 0, or the errno that stopped it
  Flush flush_now();             // the send lock if free; never blocks
  bool outbox_empty();
  void append(const iovec* parts, int count, std::size_t skip);  // to the outbox, `skip` bytes in
  void drain_while_sending();

  Fd fd_;
  LinkHost& host_;
  std::atomic<int> peer_;
  bool opened_;
  std::atomic<bool> closed_{false};

  // Read side (under the read turn).
  std::mutex read_mutex_;
  std::atomic<bool> turned_away_{false};
  std::vector<std::byte> in_;
  std::size_t lo_ = 0, hi_ = 0;
  Stage stage_ = Stage::Header;
  Header h_{};
  std::size_t got_ = 0;
  std::vector<std::byte> desc_;
  std::vector<std::byte> staging_;
  std::byte* direct_ = nullptr;
  std::optional<RunWalker> walker_;
  std::uint64_t left_ = 0;
  std::uint64_t requests_run_ = 0;  // an Ack's answer: frames run on this link, itself included
  std::uint64_t received_ = 0;      // bytes read from the socket (look: whether anything came)
  bool owes_flush_ = false;         // an answer went to the outbox while parsing
  std::atomic<bool> next_soon_{false};  // the last request run carried kNextSoon

  // What this process is owed, in order.
  std::mutex owed_mutex_;
  std::deque<Owed> owed_;
  std::atomic<std::uint64_t> owed_total_{0};
  std::atomic<std::uint64_t> answered_{0};
  std::atomic<std::int64_t> answer_ns_{-1};   // steady clock at the last answer's end; -1: none yet
  std::atomic<std::uint32_t> generation_{0};  // moves at each answer and each end of a read turn
  std::mutex failure_mutex_;
  std::string failure_;                        // set once, before failed_
  std::atomic<bool> failed_{false};

  // Write side.
  std::mutex send_mutex_;
  bool written_ = false;
  std::atomic<std::uint64_t> last_ack_{0};
  std::vector<std::byte> scratch_;
  std::mutex outbox_mutex_;
  std::vector<std::byte> outbox_;
  std::size_t outbox_sent_ = 0;
};

}  // namespace armada::rma::detail::tcp
