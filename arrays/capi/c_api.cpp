// The C API: integer handles (Array::id()) over the C++ API; exceptions become codes and a
// per-thread message.
#include "armada/arrays/c_api.h"

#include <cstdio>
#include <iostream>
#include <map>
#include <mutex>
#include <string>

#include "armada/arrays/arrays.hpp"
#include "armada/rma/error.hpp"

namespace arrays = armada::arrays;
namespace rma = armada::rma;
using arrays::Array;
using arrays::Coord;

namespace {

thread_local std::string g_message;

// Outstanding nonblocking requests by number.
struct Requests {
  std::mutex mutex;
  std::map<int, arrays::NbHandle> pending;
  int next = 1;
};
Requests& requests() {
  static Requests r;
  return r;
}

template <class F>
int guard(const char* fn, F&& f) {
  try {
    f();
    return ARMADA_GA_OK;
  } catch (const rma::InvalidArgument& e) {
    g_message = std::string(e.what()) + " (in " + fn + ")";
    const std::string& arg = e.argument();
    if (arg == "array" || arg == "request") return ARMADA_GA_ERR_HANDLE;
    if (arg == "type" || arg == "element type" || arg == "array type") return ARMADA_GA_ERR_TYPE;
    return ARMADA_GA_ERR_ARG;
  } catch (const rma::StateError& e) {
    g_message = std::string(e.what()) + " (in " + fn + ")";
    return ARMADA_GA_ERR_STATE;
  } catch (const rma::SystemError& e) {
    g_message = std::string(e.what()) + " (in " + fn + ")";
    return ARMADA_GA_ERR_SYSTEM;
  } catch (const rma::Unsupported& e) {
    g_message = std::string(e.what()) + " (in " + fn + ")";
    return ARMADA_GA_ERR_UNSUPPORTED;
  } catch (const std::exception& e) {
    g_message = std::string(fn) + ": " + e.what();
    return ARMADA_GA_ERR_INTERNAL;
  }
}

#define GUARD(...) return guard(__func__, [&] { __VA_ARGS__; })

void need(const void* p, const char* fn, const char* arg) {
  if (!p) throw rma::InvalidArgument(fn, arg, "null", "must not be null");
}

int check_ndim(const char* fn, int ndim) {
  if (ndim < 1 || ndim > arrays::max_ndim)
    throw rma::InvalidArgument(fn, "ndim", std::to_string(ndim), "an array has 1 to 7 dimensions");
  return ndim;
}

Coord coord(const int64_t* p, int n, const char* fn, const char* arg) {
  need(p, fn, arg);
  return Coord(std::span<const arrays::Index>(p, static_cast<std::size_t>(n)));
}
Coord opt_coord(const int64_t* p, int n) {
  return p ? Coord(std::span<const arrays::Index>(p, static_cast<std::size_t>(n))) : Coord{};
}

Array arr(int handle, const char* fn) { return arrays::find_array(handle, fn); }

// ld has ndim - 1 entries (none for 1-D arrays).
Coord ld_of(const Array& a, const int64_t* ld) {
  return ld && a.ndim() > 1 ? Coord(std::span<const arrays::Index>(ld, static_cast<std::size_t>(a.ndim() - 1))) : Coord{};
}

arrays::ElemType type_of(int type, const char* fn) {
  if (type < ARMADA_GA_INT || type > ARMADA_GA_DCOMPLEX)
    throw rma::InvalidArgument(fn, "type", std::to_string(type), "is not an ARMADA_GA_* element type");
  return static_cast<arrays::ElemType>(type);
}

int store_request(arrays::NbHandle h) {
  auto& r = requests();
  std::lock_guard lock(r.mutex);
  const int id = r.next++;
  r.pending.emplace(id, std::move(h));
  return id;
}

void write_coord(const Coord& c, int64_t* out) {
  for (int d = 0; d < c.size(); ++d) out[d] = c[d];
}

void view_out(const arrays::LocalView<void>& v, void** ptr, int64_t* lo, int64_t* hi, int64_t* strides) {
  *ptr = v.data;
  write_coord(v.lo, lo);
  write_coord(v.hi, hi);
  write_coord(v.stride, strides);
}

}  // namespace

extern "C" {

const char* armada_ga_error_message(void) { return g_message.c_str(); }

int armada_ga_create(int type, int ndim, const int64_t dims[], const char* name, const int64_t chunk[], int* handle) {
  GUARD({
    need(handle, __func__, "handle");
    const int n = check_ndim(__func__, ndim);
    arrays::ArrayOptions o;
    if (name) o.name = name;
    o.chunk = opt_coord(chunk, n);
    *handle = Array::create(type_of(type, __func__), coord(dims, n, __func__, "dims"), o).id();
  });
}

int armada_ga_create_irreg(int type, int ndim, const int64_t dims[], const char* name, const int64_t nblock[],
                           const int64_t map[], int* handle) {
  GUARD({
    need(handle, __func__, "handle");
    const int n = check_ndim(__func__, ndim);
    need(nblock, __func__, "nblock");
    need(map, __func__, "map");
    arrays::ArrayOptions o;
    if (name) o.name = name;
    std::size_t k = 0;
    for (int d = 0; d < n; ++d) {
      if (nblock[d] < 1) throw rma::InvalidArgument(__func__, "nblock", std::to_string(nblock[d]), "every dimension needs at least one block");
      o.block_starts.emplace_back(map + k, map + k + nblock[d]);
      k += static_cast<std::size_t>(nblock[d]);
    }
    *handle = Array::create(type_of(type, __func__), coord(dims, n, __func__, "dims"), o).id();
  });
}

int armada_ga_create_ghosts(int type, int ndim, const int64_t dims[], const int64_t width[], const char* name,
                            const int64_t chunk[], int* handle) {
  GUARD({
    need(handle, __func__, "handle");
    const int n = check_ndim(__func__, ndim);
    arrays::ArrayOptions o;
    if (name) o.name = name;
    o.chunk = opt_coord(chunk, n);
    o.ghosts = coord(width, n, __func__, "width");
    *handle = Array::create(type_of(type, __func__), coord(dims, n, __func__, "dims"), o).id();
  });
}

int armada_ga_duplicate(int handle, const char* name, int* new_handle) {
  GUARD({
    need(new_handle, __func__, "new_handle");
    *new_handle = arr(handle, __func__).duplicate(name ? name : "").id();
  });
}

int armada_ga_destroy(int handle) { GUARD(arr(handle, __func__).destroy()); }

int armada_ga_inquire(int handle, int* type, int* ndim, int64_t dims[]) {
  GUARD({
    const Array a = arr(handle, __func__);
    if (type) *type = static_cast<int>(a.type());
    if (ndim) *ndim = a.ndim();
    if (dims) write_coord(a.dims(), dims);
  });
}

int armada_ga_name(int handle, const char** name) {
  GUARD({
    need(name, __func__, "name");
    *name = arr(handle, __func__).name().c_str();
  });
}

int armada_ga_distribution(int handle, int rank, int64_t lo[], int64_t hi[]) {
  GUARD({
    need(lo, __func__, "lo");
    need(hi, __func__, "hi");
    const arrays::Patch p = arr(handle, __func__).owned(rank);
    write_coord(p.lo, lo);
    write_coord(p.hi, hi);
  });
}

int armada_ga_locate(int handle, const int64_t index[], int* rank) {
  GUARD({
    need(rank, __func__, "rank");
    const Array a = arr(handle, __func__);
    *rank = a.locate(coord(index, a.ndim(), __func__, "index"));
  });
}

int armada_ga_locate_region(int handle, const int64_t lo[], const int64_t hi[], int max, int ranks[], int64_t los[],
                            int64_t his[], int* count) {
  GUARD({
    need(count, __func__, "count");
    const Array a = arr(handle, __func__);
    const int n = a.ndim();
    const auto owners = a.locate_region(coord(lo, n, __func__, "lo"), coord(hi, n, __func__, "hi"));
    *count = static_cast<int>(owners.size());
    for (int i = 0; i < std::min<int>(max, *count); ++i) {
      const auto& o = owners[static_cast<std::size_t>(i)];
      if (ranks) ranks[i] = o.rank;
      if (los) write_coord(o.patch.lo, los + static_cast<std::ptrdiff_t>(i) * n);
      if (his) write_coord(o.patch.hi, his + static_cast<std::ptrdiff_t>(i) * n);
    }
  });
}

#define PATCH_ARGS                                                                  \
  Array a = arr(handle, __func__);                                                  \
  const Coord clo = coord(lo, a.ndim(), __func__, "lo");                            \
  const Coord chi = coord(hi, a.ndim(), __func__, "hi");                            \
  const Coord cld = ld_of(a, ld);

int armada_ga_get(int handle, const int64_t lo[], const int64_t hi[], void* buf, const int64_t ld[]) {
  GUARD({ PATCH_ARGS a.get(clo, chi, buf, cld); });
}
int armada_ga_put(int handle, const int64_t lo[], const int64_t hi[], const void* buf, const int64_t ld[]) {
  GUARD({ PATCH_ARGS a.put(clo, chi, buf, cld); });
}
int armada_ga_acc(int handle, const int64_t lo[], const int64_t hi[], const void* buf, const int64_t ld[],
                  const void* alpha) {
  GUARD({ PATCH_ARGS a.acc(clo, chi, buf, alpha, cld); });
}
int armada_ga_nbget(int handle, const int64_t lo[], const int64_t hi[], void* buf, const int64_t ld[], int* request) {
  GUARD({
    need(request, __func__, "request");
    PATCH_ARGS *request = store_request(a.get_nb(clo, chi, buf, cld));
  });
}
int armada_ga_nbput(int handle, const int64_t lo[], const int64_t hi[], const void* buf, const int64_t ld[],
                    int* request) {
  GUARD({
    need(request, __func__, "request");
    PATCH_ARGS *request = store_request(a.put_nb(clo, chi, buf, cld));
  });
}
int armada_ga_nbacc(int handle, const int64_t lo[], const int64_t hi[], const void* buf, const int64_t ld[],
                    const void* alpha, int* request) {
  GUARD({
    need(request, __func__, "request");
    PATCH_ARGS *request = store_request(a.acc_nb(clo, chi, buf, alpha, cld));
  });
}
int armada_ga_nbwait(int request) {
  GUARD({
    arrays::NbHandle h;
    {
      auto& r = requests();
      std::lock_guard lock(r.mutex);
      const auto it = r.pending.find(request);
      if (it == r.pending.end())
        throw rma::InvalidArgument(__func__, "request", std::to_string(request), "no outstanding request has this number");
      h = std::move(it->second);
      r.pending.erase(it);
    }
    h.wait();
  });
}
int armada_ga_strided_get(int handle, const int64_t lo[], const int64_t hi[], const int64_t skip[], void* buf,
                          const int64_t ld[]) {
  GUARD({ PATCH_ARGS a.get_strided(clo, chi, coord(skip, a.ndim(), __func__, "skip"), buf, cld); });
}
int armada_ga_strided_put(int handle, const int64_t lo[], const int64_t hi[], const int64_t skip[], const void* buf,
                          const int64_t ld[]) {
  GUARD({ PATCH_ARGS a.put_strided(clo, chi, coord(skip, a.ndim(), __func__, "skip"), buf, cld); });
}
int armada_ga_strided_acc(int handle, const int64_t lo[], const int64_t hi[], const int64_t skip[], const void* buf,
                          const int64_t ld[], const void* alpha) {
  GUARD({ PATCH_ARGS a.acc_strided(clo, chi, coord(skip, a.ndim(), __func__, "skip"), buf, alpha, cld); });
}
int armada_ga_periodic_get(int handle, const int64_t lo[], const int64_t hi[], void* buf, const int64_t ld[]) {
  GUARD({ PATCH_ARGS a.periodic_get(clo, chi, buf, cld); });
}
int armada_ga_periodic_put(int handle, const int64_t lo[], const int64_t hi[], const void* buf, const int64_t ld[]) {
  GUARD({ PATCH_ARGS a.periodic_put(clo, chi, buf, cld); });
}
int armada_ga_periodic_acc(int handle, const int64_t lo[], const int64_t hi[], const void* buf, const int64_t ld[],
                           const void* alpha) {
  GUARD({ PATCH_ARGS a.periodic_acc(clo, chi, buf, alpha, cld); });
}
#undef PATCH_ARGS

namespace {
std::vector<Coord> subscripts_of(const Array& a, int64_t n, const int64_t* subs, const char* fn) {
  if (n < 0) throw rma::InvalidArgument(fn, "n", std::to_string(n), "must not be negative");
  if (n > 0) need(subs, fn, "subscripts");
  std::vector<Coord> v(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    v[static_cast<std::size_t>(i)] = Coord(std::span<const arrays::Index>(subs + i * a.ndim(), static_cast<std::size_t>(a.ndim())));
  return v;
}
}  // namespace

int armada_ga_gather(int handle, int64_t n, const int64_t subscripts[], void* values) {
  GUARD({
    const Array a = arr(handle, __func__);
    a.gather(subscripts_of(a, n, subscripts, __func__), values);
  });
}
int armada_ga_scatter(int handle, int64_t n, const int64_t subscripts[], const void* values) {
  GUARD({
    Array a = arr(handle, __func__);
    a.scatter(subscripts_of(a, n, subscripts, __func__), values);
  });
}
int armada_ga_scatter_acc(int handle, int64_t n, const int64_t subscripts[], const void* values, const void* alpha) {
  GUARD({
    Array a = arr(handle, __func__);
    a.scatter_acc(subscripts_of(a, n, subscripts, __func__), values, alpha);
  });
}
int armada_ga_read_inc(int handle, const int64_t index[], long increment, long* old_value) {
  GUARD({
    need(old_value, __func__, "old_value");
    Array a = arr(handle, __func__);
    *old_value = a.read_inc(coord(index, a.ndim(), __func__, "index"), increment);
  });
}

int armada_ga_access(int handle, void** ptr, int64_t lo[], int64_t hi[], int64_t strides[]) {
  GUARD({
    need(ptr, __func__, "ptr"); need(lo, __func__, "lo"); need(hi, __func__, "hi"); need(strides, __func__, "strides");
    view_out(arr(handle, __func__).access(), ptr, lo, hi, strides);
  });
}
int armada_ga_access_ghosts(int handle, void** ptr, int64_t lo[], int64_t hi[], int64_t strides[]) {
  GUARD({
    need(ptr, __func__, "ptr"); need(lo, __func__, "lo"); need(hi, __func__, "hi"); need(strides, __func__, "strides");
    view_out(arr(handle, __func__).access_ghosts(), ptr, lo, hi, strides);
  });
}
int armada_ga_release(int handle) { GUARD(arr(handle, __func__).release()); }
int armada_ga_release_update(int handle) { GUARD(arr(handle, __func__).release_update()); }

namespace {
Coord lo_of(const Array& a) { return arrays::full_lo(a); }
Coord hi_of(const Array& a) { return arrays::full_hi(a); }
}  // namespace

int armada_ga_fill(int handle, const void* value) {
  GUARD({ Array a = arr(handle, __func__); arrays::detail::unary_patch(arrays::detail::UnaryOp::Fill, a, lo_of(a), hi_of(a), value); });
}
int armada_ga_zero(int handle) {
  GUARD({
    Array a = arr(handle, __func__);
    const unsigned char zero[16] = {};
    arrays::detail::unary_patch(arrays::detail::UnaryOp::Fill, a, lo_of(a), hi_of(a), zero);
  });
}
int armada_ga_scale(int handle, const void* alpha) {
  GUARD({ Array a = arr(handle, __func__); arrays::detail::unary_patch(arrays::detail::UnaryOp::Scale, a, lo_of(a), hi_of(a), alpha); });
}
int armada_ga_add_constant(int handle, const void* alpha) {
  GUARD({ Array a = arr(handle, __func__); arrays::detail::unary_patch(arrays::detail::UnaryOp::AddConstant, a, lo_of(a), hi_of(a), alpha); });
}
int armada_ga_abs(int handle) {
  GUARD({ Array a = arr(handle, __func__); arrays::detail::unary_patch(arrays::detail::UnaryOp::Abs, a, lo_of(a), hi_of(a), nullptr); });
}
int armada_ga_reciprocal(int handle) {
  GUARD({ Array a = arr(handle, __func__); arrays::detail::unary_patch(arrays::detail::UnaryOp::Reciprocal, a, lo_of(a), hi_of(a), nullptr); });
}
int armada_ga_copy(int ha, int hb) {
  GUARD({
    const Array a = arr(ha, __func__);
    Array b = arr(hb, __func__);
    arrays::detail::copy_patch(a, lo_of(a), hi_of(a), b, lo_of(b), hi_of(b), false);
  });
}
int armada_ga_copy_patch(int ha, const int64_t alo[], const int64_t ahi[], int hb, const int64_t blo[],
                         const int64_t bhi[], int transpose) {
  GUARD({
    const Array a = arr(ha, __func__);
    Array b = arr(hb, __func__);
    arrays::detail::copy_patch(a, coord(alo, a.ndim(), __func__, "alo"), coord(ahi, a.ndim(), __func__, "ahi"), b,
                               coord(blo, b.ndim(), __func__, "blo"), coord(bhi, b.ndim(), __func__, "bhi"), transpose != 0);
  });
}
int armada_ga_add(const void* alpha, int ha, const void* beta, int hb, int hc) {
  GUARD({
    const Array a = arr(ha, __func__), b = arr(hb, __func__);
    Array c = arr(hc, __func__);
    arrays::detail::binary_patch(arrays::detail::BinaryOp::Add, alpha, a, lo_of(a), hi_of(a), beta, b, lo_of(b), hi_of(b), c,
                                 lo_of(c), hi_of(c));
  });
}
#define BINARY(fn, op)                                                                                   \
  int fn(int ha, int hb, int hc) {                                                                       \
    GUARD({                                                                                              \
      const Array a = arr(ha, __func__), b = arr(hb, __func__);                                          \
      Array c = arr(hc, __func__);                                                                       \
      arrays::detail::binary_patch(arrays::detail::BinaryOp::op, nullptr, a, lo_of(a), hi_of(a), nullptr, b, \
                                   lo_of(b), hi_of(b), c, lo_of(c), hi_of(c));                           \
    });                                                                                                  \
  }
BINARY(armada_ga_elem_multiply, Multiply)
BINARY(armada_ga_elem_divide, Divide)
BINARY(armada_ga_elem_max, Max)
BINARY(armada_ga_elem_min, Min)
#undef BINARY
int armada_ga_dot(int ha, int hb, void* result) {
  GUARD({
    need(result, __func__, "result");
    const Array a = arr(ha, __func__), b = arr(hb, __func__);
    arrays::detail::dot_patch(a, lo_of(a), hi_of(a), b, lo_of(b), hi_of(b), result);
  });
}
int armada_ga_norm1(int handle, double* result) {
  GUARD({ need(result, __func__, "result"); *result = arrays::norm1(arr(handle, __func__)); });
}
int armada_ga_norm_infinity(int handle, double* result) {
  GUARD({ need(result, __func__, "result"); *result = arrays::norm_infinity(arr(handle, __func__)); });
}
int armada_ga_select_elem(int handle, int want_max, void* value, int64_t index[]) {
  GUARD({
    need(value, __func__, "value");
    need(index, __func__, "index");
    const Array a = arr(handle, __func__);
    write_coord(arrays::detail::select(a, lo_of(a), hi_of(a), want_max != 0, value), index);
  });
}
int armada_ga_update_ghosts(int handle, int periodic) { GUARD(arr(handle, __func__).update_ghosts(periodic != 0)); }
int armada_ga_sync(int handle) { GUARD(arr(handle, __func__).sync()); }
int armada_ga_print_patch(int handle, const int64_t lo[], const int64_t hi[]) {
  GUARD({
    const Array a = arr(handle, __func__);
    arrays::print_patch(a, coord(lo, a.ndim(), __func__, "lo"), coord(hi, a.ndim(), __func__, "hi"), std::cout);
  });
}
int armada_ga_summary(void) {
  GUARD({
    std::fputs(arrays::summary().c_str(), stdout);
    std::fflush(stdout);
  });
}

}  // extern "C"
