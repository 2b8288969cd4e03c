// GlobalArray: creation, inquiry, patch operations, element lists, read_inc, local access and
// synchronization (ghost cells: ghosts.cpp).
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <map>
#include <mutex>
#include <numeric>
#include <cstring>
#include <sstream>

#include "armada/arrays/collective.hpp"
#include "armada/rma/atomic.hpp"
#include "armada/rma/collectives.hpp"
#include "armada/rma/memory.hpp"
#include "armada/rma/runtime.hpp"
#include "armada/rma/sync.hpp"
#include "armada/rma/transfer.hpp"
#include "internal.hpp"

namespace armada::arrays {

namespace {

// Live arrays of this process by id: what the C API's handles and summary() look up.
struct Registry {
  std::mutex mutex;
  std::map<int, std::shared_ptr<Array::Impl>> arrays;
  int next_id = 1;
};
Registry& registry() {
  static Registry r;
  return r;
}

std::byte* bytes(void* p) { return static_cast<std::byte*>(p); }

// What every member of the group must pass alike to create one array (the name may differ).
rma::MustMatch creation_arguments(ElemType type, const Coord& dims, const ArrayOptions& o) {
  std::string starts = "[";
  for (const auto& dim : o.block_starts) {
    starts += starts.size() > 1 ? ", [" : "[";
    for (std::size_t i = 0; i < dim.size(); ++i) starts += (i ? ", " : "") + std::to_string(dim[i]);
    starts += "]";
  }
  return {{"type", std::to_string(static_cast<int>(type))},
          {"dims", dims.str()},
          {"grid", o.grid.str()},
          {"chunk", o.chunk.str()},
          {"block_starts", starts + "]"},
          {"distribution", o.distribution ? o.distribution->str() : "-"},
          {"ghosts", o.ghosts.str()}};
}
std::byte* bytes(const void* p) { return static_cast<std::byte*>(const_cast<void*>(p)); }

// A distribution given in ArrayOptions: it must fit the array's dims and group.
const Distribution& checked_distribution(const Distribution& dist, const Coord& dims, int nprocs) {
  constexpr const char* op = "arrays::create";
  if (dist.dims() != dims)
    detail::fail(op, nullptr, "distribution", dist.str(), "was made for dims " + dist.dims().str() + ", not " + dims.str());
  if (dist.cyclic() ? dist.nprocs() != nprocs : dist.block_count() > nprocs)
    detail::fail(op, nullptr, "distribution", dist.str(),
                 "was made for " + std::to_string(dist.cyclic() ? dist.nprocs() : dist.block_count()) +
                     " processes, the group has " + std::to_string(nprocs));
  return dist;
}

// The error of the one-block calls (owned, access) on a block-cyclic array.
void refuse_cyclic(const char* op, const Array::Impl& a, const char* instead) {
  if (a.dist.cyclic())
    detail::fail(op, &a, "array", a.name, std::string("is block-cyclic (") + a.dist.str() +
                 "): a rank may own several blocks; use " + instead);
}

// The bytes group rank g's allocation needs: its block with its ghost frame (and the push
// counters), or, block-cyclic, its local buffer.
std::size_t member_bytes(const Array::Impl& a, int g) {
  if (a.dist.cyclic()) return static_cast<std::size_t>(a.dist.local_elements(g)) * a.esize;
  return a.allocation_bytes(a.dist.block(g));
}

// The size every member allocates when one size for all costs little: then rma places the
// segment symmetrically and the array keeps one origin, not a base per member (issue 53: 8 B
// per member per array). Little: at most an eighth more than the members need, plus a page
// per member (a slice takes whole pages anyway). A distribution that gives some members far
// more than others (an irregular one, most blocks on a few ranks) keeps its own sizes.
std::optional<std::size_t> one_size_allocation(const Array::Impl& a) {
  constexpr std::size_t kPage = 4096;
  const auto n = static_cast<std::size_t>(a.group.size());
  std::size_t largest = 0, total = 0;
  for (int g = 0; g < a.group.size(); ++g) {
    const std::size_t b = member_bytes(a, g);
    largest = std::max(largest, b);
    total += b;
  }
  if (largest == 0) return std::nullopt;
  if (largest > (total + total / 8 + n * kPage) / n) return std::nullopt;
  return largest;
}

}  // namespace

// ---- NbHandle ------------------------------------------------------------------------------------
NbHandle& NbHandle::operator=(NbHandle&& other) noexcept {
  if (this != &other) {
    wait();
    handles_ = std::move(other.handles_);
    scale_ = std::move(other.scale_);
  }
  return *this;
}
void NbHandle::wait() {
  for (auto& h : handles_) h.wait();
  handles_.clear();
}
bool NbHandle::test() {
  for (auto& h : handles_)
    if (!h.test()) return false;
  return true;
}

// ---- creation ------------------------------------------------------------------------------------
Array Array::create(ElemType type, const Coord& dims, const ArrayOptions& o) {
  constexpr const char* op = "arrays::create";
  if (!rma::initialized()) throw rma::StateError(op, std::string(op) + ": the rma runtime is not initialized");
  rma::Group group = o.group ? *o.group : rma::Group::world();
  if (!group.is_member())
    detail::fail(op, nullptr, "group", "size " + std::to_string(group.size()), "this rank is not a member of the group");
  // The checks can fail on some members only (members passing different arguments): all agree
  // before the collective allocation, so a failure reaches every member instead of a hang.
  auto impl = std::make_shared<Impl>();
  const int n = dims.size();
  rma::agree(op, [&] {
    const int t = static_cast<int>(type);
    if (t < 0 || t > static_cast<int>(ElemType::ComplexDouble))
      detail::fail(op, nullptr, "type", std::to_string(t), "is not an element type (int, long, float, double, complex<float>, complex<double>)",
                   rma::ErrorKind::type);
    impl->type = type;
    impl->esize = size_of(type);
    impl->group = group;
    impl->dist = o.distribution ? checked_distribution(*o.distribution, dims, group.size())
                 : o.block_starts.empty() ? Distribution::regular(dims, group.size(), o.grid, o.chunk)
                                          : Distribution::irregular(dims, o.block_starts, group.size());
    impl->ghosts = o.ghosts.empty() ? Coord::filled(n, 0) : o.ghosts;
    if (impl->ghosts.size() != n)
      detail::fail(op, nullptr, "ghosts", o.ghosts.str(), "needs one entry per dimension (" + std::to_string(n) + ")");
    for (int d = 0; d < n; ++d)
      if (impl->ghosts[d] < 0 || impl->ghosts[d] > dims[d])
        detail::fail(op, nullptr, "ghosts", o.ghosts.str(), "ghost widths must be in [0, dims[d]] (dims " + dims.str() + ")");
    if (impl->dist.cyclic() && impl->ghosts != Coord::filled(n, 0))
      detail::fail(op, nullptr, "ghosts", o.ghosts.str(), "a block-cyclic array has no ghost cells");
    // Every block with its ghosts is smaller than this: no size or offset below can overflow.
    detail::checked_array_bytes(op, dims, impl->ghosts, impl->esize);
    if (impl->dist.cyclic()) {  // nor a local buffer of padded blocks (smaller than all blocks padded)
      Coord padded = dims;
      for (int d = 0; d < n; ++d)
        padded[d] = (static_cast<Index>(impl->dist.bounds(d).size()) - 1) * impl->dist.block_extents()[d];
      detail::checked_array_bytes(op, padded, Coord::filled(n, 0), impl->esize);
    }
  }, group, creation_arguments(type, dims, o));

  // This rank's allocation: its block plus its ghost frame, row-major (and the push counters after
  // them); block-cyclic: its local
  // buffer (the Distribution places the blocks in it).
  impl->my = group.rank();
  const std::size_t my_bytes = one_size_allocation(*impl).value_or(member_bytes(*impl, impl->my));
  const std::vector<void*> bases = rma::allocate(my_bytes, group);
  impl->my_base = bases[static_cast<std::size_t>(impl->my)];
  if (impl->my_base) impl->layout = rma::symmetric_layout(impl->my_base);
  if (!impl->layout) {
    // Only members that hold elements have a base (a 0-byte slice's address is no block's).
    impl->bases.resize(bases.size());
    for (int g = 0; g < group.size(); ++g) {
      const bool holds = impl->dist.cyclic() ? impl->dist.local_elements(g) > 0 : !impl->dist.block(g).empty();
      impl->bases[static_cast<std::size_t>(g)] = holds ? static_cast<std::byte*>(bases[static_cast<std::size_t>(g)]) : nullptr;
    }
  }
  impl->my_block = impl->block(impl->my);
  if (impl->my_base) std::memset(impl->my_base, 0, my_bytes);  // arrays start zeroed, like GA's
  // The id, and so the default name "array<id>", is the same on every member: the group takes
  // the highest next id of its members (arrays made on subgroups advance only their members'
  // counters, and a name that differs between ranks breaks whatever names the array
  // collectively, a save's dataset among them). The reduction is also the barrier after the
  // zeroing: no rank may touch another's block before that rank has zeroed it.
  auto& r = registry();
  int next = 0;
  {
    std::lock_guard lock(r.mutex);
    next = r.next_id;
  }
  rma::collective_serving("arrays::create", [&](MPI_Request* r) {
    return MPI_Iallreduce(MPI_IN_PLACE, &next, 1, MPI_INT, MPI_MAX, group.comm(), r);
  });
  {
    std::lock_guard lock(r.mutex);
    r.next_id = std::max(r.next_id, next);
    impl->id = r.next_id++;
    impl->name = o.name.empty() ? "array" + std::to_string(impl->id) : o.name;
    r.arrays[impl->id] = impl;
  }
  return Array(std::move(impl));
}

Array Array::duplicate(const std::string& name) const {
  constexpr const char* op = "arrays::duplicate";
  const Impl* ap = nullptr;
  rma::agree(op, [&] { ap = &checked(op); }, collective_group(op, *this));
  const Impl& a = *ap;
  ArrayOptions o;
  o.name = name.empty() ? a.name + "_dup" : name;
  o.group = a.group;
  o.ghosts = a.ghosts;
  o.distribution = a.dist;
  return create(a.type, a.dist.dims(), o);
}

void Array::destroy() {
  constexpr const char* op = "arrays::destroy";
  Impl* ap = nullptr;
  // Nobody may still be reading or writing the blocks: the agreement is the barrier.
  begin_collective(op, collective_group(op, *this), [&] { ap = &const_cast<Impl&>(checked(op)); },
                   {same_shape("array", *this)});
  Impl& a = *ap;
  rma::free(a.my_base, a.group);
  a.destroyed = true;
  auto& r = registry();
  std::lock_guard lock(r.mutex);
  r.arrays.erase(a.id);
}

bool Array::valid() const noexcept { return impl_ && !impl_->destroyed; }

const Array::Impl& Array::checked(const char* op) const {
  if (!impl_) throw rma::InvalidArgument(op, "array", "null", "the array was never created", rma::ErrorKind::handle);
  if (impl_->destroyed)
    throw rma::StateError(op, rma::error_message(op, "array '" + impl_->name + "' (handle " +
                                  std::to_string(impl_->id) + ") was destroyed"));
  return *impl_;
}

Array find_array(int id, const char* op) {
  auto& r = registry();
  std::lock_guard lock(r.mutex);
  const auto it = r.arrays.find(id);
  if (it == r.arrays.end())
    throw rma::InvalidArgument(op, "array", std::to_string(id), "no live array has this handle (never created, or destroyed)",
                               rma::ErrorKind::handle);
  return Array(it->second);
}

std::vector<Array> live_arrays() {
  auto& r = registry();
  std::lock_guard lock(r.mutex);
  std::vector<Array> v;
  for (const auto& [id, impl] : r.arrays) v.emplace_back(impl);
  return v;
}

std::string summary() {
  std::ostringstream s;
  const auto arrays = live_arrays();
  s << "armada::arrays: " << arrays.size() << " live array" << (arrays.size() == 1 ? "" : "s") << "\n";
  for (const Array& a : arrays) {
    const auto& i = *a.impl();
    const std::size_t local = i.my_base ? rma::segment_size(i.my_base) : 0;
    s << "  #" << i.id << " '" << i.name << "' " << to_string(i.type) << " dims " << i.dist.dims().str() << " grid "
      << i.dist.grid().str() << " ghosts " << i.ghosts.str() << " on " << i.group.size() << " ranks, local "
      << local << " B\n";
  }
  return s.str();
}

namespace detail {
void wait_all(std::vector<rma::Handle>& handles) {
  for (auto& h : handles) h.wait();
}

void require_type(const Array& a, ElemType type, const char* op) {
  if (!a.impl()) return;  // an empty array stays empty; using it reports that
  if (a.impl()->type != type)
    fail(op, a.impl().get(), "element type", to_string(type), std::string("the array holds ") + to_string(a.impl()->type),
         rma::ErrorKind::type);
}
}  // namespace detail

// ---- inquiry -------------------------------------------------------------------------------------
ElemType Array::type() const { return checked("arrays::type").type; }
std::size_t Array::element_size() const { return checked("arrays::element_size").esize; }
int Array::ndim() const { return checked("arrays::ndim").ndim(); }
const Coord& Array::dims() const { return checked("arrays::dims").dist.dims(); }
const std::string& Array::name() const { return checked("arrays::name").name; }
void Array::set_name(const std::string& name) { const_cast<Impl&>(checked("arrays::set_name")).name = name; }
const Distribution& Array::distribution() const { return checked("arrays::distribution").dist; }
const rma::Group& Array::group() const { return checked("arrays::group").group; }
Coord Array::ghosts() const { return checked("arrays::ghosts").ghosts; }
int Array::id() const { return checked("arrays::id").id; }

Patch Array::owned(int rank) const {
  const Impl& a = checked("arrays::owned");
  refuse_cyclic("arrays::owned", a, "distribution().blocks_of()");
  const int g = a.group.group_rank(rank);
  if (g < 0) detail::fail("arrays::owned", &a, "rank", std::to_string(rank), "is not a member of the array's group");
  return a.dist.block(g);
}
Patch Array::owned() const {
  const Impl& a = checked("arrays::owned");
  refuse_cyclic("arrays::owned", a, "distribution().blocks_of()");
  return a.mine().patch;
}

int Array::locate(const Coord& index) const {
  constexpr const char* op = "arrays::locate";
  const Impl& a = checked(op);
  if (index.size() != a.ndim()) detail::fail(op, &a, "index", index.str(), "needs " + std::to_string(a.ndim()) + " entries");
  for (int d = 0; d < a.ndim(); ++d)
    if (index[d] < 0 || index[d] >= a.dist.dims()[d])
      detail::fail(op, &a, "index", index.str(), "index[" + std::to_string(d) + "] is outside [0, " + std::to_string(a.dist.dims()[d]) + ")");
  return a.group.world_ranks()[static_cast<std::size_t>(a.dist.owner(index))];
}

std::vector<Owner> Array::locate_region(const Coord& lo, const Coord& hi) const {
  constexpr const char* op = "arrays::locate_region";
  const Impl& a = checked(op);
  detail::check_patch(op, a, lo, hi);
  std::vector<Owner> owners;
  detail::for_each_block(a, lo, hi, nullptr, [&](const Coord& k, const Patch& piece) {
    owners.push_back({a.group.world_ranks()[static_cast<std::size_t>(a.dist.block_owner(k))], piece});
  });
  return owners;
}

// ---- patch operations ----------------------------------------------------------------------------
namespace {

void check_skip(const char* op, const Array::Impl& a, const Coord& skip) {
  if (skip.size() != a.ndim()) detail::fail(op, &a, "skip", skip.str(), "needs " + std::to_string(a.ndim()) + " entries");
  for (int d = 0; d < a.ndim(); ++d)
    if (skip[d] < 1) detail::fail(op, &a, "skip", skip.str(), "skip[" + std::to_string(d) + "] must be >= 1");
}

Coord strided_extents(const Coord& lo, const Coord& hi, const Coord& skip) {
  Coord e = Patch{lo, hi}.extents();
  for (int d = 0; d < e.size(); ++d) e[d] = (e[d] + skip[d] - 1) / skip[d];
  return e;
}

void check_periodic(const char* op, const Array::Impl& a, const Coord& lo, const Coord& hi) {
  const int n = a.ndim();
  if (lo.size() != n) detail::fail(op, &a, "lo", lo.str(), "needs " + std::to_string(n) + " entries");
  if (hi.size() != n) detail::fail(op, &a, "hi", hi.str(), "needs " + std::to_string(n) + " entries");
  for (int d = 0; d < n; ++d) {
    if (lo[d] > hi[d])
      detail::fail(op, &a, "hi", hi.str(), "lo[" + std::to_string(d) + "] = " + std::to_string(lo[d]) + " > hi[" +
                   std::to_string(d) + "] = " + std::to_string(hi[d]) + " (patch lo = " + lo.str() + ")");
    if (hi[d] - lo[d] > 2 * a.dist.dims()[d])  // GA's limit (global.periodic.c)
      detail::fail(op, &a, "hi", hi.str(), "a periodic patch is at most twice the array's extent " + std::to_string(a.dist.dims()[d]) +
                   " long in dimension " + std::to_string(d) + " (patch lo = " + lo.str() + ")");
  }
}

void check_buffer(const char* op, const Array::Impl& a, const void* buf, const Coord& extents) {
  if (!buf && Patch{Coord::filled(extents.size(), 0), extents}.elements() > 0)
    detail::fail(op, &a, "buf", "null", "a non-empty patch needs a buffer");
}
void check_scale(const char* op, const Array::Impl& a, const void* scale) {
  if (!scale) detail::fail(op, &a, "scale", "null", "accumulate needs a scale factor");
}

// Every patch operation (get/put/acc, blocking or not, strided, periodic) takes this one path:
// the form's checks, in the order the messages promise (patch, skip, buffer, scale), before
// any byte moves, then one rma operation per owner, issued nonblocking into `hs`.
struct PatchForm {
  detail::Kind kind;
  const char* op;
  const Coord* skip = nullptr;  // the strided forms: every skip[d]-th index
  bool periodic = false;        // the periodic forms: indices wrap around the array
};

void issue_patch_op(const PatchForm& f, const Array::Impl& a, const Coord& lo, const Coord& hi, const void* buf,
                    const void* scale, const Coord& ld, std::vector<rma::Handle>& hs) {
  if (f.periodic) check_periodic(f.op, a, lo, hi);
  else detail::check_patch(f.op, a, lo, hi);
  if (f.skip) check_skip(f.op, a, *f.skip);
  const Coord ext = f.skip ? strided_extents(lo, hi, *f.skip) : Patch{lo, hi}.extents();
  const Coord bs = detail::buffer_strides(f.op, a, ext, ld);
  check_buffer(f.op, a, buf, ext);
  if (f.kind == detail::Kind::Acc) check_scale(f.op, a, scale);
  if (f.periodic) detail::issue_periodic(f.kind, a, lo, hi, bytes(buf), bs, scale, hs);
  else detail::issue_patch(f.kind, a, lo, hi, f.skip, bytes(buf), bs, scale, hs);
}

// The blocking forms: issue, then wait for every owner.
void patch_op(const PatchForm& f, const Array::Impl& a, const Coord& lo, const Coord& hi, const void* buf,
              const void* scale, const Coord& ld) {
  std::vector<rma::Handle> hs;
  issue_patch_op(f, a, lo, hi, buf, scale, ld, hs);
  detail::wait_all(hs);
}

// The nonblocking forms return the owners' handles. The caller's scale may die before the
// wait: the handle keeps a copy.
NbHandle nb_patch_op(const PatchForm& f, const Array::Impl& a, const Coord& lo, const Coord& hi, const void* buf,
                     const void* scale, const Coord& ld, std::vector<rma::Handle>& (*handles)(NbHandle&),
                     std::unique_ptr<std::byte[]>& (*scale_of)(NbHandle&)) {
  NbHandle h;
  const void* s = scale;
  if (f.kind == detail::Kind::Acc && scale) {
    auto& copy = scale_of(h);
    copy = std::make_unique<std::byte[]>(a.esize);
    std::memcpy(copy.get(), scale, a.esize);
    s = copy.get();
  }
  issue_patch_op(f, a, lo, hi, buf, s, ld, handles(h));
  return h;
}

}  // namespace

std::vector<rma::Handle>& NbHandle::handles_of(NbHandle& h) { return h.handles_; }
std::unique_ptr<std::byte[]>& NbHandle::scale_of(NbHandle& h) { return h.scale_; }

NbHandle Array::get_nb(const Coord& lo, const Coord& hi, void* buf, const Coord& ld) const {
  const PatchForm f{detail::Kind::Get, "arrays::get_nb"};
  return nb_patch_op(f, checked(f.op), lo, hi, buf, nullptr, ld, &NbHandle::handles_of, &NbHandle::scale_of);
}
NbHandle Array::put_nb(const Coord& lo, const Coord& hi, const void* buf, const Coord& ld) {
  const PatchForm f{detail::Kind::Put, "arrays::put_nb"};
  return nb_patch_op(f, checked(f.op), lo, hi, buf, nullptr, ld, &NbHandle::handles_of, &NbHandle::scale_of);
}
NbHandle Array::acc_nb(const Coord& lo, const Coord& hi, const void* buf, const void* scale, const Coord& ld) {
  const PatchForm f{detail::Kind::Acc, "arrays::acc_nb"};
  return nb_patch_op(f, checked(f.op), lo, hi, buf, scale, ld, &NbHandle::handles_of, &NbHandle::scale_of);
}

void Array::get(const Coord& lo, const Coord& hi, void* buf, const Coord& ld) const {
  const PatchForm f{detail::Kind::Get, "arrays::get"};
  patch_op(f, checked(f.op), lo, hi, buf, nullptr, ld);
}
void Array::put(const Coord& lo, const Coord& hi, const void* buf, const Coord& ld) {
  const PatchForm f{detail::Kind::Put, "arrays::put"};
  patch_op(f, checked(f.op), lo, hi, buf, nullptr, ld);
}
void Array::acc(const Coord& lo, const Coord& hi, const void* buf, const void* scale, const Coord& ld) {
  const PatchForm f{detail::Kind::Acc, "arrays::acc"};
  patch_op(f, checked(f.op), lo, hi, buf, scale, ld);
}

void Array::get_strided(const Coord& lo, const Coord& hi, const Coord& skip, void* buf, const Coord& ld) const {
  const PatchForm f{detail::Kind::Get, "arrays::get_strided", &skip};
  patch_op(f, checked(f.op), lo, hi, buf, nullptr, ld);
}
void Array::put_strided(const Coord& lo, const Coord& hi, const Coord& skip, const void* buf, const Coord& ld) {
  const PatchForm f{detail::Kind::Put, "arrays::put_strided", &skip};
  patch_op(f, checked(f.op), lo, hi, buf, nullptr, ld);
}
void Array::acc_strided(const Coord& lo, const Coord& hi, const Coord& skip, const void* buf, const void* scale,
                        const Coord& ld) {
  const PatchForm f{detail::Kind::Acc, "arrays::acc_strided", &skip};
  patch_op(f, checked(f.op), lo, hi, buf, scale, ld);
}
void Array::periodic_get(const Coord& lo, const Coord& hi, void* buf, const Coord& ld) const {
  const PatchForm f{detail::Kind::Get, "arrays::periodic_get", nullptr, true};
  patch_op(f, checked(f.op), lo, hi, buf, nullptr, ld);
}
void Array::periodic_put(const Coord& lo, const Coord& hi, const void* buf, const Coord& ld) {
  const PatchForm f{detail::Kind::Put, "arrays::periodic_put", nullptr, true};
  patch_op(f, checked(f.op), lo, hi, buf, nullptr, ld);
}
void Array::periodic_acc(const Coord& lo, const Coord& hi, const void* buf, const void* scale, const Coord& ld) {
  const PatchForm f{detail::Kind::Acc, "arrays::periodic_acc", nullptr, true};
  patch_op(f, checked(f.op), lo, hi, buf, scale, ld);
}

// ---- element lists -------------------------------------------------------------------------------
namespace {

void check_index(const char* op, const Array::Impl& a, const Coord& index, const std::string& arg) {
  if (index.size() != a.ndim()) detail::fail(op, &a, arg, index.str(), "needs " + std::to_string(a.ndim()) + " entries");
  for (int d = 0; d < a.ndim(); ++d)
    if (index[d] < 0 || index[d] >= a.dist.dims()[d])
      detail::fail(op, &a, arg, index.str(),
                   "entry " + std::to_string(d) + " is outside [0, " + std::to_string(a.dist.dims()[d]) + ")");
}

// Gather, scatter and scatter-accumulate: the elements are grouped by owner and each owner gets
// one rma vector operation (a set of element-sized segments), all issued before any wait.
void element_list(detail::Kind kind, const char* op, const Array::Impl& a, std::span<const Coord> subs,
                  std::byte* values, const void* scale) {
  const std::size_t n = subs.size();
  if (n > 0 && !values) detail::fail(op, &a, "values", "null", "a non-empty list needs values");
  if (kind == detail::Kind::Acc) check_scale(op, a, scale);
  std::vector<int> owner(n);
  std::vector<void*> remote(n);
  for (std::size_t i = 0; i < n; ++i) {
    check_index(op, a, subs[i], "subscripts[" + std::to_string(i) + "]");
    owner[i] = a.dist.owner(subs[i]);
    remote[i] = a.address(subs[i]);
  }
  // Order the elements by owner (stable: an owner's elements keep the caller's order).
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return owner[x] < owner[y]; });
  if (kind == detail::Kind::Put) {
    // Two writes of one element would race; reject them before anything moves.
    std::vector<std::size_t> by_addr = order;
    std::sort(by_addr.begin(), by_addr.end(), [&](std::size_t x, std::size_t y) {
      return owner[x] != owner[y] ? owner[x] < owner[y] : remote[x] < remote[y];
    });
    for (std::size_t k = 1; k < n; ++k) {
      const std::size_t x = by_addr[k - 1], y = by_addr[k];
      if (owner[x] == owner[y] && remote[x] == remote[y])
        detail::fail(op, &a, "subscripts[" + std::to_string(std::max(x, y)) + "]", subs[y].str(),
                     "names the same element as subscripts[" + std::to_string(std::min(x, y)) + "]; scatter writes each element once");
    }
  }
  std::vector<void*> src(n), dst(n);
  std::vector<rma::IoSet> sets;
  std::vector<int> targets;
  for (std::size_t k = 0; k < n;) {
    std::size_t e = k;
    while (e < n && owner[order[e]] == owner[order[k]]) ++e;
    for (std::size_t j = k; j < e; ++j) {
      void* local = values + static_cast<std::ptrdiff_t>(order[j] * a.esize);
      src[j] = kind == detail::Kind::Get ? remote[order[j]] : local;
      dst[j] = kind == detail::Kind::Get ? local : remote[order[j]];
    }
    sets.push_back(rma::IoSet{std::span<void* const>(src.data() + k, e - k), std::span<void* const>(dst.data() + k, e - k), a.esize});
    targets.push_back(a.group.world_ranks()[static_cast<std::size_t>(owner[order[k]])]);
    k = e;
  }
  std::vector<rma::Handle> hs;
  for (std::size_t s = 0; s < sets.size(); ++s) {
    const std::span<const rma::IoSet> one(&sets[s], 1);
    switch (kind) {
      case detail::Kind::Get: hs.push_back(rma::get_vector_nb(one, targets[s])); break;
      case detail::Kind::Put: hs.push_back(rma::put_vector_nb(one, targets[s])); break;
      case detail::Kind::Acc: hs.push_back(rma::acc_vector_nb(a.type, scale, one, targets[s])); break;
    }
  }
  detail::wait_all(hs);
}

}  // namespace

void Array::gather(std::span<const Coord> subscripts, void* values) const {
  element_list(detail::Kind::Get, "arrays::gather", checked("arrays::gather"), subscripts, bytes(values), nullptr);
}
void Array::scatter(std::span<const Coord> subscripts, const void* values) {
  element_list(detail::Kind::Put, "arrays::scatter", checked("arrays::scatter"), subscripts, bytes(values), nullptr);
}
void Array::scatter_acc(std::span<const Coord> subscripts, const void* values, const void* scale) {
  element_list(detail::Kind::Acc, "arrays::scatter_acc", checked("arrays::scatter_acc"), subscripts, bytes(values), scale);
}

long Array::read_inc(const Coord& index, long increment) {
  constexpr const char* op = "arrays::read_inc";
  const Impl& a = checked(op);
  if (a.type != ElemType::Int && a.type != ElemType::Long)
    detail::fail(op, &a, "array type", to_string(a.type), "read_inc needs an int or long array", rma::ErrorKind::type);
  check_index(op, a, index, "index");
  const Block b = a.block(a.dist.owner(index));
  void* addr = a.address(index);
  if (a.type == ElemType::Long) return rma::fetch_add(rma::GlobalPtr<long>(b.world, static_cast<long*>(addr)), increment);
  if (increment < INT32_MIN || increment > INT32_MAX)
    detail::fail(op, &a, "increment", std::to_string(increment), "does not fit the int array's elements");
  return rma::fetch_add(rma::GlobalPtr<int>(b.world, static_cast<int*>(addr)), static_cast<int>(increment));
}

// ---- local access --------------------------------------------------------------------------------
namespace {
// This member's block of a regular array (access, access_ghosts), with its ghost cells or without.
LocalView<void> my_block_view(Array::Impl& a, const char* op, bool with_ghosts) {
  refuse_cyclic(op, a, "access_blocks()");
  const Block& b = a.mine();
  ++a.accesses;
  if (b.patch.empty()) return {nullptr, b.patch.lo, b.patch.hi, b.stride};
  if (!with_ghosts) return {b.address(b.patch.lo, a.ghosts, a.esize), b.patch.lo, b.patch.hi, b.stride};
  Coord lo = b.patch.lo, hi = b.patch.hi;
  for (int d = 0; d < a.ndim(); ++d) {
    lo[d] -= a.ghosts[d];
    hi[d] += a.ghosts[d];
  }
  return {b.base, lo, hi, b.stride};
}
}  // namespace

LocalView<void> Array::access() {
  return my_block_view(const_cast<Impl&>(checked("arrays::access")), "arrays::access", false);
}

LocalView<void> Array::access_block(int rank) {
  constexpr const char* op = "arrays::access_block";
  Impl& a = const_cast<Impl&>(checked(op));
  const int g = rank >= 0 && rank < rma::size() ? a.group.group_rank(rank) : -1;
  if (g < 0) detail::fail(op, &a, "rank", std::to_string(rank), "is not a member of the array's group");
  refuse_cyclic(op, a, "get()");
  const Block b = a.block(g);
  ++a.accesses;
  if (b.patch.empty()) return {nullptr, b.patch.lo, b.patch.hi, b.stride};
  // The whole allocation (block and ghosts) lies in one slice: map its start, then step to lo.
  Index elements = 1;
  for (int d = 0; d < a.ndim(); ++d) elements *= b.patch.hi[d] - b.patch.lo[d] + 2 * a.ghosts[d];
  auto* mapped = static_cast<std::byte*>(rma::node_address(b.world, b.base, static_cast<std::size_t>(elements) * a.esize));
  if (!mapped) return {nullptr, b.patch.lo, b.patch.lo, b.stride};
  return {mapped + (b.address(b.patch.lo, a.ghosts, a.esize) - b.base), b.patch.lo, b.patch.hi, b.stride};
}

std::vector<LocalView<void>> Array::access_blocks() {
  Impl& a = const_cast<Impl&>(checked("arrays::access_blocks"));
  std::vector<LocalView<void>> views;
  for (const Coord& k : a.dist.blocks_of(a.my)) {
    const Place p = a.place(k);
    const Patch box = a.dist.block_patch(k);
    views.push_back({p.first, box.lo, box.hi, p.stride});
  }
  ++a.accesses;
  return views;
}

LocalView<void> Array::access_ghosts() {
  return my_block_view(const_cast<Impl&>(checked("arrays::access_ghosts")), "arrays::access_ghosts", true);
}

void Array::release() {
  Impl& a = const_cast<Impl&>(checked("arrays::release"));
  if (a.accesses == 0) detail::fail("arrays::release", &a, "accesses", "0", "no access() is outstanding");
  --a.accesses;
}
void Array::release_update() {
  Impl& a = const_cast<Impl&>(checked("arrays::release_update"));
  if (a.accesses == 0) detail::fail("arrays::release_update", &a, "accesses", "0", "no access() is outstanding");
  --a.accesses;
}

// ---- ghosts and sync -----------------------------------------------------------------------------
void Array::sync_group() const {
  constexpr const char* op = "arrays::sync_group";
  begin_collective(op, collective_group(op, *this), [&] { checked(op); }, {same_shape("array", *this)});
}

rma::Group collective_group(const char* op, const Array& a) {
  if (!a.impl()) return rma::Group::world();
  const rma::Group& g = a.impl()->group;
  if (!g.is_member())
    detail::fail(op, a.impl().get(), "array", a.impl()->name,
                 "this rank is not a member of the array's group, so it takes no part in its collective calls",
                 rma::ErrorKind::handle);
  return g;
}

std::optional<rma::Group> group_waiting_for(int id) {
  if (!rma::initialized()) return std::nullopt;  // nobody is in a collective: the call fails alone
  auto& r = registry();
  std::lock_guard lock(r.mutex);
  const auto it = r.arrays.find(id);
  if (it == r.arrays.end()) return rma::Group::world();
  if (!it->second->group.is_member()) return std::nullopt;
  return it->second->group;
}

rma::MustMatch::value_type same_shape(const char* argument, const Array& a) {
  if (!a.impl()) return {argument, "(no array)"};
  // The id is the same on every member for one array and unique among a process's arrays: two
  // arrays of one shape passed by different members differ here.
  return {argument, std::string(to_string(a.impl()->type)) + " " + a.impl()->dist.dims().str() + ", id " +
                        std::to_string(a.impl()->id)};
}

rma::MustMatch::value_type same_value(const char* argument, const Array& a, const void* value) {
  if (!a.impl()) return {argument, "(no array)"};
  if (!value) return {argument, "null"};
  return {argument, with_element_type(a.impl()->type, [&](auto zero) {
            decltype(zero) v;
            std::memcpy(&v, value, sizeof v);
            std::ostringstream out;
            // Enough digits that two different values never print alike.
            out << std::setprecision(std::numeric_limits<decltype(std::abs(v))>::max_digits10) << v;
            return out.str();
          })};
}

void sync() {
  if (!rma::initialized())
    throw rma::StateError("arrays::sync", rma::message_prefix() + "arrays::sync: the rma runtime is not initialized");
  rma::barrier();  // an agreement named rma::barrier: a member in another collective call is told
}

}  // namespace armada::arrays
