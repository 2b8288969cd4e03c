#include "transport/rdma/ucx.hpp"

#include <sched.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <utility>

#include "armada/rma/error.hpp"
#include "common/check.hpp"
#include "common/stall.hpp"
#include "transport/base/termination.hpp"

namespace armada::rma::detail::rdma {

void check_ucs(const char* op, const char* what, ucs_status_t status) {
  if (status == UCS_OK) return;
  throw SystemError(op, error_message(op, std::string(what) + ": UCX: " + ucs_status_string(status)));
}

namespace {

// UCX 1.13's default order (md:sysv,md:posix,huge,thp,md:*,mmap,heap) without the methods that
// may hand out memory with old contents.
constexpr const char* kAllocPrio = "md:sysv,md:posix,huge,thp,mmap";

void add_unique(std::vector<std::string>& list, const std::string& name) {
  for (const std::string& s : list)
    if (s == name) return;
  list.push_back(name);
}

/// Progresses both workers until every rank has called it: a rank that finished its own
/// wireup or close must keep serving the others' (they may need its answers).
void progress_through_barrier(MPI_Comm comm, ucp_worker_h a, ucp_worker_h b) {
  MPI_Request request;
  MPI_Ibarrier(comm, &request);
  for (int done = 0; !done;) {
    ucp_worker_progress(a);
    ucp_worker_progress(b);
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
  }
}

/// Progresses both workers until `request` completes; its status.
ucs_status_t drive(ucs_status_ptr_t request, ucp_worker_h a, ucp_worker_h b) {
  if (request == nullptr) return UCS_OK;
  if (UCS_PTR_IS_ERR(request)) return UCS_PTR_STATUS(request);
  ucs_status_t status;
  while ((status = ucp_request_check_status(request)) == UCS_INPROGRESS) {
    ucp_worker_progress(a);
    ucp_worker_progress(b);
  }
  ucp_request_free(request);
  return status;
}

ucp_worker_h make_worker(const char* op, ucp_context_h context, ucs_thread_mode_t mode) {
  ucp_worker_params_t params{};
  params.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE;
  params.thread_mode = mode;
  ucp_worker_h worker = nullptr;
  {
    const TerminationDeferred deferred;  // the worker's shared-memory FIFOs are SysV segments
    check_ucs(op, "ucp_worker_create", ucp_worker_create(context, &params, &worker));
  }
  return worker;
}

/// Every rank's address of `worker`, gathered over `comm`.
PackedBlobs exchange_address(const char* op, ucp_worker_h worker, MPI_Comm comm) {
  ucp_address_t* address = nullptr;
  std::size_t length = 0;
  check_ucs(op, "ucp_worker_get_address", ucp_worker_get_address(worker, &address, &length));
  const auto* first = reinterpret_cast<const std::byte*>(address);
  const std::vector<std::byte> mine(first, first + length);
  ucp_worker_release_address(worker, address);
  return allgather_blobs(mine, comm);
}

ucp_ep_h connect_to(const char* op, ucp_worker_h worker, const std::byte* address) {
  ucp_ep_params_t params{};
  params.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS;
  params.address = reinterpret_cast<const ucp_address_t*>(address);
  ucp_ep_h ep = nullptr;
  check_ucs(op, "ucp_ep_create", ucp_ep_create(worker, &params, &ep));
  return ep;
}

}  // namespace

PackedBlobs allgather_blobs(const std::vector<std::byte>& mine, MPI_Comm comm) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  const int length = static_cast<int>(mine.size());
  std::vector<int> lengths(static_cast<std::size_t>(size)), displs(static_cast<std::size_t>(size));
  MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, comm);
  PackedBlobs out;
  out.offsets.resize(static_cast<std::size_t>(size) + 1);
  int total = 0;
  for (int r = 0; r < size; ++r) {
    out.offsets[static_cast<std::size_t>(r)] = static_cast<std::uint64_t>(total);
    displs[static_cast<std::size_t>(r)] = std::exchange(total, total + lengths[static_cast<std::size_t>(r)]);
  }
  out.offsets[static_cast<std::size_t>(size)] = static_cast<std::uint64_t>(total);
  out.bytes.resize(static_cast<std::size_t>(total));
  MPI_Allgatherv(mine.data(), length, MPI_BYTE, out.bytes.data(), lengths.data(), displs.data(), MPI_BYTE, comm);
  return out;
}

std::string PeerPath::describe() const {
  auto join = [](const std::vector<std::string>& list) {
    std::string s;
    for (const std::string& t : list) s += (s.empty() ? "" : ",") + t;
    return s.empty() ? std::string("-") : s;
  };
  return "rma:" + join(rma) + " amo:" + join(amo);
}

// A lane line reads "#   lane[1]:  5:cma/memory.0 md[4]  -> md[4]/cma/sysdev[255] rma_bw#0": the
// transport is the name before '/' after "<resource index>:", and the words after "->" name
// the lane's uses (am, rma, rma_bw, amo, wireup...).
PeerPath parse_lanes(const std::string& printout) {
  PeerPath path;
  std::size_t at = 0;
  while ((at = printout.find("lane[", at)) != std::string::npos) {
    const std::size_t end = printout.find('\n', at);
    const std::string line = printout.substr(at, end == std::string::npos ? std::string::npos : end - at);
    at = end == std::string::npos ? printout.size() : end;
    std::size_t p = line.find("]:");
    if (p == std::string::npos) continue;
    p = line.find(':', p + 2);  // after the resource index
    const std::size_t slash = p == std::string::npos ? p : line.find('/', p);
    if (slash == std::string::npos) continue;
    const std::string tl = line.substr(p + 1, slash - p - 1);
    add_unique(path.transports, tl);
    const std::size_t arrow = line.find("->");
    const std::string uses = arrow == std::string::npos ? line : line.substr(arrow);
    if (uses.find(" rma") != std::string::npos) add_unique(path.rma, tl);
    if (uses.find(" amo") != std::string::npos) add_unique(path.amo, tl);
  }
  return path;
}

namespace {

/// What UCX chose for `ep` (ucp_ep_print_info's lane table); the caller guards its worker.
PeerPath print_path(ucp_ep_h ep) {
  char* text = nullptr;
  std::size_t length = 0;
  FILE* stream = open_memstream(&text, &length);
  if (!stream) return {};
  ucp_ep_print_info(ep, stream);
  std::fclose(stream);
  PeerPath path = parse_lanes(std::string(text, length));
  std::free(text);
  return path;
}

/// The transport's UCP context: RMA, 32/64-bit atomics, active messages and wakeup (the request
/// service sleeps on the worker's event fd). Throws SystemError naming `op`.
ucp_context_h make_context(const char* op, std::size_t estimated_eps) {
  ucp_config_t* config = nullptr;
  // ucp_config_read's prefix for kContextVariables ("ARMADA"): UCX appends "_UCX_" to it.
  const std::string prefix(kContextVariables.substr(0, kContextVariables.size() - std::string_view("_UCX_").size()));
  check_ucs(op, "ucp_config_read", ucp_config_read(prefix.c_str(), nullptr, &config));
  // Segments are allocated by UCX (Registration::allocate): shared memory first, as UCX's
  // default order has it, but never the heap, which is not zeroed.
  if (Ucx::allocation_zeroes()) {
    const ucs_status_t status = ucp_config_modify(config, "ALLOC_PRIO", kAllocPrio);
    if (status != UCS_OK) ucp_config_release(config);
    check_ucs(op, "ucp_config_modify ALLOC_PRIO", status);
  }
  ucp_params_t params{};
  params.field_mask = UCP_PARAM_FIELD_FEATURES | UCP_PARAM_FIELD_MT_WORKERS_SHARED |
                      UCP_PARAM_FIELD_ESTIMATED_NUM_EPS;
  params.features = UCP_FEATURE_RMA | UCP_FEATURE_AMO32 | UCP_FEATURE_AMO64 | UCP_FEATURE_AM | UCP_FEATURE_WAKEUP;
  params.mt_workers_shared = 1;  // the service thread and the application use one context
  params.estimated_num_eps = estimated_eps;
  ucp_context_h context = nullptr;
  const ucs_status_t status = ucp_init(&params, config, &context);
  ucp_config_release(config);
  check_ucs(op, "ucp_init (features RMA, AMO32, AMO64, AM, WAKEUP)", status);
  return context;
}

}  // namespace

std::string unavailable() {
  try {
    ucp_context_h context = make_context("rma::init (rdma availability)", 1);
    ucp_worker_h worker = make_worker("rma::init (rdma availability)", context, UCS_THREAD_MODE_SINGLE);
    ucp_worker_destroy(worker);
    ucp_cleanup(context);
    return "";
  } catch (const SystemError& e) {
    return e.what();
  }
}

Ucx::Ucx(MPI_Comm world, int rank, int size) : rank_(rank), size_(size) {
  constexpr const char* op = "rma::init (rdma)";
  context_ = make_context(op, static_cast<std::size_t>(size) * 2);
  origin_ = make_worker(op, context_, UCS_THREAD_MODE_SERIALIZED);  // under origin_mutex_
  service_ = make_worker(op, context_, UCS_THREAD_MODE_SINGLE);
  MPI_Comm_dup(world, &comm_);
  // The addresses only: endpoints are made on first contact (endpoint()).
  origins_ = exchange_address(op, origin_, comm_);
  services_ = exchange_address(op, service_, comm_);
  for (Endpoints* table : {&data_eps_, &request_eps_, &reply_eps_}) table->eps.assign(static_cast<std::size_t>(size), nullptr);
  restrict_shared_memory_to_owner();  // the workers' shared-memory FIFOs
}

// Under the lock that guards `worker` (origin_mutex, or the service thread's own): two threads
// never make the same endpoint. UCX wires an endpoint up lazily; an operation on it waits for
// that (a round trip where UCX's transport is p2p, none on shared memory).
ucp_ep_h Ucx::endpoint(Endpoints& table, ucp_worker_h worker, const PackedBlobs& addresses, int rank) {
  ucp_ep_h& ep = table.eps[static_cast<std::size_t>(rank)];
  if (ep) [[likely]]
    return ep;
  ep = connect_to("rma (rdma): first contact with a rank", worker, addresses.data(rank));
  table.made.fetch_add(1, std::memory_order_relaxed);
  return ep;
}

void Ucx::connect_all() {
  constexpr const char* op = "rma::init (rdma)";
  for (int r = 0; r < size_; ++r) {
    (void)data_ep(r);  // no lock: init has one thread
    (void)request_ep(r);
    (void)reply_ep(r);
  }
  // Wire them all up now, every rank serving the others until all are done.
  ucp_request_param_t none{};
  check_ucs(op, "flush of the new endpoints", drive(ucp_worker_flush_nbx(origin_, &none), origin_, service_));
  check_ucs(op, "flush of the new endpoints", drive(ucp_worker_flush_nbx(service_, &none), origin_, service_));
  progress_through_barrier(comm_, origin_, service_);
  restrict_shared_memory_to_owner();  // shared-memory FIFOs made during the wireup
  all_at_init_ = true;
}

Ucx::~Ucx() {
  close_all();
  if (origin_) ucp_worker_destroy(origin_);
  if (service_) ucp_worker_destroy(service_);
  if (context_) ucp_cleanup(context_);
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

// Only the endpoints made; a peer never contacted has none to close.
void Ucx::close_all() {
  ucp_request_param_t params{};
  params.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
  params.flags = 0;  // flush: what is in flight arrives before the endpoint goes
  std::vector<ucs_status_ptr_t> closing;
  for (Endpoints* table : {&data_eps_, &request_eps_, &reply_eps_})
    for (ucp_ep_h ep : table->eps)
      if (ep) closing.push_back(ucp_ep_close_nbx(ep, &params));
  for (ucs_status_ptr_t request : closing) (void)drive(request, origin_, service_);  // nothing to report at exit
  progress_through_barrier(comm_, origin_, service_);
}

void Ucx::yield() noexcept { sched_yield(); }

bool Ucx::allocation_zeroes() noexcept {
  const std::string ours = std::string(kContextVariables) + "ALLOC_PRIO";
  return std::getenv("UCX_ALLOC_PRIO") == nullptr && std::getenv(ours.c_str()) == nullptr;
}

void Ucx::progress() {
  std::lock_guard lock(origin_mutex_);
  ucp_worker_progress(origin_);
}

void Ucx::wait(const char* op, ucs_status_ptr_t request, int peer) {
  if (request == nullptr) return;
  if (UCS_PTR_IS_ERR(request)) check_ucs(op, "operation", UCS_PTR_STATUS(request));
  ucs_status_t status;
  StallWatch stall(stall_warn_s_);
  for (int spins = 0;; ++spins) {
    if (stall.due())
      warn_stall(op,
                 peer >= 0 && topology_ ? rank_on_host(peer, *topology_) : std::string("the ranks it waits for"),
                 stall.seconds());
    {
      std::lock_guard lock(origin_mutex_);
      ucp_worker_progress(origin_);
      status = ucp_request_check_status(request);
      if (status != UCS_INPROGRESS) {
        ucp_request_free(request);
        break;
      }
    }
    if (spins > kSpinRounds) yield();
  }
  check_ucs(op, "operation", status);
}

bool Ucx::test(const char* op, ucs_status_ptr_t request) {
  if (request == nullptr) return true;
  if (UCS_PTR_IS_ERR(request)) check_ucs(op, "operation", UCS_PTR_STATUS(request));
  ucs_status_t status;
  {
    std::lock_guard lock(origin_mutex_);
    ucp_worker_progress(origin_);
    status = ucp_request_check_status(request);
    if (status == UCS_INPROGRESS) return false;
    ucp_request_free(request);
  }
  check_ucs(op, "operation", status);
  return true;
}

std::string Ucx::probe_one_sided(bool ucx_memory) {
  constexpr const char* op = "rma::init (rdma probe)";
  constexpr std::size_t kPage = 4096;
  // Memory of the kind segments use, allocated and registered the same way.
  void* page = nullptr;
  std::optional<Registration> registration;
  if (ucx_memory) {
    registration = Registration::allocate(context_, kPage);
    page = registration->base();
  } else {
    page = mmap(nullptr, kPage, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED) throw SystemError(op, error_message(op, "mmap of the probe page failed"));
    registration.emplace(context_, page, kPage);
  }
  const int half = size_ / 2;
  const int partner = rank_ < half ? rank_ + half : (rank_ < 2 * half ? rank_ - half : -1);
  // The partner's key and page address (pairs trade them: an allgather cost O(P) per rank).
  const std::uint64_t my_page = reinterpret_cast<std::uintptr_t>(page);
  std::uint64_t partner_page = 0;
  const int peer = partner >= 0 ? partner : MPI_PROC_NULL;
  MPI_Sendrecv(&my_page, 1, MPI_UINT64_T, peer, 0, &partner_page, 1, MPI_UINT64_T, peer, 0, comm_, MPI_STATUS_IGNORE);
  const std::vector<std::byte>& my_key = registration->packed_key();
  int my_key_bytes = static_cast<int>(my_key.size()), partner_key_bytes = 0;
  MPI_Sendrecv(&my_key_bytes, 1, MPI_INT, peer, 0, &partner_key_bytes, 1, MPI_INT, peer, 0, comm_, MPI_STATUS_IGNORE);
  std::vector<std::byte> partner_key(static_cast<std::size_t>(partner_key_bytes));
  MPI_Sendrecv(my_key.data(), my_key_bytes, MPI_BYTE, peer, 0, partner_key.data(), partner_key_bytes, MPI_BYTE, peer, 0,
               comm_, MPI_STATUS_IGNORE);

  bool get_waited = false, add_waited = false;
  ucp_rkey_h key = nullptr;
  std::uint64_t got = 0, old = 0, one = 1;
  ucs_status_ptr_t pending[2] = {nullptr, nullptr};  // the get, the fetch-add
  // A fresh endpoint, closed after the probe: its get is a first contact like any later one, so
  // the probe also sees whether making an endpoint needs the target's worker (UCX's p2p
  // transports wire up through it), and init leaves no endpoint behind.
  ucp_ep_h ep = partner >= 0 ? connect_to(op, origin_, origins_.data(partner)) : nullptr;
  if (partner >= 0) check_ucs(op, "ucp_ep_rkey_unpack", ucp_ep_rkey_unpack(ep, partner_key.data(), &key));
  for (int phase = 0; phase < 2; ++phase) {
    const bool probing = partner >= 0 && (rank_ < half) == (phase == 0);
    if (probing) {
      ucp_request_param_t none{};
      ucp_request_param_t fetch{};
      fetch.op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE | UCP_OP_ATTR_FIELD_REPLY_BUFFER;
      fetch.datatype = ucp_dt_make_contig(8);
      fetch.reply_buffer = &old;
      const std::uint64_t remote = partner_page;
      pending[0] = ucp_get_nbx(ep, &got, 8, remote, key, &none);
      pending[1] = ucp_atomic_op_nbx(ep, UCP_ATOMIC_OP_ADD, &one, 1, remote + 8, key, &fetch);
      for (ucs_status_ptr_t r : pending)
        if (UCS_PTR_IS_ERR(r)) check_ucs(op, "probe operation", UCS_PTR_STATUS(r));
      auto waiting = [](ucs_status_ptr_t r) { return r != nullptr && ucp_request_check_status(r) == UCS_INPROGRESS; };
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kProbeMs);
      while ((waiting(pending[0]) || waiting(pending[1])) && std::chrono::steady_clock::now() < deadline)
        ucp_worker_progress(origin_);
      get_waited = waiting(pending[0]);
      add_waited = waiting(pending[1]);
    }
    MPI_Barrier(comm_);  // the partner does not progress UCX meanwhile
  }
  // Complete what an emulated path left pending; every rank serves the others until all are done.
  for (ucs_status_ptr_t r : pending) check_ucs(op, "probe operation", drive(r, origin_, service_));
  (void)got;
  if (ep) probe_path_ = print_path(ep);
  if (key) ucp_rkey_destroy(key);
  if (ep) {
    ucp_request_param_t flush{};
    (void)drive(ucp_ep_close_nbx(ep, &flush), origin_, service_);  // completed above: nothing to report
  }
  progress_through_barrier(comm_, origin_, service_);
  registration.reset();
  if (!ucx_memory) munmap(page, kPage);
  if (get_waited && add_waited) return "get and fetch-add";
  return get_waited ? "get" : add_waited ? "fetch-add" : "";
}

PeerPath Ucx::path_to(int rank) {
  std::lock_guard lock(origin_mutex_);
  ucp_ep_h ep = data_eps_.eps[static_cast<std::size_t>(rank)];
  const bool temporary = ep == nullptr;  // asking is no contact: nothing is kept for the peer
  if (temporary) ep = connect_to("rma::transport_info (rdma)", origin_, origins_.data(rank));
  PeerPath path = print_path(ep);
  if (temporary) {
    ucp_request_param_t flush{};
    const ucs_status_ptr_t closing = ucp_ep_close_nbx(ep, &flush);
    if (closing && !UCS_PTR_IS_ERR(closing)) {
      while (ucp_request_check_status(closing) == UCS_INPROGRESS) ucp_worker_progress(origin_);
      ucp_request_free(closing);
    }
  }
  return path;
}

Registration::Registration(ucp_context_h context, void* base, std::size_t bytes) : context_(context) {
  constexpr const char* op = "rma::allocate (rdma)";
  ucp_mem_map_params_t params{};
  params.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH;
  params.address = base;
  params.length = bytes;
  check_ucs(op, ("ucp_mem_map of " + std::to_string(bytes) + " bytes").c_str(), ucp_mem_map(context, &params, &memh_));
  base_ = static_cast<std::byte*>(base);
  pack(op);
}

int restrict_shared_memory_to_owner() {
  std::FILE* maps = std::fopen("/proc/self/maps", "r");
  if (!maps) return 0;
  int changed = 0;
  char line[4096];
  while (std::fgets(line, sizeof line, maps)) {
    // start-end perms offset dev inode path: SysV segments show as "/SYSV<key>" with the shmid
    // as their inode; shared-memory files under /dev/shm by their path.
    unsigned long long inode = 0;
    char path[3072] = "";
    if (std::sscanf(line, "%*s %*s %*s %*s %llu %3071s", &inode, path) != 2) continue;
    if (std::strncmp(path, "/SYSV", 5) == 0) {
      shmid_ds ds{};
      const int id = static_cast<int>(inode);
      if (shmctl(id, IPC_STAT, &ds) != 0 || ds.shm_cpid != getpid() || (ds.shm_perm.mode & 077) == 0) continue;
      ds.shm_perm.mode &= ~077u;
      if (shmctl(id, IPC_SET, &ds) == 0) ++changed;
    } else if (std::strncmp(path, "/dev/shm/", 9) == 0 && !std::strstr(line, "(deleted)")) {
      struct stat st {};
      if (stat(path, &st) == 0 && st.st_uid == geteuid() && (st.st_mode & 077) != 0 && chmod(path, 0600) == 0) ++changed;
    }
  }
  std::fclose(maps);
  return changed;
}

Registration Registration::allocate(ucp_context_h context, std::size_t bytes, std::byte* at) {
  constexpr const char* op = "rma::allocate (rdma)";
  Registration r;
  r.context_ = context;
  ucp_mem_map_params_t params{};
  params.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH | UCP_MEM_MAP_PARAM_FIELD_FLAGS;
  params.address = at;
  params.length = bytes;
  params.flags = UCP_MEM_MAP_ALLOCATE | (at ? UCP_MEM_MAP_FIXED : 0);
  {
    const TerminationDeferred deferred;  // see termination.hpp
    check_ucs(op, ("ucp_mem_map (allocate" + std::string(at ? ", fixed at " + to_hex(at) : "") + ") of " +
                   std::to_string(bytes) + " bytes").c_str(),
              ucp_mem_map(context, &params, &r.memh_));
  }
  ucp_mem_attr_t attr{};
  attr.field_mask = UCP_MEM_ATTR_FIELD_ADDRESS | UCP_MEM_ATTR_FIELD_LENGTH;
  check_ucs(op, "ucp_mem_query", ucp_mem_query(r.memh_, &attr));
  r.base_ = static_cast<std::byte*>(attr.address);
  if (at && r.base_ != at)  // r's destructor unmaps what UCX put elsewhere
    throw_system(op, "ucp_mem_map with UCP_MEM_MAP_FIXED put the memory at " + to_hex(r.base_) + ", not " + to_hex(at), EINVAL);
  restrict_shared_memory_to_owner();  // before any data is written to it
  // Fresh shared memory and mmap are zero; UCX's last resort (heap) is not, and a user's
  // UCX_ALLOC_PRIO may put it first. Zeroing what is zero costs one pass at allocation.
  if (!Ucx::allocation_zeroes()) std::memset(r.base_, 0, bytes);
  r.pack(op);
  return r;
}

void Registration::pack(const char* op) {
  void* key = nullptr;
  std::size_t key_bytes = 0;
  const ucs_status_t status = ucp_rkey_pack(context_, memh_, &key, &key_bytes);
  if (status != UCS_OK) {
    ucp_mem_unmap(context_, memh_);
    memh_ = nullptr;
    check_ucs(op, "ucp_rkey_pack", status);
  }
  packed_.assign(static_cast<std::byte*>(key), static_cast<std::byte*>(key) + key_bytes);
  ucp_rkey_buffer_release(key);
}

std::byte* map_remote(ucp_rkey_h rkey, std::uint64_t address) {
  void* local = nullptr;
  if (ucp_rkey_ptr(rkey, address, &local) != UCS_OK) return nullptr;
  return static_cast<std::byte*>(local);
}

Registration::~Registration() {
  if (memh_) ucp_mem_unmap(context_, memh_);
}

Registration::Registration(Registration&& other) noexcept
    : context_(other.context_),
      memh_(std::exchange(other.memh_, nullptr)),
      base_(std::exchange(other.base_, nullptr)),
      packed_(std::move(other.packed_)) {}

Registration& Registration::operator=(Registration&& other) noexcept {
  if (this != &other) {
    if (memh_) ucp_mem_unmap(context_, memh_);
    context_ = other.context_;
    memh_ = std::exchange(other.memh_, nullptr);
    base_ = std::exchange(other.base_, nullptr);
    packed_ = std::move(other.packed_);
  }
  return *this;
}

}  // namespace armada::rma::detail::rdma
