// What the C API's sources share: the exception-to-code guard, argument checks, the two index
// conventions (the one place where GA's Fortran view is converted), and the handle tables.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "armada/arrays/arrays.hpp"
#include "armada/arrays/c_api.h"
#include "armada/arrays/c_api_errors.hpp"
#include "armada/rma/collectives.hpp"
#include "armada/rma/error.hpp"

namespace armada::arrays::capi {

/// An unknown or retired handle of the C API's own tables (groups, mutex sets, requests): kind
/// `handle`.
class BadHandle : public rma::InvalidArgument {
 public:
  BadHandle(std::string fn, std::string argument, std::string value, const std::string& reason)
      : rma::InvalidArgument(std::move(fn), std::move(argument), std::move(value), reason, rma::ErrorKind::handle) {}
};

/// An error the Fortran view reports in its caller's own terms (one-based, inclusive, Fortran
/// order, the values the caller passed): current_error_code adds no C-view note to it.
class FortranViewError : public rma::InvalidArgument {
 public:
  using rma::InvalidArgument::InvalidArgument;
};

/// Called inside a catch block: stores the current exception's message, ending "(in fn)", as
/// the thread's last message, and returns its code (error_codes[its kind], c_api_errors.hpp).
int current_error_code(const char* fn);

/// Runs f(); an exception becomes its code and message.
template <class F>
int guard(const char* fn, F&& f) {
  const rma::EntryPoint entry(fn);  // named when members are in different collective calls
  try {
    f();
    return ARMADA_GA_OK;
  } catch (...) {
    return current_error_code(fn);
  }
}

/// guard() for a collective call on array `handle` (or over `group`): when this member's own
/// checks fail before the collective's agreement, every member fails (arrays::run_as_collective).
template <class F>
int collective_guard(const char* fn, int handle, F&& f) {
  return guard(fn, [&] { run_as_collective(fn, handle, f); });
}
template <class F>
int collective_guard_group(const char* fn, const std::optional<rma::Group>& group, F&& f) {
  return guard(fn, [&] { run_as_collective(fn, group, f); });
}
/// The group a collective over group handle `group` runs on, as run_as_collective takes it:
/// the world for ARMADA_GA_GROUP_WORLD or a handle that is not a group's; none for a group
/// this rank is not a member of.
std::optional<rma::Group> group_waiting_in(int group);

inline void need(const void* p, const char* fn, const char* arg) {
  if (!p) throw rma::InvalidArgument(fn, arg, "null", "must not be null");
}
int check_ndim(const char* fn, int ndim);
ElemType elem_type(int type, const char* fn);
inline Array arr(int handle, const char* fn) { return find_array(handle, fn); }

/// How index tuples cross the API. The C view passes them through. The Fortran view (one-based,
/// inclusive, column-major) is the row-major array of reversed dims: tuples are reversed, indices
/// and lower bounds lowered by one; an inclusive one-based upper bound is already the exclusive
/// zero-based one, and extents (dims, chunk, width, skip, grid) only reverse.
struct Convention {
  bool fortran = false;
  /// An index or a lower bound (n entries).
  Coord index(const int64_t* p, int n, const char* fn, const char* arg) const;
  /// An upper bound or an extent (n entries).
  Coord tuple(const int64_t* p, int n, const char* fn, const char* arg) const;
  /// An optional extent tuple (NULL: empty).
  Coord optional(const int64_t* p, int n) const;
  /// A buffer's `ld` for array `a` (ndim - 1 entries; NULL or a 1-D array: empty).
  Coord ld(const Array& a, const int64_t* p) const;
  void out_index(const Coord& c, int64_t* out) const;
  void out_tuple(const Coord& c, int64_t* out) const;
  /// The Fortran view checks a patch [lo, hi] of `a` and a buffer's `ld` (NULL: none) in its
  /// caller's terms before anything is converted, so its messages show what the program passed;
  /// lo before hi before ld, dimension by dimension. The C view leaves the checks to arrays.
  void check_patch(const char* fn, const Array& a, const int64_t* lo, const int64_t* hi, const int64_t* ld = nullptr,
                   const char* lo_name = "lo", const char* hi_name = "hi") const;
};
/// "array 'A' (real(8), dims [4, 6])": `a` as a Fortran program declares it.
std::string fortran_described(const Array& a);
inline constexpr Convention c_view{false};
inline constexpr Convention fortran_view{true};

/// The group of a handle (ARMADA_GA_GROUP_WORLD: the world), or BadHandle naming `fn`.
rma::Group group_of(int handle, const char* fn);
/// The handle of `g` (registered if new).
int group_handle(const rma::Group& g);

/// Outstanding nonblocking requests.
int store_request(NbHandle h);
/// Forgets every handle of the C API's tables (after finalize).
void forget_requests();
void forget_groups();
/// Destroys every mutex set (collective, in creation order).
void destroy_mutex_sets();

}  // namespace armada::arrays::capi

/// Defines armada_ga_<name> (C view) and armada_gaf_<name> (Fortran view) over one function
/// impl::<name>(const Convention&, const char* fn, args...).
#define ARMADA_GA_BOTH_VIEWS(name, params, ...)                                                    \
  int armada_ga_##name params { return impl::name(capi::c_view, "armada_ga_" #name, __VA_ARGS__); } \
  int armada_gaf_##name params { return impl::name(capi::fortran_view, "armada_gaf_" #name, __VA_ARGS__); }
