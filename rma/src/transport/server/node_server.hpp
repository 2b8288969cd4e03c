// The node server: one helper thread per node, in the node's first rank, that executes the
// requests of remote origins on the memory of every rank of its node (which its process maps),
// so that one-sided operations complete while the target ranks compute.
//
// Request buffers are posted per client (ARMADA_SERVER_BUFFERS each), and origins never have
// more requests in flight to one server than that, so a flood cannot exhaust memory. With
// cooperative clustering (ARMADA_SERVER_CLUSTER = g), a server posts buffers only for the
// clients assigned to it (1/g of them) plus its cluster peers, and forwards requests for the
// other servers of its cluster; the target's server answers the origin directly.
#pragma once

#include <mpi.h>
#include <sys/uio.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "desc/runs.hpp"
#include "common/topology.hpp"
#include "transport/server/protocol.hpp"

namespace armada::rma::detail {

class NodeMemory;
class Registry;

// The server transport's settings: its rows (init.cpp) fill them and hold the defaults.
struct ServerSettings {
  int buffers;                 // ARMADA_SERVER_BUFFERS: request buffers per client (= origin credits)
  std::size_t inline_bytes;    // ARMADA_SERVER_INLINE: payload carried in the request message itself
  std::size_t chunk;           // ARMADA_SERVER_CHUNK: pipeline chunk of larger payloads
  bool poll;                   // ARMADA_SERVER_POLL: never sleep when idle
  int awake_us;                // ARMADA_SERVER_AWAKE_US: keep polling this long after the last request
  int sleep_max_us;            // ARMADA_SERVER_SLEEP_MAX_US: idle backoff ceiling
  std::string origin_progress_setting;  // ARMADA_SERVER_ORIGIN_PROGRESS: auto, 1, 0
  bool origin_progress;        // the decision: origin side, a thread completes nonblocking gets
  std::string origin_progress_reason;  // why (transport_info)
  bool waiter_serves;          // ARMADA_SERVER_WAITER_SERVES: a waiting rank executes its node server's requests
  int cluster;                 // ARMADA_SERVER_CLUSTER: servers per cooperative cluster
  std::string direct_setting;  // ARMADA_SERVER_DIRECT: auto, on, off
  bool direct;                 // the probe's answer: the server copies data to/from origins on its host (direct.hpp)
  int stall_warn_s;            // the core's ARMADA_STALL_WARN: a wait for replies this long says so (stall.hpp)
};

/// Which server an origin sends a request for a target to, and which server executes it.
struct ServerMap {
  std::vector<int> leader_of_node;     // world rank of each node's server
  std::vector<int> node_of;            // per world rank
  int cluster = 1;
  std::vector<int> host_of;            // per world rank: its physical host
  std::vector<int> pid_of;             // per world rank (direct delivery)
  const Topology* topology = nullptr;  // the runtime's, which outlives the transport (host names for messages)

  int target_server(int target) const { return leader_of_node[static_cast<std::size_t>(node_of[static_cast<std::size_t>(target)])]; }
  /// The origin's assigned server in the cluster of `target`'s server.
  int first_hop(int origin, int target) const;
  bool same_host(int a, int b) const {
    return host_of[static_cast<std::size_t>(a)] == host_of[static_cast<std::size_t>(b)];
  }
  /// Servers of the cluster that `server`'s node belongs to.
  std::vector<int> cluster_of(int server) const;
};

/// For tests: while held, the node server threads of this process execute nothing, as a thread
/// that never gets a core would; only the process's ranks that wait in the library (serve_arrived)
/// execute the requests that reach it. Released by the server's stop() too.
void hold_node_server_threads(bool held) noexcept;

class NodeServer {
 public:
  /// `registry` and `memory`: the process's segment registry (to map target memory) and its
  /// node's accumulate and atomic primitives; `me` this process's world rank, `world_size` the
  /// world's size.
  NodeServer(const Registry& registry, NodeMemory& memory, int me, int world_size, MPI_Comm comm, ServerMap map,
             ServerSettings settings);
  ~NodeServer();
  void start();
  /// Stops the thread (after the world has fenced: nothing is in flight).
  void stop();

  /// Executes the requests that have arrived, on the calling thread, unless the server's thread
  /// is at it right now (then it returns at once). A rank of this process that waits for its
  /// own replies calls it: where ranks and their servers outnumber the cores (each rank of an
  /// exchange waiting for the others' servers), a server's thread can wait milliseconds for a
  /// core that the waiting rank holds, idle; the rank serves in its place.
  void serve_arrived();

  /// Bytes of request and chunk buffers this server allocated.
  std::size_t buffer_bytes() const noexcept { return buffer_bytes_; }
  int clients() const noexcept { return clients_; }

 private:
  enum class Slot : std::uint8_t { Client, Peer, PeerAck, Control };
  struct Posted {
    Slot slot;
    int source;
    std::byte* buffer;
    std::size_t capacity;
    std::uint32_t stream;  // Client and Peer slots: the (source, kind) stream whose FIFO holds it
  };
  struct WaitingLock {
    void* word;        // this process's mapping of the ticket mutex
    std::uint32_t ticket;
    int origin;
    std::uint32_t id;
  };
  struct Forward {
    int to;
    std::vector<std::byte> message;
  };

  /// A data request being executed: its target runs (mapped in this process) and the part of
  /// its payload that came inline.
  struct Transfer {
    const server::Header& h;
    const std::byte* in;                 // inline payload not yet used
    std::size_t inline_left;
    std::vector<std::byte> desc_storage{};  // a vector descriptor that came as a data message
    std::optional<RunWalker> walker{};      // over the target runs
    std::ptrdiff_t delta = 0;            // owner address - mapped address (strided)
    std::byte* contiguous = nullptr;     // the mapped run, when the target side is one run
  };

  void run();
  // One poll of the posted receives, executing what arrived. Called with serving_ held.
  enum class Polled : std::uint8_t { nothing, request, quit };
  Polled poll_once();
  // One received message, by the kind of buffer it arrived in. Control returns true on Quit.
  bool on_control(const Posted& p);
  void on_request(std::size_t index, const MPI_Status& status);
  void on_forward_ack(const Posted& p);
  /// Between messages: grant waiting locks and reap sends (with serving_ held), then choose
  /// how to pause before the next poll (taken without it: see run()).
  struct Idle;
  enum class Pause : std::uint8_t { spin, yield, sleep };
  Pause idle_step(Idle& idle);
  void pause(Pause how, Idle& idle) const;
  void post(std::size_t index);
  void handle(const std::byte* msg, std::size_t length, int source, bool forwarded);
  void execute(const server::Header& h, const std::byte* inline_data);
  // The steps of execute().
  void execute_transfer(const server::Header& h, const std::byte* inline_data);
  void execute_word(const server::Header& h);  // RMW and mutex requests
  bool map_target(Transfer& t);         // false: this process cannot map the target memory
  bool map_vector_target(Transfer& t);
  void apply(Transfer& t, const std::byte* src, std::size_t n);  // next n bytes: copy or accumulate
  int deliver_direct(Transfer& t);      // direct.hpp; returns 0 or the copy's errno
  bool notify(const server::Header& h); // a put's flag (Header::notify); false: unmappable
  void receive_data(Transfer& t);       // put, accumulate
  void receive_rest(void* into, std::size_t n, int origin, int tag);  // one piece of it
  void wait_yielding(MPI_Request& r) const;  // MPI_Wait that pauses (yield, sleep) after 50 us
  void send_in_reply(Transfer& t);      // small get
  void send_from_target(Transfer& t);   // get of one target run
  void send_packed(Transfer& t);        // other gets
  void forward(int to, const std::byte* msg, std::size_t length);
  /// Answers a request as its reply_mode says (protocol.hpp: a lazy write is only counted).
  void reply(const server::Header& h, std::int32_t status, std::uint64_t value);
  void acknowledge(const server::Header& h, std::int32_t status);
  void check_waiting_locks();
  void reap_sends();  // forgets the get chunks their origins have received
  /// This process's view of [addr, addr + extent) of the target: through the registry when this
  /// process maps the segment, else through the node object an Adopt named.
  std::byte* map_remote(const server::Header& h, std::uint64_t addr, std::size_t extent);
  /// Kind::Adopt: receives the table, maps the object, replies (kOk or kUnreachable).
  void adopt(const server::Header& h);
  // Receives (and drops) the DATA messages of a request that cannot be executed.
  void drain(const server::Header& h, std::size_t already);

  const Registry& registry_;
  NodeMemory& memory_;
  MPI_Comm comm_;
  ServerMap map_;
  ServerSettings settings_;
  int me_;
  std::vector<Posted> posted_;
  std::vector<MPI_Request> requests_;
  // Per stream (a client's requests, or a peer server's forwards: different tags), its request
  // slots in the order they were posted. MPI matches a source's messages to its receives in
  // that order, but MPI_Testany may report a later one first: the server executes a stream's
  // requests in posting order, so each origin's are in issue order. A stream never has more
  // than `buffers` slots posted, so each is a ring of that many entries: memory follows the
  // streams this server serves, not the world's size (docs/scaling.md).
  struct Ring {
    std::uint32_t head = 0, count = 0;
  };
  std::vector<Ring> fifo_;                // per stream
  std::vector<std::size_t> fifo_slots_;   // stream s: [s * buffers, (s + 1) * buffers)
  void fifo_push(std::uint32_t stream, std::size_t slot);
  std::size_t fifo_pop(std::uint32_t stream);
  std::vector<std::byte> arena_;        // all request buffers
  std::vector<std::byte> chunk_[2];     // pipeline buffers
  std::vector<iovec> direct_runs_;      // target runs of a direct copy
  std::vector<std::byte> in_reply_;     // a small get's reply and data
  std::vector<MPI_Request> sends_in_flight_;  // get chunks sent from target memory, not yet taken
  std::vector<int> completed_;                // reap_sends' scratch
  struct LazyWrites {
    std::uint64_t done = 0;                   // lazy writes of the origin run here so far
    std::int32_t failure = server::kOk;       // the first failure since the last count replied
  };
  std::unordered_map<int, LazyWrites> lazy_;  // per origin that wrote (not sized by P)
  int send_spin_ = 0;                         // polls since a send last completed
  std::size_t buffer_bytes_ = 0;
  int clients_ = 0;
  std::vector<int> peer_credits_;       // per world rank: forwards we may still send
  std::deque<Forward> backlog_;         // forwards waiting for a credit, in order
  std::vector<WaitingLock> waiting_locks_;
  // A segment of a group without this process, on this node (Kind::Adopt): our mapping of its
  // node object and where each of the node's members maps it (sorted by owner).
  struct Foreign {
    std::byte* base;
    std::size_t size;
    std::vector<server::AdoptMember> members;
  };
  std::unordered_map<std::int64_t, Foreign> foreign_;  // segment id -> our mapping of its object
  std::thread thread_;
  bool running_ = false;
  // Held by whichever thread executes requests: the server's own, or a waiting rank's
  // (serve_arrived). Every member above is touched only with it held, once start() returned.
  std::mutex serving_;
  bool quit_ = false;  // the Quit message was executed: the thread ends
};

}  // namespace armada::rma::detail
