// The C API of arrays' parallel HDF5 I/O (armada/arrays/io.hpp): save, load, load_patch (both
// index views), checkpoint, restart.
#include <vector>

#include "armada/arrays/io.hpp"
#include "armada/rma/collectives.hpp"
#include "capi_internal.hpp"

namespace arrays = armada::arrays;
namespace capi = armada::arrays::capi;
using arrays::Array;
using capi::Convention;
using capi::need;

namespace {

// The arrays of handles[0 .. n). The first names the group the call is collective over; the
// others are looked up in agreement with its members, so a bad handle on one rank fails the call
// on every rank instead of leaving the others in the collective.
std::vector<Array> arrays_of(const char* fn, int n, const int handles[]) {
  if (n < 1) throw armada::rma::InvalidArgument(fn, "n", std::to_string(n), "at least one array is needed");
  need(handles, fn, "handles");
  std::vector<Array> v{capi::arr(handles[0], fn)};
  armada::rma::agree(fn, [&] {
    for (int i = 1; i < n; ++i) v.push_back(capi::arr(handles[i], fn));
  }, v.front().group());
  return v;
}

namespace impl {
int load_patch(const Convention& cv, const char* fn, const char* file, const char* name, const int64_t lo[],
               const int64_t hi[], int handle) {
  return capi::guard(fn, [&] {
    need(file, fn, "file");
    need(name, fn, "name");
    Array into = capi::arr(handle, fn);
    arrays::load_patch(file, name, cv.index(lo, into.ndim(), fn, "lo"), cv.tuple(hi, into.ndim(), fn, "hi"), into);
  });
}
}  // namespace impl

}  // namespace

extern "C" {

int armada_ga_io_available(int* flag) {
  const char* const fn = __func__;
  return capi::guard(fn, [&] {
    need(flag, fn, "flag");
    *flag = arrays::io_available() ? 1 : 0;
  });
}

int armada_ga_save(const char* file, int n, const int handles[]) {
  const char* const fn = __func__;
  return capi::guard(fn, [&] {
    need(file, fn, "file");
    arrays::save(file, arrays_of(fn, n, handles));
  });
}

int armada_ga_save_in_place(const char* file, int n, const int handles[]) {
  const char* const fn = __func__;
  return capi::guard(fn, [&] {
    need(file, fn, "file");
    arrays::save(file, arrays_of(fn, n, handles), arrays::SaveMode::in_place);
  });
}

int armada_ga_load(const char* file, const char* name, int group, int* handle) {
  const char* const fn = __func__;
  return capi::guard(fn, [&] {
    need(file, fn, "file");
    need(name, fn, "name");
    need(handle, fn, "handle");
    arrays::ArrayOptions o;
    o.group = capi::group_of(group, fn);
    *handle = arrays::load(file, name, o).id();
  });
}

int armada_ga_load_into(const char* file, const char* name, int handle) {
  const char* const fn = __func__;
  return capi::guard(fn, [&] {
    need(file, fn, "file");
    need(name, fn, "name");
    Array into = capi::arr(handle, fn);
    arrays::load(file, name, into);
  });
}

ARMADA_GA_BOTH_VIEWS(load_patch, (const char* file, const char* name, const int64_t lo[], const int64_t hi[], int handle),
                     file, name, lo, hi, handle)

int armada_ga_checkpoint(const char* prefix, long step, int n, const int handles[], int keep) {
  const char* const fn = __func__;
  return capi::guard(fn, [&] {
    need(prefix, fn, "prefix");
    arrays::checkpoint(prefix, step, arrays_of(fn, n, handles), keep);
  });
}

int armada_ga_restart(const char* prefix, int n, const int handles[], long* step) {
  const char* const fn = __func__;
  return capi::guard(fn, [&] {
    need(prefix, fn, "prefix");
    need(step, fn, "step");
    std::vector<Array> v = arrays_of(fn, n, handles);
    const auto found = arrays::restart(prefix, v);
    *step = found ? *found : -1;
  });
}

}  // extern "C"
