// Family "ucx": Armada against raw UCX (UCP) in the same launch: an 8-byte and a 1 MiB put each
// followed by remote completion (rma::put + rma::fence / ucp_put_nbx + ucp_ep_flush_nbx), gets
// (rma::get / ucp_get_nbx), and fetch-add (rma::fetch_add / ucp_atomic_op_nbx); then Armada's
// 8-byte accumulate + fence, put, get and fetch-add again with rank 1 computing (the busy node). The raw side
// has a UCP context and worker of its own on ranks 0 and 1 and memory rank 1 maps for it, of the
// kind Armada's rdma segments are (ARMADA_RDMA_MEMORY: 'ucx', the default, lets UCX allocate it,
// which its shared-memory transports reach one-sidedly; 'node' registers memory the program
// allocated, which UCX reaches between processes of one host by CMA and by messages); rank 1
// progresses that worker while the origin measures (what a raw UCX target does when UCX
// emulates in software; one-sided paths need no progress). Verified: the raw puts and fetch-adds
// read back through raw gets, Armada's through the target.
//
// Built where UCX is found (ARMADA_BENCH_WITH_UCX); otherwise the family says so and measures
// nothing.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "common/pattern.hpp"
#include "suite/families/common.hpp"

#if ARMADA_BENCH_WITH_UCX
#include <ucp/api/ucp.h>
#endif

namespace armada::bench::suite {

#if ARMADA_BENCH_WITH_UCX
namespace {

constexpr std::size_t kCounterOffset = 0;      // 8-byte counter of the raw fetch-adds
constexpr std::size_t kDataOffset = 64;        // then the put/get area

/// One side's raw UCP state: context, worker, and (origin) the endpoint and key of the target.
struct Raw {
  ucp_context_h context = nullptr;
  ucp_worker_h worker = nullptr;
  ucp_ep_h ep = nullptr;
  ucp_rkey_h rkey = nullptr;
  ucp_mem_h memh = nullptr;
  std::string error;

  bool start() {
    ucp_params_t params{};
    params.field_mask = UCP_PARAM_FIELD_FEATURES;
    params.features = UCP_FEATURE_RMA | UCP_FEATURE_AMO64;
    ucp_config_t* config = nullptr;
    if (ucp_config_read(nullptr, nullptr, &config) != UCS_OK) return fail("ucp_config_read");
    const ucs_status_t s = ucp_init(&params, config, &context);
    ucp_config_release(config);
    if (s != UCS_OK) return fail("ucp_init");
    ucp_worker_params_t wp{};
    wp.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE;
    wp.thread_mode = UCS_THREAD_MODE_SINGLE;
    if (ucp_worker_create(context, &wp, &worker) != UCS_OK) return fail("ucp_worker_create");
    return true;
  }
  bool fail(const char* what) {
    error = what;
    return false;
  }
  /// Waits for a request of this worker; false if it failed.
  bool wait(ucs_status_ptr_t r) {
    if (r == nullptr) return true;
    if (UCS_PTR_IS_ERR(r)) return false;
    ucs_status_t s;
    while ((s = ucp_request_check_status(r)) == UCS_INPROGRESS) ucp_worker_progress(worker);
    ucp_request_free(r);
    return s == UCS_OK;
  }
  bool flush() {
    ucp_request_param_t none{};
    return wait(ucp_ep_flush_nbx(ep, &none));
  }
  void stop() {
    if (rkey) ucp_rkey_destroy(rkey);
    if (ep) {
      ucp_request_param_t force{};
      force.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
      force.flags = UCP_EP_CLOSE_FLAG_FORCE;
      wait(ucp_ep_close_nbx(ep, &force));
    }
    if (memh) ucp_mem_unmap(context, memh);
    if (worker) ucp_worker_destroy(worker);
    if (context) ucp_cleanup(context);
  }
};

void send_blob(const Pass& p, int to, const void* data, std::size_t bytes) {
  const std::int64_t n = static_cast<std::int64_t>(bytes);
  MPI_Send(&n, 1, MPI_INT64_T, to, kTagData, p.comm);
  MPI_Send(data, static_cast<int>(bytes), MPI_BYTE, to, kTagData, p.comm);
}
std::vector<std::byte> receive_blob(const Pass& p, int from) {
  std::int64_t n = 0;
  MPI_Recv(&n, 1, MPI_INT64_T, from, kTagData, p.comm, MPI_STATUS_IGNORE);
  std::vector<std::byte> blob(static_cast<std::size_t>(n));
  MPI_Recv(blob.data(), static_cast<int>(n), MPI_BYTE, from, kTagData, p.comm, MPI_STATUS_IGNORE);
  return blob;
}

/// The worker address of `raw` (sent to the peer).
std::vector<std::byte> address_of(Raw& raw) {
  ucp_address_t* address = nullptr;
  std::size_t length = 0;
  if (ucp_worker_get_address(raw.worker, &address, &length) != UCS_OK) return {};
  std::vector<std::byte> out(reinterpret_cast<std::byte*>(address), reinterpret_cast<std::byte*>(address) + length);
  ucp_worker_release_address(raw.worker, address);
  return out;
}

struct Origin {
  Raw raw;
  std::uint64_t remote = 0;  // the target's registered buffer (its address)
  std::int64_t adds = 0, bad = 0;  // raw fetch-adds, and those that returned a wrong old value
  std::int64_t armada_adds = 0, armada_accs = 0;
};

/// The origin's half of the setup; false (with raw.error) if UCX cannot connect.
bool connect_origin(Pass& p, Origin& o) {
  const std::vector<std::byte> target_address = receive_blob(p, T);
  const std::vector<std::byte> key = receive_blob(p, T);
  MPI_Recv(&o.remote, 1, MPI_UINT64_T, T, kTagData, p.comm, MPI_STATUS_IGNORE);
  bool ok = !target_address.empty() && o.raw.start();
  const std::vector<std::byte> mine = ok ? address_of(o.raw) : std::vector<std::byte>{};
  send_blob(p, T, mine.data(), mine.size());
  if (!ok) return false;
  ucp_ep_params_t ep{};
  ep.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS;
  ep.address = reinterpret_cast<const ucp_address_t*>(target_address.data());
  if (ucp_ep_create(o.raw.worker, &ep, &o.raw.ep) != UCS_OK) return o.raw.fail("ucp_ep_create");
  if (ucp_ep_rkey_unpack(o.raw.ep, key.data(), &o.raw.rkey) != UCS_OK) return o.raw.fail("ucp_ep_rkey_unpack");
  return o.raw.flush() || o.raw.fail("first flush");
}

void add_contestants(Pass& p, Origin& o, std::size_t big, std::vector<Contestant>& cs, std::vector<std::string>& ops) {
  const Layout& L = p.layout;
  std::byte* remote_a = p.seg + L.a();
  const rma::GlobalPtr<long> counter(T, reinterpret_cast<long*>(p.seg + L.slots() + Layout::kCounter));
  Raw& raw = o.raw;
  const std::uint64_t data = o.remote + kDataOffset;
  ucp_request_param_t none{};
  for (std::size_t bytes : {std::size_t{8}, big}) {
    const std::string suffix = " " + std::to_string(bytes) + "B";
    cs.emplace_back("armada", timed([&p, remote_a, bytes] {
                      rma::put(p.src, remote_a, bytes, T);
                      rma::fence(T);
                    }));
    ops.push_back("put_flush" + suffix);
    cs.emplace_back("raw_ucx", timed([&p, &raw, data, bytes, none] {
                      raw.wait(ucp_put_nbx(raw.ep, p.src, bytes, data, raw.rkey, &none));
                      raw.flush();
                    }));
    ops.push_back("put_flush" + suffix);
    cs.emplace_back("armada", timed([&p, remote_a, bytes] { rma::get(remote_a, p.dst, bytes, T); }));
    ops.push_back("get" + suffix);
    cs.emplace_back("raw_ucx", timed([&p, &raw, data, bytes, none] {
                      raw.wait(ucp_get_nbx(raw.ep, p.mdst, bytes, data, raw.rkey, &none));
                    }));
    ops.push_back("get" + suffix);
  }
  const rma::GlobalPtr<long> sum(T, reinterpret_cast<long*>(p.seg + L.c()));
  cs.emplace_back("armada", timed([sum, &o] {
                    const long one = 1;
                    rma::acc(&one, sum, 1);
                    rma::fence(T);
                    ++o.armada_accs;
                  }));
  ops.push_back("acc_fence 8B");
  cs.emplace_back("armada", timed([counter, &o] {
                    const long old = rma::fetch_add(counter, 1L);
                    clobber(&old);
                    ++o.armada_adds;
                  }));
  ops.push_back("fetch_add");
  cs.emplace_back("raw_ucx", timed([&o, &raw] {
                    std::uint64_t one = 1, old = 0;
                    ucp_request_param_t fetch{};
                    fetch.op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE | UCP_OP_ATTR_FIELD_REPLY_BUFFER;
                    fetch.datatype = ucp_dt_make_contig(8);
                    fetch.reply_buffer = &old;
                    if (!raw.wait(ucp_atomic_op_nbx(raw.ep, UCP_ATOMIC_OP_ADD, &one, 1, o.remote + kCounterOffset, raw.rkey,
                                                    &fetch)) ||
                        static_cast<std::int64_t>(old) != o.adds)
                      ++o.bad;
                    ++o.adds;
                  }));
  ops.push_back("fetch_add");
}

/// The raw side's checks, while rank 1 still serves the raw worker: a pattern put and read back,
/// and the fetch-adds' counter.
void verify_raw(Pass& p, Origin& o, std::size_t big, bool& data, bool& adds) {
  Raw& raw = o.raw;
  ucp_request_param_t none{};
  fill_pattern(p.src, big, 4711);
  std::memset(p.mdst, 0, big);
  raw.wait(ucp_put_nbx(raw.ep, p.src, big, o.remote + kDataOffset, raw.rkey, &none));
  raw.flush();
  raw.wait(ucp_get_nbx(raw.ep, p.mdst, big, o.remote + kDataOffset, raw.rkey, &none));
  data = local_check(p, "raw UCX put then get", check_pattern(p.mdst, big, 4711));
  std::uint64_t count = 0;
  raw.wait(ucp_get_nbx(raw.ep, &count, 8, o.remote + kCounterOffset, raw.rkey, &none));
  adds = local_check(p, "raw UCX fetch-adds", o.bad == 0 && static_cast<std::int64_t>(count) == o.adds
                                                  ? ""
                                                  : std::to_string(o.bad) + " out of sequence, counter " +
                                                        std::to_string(count) + " after " + std::to_string(o.adds));
}

/// Armada with rank 1 computing (spinning on a flag of its own memory, no library call): only
/// the transport can serve it (for rdma: UCX one-sidedly, and the request service, which must win
/// a core from the computing ranks). Each figure's row compares it with the same operation while
/// rank 1 was awake. Returns the outcomes; `spun` is false if rank 1 left its loop early.
std::vector<Outcome> busy_target(Pass& p, Origin& o, bool& spun) {
  const Layout& L = p.layout;
  std::byte* remote_a = p.seg + L.a();
  const rma::GlobalPtr<long> counter(T, reinterpret_cast<long*>(p.seg + L.slots() + Layout::kCounter));
  const rma::GlobalPtr<long> sum(T, reinterpret_cast<long*>(p.seg + L.c()));
  std::vector<Contestant> cs;
  cs.emplace_back("armada_target_busy", timed([sum, &o] {
                    const long one = 1;
                    rma::acc(&one, sum, 1);
                    rma::fence(T);
                    ++o.armada_accs;
                  }));
  cs.emplace_back("armada_target_busy", timed([&p, remote_a] {
                    rma::put(p.src, remote_a, 8, T);
                    rma::fence(T);
                  }));
  cs.emplace_back("armada_target_busy", timed([&p, remote_a] { rma::get(remote_a, p.dst, 8, T); }));
  cs.emplace_back("armada_target_busy", timed([counter, &o] {
                    const long old = rma::fetch_add(counter, 1L);
                    clobber(&old);
                    ++o.armada_adds;
                  }));
  call(p, T, {Cmd::Spin});  // rank 1 now computes until the flag is set
  std::vector<Outcome> out = run_all(p, cs, {"acc_fence 8B", "put_flush 8B", "get 8B", "fetch_add"});
  rma::put_value(1L, rma::GlobalPtr<long>(T, reinterpret_cast<long*>(p.seg + L.slots() + Layout::kFlag)));
  rma::fence(T);
  spun = reply(p, T) >= 0;
  return out;
}

/// Armada's checks, once rank 1 serves commands again: the pattern put, the counter.
void verify_armada(Pass& p, std::size_t big, const Origin& o, bool& data, bool& adds) {
  const Layout& L = p.layout;
  rma::put(p.src, p.seg + L.a(), big, T);
  rma::fence(T);
  data = remote_ok(p, T, {Cmd::Check, Mem::Segment, i64(L.a()), i64(big), 4711, 0, 1}, "armada put");
  const std::int64_t c = call(p, T, {Cmd::GetLong, Mem::Segment, i64(L.slots() + Layout::kCounter)});
  const std::int64_t accs = call(p, T, {Cmd::GetLong, Mem::Segment, i64(L.c())});
  adds = local_check(p, "armada fetch-adds", c == o.armada_adds ? "" : "counter " + std::to_string(c) + ", expected " +
                                                                           std::to_string(o.armada_adds)) &&
         local_check(p, "armada accumulates", accs == o.armada_accs ? "" : "sum " + std::to_string(accs) + ", expected " +
                                                                              std::to_string(o.armada_accs));
}

}  // namespace

/// Whether Armada's rdma segments are memory UCX allocated (ARMADA_RDMA_MEMORY, default 'ucx').
bool ucx_allocated_segments() { return rma::config().text("ARMADA_RDMA_MEMORY") == "ucx"; }

/// Maps `bytes` for the raw target, of the kind Armada's segments are: allocated by UCX, or
/// `fallback` (the program's memory) registered. Returns its address, or null.
std::byte* map_raw_memory(Raw& raw, std::size_t bytes, std::vector<std::byte>& fallback) {
  ucp_mem_map_params_t map{};
  map.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH | UCP_MEM_MAP_PARAM_FIELD_FLAGS;
  map.length = bytes;
  if (ucx_allocated_segments()) {
    map.flags = UCP_MEM_MAP_ALLOCATE;
  } else {
    fallback.resize(bytes);
    map.address = fallback.data();
  }
  if (ucp_mem_map(raw.context, &map, &raw.memh) != UCS_OK) return nullptr;
  ucp_mem_attr_t attr{};
  attr.field_mask = UCP_MEM_ATTR_FIELD_ADDRESS;
  if (ucp_mem_query(raw.memh, &attr) != UCS_OK) return nullptr;
  return static_cast<std::byte*>(attr.address);
}

/// Rank 1's half: a context, mapped memory, and progress until the origin is done.
void ucx_target(Pass& p, const Command& m) {
  Raw raw;
  const std::size_t bytes = kDataOffset + static_cast<std::size_t>(m.a);
  std::vector<std::byte> own;
  std::byte* memory = nullptr;
  std::vector<std::byte> address, key;
  if (raw.start() && (memory = map_raw_memory(raw, bytes, own)) != nullptr) {
    std::memset(memory, 0, bytes);
    void* packed = nullptr;
    std::size_t packed_bytes = 0;
    if (ucp_rkey_pack(raw.context, raw.memh, &packed, &packed_bytes) == UCS_OK) {
      key.assign(static_cast<std::byte*>(packed), static_cast<std::byte*>(packed) + packed_bytes);
      ucp_rkey_buffer_release(packed);
      address = address_of(raw);
    }
  }
  send_blob(p, 0, address.data(), address.size());  // empty: no raw UCX here
  send_blob(p, 0, key.data(), key.size());
  const std::uint64_t base = reinterpret_cast<std::uintptr_t>(memory);
  MPI_Send(&base, 1, MPI_UINT64_T, 0, kTagData, p.comm);
  (void)receive_blob(p, 0);  // the origin's address: it connects; this side only serves
  for (int done = 0; !done;) {  // serve until the origin's step message
    if (raw.worker) ucp_worker_progress(raw.worker);
    MPI_Iprobe(0, kTagStep, p.comm, &done, MPI_STATUS_IGNORE);
  }
  MPI_Recv(nullptr, 0, MPI_BYTE, 0, kTagStep, p.comm, MPI_STATUS_IGNORE);
  raw.stop();
  const std::int64_t zero = 0;
  MPI_Send(&zero, 1, MPI_INT64_T, 0, kTagReply, p.comm);
}

void family_ucx(Pass& p) {
  section(p, "raw UCX baseline [" + p.transport + "] (us; ratio = armada / raw UCX; both complete remotely; memory " +
                (ucx_allocated_segments() ? "allocated by UCX" : "the program's, registered") + ")");
  p.progress->next("ucx " + p.transport);
  const std::size_t big = std::min<std::size_t>(MiB, p.layout.region);
  call(p, T, {Cmd::SetLong, Mem::Segment, i64(p.layout.slots() + Layout::kCounter), 0});
  call(p, T, {Cmd::SetLong, Mem::Segment, i64(p.layout.c()), 0});
  // From here until the step message rank 1 serves the raw worker, not commands.
  send_command(p, T, {Cmd::UcxBaseline, Mem::Segment, i64(big)});
  Origin o;
  std::vector<Outcome> out;
  bool raw_data = false, raw_adds = false;
  const bool connected = connect_origin(p, o);
  if (connected) {
    std::vector<Contestant> cs;
    std::vector<std::string> ops;
    add_contestants(p, o, big, cs, ops);
    out = run_all(p, cs, ops);
    verify_raw(p, o, big, raw_data, raw_adds);
  }
  o.raw.stop();
  MPI_Send(nullptr, 0, MPI_BYTE, T, kTagStep, p.comm);
  reply(p, T);
  if (!connected) {
    fail(p, "raw UCX baseline", "UCX refused: " + o.raw.error);
    return;
  }
  bool spun = false;
  std::vector<Outcome> busy = busy_target(p, o, spun);
  bool armada_data = false, armada_adds = false;
  verify_armada(p, big, o, armada_data, armada_adds);
  spun = local_check(p, "target computing throughout", spun ? "" : "rank 1 left its loop early") && spun;
  for (Outcome& r : busy) r.verified = spun && armada_data && armada_adds;
  out.insert(out.end(), busy.begin(), busy.end());
  for (Outcome& r : out) {
    if (r.method == "armada_target_busy") {
      add_records(p, "ucx", r, 8, 0, 0, 0, false);
      continue;
    }
    const bool adds = r.op == "fetch_add" || r.op == "acc_fence 8B";
    r.verified = r.method == "raw_ucx" ? (adds ? raw_adds : raw_data) : (adds ? armada_adds : armada_data);
    add_records(p, "ucx", r, adds || r.op.ends_with(" 8B") ? 8 : big, 0, 0, 0, false);
  }
  const std::string large = std::to_string(big) + "B";
  for (const std::string& op : std::vector<std::string>{"put_flush 8B", "get 8B", "put_flush " + large, "get " + large,
                                                        "fetch_add"})
    if (Outcome* a = find(out, "armada", op)) row(p, op, op.ends_with(" 8B") || op == "fetch_add" ? 8 : big, Unit::Micros, *a,
                                                  find(out, "raw_ucx", op));
  for (const char* op : {"acc_fence 8B", "put_flush 8B", "get 8B", "fetch_add"})
    if (Outcome* b = find(out, "armada_target_busy", op))
      row(p, std::string(op) + ", target computing (vs awake)", 8, Unit::Micros, *b, find(out, "armada", op));
}

#else

void ucx_target(Pass& p, const Command&) {
  const std::int64_t zero = 0;
  MPI_Send(&zero, 1, MPI_INT64_T, 0, kTagReply, p.comm);
}

void family_ucx(Pass& p) {
  section(p, "raw UCX baseline [" + p.transport + "]: NOT BUILT (UCX was not found: install libucx-dev)");
  p.progress->next("ucx " + p.transport);
  call(p, T, {Cmd::UcxBaseline, Mem::Segment, 0});  // the target answers at once
}

#endif

}  // namespace armada::bench::suite
