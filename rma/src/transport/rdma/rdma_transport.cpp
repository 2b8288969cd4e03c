#include "transport/rdma/rdma_transport.hpp"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>
#include <utility>

#include "common/check.hpp"
#include "desc/strided.hpp"
#include "transport/base/locks.hpp"
#include "transport/base/node_memory.hpp"
#include "transport/base/shm_region.hpp"

namespace armada::rma::detail {

using rdma::RequestKind;

namespace {

constexpr const char* kRmwName[] = {"rma::fetch_add", "rma::swap", "rma::compare_swap"};

std::uint64_t token_of(ucs_status_ptr_t request) { return reinterpret_cast<std::uintptr_t>(request); }
ucs_status_ptr_t request_of(std::uint64_t token) { return reinterpret_cast<ucs_status_ptr_t>(token); }

// Where an origin waits for a packed key it asked for (fetch_packed_key); the reply's token.
struct KeyFetch {
  std::atomic<bool> done{false};
  bool found = false;
  std::vector<std::byte> packed;
};

void set_am_handler(ucp_worker_h worker, unsigned id, ucp_am_recv_callback_t cb, void* arg) {
  ucp_am_handler_param_t handler{};
  handler.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_FLAGS |
                       UCP_AM_HANDLER_PARAM_FIELD_CB | UCP_AM_HANDLER_PARAM_FIELD_ARG;
  handler.id = id;
  handler.flags = UCP_AM_FLAG_WHOLE_MSG;
  handler.cb = cb;
  handler.arg = arg;
  rdma::check_ucs("rma::init (rdma)", "ucp_worker_set_am_recv_handler", ucp_worker_set_am_recv_handler(worker, &handler));
}

// Raises `mark` to `to` unless it is there already (marks only grow).
void raise_mark(std::atomic<std::uint64_t>& mark, std::uint64_t to) {
  std::uint64_t now = mark.load(std::memory_order_relaxed);
  while (now < to && !mark.compare_exchange_weak(now, to, std::memory_order_acq_rel, std::memory_order_relaxed)) {
  }
}

}  // namespace

// ---- construction ----------------------------------------------------------------------------

RdmaTransport::RdmaTransport(const TransportContext& context)
    : rank_(context.rank),
      node_of_(context.topology.node_of),
      node_memory_(context.node_memory),
      ucx_memory_(context.settings_as<RdmaSettings>().ucx_memory),
      acc_outstanding_(new std::atomic<std::int64_t>[static_cast<std::size_t>(context.size)]()),
      marks_(new TargetMarks[static_cast<std::size_t>(context.size)]) {
  ucx_ = std::make_unique<rdma::Ucx>(context.world, context.rank, context.size);
  ucx_->watch_stalls(context.config.stall_warn_s, context.topology);  // the core's ARMADA_STALL_WARN
  set_am_handler(ucx_->origin(), rdma::kReplyAm, &RdmaTransport::on_reply, this);
  set_am_handler(ucx_->origin(), rdma::kKeyReplyAm, &RdmaTransport::on_key_reply, this);
  // Measured, not guessed from names: a get and a fetch-add to a rank that does not progress
  // UCX either complete (one-sided) or wait for that rank's worker (emulated). Every rank
  // probes one peer; the job agrees on the stricter answer.
  const std::string waited = ucx_->probe_one_sided(ucx_memory_);
  const std::vector<std::string>& lanes = ucx_->probe_path().transports;
  int found[2] = {waited.empty() ? 0 : 1, std::ranges::find(lanes, "tcp") != lanes.end() ? 1 : 0};  // emulated, TCP
  MPI_Allreduce(MPI_IN_PLACE, found, 2, MPI_INT, MPI_MAX, context.world);
  one_sided_ = found[0] == 0;
  if (found[1]) ucx_->connect_all();  // UCX over TCP: no endpoint on first contact (ucx.hpp)
  progress_thread_ = decide_progress(one_sided_, waited, context.settings_as<RdmaSettings>().progress, progress_reason_);
  service_ = std::make_unique<rdma::RequestService>(
      *ucx_,
      [this](AccType type, const void* scale, const std::byte* src, std::byte* dst, std::size_t bytes) {
        node_memory_.accumulate(type, scale, src, dst, reinterpret_cast<std::uintptr_t>(dst), rank_, bytes);
      },
      [this](std::int64_t id, std::vector<std::byte>& packed) {
        std::lock_guard lock(segments_mutex_);
        const auto it = segments_.find(id);
        if (it == segments_.end()) return false;
        packed = it->second.mine.packed_key();
        return true;
      },
      progress_thread_);
  MPI_Barrier(context.world);  // every service is listening before anyone sends
}

RdmaTransport::~RdmaTransport() {
  service_.reset();  // the caller fenced and passed a barrier: no request is in flight
  for (auto& [id, segment] : segments_)
    for (const auto& [owner, key] : segment.keys) ucp_rkey_destroy(key);
  segments_.clear();  // unregisters before the core unmaps the memory
  ucx_.reset();
}

bool RdmaTransport::decide_progress(bool one_sided, const std::string& waited, const std::string& setting,
                                    std::string& reason) {
  if (setting == "on") return reason = "ARMADA_RDMA_PROGRESS=on", true;
  if (setting == "off") return reason = "ARMADA_RDMA_PROGRESS=off", false;
  if (one_sided) return reason = "a get and a fetch-add completed while their target waited in MPI", false;
  if (waited.empty()) return reason = "another rank's probe waited for its target's UCX worker", true;
  reason = "the probe's " + waited + " waited for the target's UCX worker (UCX emulates it with messages)";
  return true;
}

TransportCaps RdmaTransport::caps() const noexcept {
  TransportCaps c;
  c.put_get_one_sided = one_sided_;
  c.rmw_one_sided = one_sided_;
  c.acc_one_sided = false;    // the target's request service adds
  c.mutex_one_sided = false;  // the owner's request service queues
  c.progress_thread = true;   // the request service (asleep in the kernel when idle)
  c.exclusive_atomics = true;  // see the one-path rule in the header
  return c;
}

bool RdmaTransport::suits_as_default(std::string& why) const {
  if (!one_sided_) {
    why = "UCX emulates operations with messages here (" + progress_reason_ + ")";
    return false;
  }
  // One rank per other node: UCX picks lanes by the pair of nodes' devices, and asking every
  // rank would cost O(P) at init (docs/scaling.md).
  const int my_node = node_of_[static_cast<std::size_t>(rank_)];
  int example = -1, last_node = -1;
  for (int r = 0; r < ucx_->size(); ++r) {
    const int node = node_of_[static_cast<std::size_t>(r)];
    if (node == my_node || node == last_node) continue;
    last_node = node;
    const rdma::PeerPath path = ucx_->path_to(r);
    if (path.rma.empty() || path.amo.empty()) {
      why = std::string("UCX has no ") + (path.rma.empty() ? "RMA" : "atomic") + " lane to rank " + std::to_string(r) +
            " (" + path.describe() + ")";
      return false;
    }
    if (example < 0) example = r;
  }
  why = "UCX reaches every rank of another node one-sidedly (" + progress_reason_ + ")";
  if (example >= 0) why += "; to rank " + std::to_string(example) + ": " + ucx_->path_to(example).describe();
  return true;
}

void RdmaTransport::describe(int target, TransportInfo& info) const {
  const rdma::PeerPath path = ucx_->path_to(target);
  info.route.push_back({"ucx", path.describe()});
  info.route.push_back({"ucx_transports", [&] {
                          std::string all;
                          for (const std::string& tl : path.transports)
                            all += (all.empty() ? "" : ",") + tl;
                          return all;
                        }()});
  info.process.push_back({"origin_progress", progress_thread_ ? "service thread" : "none"});
  info.process.push_back({"origin_progress_reason", progress_reason_});
  info.process.push_back({"requests_handled", std::to_string(service_->handled())});
  info.process.push_back({"service_wakeups", std::to_string(service_->wakeups())});
  // Made on first contact: tests check that a rank that talked to k peers made k (issue 53).
  const rdma::Ucx::EndpointCounts made = ucx_->endpoints_made();
  info.process.push_back({"ucx_endpoints", ucx_->all_at_init() ? "all at init (UCX over TCP)" : "on first contact"});
  info.process.push_back({"ucx_data_endpoints", std::to_string(made.data)});
  info.process.push_back({"ucx_request_endpoints", std::to_string(made.request)});
  info.process.push_back({"ucx_reply_endpoints", std::to_string(made.reply)});
  info.process.push_back({"ucx_address_bytes", std::to_string(ucx_->address_bytes())});
}

// ---- segments --------------------------------------------------------------------------------

// UCX's shared-memory allocations are not reserved up front, and once SysV refuses a size its
// POSIX method creates a file of it in /dev/shm: a size beyond the host's memory, or beyond what
// /dev/shm can hold, would fill /dev/shm and bring the out-of-memory killer (seen: a 2^50-byte
// request in test_errors). Refuse both before UCX is asked, like shm's fallocate.
void RdmaTransport::check_segment(const SegmentSpec& spec) {
  check_host_memory(spec.op, "UCX-allocated segment memory", spec.bytes);
  check_shm_space(spec.op, "UCX-allocated segment memory", spec.bytes);
}

std::byte* RdmaTransport::allocate_segment(const SegmentSpec& spec) {
  if (spec.bytes == 0) return nullptr;
  rdma::Registration memory = rdma::Registration::allocate(ucx_->context(), spec.bytes, spec.at);
  std::byte* base = memory.base();
  std::lock_guard lock(segments_mutex_);
  segments_[spec.id].mine = std::move(memory);
  return base;
}

void RdmaTransport::allocation_abandoned(const SegmentSpec& spec) {
  std::lock_guard lock(segments_mutex_);
  segments_.erase(spec.id);  // unregisters and frees the memory
}

void RdmaTransport::segment_created(const SegmentSpec& spec, std::span<Slice> slices,
                                    std::span<const NodeObjectRef>) {
  SegmentKeys segment;
  if (ucx_memory_) {  // allocate_segment registered it (or the slice is empty)
    std::lock_guard lock(segments_mutex_);
    if (auto it = segments_.find(spec.id); it != segments_.end()) {
      segment = std::move(it->second);
      segments_.erase(it);
    }
  }
  std::exception_ptr failure;
  try {
    if (spec.bytes > 0 && !segment.mine.base())
      segment.mine = rdma::Registration(ucx_->context(), spec.my_base, spec.bytes);
  } catch (...) {
    failure = std::current_exception();  // still take part in the exchange below
  }
  for (Slice& slice : slices) slice.set_handle(SliceKey{nullptr});  // other nodes' keys: on first use
  if (ucx_memory_) {
    unpack_node_keys(spec, segment, slices);
    if (failure) std::rethrow_exception(failure);
    map_node_slices(slices);
  }
  if (failure) std::rethrow_exception(failure);
  std::lock_guard lock(segments_mutex_);
  segments_[spec.id] = std::move(segment);
}

// Collective over the segment's members on this node: each sends its world rank and packed key.
// A failure to unpack is thrown after the exchange (every member completes it); the keys
// unpacked before it stay in `segment`, destroyed with it.
void RdmaTransport::unpack_node_keys(const SegmentSpec& spec, SegmentKeys& segment, std::span<Slice> slices) {
  const std::vector<std::byte>& my_key = segment.mine.packed_key();
  std::vector<std::byte> mine(sizeof(std::int32_t) + my_key.size());
  const std::int32_t me = rank_;
  std::memcpy(mine.data(), &me, sizeof me);
  if (!my_key.empty()) std::memcpy(mine.data() + sizeof me, my_key.data(), my_key.size());
  const rdma::PackedBlobs node = rdma::allgather_blobs(mine, spec.node_comm);
  std::unordered_map<int, int> index;  // world rank -> its blob
  for (int i = 0; i + 1 < static_cast<int>(node.offsets.size()); ++i) {
    std::int32_t owner = -1;
    std::memcpy(&owner, node.data(i), sizeof owner);
    index[owner] = i;
  }
  for (Slice& slice : slices) {
    const auto it = index.find(slice.owner);
    if (it == index.end() || slice.owner == rank_) continue;  // another node's; this rank's own: on first use
    const std::byte* first = node.data(it->second) + sizeof(std::int32_t);
    const std::vector<std::byte> packed(first, first + (node.size(it->second) - sizeof(std::int32_t)));
    slice.set_handle(SliceKey{unpack_key(segment, slice.owner, packed)});
  }
}

ucp_rkey_h RdmaTransport::unpack_key(SegmentKeys& segment, int owner, const std::vector<std::byte>& packed) {
  ucp_rkey_h key = nullptr;
  ucs_status_t status;
  {
    std::lock_guard lock(ucx_->origin_mutex());
    status = ucp_ep_rkey_unpack(ucx_->data_ep(owner), packed.data(), &key);
  }
  rdma::check_ucs("rma (rdma): first operation on a slice", ("ucp_ep_rkey_unpack of rank " + std::to_string(owner) + "'s key").c_str(), status);
  ucp_rkey_h kept;
  {
    std::lock_guard lock(segments_mutex_);
    kept = segment.keys.emplace(owner, key).first->second;
  }
  if (kept != key) {  // another thread unpacked it meanwhile
    std::lock_guard lock(ucx_->origin_mutex());
    ucp_rkey_destroy(key);
  }
  return kept;
}

// The registry's slice is written once here, from null to the key, by whichever thread needs it
// first (the registry hands slices out as const, but they are its own, alive until free):
// readers load it atomically, so an operation's path costs one load, as before.
ucp_rkey_h RdmaTransport::key_of(const Slice& slice) {
  auto& cell = const_cast<ucp_rkey_h&>(slice.handle<SliceKey>().key);
  const ucp_rkey_h key = std::atomic_ref<ucp_rkey_h>(cell).load(std::memory_order_acquire);
  if (key) [[likely]]
    return key;
  return first_key(slice);
}

ucp_rkey_h RdmaTransport::first_key(const Slice& slice) {
  SegmentKeys* segment = nullptr;
  ucp_rkey_h key = nullptr;
  std::vector<std::byte> packed;
  {
    std::lock_guard lock(segments_mutex_);
    const auto it = segments_.find(slice.segment);
    if (it == segments_.end())
      throw SystemError("rma (rdma)", error_message("rma (rdma)", "segment " + std::to_string(slice.segment) +
                                                                      " is not registered with UCX on this rank"));
    segment = &it->second;
    if (const auto k = segment->keys.find(slice.owner); k != segment->keys.end()) key = k->second;
    else if (slice.owner == rank_) packed = segment->mine.packed_key();
  }
  if (!key) {
    if (slice.owner != rank_) packed = fetch_packed_key(slice.segment, slice.owner);
    key = unpack_key(*segment, slice.owner, packed);
  }
  std::atomic_ref<ucp_rkey_h>(const_cast<ucp_rkey_h&>(slice.handle<SliceKey>().key)).store(key, std::memory_order_release);
  return key;
}

std::vector<std::byte> RdmaTransport::fetch_packed_key(std::int64_t segment, int owner) {
  constexpr const char* op = "rma (rdma): first operation on a slice";
  KeyFetch fetch;
  const rdma::KeyRequest request{RequestKind::Key, rank_, segment, reinterpret_cast<std::uintptr_t>(&fetch)};
  send_request(op, owner, &request, sizeof request);
  ucx_->wait_until([&] { return fetch.done.load(std::memory_order_acquire); });
  if (!fetch.found)
    throw SystemError(op, error_message(op, "rank " + std::to_string(owner) + " has no slice of segment " +
                                                std::to_string(segment) + " registered (freed?)"));
  return std::move(fetch.packed);
}

ucs_status_t RdmaTransport::on_key_reply(void*, const void*, std::size_t, void* data, std::size_t length,
                                         const ucp_am_recv_param_t*) {
  rdma::KeyReply reply;
  if (length < sizeof reply) return UCS_OK;  // not ours to interpret
  std::memcpy(&reply, data, sizeof reply);
  if (length != sizeof reply + reply.key_bytes) return UCS_OK;
  auto* fetch = reinterpret_cast<KeyFetch*>(static_cast<std::uintptr_t>(reply.token));
  const auto* key = static_cast<const std::byte*>(data) + sizeof reply;
  fetch->packed.assign(key, key + reply.key_bytes);
  fetch->found = reply.found != 0;
  fetch->done.store(true, std::memory_order_release);
  return UCS_OK;
}

// Only ranks of this node (virtual nodes included): a rank of another node stays behind UCX
// even when it shares the host, so that virtual nodes test the inter-node path. A slice UCX
// cannot map (TCP only) stays unmapped, and every operation on it goes through UCX.
void RdmaTransport::map_node_slices(std::span<Slice> slices) const {
  const int my_node = node_of_[static_cast<std::size_t>(rank_)];
  for (Slice& slice : slices) {
    if (slice.local || node_of_[static_cast<std::size_t>(slice.owner)] != my_node) continue;
    if (const ucp_rkey_h key = slice.handle<SliceKey>().key) slice.local = rdma::map_remote(key, slice.base);
  }
}

void RdmaTransport::segment_freed(const SegmentSpec& spec) {
  SegmentKeys doomed;
  {
    std::lock_guard lock(segments_mutex_);
    auto it = segments_.find(spec.id);
    if (it == segments_.end()) return;
    doomed = std::move(it->second);
    segments_.erase(it);
  }
  std::lock_guard lock(ucx_->origin_mutex());
  for (const auto& [owner, key] : doomed.keys) ucp_rkey_destroy(key);
}  // the registration goes with `doomed`, before the core unmaps the memory

// ---- ordering and completion -----------------------------------------------------------------

// After a put to `target`, the next operation to it must not overtake the put. An accumulate
// travels on another endpoint (to the request service), which no fence orders: it waits for the
// put's remote completion (a flush of the endpoint). So does everything where UCX emulates
// (short puts are then messages the target's worker executes later, long ones go by CMA at
// once; seen: test_fuzz_strided, 4 ranks on virtual nodes, read bytes an earlier put had not yet
// written). Where UCX is one-sided (the init probe), a put, get or atomic on the same endpoint
// only needs ucp_worker_fence, which costs no round trip: back-to-back puts on a NIC would
// otherwise pay one each.
void RdmaTransport::order_before(int target, OpKind kind) {
  if (kind != OpKind::Acc) wait_accumulates(target);
  TargetMarks& m = marks(target);
  const std::uint64_t seen = m.issued.load(std::memory_order_acquire);
  if (one_sided_ && kind != OpKind::Acc) {
    if (m.ordered.load(std::memory_order_acquire) >= seen) return;
    std::lock_guard lock(ucx_->origin_mutex());
    rdma::check_ucs("rma (rdma): ordering after an earlier put", "ucp_worker_fence", ucp_worker_fence(ucx_->origin()));
    raise_mark(m.ordered, seen);  // under the lock: whoever reads it issues after the fence
    return;
  }
  if (m.flushed.load(std::memory_order_acquire) >= seen) return;
  flush_endpoint("rma (rdma): completing an earlier put", target);
  completed(target, seen);
}

// The generation goes up after the put is issued, and is read (seq_cst) before the listing is
// checked, as unlist_complete clears the listing before it reads the generation: one of the two
// sees the other, so a target with a put in flight never drops out of written_.
void RdmaTransport::mark_put(int target) {
  marks(target).issued.fetch_add(1, std::memory_order_seq_cst);
  list(target);
}

void RdmaTransport::list(int target) {
  TargetMarks& m = marks(target);
  if (m.listed.load(std::memory_order_seq_cst)) return;
  std::lock_guard lock(written_mutex_);
  if (m.listed.load(std::memory_order_relaxed)) return;
  m.listed.store(true, std::memory_order_relaxed);
  written_.push_back(target);
}

void RdmaTransport::completed(int target, std::uint64_t seen) {
  TargetMarks& m = marks(target);
  raise_mark(m.flushed, seen);
  raise_mark(m.ordered, seen);
}

void RdmaTransport::unlist_complete() {
  std::lock_guard lock(written_mutex_);
  std::erase_if(written_, [&](int t) {
    TargetMarks& m = marks(t);
    m.listed.store(false, std::memory_order_seq_cst);
    const bool done = m.issued.load(std::memory_order_seq_cst) <= m.flushed.load(std::memory_order_acquire) &&
                      acc_outstanding_[static_cast<std::size_t>(t)].load(std::memory_order_seq_cst) == 0;
    if (!done) m.listed.store(true, std::memory_order_relaxed);
    return done;
  });
}

void RdmaTransport::flush_endpoints(const char* op, const std::vector<int>& targets) {
  std::vector<ucs_status_ptr_t> requests(targets.size());
  ucp_request_param_t none{};
  {
    std::lock_guard lock(ucx_->origin_mutex());
    for (std::size_t i = 0; i < targets.size(); ++i) requests[i] = ucp_ep_flush_nbx(ucx_->data_ep(targets[i]), &none);
  }
  for (std::size_t i = 0; i < targets.size(); ++i) ucx_->wait(op, requests[i], targets[i]);
}

void RdmaTransport::flush_endpoint(const char* op, int target) {
  ucp_request_param_t none{};
  ucs_status_ptr_t request;
  {
    std::lock_guard lock(ucx_->origin_mutex());
    request = ucp_ep_flush_nbx(ucx_->data_ep(target), &none);
  }
  ucx_->wait(op, request, target);
}

void RdmaTransport::wait_accumulates(int target) {
  auto& outstanding = acc_outstanding_[static_cast<std::size_t>(target)];
  if (outstanding.load(std::memory_order_acquire) == 0) return;
  ucx_->wait_until([&] { return outstanding.load(std::memory_order_acquire) == 0; });
}

void RdmaTransport::wait(std::uint64_t token) { ucx_->wait("rma::Handle::wait (rdma)", request_of(token)); }
bool RdmaTransport::test(std::uint64_t token) { return ucx_->test("rma::Handle::test (rdma)", request_of(token)); }

// Completes the puts to `target` issued before the call, as this thread sees them (their
// generation), and the accumulates. Nothing to flush when a flush started after them has
// completed already (another thread's fence, fence_all, or an ordering flush); a flush still in
// progress does not count.
void RdmaTransport::fence(int target) {
  TargetMarks& m = marks(target);
  const std::uint64_t seen = m.issued.load(std::memory_order_acquire);
  wait_accumulates(target);
  if (m.flushed.load(std::memory_order_acquire) >= seen) return;
  flush_endpoint("rma::fence (rdma)", target);
  completed(target, seen);
}

// Only the targets written since they were last found complete: written_ is read, not taken, so
// a fence_all in another thread cannot hide them from this one; the complete ones leave it after.
void RdmaTransport::fence_all() {
  std::vector<int> targets;
  {
    std::lock_guard lock(written_mutex_);
    targets = written_;
  }
  if (targets.empty()) return;
  std::vector<int> dirty;
  std::vector<std::uint64_t> seen;
  for (const int t : targets) {
    const std::uint64_t g = marks(t).issued.load(std::memory_order_acquire);
    wait_accumulates(t);
    if (marks(t).flushed.load(std::memory_order_acquire) >= g) continue;
    dirty.push_back(t);
    seen.push_back(g);
  }
  if (!dirty.empty()) {
    flush_targets("rma::fence_all (rdma)", dirty);
    for (std::size_t i = 0; i < dirty.size(); ++i) completed(dirty[i], seen[i]);
  }
  unlist_complete();
}

// One endpoint flush costs about 10 times a worker flush's walk per endpoint (64 ranks on UCX
// shared memory: 63 endpoint flushes 15 us, a worker flush over 3 x 64 endpoints 4 us): past an
// eighth of the job, the worker flush is cheaper.
void RdmaTransport::flush_targets(const char* op, const std::vector<int>& targets) {
  if (targets.size() * kWorkerFlushFraction < static_cast<std::size_t>(ucx_->size())) {
    flush_endpoints(op, targets);
    return;
  }
  ucp_request_param_t none{};
  ucs_status_ptr_t request;
  {
    std::lock_guard lock(ucx_->origin_mutex());
    request = ucp_worker_flush_nbx(ucx_->origin(), &none);
  }
  ucx_->wait(op, request);
}

void RdmaTransport::poll() { ucx_->progress(); }

// ---- put and get -----------------------------------------------------------------------------

ucs_status_ptr_t RdmaTransport::issue(OpKind kind, std::byte* local, const void* remote, std::size_t bytes,
                                      ucp_rkey_h key, int target) {
  ucp_request_param_t none{};
  const auto address = reinterpret_cast<std::uint64_t>(remote);
  if (kind == OpKind::Put) return ucp_put_nbx(ucx_->data_ep(target), local, bytes, address, key, &none);
  return ucp_get_nbx(ucx_->data_ep(target), local, bytes, address, key, &none);
}

std::uint64_t RdmaTransport::transfer_contiguous(OpKind kind, AccType type, const void* scale, std::byte* local,
                                                 std::byte* remote, std::size_t bytes, const Slice& slice, int target,
                                                 bool blocking) {
  if (kind == OpKind::Acc || slice.local) [[unlikely]]
    return Transport::transfer_contiguous(kind, type, scale, local, remote, bytes, slice, target, blocking);
  const ucp_rkey_h key = key_of(slice);
  order_before(target, kind);
  ucs_status_ptr_t request;
  {
    std::lock_guard lock(ucx_->origin_mutex());
    request = issue(kind, local, remote, bytes, key, target);
  }
  if (kind == OpKind::Put) mark_put(target);
  if (!blocking) {
    if (UCS_PTR_IS_ERR(request)) ucx_->wait("rma::put/get (rdma)", request);  // throws
    return token_of(request);
  }
  ucx_->wait(kind == OpKind::Put ? "rma::put (rdma)" : "rma::get (rdma)", request, target);
  return 0;
}

std::uint64_t RdmaTransport::flush_batch(const char* op, int target, bool blocking) {
  ucp_request_param_t none{};
  ucs_status_ptr_t request;
  {
    std::lock_guard lock(ucx_->origin_mutex());
    request = ucp_ep_flush_nbx(ucx_->data_ep(target), &none);
  }
  if (blocking || UCS_PTR_IS_ERR(request)) {
    ucx_->wait(op, request, target);
    return 0;
  }
  return token_of(request);
}

// ---- accumulate ------------------------------------------------------------------------------

// Packs the runs of one accumulate into request messages of at most kAccMessageBytes of
// payload (a longer run is split at an element boundary) and sends each as it fills.
class RdmaTransport::AccPacker {
 public:
  AccPacker(RdmaTransport& t, int target, AccType type, const void* scale)
      : t_(t), target_(target), element_(size_of(type)) {
    header_.kind = RequestKind::Acc;
    header_.origin = t.rank_;
    header_.type = static_cast<std::int32_t>(type);
    header_.runs = 0;
    std::memcpy(header_.scale, scale, element_);
    t_.order_before(target, OpKind::Acc);
  }
  void add(const std::byte* src, std::byte* remote, std::size_t bytes) {
    const std::size_t most = rdma::kAccMessageBytes / element_ * element_;
    while (bytes > 0) {
      if (payload_.size() == most) send();
      const std::size_t n = std::min(bytes, most - payload_.size());
      runs_.push_back({reinterpret_cast<std::uint64_t>(remote), n});
      payload_.insert(payload_.end(), src, src + n);
      src += n;
      remote += n;
      bytes -= n;
    }
  }
  void finish() {
    if (!runs_.empty()) send();
  }

 private:
  void send() {
    header_.runs = static_cast<std::uint32_t>(runs_.size());
    message_.resize(sizeof header_ + runs_.size() * sizeof(rdma::RunHeader) + payload_.size());
    std::byte* p = message_.data();
    std::memcpy(p, &header_, sizeof header_);
    std::memcpy(p + sizeof header_, runs_.data(), runs_.size() * sizeof(rdma::RunHeader));
    std::memcpy(p + sizeof header_ + runs_.size() * sizeof(rdma::RunHeader), payload_.data(), payload_.size());
    t_.acc_outstanding_[static_cast<std::size_t>(target_)].fetch_add(1, std::memory_order_seq_cst);  // see mark_put
    t_.list(target_);
    t_.send_request("rma::acc (rdma)", target_, message_.data(), message_.size());
    runs_.clear();
    payload_.clear();
  }

  RdmaTransport& t_;
  int target_;
  std::size_t element_;
  rdma::AccRequest header_{};
  std::vector<rdma::RunHeader> runs_;
  std::vector<std::byte> payload_, message_;
};

// ---- this node's memory (the router gives this transport on-node accumulates; plain put/get
// of mapped slices normally go to shm, but are served here too) ----

void RdmaTransport::strided_on_node(const StridedOp& op) {
  const Slice& slice = *op.slice;
  std::byte* mapped = slice.map(op.remote);
  if (op.kind == OpKind::Put) return copy_strided(op.shape, op.local, mapped);
  if (op.kind == OpKind::Get) return copy_strided(op.shape, mapped, op.local);
  const std::ptrdiff_t to_remote = op.remote - mapped;  // mapping -> owner's addresses
  for_each_run(op.shape, op.local, mapped, [&](const std::byte* src, std::byte* dst, std::size_t n) {
    node_memory_.accumulate(op.type, op.scale, src, dst, reinterpret_cast<std::uintptr_t>(dst + to_remote), op.target,
                            n);
  });
}

void RdmaTransport::vector_on_node(const VectorOp& op) {
  std::size_t k = 0;
  for (const IoSet& set : op.sets) {
    for (std::size_t i = 0; i < set.src.size(); ++i, ++k) {
      const Slice& slice = op.slice_of(k);
      if (op.kind == OpKind::Get) {
        std::memcpy(set.dst[i], slice.map(set.src[i]), set.bytes);
      } else if (op.kind == OpKind::Put) {
        std::memcpy(slice.map(set.dst[i]), set.src[i], set.bytes);
      } else {
        node_memory_.accumulate(op.type, op.scale, static_cast<const std::byte*>(set.src[i]), slice.map(set.dst[i]),
                                reinterpret_cast<std::uintptr_t>(set.dst[i]), op.target, set.bytes);
      }
    }
  }
}

// ---- other nodes ----

std::uint64_t RdmaTransport::strided(const StridedOp& op, bool blocking) {
  if (op.slice->local) {
    strided_on_node(op);
    return 0;
  }
  if (op.kind == OpKind::Acc) {
    AccPacker packer(*this, op.target, op.type, op.scale);
    for_each_run(op.shape, op.local, op.remote, [&](const std::byte* src, std::byte* dst, std::size_t n) {
      packer.add(src, dst, n);
    });
    packer.finish();
    return 0;
  }
  if (op.shape.levels == 0) return transfer_contiguous(op.kind, op.type, op.scale, op.local, op.remote, op.shape.count[0],
                                                       *op.slice, op.target, blocking);
  const ucp_rkey_h key = key_of(*op.slice);
  order_before(op.target, op.kind);
  const bool put = op.kind == OpKind::Put;
  const char* name = put ? "rma::put_strided (rdma)" : "rma::get_strided (rdma)";
  const std::byte* from = put ? op.local : op.remote;
  std::byte* to = put ? op.remote : op.local;
  {
    std::lock_guard lock(ucx_->origin_mutex());
    for_each_run(op.shape, from, to, [&](const std::byte* src, std::byte* dst, std::size_t n) {
      std::byte* local = put ? const_cast<std::byte*>(src) : dst;
      const void* remote = put ? static_cast<const void*>(dst) : src;
      ucs_status_ptr_t r = issue(op.kind, local, remote, n, key, op.target);
      if (UCS_PTR_IS_ERR(r)) rdma::check_ucs(name, "run", UCS_PTR_STATUS(r));
      if (r) ucp_request_free(r);  // the flush below completes it
    });
  }
  if (put && !blocking) mark_put(op.target);  // its runs may still be in flight at a fence
  return flush_batch(name, op.target, blocking);
}

std::uint64_t RdmaTransport::vector(const VectorOp& op, bool blocking) {
  if (op.slice_of(0).local) {  // one target: all its slices are on one node
    vector_on_node(op);
    return 0;
  }
  if (op.kind == OpKind::Acc) {
    AccPacker packer(*this, op.target, op.type, op.scale);
    for (const IoSet& set : op.sets)
      for (std::size_t i = 0; i < set.src.size(); ++i)
        packer.add(static_cast<const std::byte*>(set.src[i]), static_cast<std::byte*>(set.dst[i]), set.bytes);
    packer.finish();
    return 0;
  }
  order_before(op.target, op.kind);
  const bool put = op.kind == OpKind::Put;
  const char* name = put ? "rma::put_vector (rdma)" : "rma::get_vector (rdma)";
  // Keys resolved before the lock (a first use asks the owner): one slice, or one per element.
  const ucp_rkey_h one = op.slices ? nullptr : key_of(*op.slice);
  std::vector<ucp_rkey_h> keys;
  if (op.slices)
    for (std::size_t n = 0; const IoSet& set : op.sets)
      for (std::size_t i = 0; i < set.src.size(); ++i, ++n) keys.push_back(key_of(op.slice_of(n)));
  {
    std::lock_guard lock(ucx_->origin_mutex());
    std::size_t k = 0;
    for (const IoSet& set : op.sets) {
      for (std::size_t i = 0; i < set.src.size(); ++i, ++k) {
        std::byte* local = static_cast<std::byte*>(put ? set.src[i] : set.dst[i]);
        const void* remote = put ? set.dst[i] : set.src[i];
        ucs_status_ptr_t r = issue(op.kind, local, remote, set.bytes, op.slices ? keys[k] : one, op.target);
        if (UCS_PTR_IS_ERR(r)) rdma::check_ucs(name, "segment", UCS_PTR_STATUS(r));
        if (r) ucp_request_free(r);
      }
    }
  }
  if (put && !blocking) mark_put(op.target);  // its runs may still be in flight at a fence
  return flush_batch(name, op.target, blocking);
}

// Sends one request message and waits for its local completion (the buffer is the caller's).
// An accumulate's acknowledgement counter goes up before the send: the reply may come back
// while this call progresses the worker.
void RdmaTransport::send_request(const char* op, int target, const void* data, std::size_t bytes) {
  ucp_request_param_t params{};
  params.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
  params.flags = UCP_AM_SEND_FLAG_EAGER;
  ucs_status_ptr_t request;
  {
    std::lock_guard lock(ucx_->origin_mutex());
    request = ucp_am_send_nbx(ucx_->request_ep(target), rdma::kRequestAm, nullptr, 0, data, bytes, &params);
  }
  ucx_->wait(op, request, target);
}

ucs_status_t RdmaTransport::on_reply(void* self, const void*, std::size_t, void* data, std::size_t length,
                                     const ucp_am_recv_param_t*) {
  auto& t = *static_cast<RdmaTransport*>(self);
  rdma::Reply reply;
  if (length != sizeof reply) return UCS_OK;  // not ours to interpret
  std::memcpy(&reply, data, sizeof reply);
  t.acc_outstanding_[static_cast<std::size_t>(reply.from)].fetch_sub(1, std::memory_order_acq_rel);
  return UCS_OK;
}

// ---- atomics and mutexes ---------------------------------------------------------------------

std::uint64_t RdmaTransport::atomic(const char* op, ucp_atomic_op_t code, std::size_t width, const void* remote,
                                    ucp_rkey_h key, int target, std::uint64_t value, std::uint64_t reply) {
  ucp_request_param_t params{};
  params.op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE | UCP_OP_ATTR_FIELD_REPLY_BUFFER;
  params.datatype = ucp_dt_make_contig(width);
  params.reply_buffer = &reply;  // compare-swap: the value stored if equal; then the old value
  ucs_status_ptr_t request;
  {
    std::lock_guard lock(ucx_->origin_mutex());
    request = ucp_atomic_op_nbx(ucx_->data_ep(target), code, &value, 1, reinterpret_cast<std::uint64_t>(remote), key,
                                &params);
  }
  ucx_->wait(op, request, target);
  return reply;  // little-endian: the low `width` bytes
}

void RdmaTransport::rmw(RmwOp op, std::size_t width, void* remote, const Slice& slice, int target,
                        const void* operand, const void* compare, void* result) {
  order_before(target, OpKind::Get);
  std::uint64_t value = 0, reply = 0;
  ucp_atomic_op_t code = UCP_ATOMIC_OP_ADD;
  if (op == RmwOp::CompareSwap) {
    code = UCP_ATOMIC_OP_CSWAP;
    std::memcpy(&value, compare, width);  // compared with the location
    std::memcpy(&reply, operand, width);  // stored if equal
  } else {
    if (op == RmwOp::Swap) code = UCP_ATOMIC_OP_SWAP;
    std::memcpy(&value, operand, width);
  }
  reply = atomic(kRmwName[static_cast<int>(op)], code, width, remote, key_of(slice), target, value, reply);
  std::memcpy(result, &reply, width);
}

// ---- mutexes: the TicketMutex layout (transport/base/locks.hpp), driven by UCP atomics --------

// One mutex's 32-bit words on its owner, and the UCP atomics on them.
struct RdmaTransport::RemoteMutex {
  RdmaTransport& t;
  const char* op;
  ucp_rkey_h key;
  int target;
  std::byte* word;

  std::byte* field(std::size_t offset) const { return word + offset; }
  std::uint32_t amo(ucp_atomic_op_t code, std::size_t offset, std::uint64_t value, std::uint64_t reply = 0) const {
    return static_cast<std::uint32_t>(t.atomic(op, code, 4, field(offset), key, target, value, reply));
  }
  std::uint32_t serving() const { return amo(UCP_ATOMIC_OP_ADD, offsetof(TicketMutex, serving), 0); }
  void claim() const { (void)amo(UCP_ATOMIC_OP_SWAP, offsetof(TicketMutex, owner), static_cast<std::uint64_t>(t.rank_ + 1)); }
};

RdmaTransport::RemoteMutex RdmaTransport::remote_mutex(const char* op, void* word, const Slice& slice, int target) {
  const ucp_rkey_h key = key_of(slice);
  order_before(target, OpKind::Get);
  return {*this, op, key, target, static_cast<std::byte*>(word)};
}

void RdmaTransport::mutex_lock(void* word, const Slice& slice, int target) {
  const RemoteMutex m = remote_mutex("rma::MutexSet::lock (rdma)", word, slice, target);
  const std::uint32_t ticket = m.amo(UCP_ATOMIC_OP_ADD, offsetof(TicketMutex, next), 1);
  // Wait for our turn, reading `serving` by a fetch-add of 0 (ordered with the atomics that
  // advance it, on a NIC as in UCX's software emulation).
  for (int spins = 0; m.serving() != ticket; ++spins)
    if (spins > kMutexSpins) rdma::Ucx::yield();
  m.claim();
}

bool RdmaTransport::mutex_try_lock(void* word, const Slice& slice, int target) {
  const RemoteMutex m = remote_mutex("rma::MutexSet::try_lock (rdma)", word, slice, target);
  const std::uint32_t serving = m.serving();
  // Free exactly when next == serving: take the ticket only then.
  if (m.amo(UCP_ATOMIC_OP_CSWAP, offsetof(TicketMutex, next), serving, static_cast<std::uint32_t>(serving + 1)) != serving)
    return false;
  m.claim();
  return true;
}

void RdmaTransport::mutex_unlock(void* word, const Slice& slice, int target) {
  fence_all();  // what the critical section wrote, anywhere, is in place before the next holder
  const RemoteMutex m = remote_mutex("rma::MutexSet::unlock (rdma)", word, slice, target);
  const auto me = static_cast<std::uint32_t>(rank_ + 1);
  if (m.amo(UCP_ATOMIC_OP_CSWAP, offsetof(TicketMutex, owner), me, 0) != me)
    throw_invalid("rma::MutexSet::unlock", "mutex", to_hex(word) + " on rank " + std::to_string(target),
                  "this rank does not hold the mutex");
  (void)m.amo(UCP_ATOMIC_OP_ADD, offsetof(TicketMutex, serving), 1);
}

}  // namespace armada::rma::detail
