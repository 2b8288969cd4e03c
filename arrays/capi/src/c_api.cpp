// The C API's arrays: creation, inquiry, patch operations, element lists and local access, each
// in the C view (armada_ga_*) and the Fortran view (armada_gaf_*). Integer handles are
// Array::id(); exceptions become codes and a per-thread message.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "capi_internal.hpp"

namespace arrays = armada::arrays;
namespace capi = armada::arrays::capi;
namespace rma = armada::rma;
using arrays::Array;
using arrays::Coord;
using capi::Convention;
using capi::need;

// ---- shared pieces (capi_internal.hpp) ---------------------------------------------------------
namespace armada::arrays::capi {
namespace {
thread_local std::string g_message;

Coord reversed(Coord c) {
  std::reverse(c.data(), c.data() + c.size());
  return c;
}
Coord read(const int64_t* p, int n) { return Coord(std::span<const Index>(p, static_cast<std::size_t>(n))); }
}  // namespace

int current_error_code(const char* fn) {
  const int code = error_codes[rma::current_error_kind()];
  const bool fortran = std::string(fn).starts_with("armada_gaf_");
  try {
    throw;
  } catch (const FortranViewError& e) {  // already in the Fortran caller's terms
    g_message = e.what() + std::string(" (in ") + fn + ")";
  } catch (const rma::Error& e) {
    g_message = e.what() + std::string(" (in ") + fn +
                (fortran ? "; values as in the C view: zero-based, dimensions reversed)" : ")");
  } catch (const std::exception& e) {
    g_message = std::string(fn) + ": " + e.what();
  } catch (...) {
    g_message = std::string(fn) + ": an unknown exception";
  }
  return code;
}

int check_ndim(const char* fn, int ndim) {
  if (ndim < 1 || ndim > max_ndim)
    throw rma::InvalidArgument(fn, "ndim", std::to_string(ndim), "an array has 1 to 7 dimensions");
  return ndim;
}

ElemType elem_type(int type, const char* fn) {
  if (type < ARMADA_GA_INT || type > ARMADA_GA_DCOMPLEX)
    throw rma::InvalidArgument(fn, "type", std::to_string(type), "is not an ARMADA_GA_* element type",
                               rma::ErrorKind::type);
  return static_cast<ElemType>(type);
}

Coord Convention::index(const int64_t* p, int n, const char* fn, const char* arg) const {
  need(p, fn, arg);
  if (!fortran) return read(p, n);
  Coord c = reversed(read(p, n));
  for (int d = 0; d < n; ++d) c[d] -= 1;
  return c;
}
Coord Convention::tuple(const int64_t* p, int n, const char* fn, const char* arg) const {
  need(p, fn, arg);
  return fortran ? reversed(read(p, n)) : read(p, n);
}
Coord Convention::optional(const int64_t* p, int n) const {
  if (!p) return {};
  return fortran ? reversed(read(p, n)) : read(p, n);
}
Coord Convention::ld(const Array& a, const int64_t* p) const {
  return a.ndim() > 1 ? optional(p, a.ndim() - 1) : Coord{};
}
void Convention::out_index(const Coord& c, int64_t* out) const {
  const int n = c.size();
  for (int d = 0; d < n; ++d) out[d] = fortran ? c[n - 1 - d] + 1 : c[d];
}
void Convention::out_tuple(const Coord& c, int64_t* out) const {
  const int n = c.size();
  for (int d = 0; d < n; ++d) out[d] = fortran ? c[n - 1 - d] : c[d];
}

// ---- the Fortran view's own checks -------------------------------------------------------------
namespace {

// "[4, 6]": a tuple as the caller passed it.
std::string as_passed(const int64_t* p, int n) { return read(p, n).str(); }

}  // namespace

// "array 'A' (real(8), dims [4, 6])": the array as a Fortran program declares it.
std::string fortran_described(const Array& a) {
  return "array '" + a.name() + "' (" + armada_gaf_type_name(static_cast<int>(a.type())) + ", dims " +
         reversed(a.dims()).str() + ")";
}

void Convention::check_patch(const char* fn, const Array& a, const int64_t* lo, const int64_t* hi, const int64_t* ld,
                             const char* lo_name, const char* hi_name) const {
  if (!fortran) return;
  need(lo, fn, lo_name);
  need(hi, fn, hi_name);
  const int n = a.ndim();
  const Coord dims = reversed(a.dims());
  const std::string patch = " (patch " + std::string(lo_name) + " = " + as_passed(lo, n) + ", " + hi_name + " = " +
                            as_passed(hi, n) + "; one-based, inclusive)";
  const auto fail = [&](const char* arg, const int64_t* value, int count, const std::string& why) {
    throw FortranViewError(fn, arg, as_passed(value, count), fortran_described(a) + ": " + why + patch);
  };
  const auto at = [](const char* name, int i) { return std::string(name) + "(" + std::to_string(i + 1) + ")"; };
  for (int i = 0; i < n; ++i) {
    if (lo[i] < 1) fail(lo_name, lo, n, at(lo_name, i) + " = " + std::to_string(lo[i]) + " is below 1");
    if (lo[i] > dims[i] + 1)
      fail(lo_name, lo, n, at(lo_name, i) + " = " + std::to_string(lo[i]) + " is past dims(" + std::to_string(i + 1) +
                               ") = " + std::to_string(dims[i]));
  }
  for (int i = 0; i < n; ++i) {
    if (hi[i] < lo[i] - 1)
      fail(hi_name, hi, n, at(hi_name, i) + " = " + std::to_string(hi[i]) + " is below " + at(lo_name, i) + " = " +
                               std::to_string(lo[i]) + " (an empty patch has hi = lo - 1)");
    if (hi[i] > dims[i])
      fail(hi_name, hi, n, at(hi_name, i) + " = " + std::to_string(hi[i]) + " is past dims(" + std::to_string(i + 1) +
                               ") = " + std::to_string(dims[i]));
  }
  if (!ld || n < 2) return;
  for (int i = 0; i + 1 < n; ++i)
    if (ld[i] < hi[i] - lo[i] + 1)
      fail("ld", ld, n - 1, at("ld", i) + " = " + std::to_string(ld[i]) + " is less than the patch's extent " +
                                std::to_string(hi[i] - lo[i] + 1) + " in dimension " + std::to_string(i + 1));
}

// ---- nonblocking requests --------------------------------------------------------------------
namespace {
struct Requests {
  std::mutex mutex;
  std::map<int, NbHandle> pending;
  int next = 1;
};
Requests& requests() {
  static Requests r;
  return r;
}
}  // namespace

int store_request(NbHandle h) {
  auto& r = requests();
  std::lock_guard lock(r.mutex);
  const int id = r.next++;
  r.pending.emplace(id, std::move(h));
  return id;
}

void forget_requests() {
  auto& r = requests();
  std::lock_guard lock(r.mutex);
  r.pending.clear();  // each waits as it goes
}

}  // namespace armada::arrays::capi

// ---- the entry points, each once for both views ------------------------------------------------
namespace {
namespace impl {

// Creation: every option; the simpler creators pass NULLs.
int create_full(const Convention& cv, const char* fn, int type, int ndim, const int64_t* dims, const char* name,
                const int64_t* grid, const int64_t* chunk, const int64_t* nblock, const int64_t* map,
                const int64_t* width, int group, int* handle) {
  return capi::collective_guard_group(fn, capi::group_waiting_in(group), [&] {
    need(handle, fn, "handle");
    const int n = capi::check_ndim(fn, ndim);
    const arrays::ElemType t = capi::elem_type(type, fn);
    const Coord cdims = cv.tuple(dims, n, fn, "dims");
    arrays::ArrayOptions o;
    if (name) o.name = name;
    o.grid = cv.optional(grid, n);
    o.chunk = cv.optional(chunk, n);
    o.ghosts = cv.optional(width, n);
    if (nblock || map) {
      need(nblock, fn, "nblock");
      need(map, fn, "map");
      std::size_t k = 0;
      for (int d = 0; d < n; ++d) {
        if (nblock[d] < 1)
          throw rma::InvalidArgument(fn, "nblock", std::to_string(nblock[d]), "every dimension needs at least one block");
        std::vector<arrays::Index> starts(map + k, map + k + nblock[d]);
        if (cv.fortran)
          for (auto& s : starts) s -= 1;
        o.block_starts.push_back(std::move(starts));
        k += static_cast<std::size_t>(nblock[d]);
      }
      if (cv.fortran) std::reverse(o.block_starts.begin(), o.block_starts.end());
    }
    if (group != ARMADA_GA_GROUP_WORLD) o.group = capi::group_of(group, fn);
    *handle = Array::create(t, cdims, o).id();
  });
}
int create(const Convention& cv, const char* fn, int type, int ndim, const int64_t* dims, const char* name,
           const int64_t* chunk, int* handle) {
  return create_full(cv, fn, type, ndim, dims, name, nullptr, chunk, nullptr, nullptr, nullptr, ARMADA_GA_GROUP_WORLD,
                     handle);
}
int create_irreg(const Convention& cv, const char* fn, int type, int ndim, const int64_t* dims, const char* name,
                 const int64_t* nblock, const int64_t* map, int* handle) {
  if (!nblock || !map)  // the full form takes both as optional; here they are the point
    return capi::collective_guard_group(fn, capi::group_waiting_in(ARMADA_GA_GROUP_WORLD), [&] { need(nblock, fn, "nblock"); need(map, fn, "map"); });
  return create_full(cv, fn, type, ndim, dims, name, nullptr, nullptr, nblock, map, nullptr, ARMADA_GA_GROUP_WORLD,
                     handle);
}
int create_ghosts(const Convention& cv, const char* fn, int type, int ndim, const int64_t* dims,
                  const int64_t* width, const char* name, const int64_t* chunk, int* handle) {
  if (!width) return capi::collective_guard_group(fn, capi::group_waiting_in(ARMADA_GA_GROUP_WORLD), [&] { need(width, fn, "width"); });
  return create_full(cv, fn, type, ndim, dims, name, nullptr, chunk, nullptr, nullptr, width, ARMADA_GA_GROUP_WORLD,
                     handle);
}

int inquire(const Convention& cv, const char* fn, int handle, int* type, int* ndim, int64_t* dims) {
  return capi::guard(fn, [&] {
    const Array a = capi::arr(handle, fn);
    if (type) *type = static_cast<int>(a.type());
    if (ndim) *ndim = a.ndim();
    if (dims) cv.out_tuple(a.dims(), dims);
  });
}
int ghosts(const Convention& cv, const char* fn, int handle, int64_t* width) {
  return capi::guard(fn, [&] {
    need(width, fn, "width");
    cv.out_tuple(capi::arr(handle, fn).ghosts(), width);
  });
}
int grid(const Convention& cv, const char* fn, int handle, int64_t* grid) {
  return capi::guard(fn, [&] {
    need(grid, fn, "grid");
    cv.out_tuple(capi::arr(handle, fn).distribution().grid(), grid);
  });
}
int distribution(const Convention& cv, const char* fn, int handle, int rank, int64_t* lo, int64_t* hi) {
  return capi::guard(fn, [&] {
    need(lo, fn, "lo");
    need(hi, fn, "hi");
    const arrays::Patch p = capi::arr(handle, fn).owned(rank);
    cv.out_index(p.lo, lo);
    cv.out_tuple(p.hi, hi);
  });
}
int locate(const Convention& cv, const char* fn, int handle, const int64_t* index, int* rank) {
  return capi::guard(fn, [&] {
    need(rank, fn, "rank");
    const Array a = capi::arr(handle, fn);
    *rank = a.locate(cv.index(index, a.ndim(), fn, "index"));
  });
}
int locate_region(const Convention& cv, const char* fn, int handle, const int64_t* lo, const int64_t* hi, int max,
                  int* ranks, int64_t* los, int64_t* his, int* count) {
  return capi::guard(fn, [&] {
    need(count, fn, "count");
    if (max < 0) throw rma::InvalidArgument(fn, "max", std::to_string(max), "must not be negative");
    const Array a = capi::arr(handle, fn);
    const int n = a.ndim();
    const auto owners = a.locate_region(cv.index(lo, n, fn, "lo"), cv.tuple(hi, n, fn, "hi"));
    *count = static_cast<int>(owners.size());
    for (int i = 0; i < std::min<int>(max, *count); ++i) {
      const auto& o = owners[static_cast<std::size_t>(i)];
      if (ranks) ranks[i] = o.rank;
      if (los) cv.out_index(o.patch.lo, los + static_cast<std::ptrdiff_t>(i) * n);
      if (his) cv.out_tuple(o.patch.hi, his + static_cast<std::ptrdiff_t>(i) * n);
    }
  });
}

// A patch operation's arguments in the C++ API's terms. The Fortran view checks them in its
// caller's terms first: a dense patch and its ld; a strided one without its ld (which counts
// selected elements, arrays checks it); a periodic one not at all (it may reach past the array).
enum class Shape { dense, strided, periodic };
struct PatchArgs {
  Array a;
  Coord lo, hi, ld;
  PatchArgs(const Convention& cv, const char* fn, int handle, const int64_t* l, const int64_t* h, const int64_t* ldp,
            Shape shape = Shape::dense)
      : a(capi::arr(handle, fn)),
        lo(cv.index(l, a.ndim(), fn, "lo")),
        hi(cv.tuple(h, a.ndim(), fn, "hi")),
        ld(cv.ld(a, ldp)) {
    if (shape != Shape::periodic) cv.check_patch(fn, a, l, h, shape == Shape::dense ? ldp : nullptr);
  }
};

int get(const Convention& cv, const char* fn, int handle, const int64_t* lo, const int64_t* hi, void* buf,
        const int64_t* ld) {
  return capi::guard(fn, [&] { PatchArgs p(cv, fn, handle, lo, hi, ld); p.a.get(p.lo, p.hi, buf, p.ld); });
}
int put(const Convention& cv, const char* fn, int handle, const int64_t* lo, const int64_t* hi, const void* buf,
        const int64_t* ld) {
  return capi::guard(fn, [&] { PatchArgs p(cv, fn, handle, lo, hi, ld); p.a.put(p.lo, p.hi, buf, p.ld); });
}
int acc(const Convention& cv, const char* fn, int handle, const int64_t* lo, const int64_t* hi, const void* buf,
        const int64_t* ld, const void* alpha) {
  return capi::guard(fn, [&] {
    need(alpha, fn, "alpha");
    PatchArgs p(cv, fn, handle, lo, hi, ld);
    p.a.acc(p.lo, p.hi, buf, alpha, p.ld);
  });
}
int nbget(const Convention& cv, const char* fn, int handle, const int64_t* lo, const int64_t* hi, void* buf,
          const int64_t* ld, int* request) {
  return capi::guard(fn, [&] {
    need(request, fn, "request");
    PatchArgs p(cv, fn, handle, lo, hi, ld);
    *request = capi::store_request(p.a.get_nb(p.lo, p.hi, buf, p.ld));
  });
}
int nbput(const Convention& cv, const char* fn, int handle, const int64_t* lo, const int64_t* hi, const void* buf,
          const int64_t* ld, int* request) {
  return capi::guard(fn, [&] {
    need(request, fn, "request");
    PatchArgs p(cv, fn, handle, lo, hi, ld);
    *request = capi::store_request(p.a.put_nb(p.lo, p.hi, buf, p.ld));
  });
}
int nbacc(const Convention& cv, const char* fn, int handle, const int64_t* lo, const int64_t* hi, const void* buf,
          const int64_t* ld, const void* alpha, int* request) {
  return capi::guard(fn, [&] {
    need(request, fn, "request");
    need(alpha, fn, "alpha");
    PatchArgs p(cv, fn, handle, lo, hi, ld);
    *request = capi::store_request(p.a.acc_nb(p.lo, p.hi, buf, alpha, p.ld));
  });
}
int strided_get(const Convention& cv, const char* fn, int handle, const int64_t* lo, const int64_t* hi,
                const int64_t* skip, void* buf, const int64_t* ld) {
  return capi::guard(fn, [&] {
    PatchArgs p(cv, fn, handle, lo, hi, ld, Shape::strided);
    p.a.get_strided(p.lo, p.hi, cv.tuple(skip, p.a.ndim(), fn, "skip"), buf, p.ld);
  });
}
int strided_put(const Convention& cv, const char* fn, int handle, const int64_t* lo, const int64_t* hi,
                const int64_t* skip, const void* buf, const int64_t* ld) {
  return capi::guard(fn, [&] {
    PatchArgs p(cv, fn, handle, lo, hi, ld, Shape::strided);
    p.a.put_strided(p.lo, p.hi, cv.tuple(skip, p.a.ndim(), fn, "skip"), buf, p.ld);
  });
}
int strided_acc(const Convention& cv, const char* fn, int handle, const int64_t* lo, const int64_t* hi,
                const int64_t* skip, const void* buf, const int64_t* ld, const void* alpha) {
  return capi::guard(fn, [&] {
    need(alpha, fn, "alpha");
    PatchArgs p(cv, fn, handle, lo, hi, ld, Shape::strided);
    p.a.acc_strided(p.lo, p.hi, cv.tuple(skip, p.a.ndim(), fn, "skip"), buf, alpha, p.ld);
  });
}
int periodic_get(const Convention& cv, const char* fn, int handle, const int64_t* lo, const int64_t* hi, void* buf,
                 const int64_t* ld) {
  return capi::guard(fn, [&] { PatchArgs p(cv, fn, handle, lo, hi, ld, Shape::periodic); p.a.periodic_get(p.lo, p.hi, buf, p.ld); });
}
int periodic_put(const Convention& cv, const char* fn, int handle, const int64_t* lo, const int64_t* hi,
                 const void* buf, const int64_t* ld) {
  return capi::guard(fn, [&] { PatchArgs p(cv, fn, handle, lo, hi, ld, Shape::periodic); p.a.periodic_put(p.lo, p.hi, buf, p.ld); });
}
int periodic_acc(const Convention& cv, const char* fn, int handle, const int64_t* lo, const int64_t* hi,
                 const void* buf, const int64_t* ld, const void* alpha) {
  return capi::guard(fn, [&] {
    need(alpha, fn, "alpha");
    PatchArgs p(cv, fn, handle, lo, hi, ld, Shape::periodic);
    p.a.periodic_acc(p.lo, p.hi, buf, alpha, p.ld);
  });
}

std::vector<Coord> subscripts_of(const Convention& cv, const Array& a, int64_t n, const int64_t* subs, const char* fn) {
  if (n < 0) throw rma::InvalidArgument(fn, "n", std::to_string(n), "must not be negative");
  // Bounded before anything is allocated: the caller claims to hold n subscripts of ndim 8-byte
  // indices; more than the machine's memory cannot be true.
  const auto memory = static_cast<int64_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<int64_t>(sysconf(_SC_PAGESIZE));
  const int64_t most = memory / static_cast<int64_t>(sizeof(int64_t)) / a.ndim();
  if (n > most)
    throw rma::InvalidArgument(fn, "n", std::to_string(n),
                               "more subscripts than this machine's memory holds (" + std::to_string(memory) +
                                   " bytes: at most " + std::to_string(most) + " of " + std::to_string(a.ndim()) +
                                   " indices)");
  if (n > 0) need(subs, fn, "subscripts");
  std::vector<Coord> v(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = cv.index(subs + i * a.ndim(), a.ndim(), fn, "subscripts");
  return v;
}
int gather(const Convention& cv, const char* fn, int handle, int64_t n, const int64_t* subscripts, void* values) {
  return capi::guard(fn, [&] {
    const Array a = capi::arr(handle, fn);
    a.gather(subscripts_of(cv, a, n, subscripts, fn), values);
  });
}
int scatter(const Convention& cv, const char* fn, int handle, int64_t n, const int64_t* subscripts, const void* values) {
  return capi::guard(fn, [&] {
    Array a = capi::arr(handle, fn);
    a.scatter(subscripts_of(cv, a, n, subscripts, fn), values);
  });
}
int scatter_acc(const Convention& cv, const char* fn, int handle, int64_t n, const int64_t* subscripts,
                const void* values, const void* alpha) {
  return capi::guard(fn, [&] {
    need(alpha, fn, "alpha");
    Array a = capi::arr(handle, fn);
    a.scatter_acc(subscripts_of(cv, a, n, subscripts, fn), values, alpha);
  });
}
int read_inc(const Convention& cv, const char* fn, int handle, const int64_t* index, long increment, long* old_value) {
  return capi::guard(fn, [&] {
    need(old_value, fn, "old_value");
    Array a = capi::arr(handle, fn);
    *old_value = a.read_inc(cv.index(index, a.ndim(), fn, "index"), increment);
  });
}

// Local access: the view's bounds and strides in the caller's convention.
template <class Access>
int view(const Convention& cv, const char* fn, int handle, void** ptr, int64_t* lo, int64_t* hi, int64_t* strides,
         Access access) {
  return capi::guard(fn, [&] {
    need(ptr, fn, "ptr");
    need(lo, fn, "lo");
    need(hi, fn, "hi");
    need(strides, fn, "strides");
    Array a = capi::arr(handle, fn);
    const arrays::LocalView<void> v = access(a);
    *ptr = v.data;
    cv.out_index(v.lo, lo);
    cv.out_tuple(v.hi, hi);
    cv.out_tuple(v.stride, strides);
  });
}
int access(const Convention& cv, const char* fn, int handle, void** ptr, int64_t* lo, int64_t* hi, int64_t* strides) {
  return view(cv, fn, handle, ptr, lo, hi, strides, [](Array& a) { return a.access(); });
}
int access_ghosts(const Convention& cv, const char* fn, int handle, void** ptr, int64_t* lo, int64_t* hi,
                  int64_t* strides) {
  return view(cv, fn, handle, ptr, lo, hi, strides, [](Array& a) { return a.access_ghosts(); });
}

}  // namespace impl
}  // namespace

extern "C" {

const char* armada_ga_error_message(void) { return armada::arrays::capi::g_message.c_str(); }

const char* armada_gaf_type_name(int type) {
  // ARMADA_GA_* order.
  static constexpr const char* names[] = {"integer(4)", "integer(8)", "real(4)", "real(8)", "complex(4)", "complex(8)"};
  return type >= 0 && type < static_cast<int>(std::size(names)) ? names[type] : "an unknown type";
}

int armada_gaf_check_patch(int handle, const int64_t lo[], const int64_t hi[], const int64_t ld[]) {
  constexpr const char* fn = "armada_gaf_check_patch";
  namespace capi = armada::arrays::capi;
  return capi::guard(fn, [&] { capi::fortran_view.check_patch(fn, capi::arr(handle, fn), lo, hi, ld); });
}

void armada_gaf_describe(int handle, char* out, size_t size) {
  if (!out || size == 0) return;
  std::string text;
  try {
    text = armada::arrays::capi::fortran_described(armada::arrays::find_array(handle, "armada_gaf_describe"));
  } catch (...) {  // no live array: nothing to describe
  }
  std::snprintf(out, size, "%s", text.c_str());
}

ARMADA_GA_BOTH_VIEWS(create, (int type, int ndim, const int64_t dims[], const char* name, const int64_t chunk[], int* handle),
                     type, ndim, dims, name, chunk, handle)
ARMADA_GA_BOTH_VIEWS(create_irreg,
                     (int type, int ndim, const int64_t dims[], const char* name, const int64_t nblock[],
                      const int64_t map[], int* handle),
                     type, ndim, dims, name, nblock, map, handle)
ARMADA_GA_BOTH_VIEWS(create_ghosts,
                     (int type, int ndim, const int64_t dims[], const int64_t width[], const char* name,
                      const int64_t chunk[], int* handle),
                     type, ndim, dims, width, name, chunk, handle)
ARMADA_GA_BOTH_VIEWS(create_full,
                     (int type, int ndim, const int64_t dims[], const char* name, const int64_t grid[],
                      const int64_t chunk[], const int64_t nblock[], const int64_t map[], const int64_t width[],
                      int group, int* handle),
                     type, ndim, dims, name, grid, chunk, nblock, map, width, group, handle)
ARMADA_GA_BOTH_VIEWS(inquire, (int handle, int* type, int* ndim, int64_t dims[]), handle, type, ndim, dims)
ARMADA_GA_BOTH_VIEWS(ghosts, (int handle, int64_t width[]), handle, width)
ARMADA_GA_BOTH_VIEWS(grid, (int handle, int64_t grid[]), handle, grid)
ARMADA_GA_BOTH_VIEWS(distribution, (int handle, int rank, int64_t lo[], int64_t hi[]), handle, rank, lo, hi)
ARMADA_GA_BOTH_VIEWS(locate, (int handle, const int64_t index[], int* rank), handle, index, rank)
ARMADA_GA_BOTH_VIEWS(locate_region,
                     (int handle, const int64_t lo[], const int64_t hi[], int max, int ranks[], int64_t los[],
                      int64_t his[], int* count),
                     handle, lo, hi, max, ranks, los, his, count)
ARMADA_GA_BOTH_VIEWS(get, (int handle, const int64_t lo[], const int64_t hi[], void* buf, const int64_t ld[]),
                     handle, lo, hi, buf, ld)
ARMADA_GA_BOTH_VIEWS(put, (int handle, const int64_t lo[], const int64_t hi[], const void* buf, const int64_t ld[]),
                     handle, lo, hi, buf, ld)
ARMADA_GA_BOTH_VIEWS(acc,
                     (int handle, const int64_t lo[], const int64_t hi[], const void* buf, const int64_t ld[],
                      const void* alpha),
                     handle, lo, hi, buf, ld, alpha)
ARMADA_GA_BOTH_VIEWS(nbget,
                     (int handle, const int64_t lo[], const int64_t hi[], void* buf, const int64_t ld[], int* request),
                     handle, lo, hi, buf, ld, request)
ARMADA_GA_BOTH_VIEWS(nbput,
                     (int handle, const int64_t lo[], const int64_t hi[], const void* buf, const int64_t ld[],
                      int* request),
                     handle, lo, hi, buf, ld, request)
ARMADA_GA_BOTH_VIEWS(nbacc,
                     (int handle, const int64_t lo[], const int64_t hi[], const void* buf, const int64_t ld[],
                      const void* alpha, int* request),
                     handle, lo, hi, buf, ld, alpha, request)
ARMADA_GA_BOTH_VIEWS(strided_get,
                     (int handle, const int64_t lo[], const int64_t hi[], const int64_t skip[], void* buf,
                      const int64_t ld[]),
                     handle, lo, hi, skip, buf, ld)
ARMADA_GA_BOTH_VIEWS(strided_put,
                     (int handle, const int64_t lo[], const int64_t hi[], const int64_t skip[], const void* buf,
                      const int64_t ld[]),
                     handle, lo, hi, skip, buf, ld)
ARMADA_GA_BOTH_VIEWS(strided_acc,
                     (int handle, const int64_t lo[], const int64_t hi[], const int64_t skip[], const void* buf,
                      const int64_t ld[], const void* alpha),
                     handle, lo, hi, skip, buf, ld, alpha)
ARMADA_GA_BOTH_VIEWS(periodic_get, (int handle, const int64_t lo[], const int64_t hi[], void* buf, const int64_t ld[]),
                     handle, lo, hi, buf, ld)
ARMADA_GA_BOTH_VIEWS(periodic_put,
                     (int handle, const int64_t lo[], const int64_t hi[], const void* buf, const int64_t ld[]),
                     handle, lo, hi, buf, ld)
ARMADA_GA_BOTH_VIEWS(periodic_acc,
                     (int handle, const int64_t lo[], const int64_t hi[], const void* buf, const int64_t ld[],
                      const void* alpha),
                     handle, lo, hi, buf, ld, alpha)
ARMADA_GA_BOTH_VIEWS(gather, (int handle, int64_t n, const int64_t subscripts[], void* values), handle, n, subscripts,
                     values)
ARMADA_GA_BOTH_VIEWS(scatter, (int handle, int64_t n, const int64_t subscripts[], const void* values), handle, n,
                     subscripts, values)
ARMADA_GA_BOTH_VIEWS(scatter_acc,
                     (int handle, int64_t n, const int64_t subscripts[], const void* values, const void* alpha),
                     handle, n, subscripts, values, alpha)
ARMADA_GA_BOTH_VIEWS(read_inc, (int handle, const int64_t index[], long increment, long* old_value), handle, index,
                     increment, old_value)
ARMADA_GA_BOTH_VIEWS(access, (int handle, void** ptr, int64_t lo[], int64_t hi[], int64_t strides[]), handle, ptr, lo,
                     hi, strides)
ARMADA_GA_BOTH_VIEWS(access_ghosts, (int handle, void** ptr, int64_t lo[], int64_t hi[], int64_t strides[]), handle,
                     ptr, lo, hi, strides)

// ---- convention-free entry points --------------------------------------------------------------
int armada_ga_duplicate(int handle, const char* name, int* new_handle) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::collective_guard(fn, handle, [&] {
    need(new_handle, fn, "new_handle");
    *new_handle = capi::arr(handle, fn).duplicate(name ? name : "").id();
  });
}
int armada_ga_destroy(int handle) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::collective_guard(fn, handle, [&] { capi::arr(handle, fn).destroy(); });
}
int armada_ga_valid(int handle, int* flag) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::guard(fn, [&] {
    need(flag, fn, "flag");
    const auto live = arrays::live_arrays();
    *flag = std::any_of(live.begin(), live.end(), [&](const Array& a) { return a.id() == handle; }) ? 1 : 0;
  });
}
int armada_ga_element_size(int handle, int64_t* bytes) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::guard(fn, [&] {
    need(bytes, fn, "bytes");
    *bytes = static_cast<int64_t>(capi::arr(handle, fn).element_size());
  });
}
int armada_ga_name(int handle, const char** name) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::guard(fn, [&] {
    need(name, fn, "name");
    *name = capi::arr(handle, fn).name().c_str();
  });
}
int armada_ga_set_name(int handle, const char* name) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::guard(fn, [&] {
    need(name, fn, "name");
    capi::arr(handle, fn).set_name(name);
  });
}
int armada_ga_group(int handle, int* group) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::guard(fn, [&] {
    need(group, fn, "group");
    *group = capi::group_handle(capi::arr(handle, fn).group());
  });
}
int armada_ga_nbwait(int request) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::guard(fn, [&] {
    arrays::NbHandle h;
    {
      auto& r = capi::requests();
      std::lock_guard lock(r.mutex);
      const auto it = r.pending.find(request);
      if (it == r.pending.end())
        throw capi::BadHandle(fn, "request", std::to_string(request), "no outstanding request has this number");
      h = std::move(it->second);
      r.pending.erase(it);
    }
    h.wait();
  });
}
int armada_ga_nbtest(int request, int* done) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::guard(fn, [&] {
    need(done, fn, "done");
    auto& r = capi::requests();
    std::lock_guard lock(r.mutex);
    const auto it = r.pending.find(request);
    if (it == r.pending.end())
      throw capi::BadHandle(fn, "request", std::to_string(request), "no outstanding request has this number");
    *done = it->second.test() ? 1 : 0;
  });
}
namespace {
// A patch's bounds from one view into the other: `names` are lo's, hi's, out_lo's and out_hi's.
int change_view(const char* fn, const capi::Convention& from, const capi::Convention& to, int ndim, const int64_t* lo,
                const int64_t* hi, int64_t* out_lo, int64_t* out_hi, const char* const (&names)[4]) {
  return capi::guard(fn, [&] {
    const int n = capi::check_ndim(fn, ndim);
    need(out_lo, fn, names[2]);
    need(out_hi, fn, names[3]);
    to.out_index(from.index(lo, n, fn, names[0]), out_lo);
    to.out_tuple(from.tuple(hi, n, fn, names[1]), out_hi);
  });
}
// Extents (a tuple, nothing for n = 0) from one view into the other.
int change_extents(const char* fn, const capi::Convention& from, const capi::Convention& to, int n, const int64_t* in,
                   int64_t* out, const char* in_name, const char* out_name) {
  return capi::guard(fn, [&] {
    if (n == 0) return;
    need(out, fn, out_name);
    to.out_tuple(from.tuple(in, capi::check_ndim(fn, n), fn, in_name), out);
  });
}
}  // namespace
int armada_gaf_to_c_patch(int ndim, const int64_t lo[], const int64_t hi[], int64_t clo[], int64_t chi[]) {
  static constexpr const char* names[] = {"lo", "hi", "clo", "chi"};
  return change_view(__func__, capi::fortran_view, capi::c_view, ndim, lo, hi, clo, chi, names);
}
int armada_gaf_from_c_patch(int ndim, const int64_t clo[], const int64_t chi[], int64_t lo[], int64_t hi[]) {
  static constexpr const char* names[] = {"clo", "chi", "lo", "hi"};
  return change_view(__func__, capi::c_view, capi::fortran_view, ndim, clo, chi, lo, hi, names);
}
int armada_gaf_to_c_extents(int n, const int64_t extents[], int64_t cextents[]) {
  return change_extents(__func__, capi::fortran_view, capi::c_view, n, extents, cextents, "extents", "cextents");
}
int armada_gaf_from_c_extents(int n, const int64_t cextents[], int64_t extents[]) {
  return change_extents(__func__, capi::c_view, capi::fortran_view, n, cextents, extents, "cextents", "extents");
}
int armada_ga_release(int handle) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::guard(fn, [&] { capi::arr(handle, fn).release(); });
}
int armada_ga_release_update(int handle) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::guard(fn, [&] { capi::arr(handle, fn).release_update(); });
}

}  // extern "C"
