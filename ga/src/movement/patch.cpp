// One-sided operations on patches and elements (blocking, strided, nonblocking), read_inc,
// scatter/gather and local access (ghost cells: ghosts.cpp).
#include <cstring>
#include <map>
#include <unordered_map>
#include <mutex>

#include "base/call.hpp"
#include "base/index.hpp"
#include "create/handles.hpp"
#include "movement/local.hpp"
#include "movement/transfer.hpp"
#include "services/stats.hpp"

using namespace armada;
using namespace armada::ga;

namespace {

Stat stat_of(Transfer kind) {
  return kind == Transfer::get ? Stat::get : kind == Transfer::put ? Stat::put : Stat::acc;
}

/// What every patch transfer of GA's C API checks besides the patch.
void require_buffers(const char* function, Transfer kind, const void* buf, const void* alpha) {
  if (!buf) bad_argument(function, "buf", "NULL", "a buffer for the patch is required");
  if (kind == Transfer::acc && !alpha) bad_argument(function, "alpha", "NULL", "a scale factor is required");
}

template <class I>
void transfer(const char* function, Transfer kind, int g_a, const I* lo, const I* hi, void* buf, const I* ld,
              const void* alpha, ga_nbhdl_t* request = nullptr) {
  guarded(function, [&] {
    const Coord& dims = array_dims(function, g_a);
    const arrays::Patch p = patch_of(function, dims, lo, hi);
    require_buffers(function, kind, buf, alpha);
    move_patch(function, kind, g_a, p, buf, ga_ld(dims.size(), ld), alpha, request);
  });
}

/// NGA_NbGet/NbPut/NbAcc: as transfer(), *nbhandle naming the request.
template <class I>
void nonblocking(const char* function, Transfer kind, int g_a, const I* lo, const I* hi, void* buf, const I* ld,
                 const void* alpha, ga_nbhdl_t* nbhandle) {
  if (!nbhandle)
    guarded(function, [&] { bad_argument(function, "nbhandle", "NULL", "a place for the request handle is required"); });
  transfer(function, kind, g_a, lo, hi, buf, ld, alpha, nbhandle);
}

template <class I>
void strided(const char* function, Transfer kind, int g_a, const I* lo, const I* hi, const I* skip, void* buf,
             const I* ld, const void* alpha) {
  guarded(function, [&] {
    const Coord& dims = array_dims(function, g_a);
    const arrays::Patch p = patch_of(function, dims, lo, hi);
    if (!skip) bad_argument(function, "skip", "NULL", "a stride per dimension is required");
    for (int d = 0; d < dims.size(); ++d)
      if (skip[d] < 1) bad_argument(function, "skip[" + std::to_string(d) + "]", std::to_string(skip[d]), "must be >= 1");
    require_buffers(function, kind, buf, alpha);
    move_strided(function, kind, g_a, p, coord(dims.size(), skip), buf, ga_ld(dims.size(), ld), alpha);
  });
}

// Outstanding nonblocking operations by GA handle. Handles are never reused within a run.
std::mutex g_nb_mutex;
std::map<ga_nbhdl_t, arrays::NbHandle> g_nb;
ga_nbhdl_t g_next_nb = 1;

}  // namespace

ga_nbhdl_t armada::ga::keep_request(arrays::NbHandle h) {
  std::lock_guard lock(g_nb_mutex);
  const ga_nbhdl_t id = g_next_nb++;
  g_nb.emplace(id, std::move(h));
  return id;
}

void armada::ga::move_patch(const char* function, Transfer kind, int g_a, const arrays::Patch& p, void* buf,
                            const Coord& ld, const void* alpha, ga_nbhdl_t* request) {
  Array& a = any_array(function, g_a);
  count_call(stat_of(kind), static_cast<std::size_t>(p.elements()) * a.element_size());
  if (request) {
    arrays::NbHandle h;
    switch (kind) {
      case Transfer::get: h = a.get_nb(p.lo, p.hi, buf, ld); break;
      case Transfer::put: h = a.put_nb(p.lo, p.hi, buf, ld); break;
      case Transfer::acc: h = a.acc_nb(p.lo, p.hi, buf, alpha, ld); break;
    }
    *request = keep_request(std::move(h));
    return;
  }
  switch (kind) {
    case Transfer::get: a.get(p.lo, p.hi, buf, ld); break;
    case Transfer::put: a.put(p.lo, p.hi, buf, ld); break;
    case Transfer::acc: a.acc(p.lo, p.hi, buf, alpha, ld); break;
  }
}

void armada::ga::move_strided(const char* function, Transfer kind, int g_a, const arrays::Patch& p,
                              const Coord& skip, void* buf, const Coord& ld, const void* alpha) {
  Array& a = any_array(function, g_a);
  std::size_t elements = 1;
  for (int d = 0; d < a.ndim(); ++d) elements *= static_cast<std::size_t>((p.hi[d] - p.lo[d] + skip[d] - 1) / skip[d]);
  count_call(stat_of(kind), elements * a.element_size());
  switch (kind) {
    case Transfer::get: a.get_strided(p.lo, p.hi, skip, buf, ld); break;
    case Transfer::put: a.put_strided(p.lo, p.hi, skip, buf, ld); break;
    case Transfer::acc: a.acc_strided(p.lo, p.hi, skip, buf, alpha, ld); break;
  }
}

namespace {

template <class I>
long read_inc(const char* function, int g_a, const I* subscript, long inc) {
  return guarded(function, [&] {
    Array& a = any_array(function, g_a);
    if (a.type() != ElemType::Int && a.type() != ElemType::Long)
      bad_argument(function, "g_a", std::to_string(g_a),
                   "holds " + std::string(rma::to_string(a.type())) + "; NGA_Read_inc needs C_INT or C_LONG");
    const arrays::Patch p = patch(function, a, subscript, subscript, "subscript", "subscript");
    count_call(Stat::read_inc, a.element_size());
    return a.read_inc(p.lo, inc);
  });
}

/// GA's subscripts (n tuples, as pointers or flat) as arrays' index tuples, checked.
template <class I, class Subscript>
std::vector<Coord> subscripts(const char* function, const Array& a, std::int64_t n, Subscript&& at) {
  if (n < 0) bad_argument(function, "n", std::to_string(n), "must be >= 0");
  std::vector<Coord> out;
  out.reserve(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    const I* s = at(i, a.ndim());
    if (!s) bad_argument(function, "subsArray[" + std::to_string(i) + "]", "NULL", "an index tuple is required");
    out.push_back(patch(function, a, s, s, "subscript", "subscript").lo);
  }
  return out;
}

enum class ListOp { Gather, Scatter, ScatterAcc };

/// GA's scatter takes repeated subscripts (an element then receives one of its values); arrays'
/// scatter refuses them. Keeps the last occurrence of each element, with its value: the result
/// a sequential loop of puts would leave. Returns false (nothing to change) when none repeats.
bool keep_last(const Array& a, std::vector<Coord>& subs, const void* values, std::vector<std::byte>& kept) {
  std::unordered_map<Index, std::size_t> last;  // linear index -> position of its last occurrence
  last.reserve(subs.size());
  for (std::size_t i = 0; i < subs.size(); ++i) {
    Index linear = 0;
    for (int d = 0; d < a.ndim(); ++d) linear = linear * a.dims()[d] + subs[i][d];
    last[linear] = i;
  }
  if (last.size() == subs.size()) return false;
  const std::size_t esize = a.element_size();
  std::vector<Coord> unique;
  unique.reserve(last.size());
  kept.resize(last.size() * esize);
  for (std::size_t i = 0; i < subs.size(); ++i) {
    Index linear = 0;
    for (int d = 0; d < a.ndim(); ++d) linear = linear * a.dims()[d] + subs[i][d];
    if (last[linear] != i) continue;
    std::memcpy(kept.data() + unique.size() * esize, static_cast<const std::byte*>(values) + i * esize, esize);
    unique.push_back(subs[i]);
  }
  subs = std::move(unique);
  return true;
}

template <class I, class Subscript>
void element_list(const char* function, ListOp op, int g_a, void* v, std::int64_t n, const void* alpha,
                  Subscript&& at) {
  guarded(function, [&] {
    Array& a = any_array(function, g_a);
    std::vector<Coord> subs = subscripts<I>(function, a, n, at);
    if (n > 0 && !v) bad_argument(function, "v", "NULL", "a buffer of n elements is required");
    if (op == ListOp::ScatterAcc && !alpha) bad_argument(function, "alpha", "NULL", "a scale factor is required");
    count_call(op == ListOp::Gather ? Stat::gather : Stat::scatter, subs.size() * a.element_size());
    switch (op) {
      case ListOp::Gather: a.gather(subs, v); break;
      case ListOp::Scatter: {
        std::vector<std::byte> kept;
        a.scatter(subs, keep_last(a, subs, v, kept) ? kept.data() : v);
        break;
      }
      case ListOp::ScatterAcc: a.scatter_acc(subs, v, alpha); break;
    }
  });
}

// Outstanding NGA_Access* calls per handle (handles are never reused).
std::unordered_map<int, long> g_accesses;

template <class I>
void access(const char* function, int g_a, const I* lo, const I* hi, void* ptr, I* ld) {
  guarded(function, [&] {
    Array& a = any_array(function, g_a);
    // GA's NGA_Access is for arrays of block distribution; a block-cyclic array's local data is
    // its blocks, which NGA_Access_block (_grid, _segment) give.
    if (a.distribution().cyclic())
      bad_argument(function, "g_a", std::to_string(g_a),
                   "is a block-cyclic array; " + std::string(function) + " takes arrays of block distribution "
                   "only, as GA's does (NGA_Access_block, _grid or _segment give a block-cyclic array's local blocks)");
    const arrays::Patch p = patch(function, a, lo, hi);
    if (!ptr) bad_argument(function, "ptr", "NULL", "the address of a pointer is required");
    const arrays::Patch mine = a.owned();
    for (int d = 0; d < a.ndim(); ++d)
      if (p.lo[d] < mine.lo[d] || p.hi[d] > mine.hi[d])
        bad_argument(function, "lo, hi", tuple_text(a.ndim(), p.lo.data()) + " .. " +
                                            tuple_text(a.ndim(), upper(a.ndim(), hi).data()),
                     "not inside this process's block (" + (mine.empty() ? std::string("it owns nothing") :
                                                            "lo " + tuple_text(a.ndim(), mine.lo.data()) +
                                                                ", hi " + tuple_text(a.ndim(), mine.hi.data()) +
                                                                " exclusive") + ")");
    const arrays::LocalView<void> v = ga_access(a, g_a, false);
    Index offset = 0;
    for (int d = 0; d < a.ndim(); ++d) offset += (p.lo[d] - v.lo[d]) * v.stride[d];
    *static_cast<void**>(ptr) = static_cast<char*>(v.data) + offset * static_cast<Index>(a.element_size());
    block_ld(v, ld);
  });
}

template <class I>
void release(const char* function, int g_a, const I* lo, const I* hi, bool update) {
  guarded(function, [&] {
    Array& a = array(function, g_a);
    patch(function, a, lo, hi);
    ga_release(a, g_a, update);
  });
}

/// GA's subscript lists: n pointers to tuples, or (flat) n tuples one after another.
template <class I>
auto pointers(I** subs) {
  return [subs](std::int64_t i, int) -> const I* { return subs ? subs[i] : nullptr; };
}
template <class I>
auto flat(I* subs) {
  return [subs](std::int64_t i, int nd) -> const I* { return subs ? subs + i * nd : nullptr; };
}

}  // namespace

arrays::LocalView<void> armada::ga::ga_access(Array& a, int g_a, bool ghosts) {
  arrays::LocalView<void> v = ghosts ? a.access_ghosts() : a.access();
  ++g_accesses[g_a];
  return v;
}
std::vector<arrays::LocalView<void>> armada::ga::ga_access_blocks(Array& a, int g_a) {
  std::vector<arrays::LocalView<void>> v = a.access_blocks();
  ++g_accesses[g_a];
  return v;
}
void armada::ga::ga_release(Array& a, int g_a, bool update) {
  const auto it = g_accesses.find(g_a);
  if (it == g_accesses.end() || it->second == 0) return;  // GA: nothing to end, nothing done
  --it->second;
  update ? a.release_update() : a.release();
}

extern "C" {

// NGA_Get, NGA_Put, NGA_Acc, their nonblocking forms (NGA_NbGet ...) and strided ones
// (NGA_Strided_get ...) for index type I, each name ending in `s` (nothing for int, 64 for int64_t).
#define ARMADA_GA_TRANSFERS(I, s)                                                                     \
  void NGA_Get##s(int g_a, I lo[], I hi[], void* buf, I ld[]) {                                       \
    transfer<I>("NGA_Get" #s, Transfer::get, g_a, lo, hi, buf, ld, nullptr);                          \
  }                                                                                                   \
  void NGA_Put##s(int g_a, I lo[], I hi[], void* buf, I ld[]) {                                       \
    transfer<I>("NGA_Put" #s, Transfer::put, g_a, lo, hi, buf, ld, nullptr);                          \
  }                                                                                                   \
  void NGA_Acc##s(int g_a, I lo[], I hi[], void* buf, I ld[], void* alpha) {                          \
    transfer<I>("NGA_Acc" #s, Transfer::acc, g_a, lo, hi, buf, ld, alpha);                            \
  }                                                                                                   \
  void NGA_NbGet##s(int g_a, I lo[], I hi[], void* buf, I ld[], ga_nbhdl_t* nbhandle) {               \
    nonblocking<I>("NGA_NbGet" #s, Transfer::get, g_a, lo, hi, buf, ld, nullptr, nbhandle);           \
  }                                                                                                   \
  void NGA_NbPut##s(int g_a, I lo[], I hi[], void* buf, I ld[], ga_nbhdl_t* nbhandle) {               \
    nonblocking<I>("NGA_NbPut" #s, Transfer::put, g_a, lo, hi, buf, ld, nullptr, nbhandle);           \
  }                                                                                                   \
  void NGA_NbAcc##s(int g_a, I lo[], I hi[], void* buf, I ld[], void* alpha, ga_nbhdl_t* nbhandle) {  \
    nonblocking<I>("NGA_NbAcc" #s, Transfer::acc, g_a, lo, hi, buf, ld, alpha, nbhandle);             \
  }                                                                                                   \
  void NGA_Strided_get##s(int g_a, I lo[], I hi[], I skip[], void* buf, I ld[]) {                     \
    strided<I>("NGA_Strided_get" #s, Transfer::get, g_a, lo, hi, skip, buf, ld, nullptr);             \
  }                                                                                                   \
  void NGA_Strided_put##s(int g_a, I lo[], I hi[], I skip[], void* buf, I ld[]) {                     \
    strided<I>("NGA_Strided_put" #s, Transfer::put, g_a, lo, hi, skip, buf, ld, nullptr);             \
  }                                                                                                   \
  void NGA_Strided_acc##s(int g_a, I lo[], I hi[], I skip[], void* buf, I ld[], void* alpha) {        \
    strided<I>("NGA_Strided_acc" #s, Transfer::acc, g_a, lo, hi, skip, buf, ld, alpha);               \
  }
ARMADA_GA_TRANSFERS(int, )
ARMADA_GA_TRANSFERS(int64_t, 64)
#undef ARMADA_GA_TRANSFERS

// A handle that is not outstanding (completed and waited already) returns at once, as in GA.
void NGA_NbWait(ga_nbhdl_t* nbhandle) {
  guarded("NGA_NbWait", [&] {
    if (!nbhandle) bad_argument("NGA_NbWait", "nbhandle", "NULL", "a request handle is required");
    arrays::NbHandle h;
    {
      std::lock_guard lock(g_nb_mutex);
      const auto it = g_nb.find(*nbhandle);
      if (it == g_nb.end()) return;
      h = std::move(it->second);
      g_nb.erase(it);
    }
    h.wait();
  });
}
int NGA_NbTest(ga_nbhdl_t* nbhandle) {
  return guarded("NGA_NbTest", [&] {
    if (!nbhandle) bad_argument("NGA_NbTest", "nbhandle", "NULL", "a request handle is required");
    // GA 5.8's NGA_NbTest returns 1 once the request is complete (and frees it, as
    // NGA_NbWait does) and 0 while it is outstanding (pnga_nbtest: !nga_test_internal; Debian's
    // GA 5.8.2 returns 1 for a completed get and for a handle already waited on).
    std::lock_guard lock(g_nb_mutex);
    const auto it = g_nb.find(*nbhandle);
    if (it == g_nb.end()) return 1;
    if (!it->second.test()) return 0;
    g_nb.erase(it);  // complete: its wait returns at once
    return 1;
  });
}

long NGA_Read_inc(int g_a, int subscript[], long inc) { return read_inc<int>("NGA_Read_inc", g_a, subscript, inc); }
long NGA_Read_inc64(int g_a, int64_t subscript[], long inc) {
  return read_inc<int64_t>("NGA_Read_inc64", g_a, subscript, inc);
}

void NGA_Scatter(int g_a, void* v, int* subsArray[], int n) {
  element_list<int>("NGA_Scatter", ListOp::Scatter, g_a, v, n, nullptr,
               pointers(subsArray));
}
void NGA_Scatter_acc(int g_a, void* v, int* subsArray[], int n, void* alpha) {
  element_list<int>("NGA_Scatter_acc", ListOp::ScatterAcc, g_a, v, n, alpha,
               pointers(subsArray));
}
void NGA_Gather(int g_a, void* v, int* subsArray[], int n) {
  element_list<int>("NGA_Gather", ListOp::Gather, g_a, v, n, nullptr,
               pointers(subsArray));
}
void NGA_Scatter_flat(int g_a, void* v, int subsArray[], int n) {
  element_list<int>("NGA_Scatter_flat", ListOp::Scatter, g_a, v, n, nullptr,
               flat(subsArray));
}
void NGA_Scatter_acc_flat(int g_a, void* v, int subsArray[], int n, void* alpha) {
  element_list<int>("NGA_Scatter_acc_flat", ListOp::ScatterAcc, g_a, v, n, alpha,
               flat(subsArray));
}
void NGA_Gather_flat(int g_a, void* v, int subsArray[], int n) {
  element_list<int>("NGA_Gather_flat", ListOp::Gather, g_a, v, n, nullptr,
               flat(subsArray));
}

void NGA_Scatter64(int g_a, void* v, int64_t* subsArray[], int64_t n) {
  element_list<int64_t>("NGA_Scatter64", ListOp::Scatter, g_a, v, n, nullptr, pointers(subsArray));
}
void NGA_Scatter_acc64(int g_a, void* v, int64_t* subsArray[], int64_t n, void* alpha) {
  element_list<int64_t>("NGA_Scatter_acc64", ListOp::ScatterAcc, g_a, v, n, alpha, pointers(subsArray));
}
void NGA_Gather64(int g_a, void* v, int64_t* subsArray[], int64_t n) {
  element_list<int64_t>("NGA_Gather64", ListOp::Gather, g_a, v, n, nullptr, pointers(subsArray));
}
void NGA_Scatter_flat64(int g_a, void* v, int64_t subsArray[], int64_t n) {
  element_list<int64_t>("NGA_Scatter_flat64", ListOp::Scatter, g_a, v, n, nullptr, flat(subsArray));
}
void NGA_Scatter_acc_flat64(int g_a, void* v, int64_t subsArray[], int64_t n, void* alpha) {
  element_list<int64_t>("NGA_Scatter_acc_flat64", ListOp::ScatterAcc, g_a, v, n, alpha, flat(subsArray));
}
void NGA_Gather_flat64(int g_a, void* v, int64_t subsArray[], int64_t n) {
  element_list<int64_t>("NGA_Gather_flat64", ListOp::Gather, g_a, v, n, nullptr, flat(subsArray));
}

// ---- local access -------------------------------------------------------------------------------

void NGA_Access(int g_a, int lo[], int hi[], void* ptr, int ld[]) { access<int>("NGA_Access", g_a, lo, hi, ptr, ld); }
void NGA_Access64(int g_a, int64_t lo[], int64_t hi[], void* ptr, int64_t ld[]) {
  access<int64_t>("NGA_Access64", g_a, lo, hi, ptr, ld);
}
void NGA_Release(int g_a, int lo[], int hi[]) { release<int>("NGA_Release", g_a, lo, hi, false); }
void NGA_Release_update(int g_a, int lo[], int hi[]) { release<int>("NGA_Release_update", g_a, lo, hi, true); }
void NGA_Release64(int g_a, int64_t lo[], int64_t hi[]) { release<int64_t>("NGA_Release64", g_a, lo, hi, false); }
void NGA_Release_update64(int g_a, int64_t lo[], int64_t hi[]) {
  release<int64_t>("NGA_Release_update64", g_a, lo, hi, true);
}
}  // extern "C"
