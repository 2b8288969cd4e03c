// I/O vector put, get and accumulate (blocking and nonblocking): armci_giov_t descriptors
// (int sizes) and armci_giov_c_t (size_t sizes) as the core's IoSets, one request per call.
#include <string>
#include <vector>

#include "internal.hpp"

namespace armada::armci {

namespace {

/// The non-empty descriptors of a call as IoSets (they point into the caller's arrays). Sets
/// with no segments or 0-byte segments move nothing and are left out, as ARMCI allows them.
template <class Iov, class Len>
std::vector<rma::IoSet> io_sets(const char* fn, const Iov* iov, Len iov_len) {
  const std::size_t n = to_size(fn, "iov_len", iov_len);
  if (n) not_null(fn, "iov", iov);
  std::vector<rma::IoSet> sets;
  sets.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::string name = "iov[" + std::to_string(i) + "]";
    const std::size_t len = to_size(fn, name + ".ptr_array_len", iov[i].ptr_array_len);
    const std::size_t bytes = to_size(fn, name + ".bytes", iov[i].bytes);
    if (len == 0 || bytes == 0) continue;
    not_null(fn, name + ".src_ptr_array", iov[i].src_ptr_array);
    not_null(fn, name + ".dst_ptr_array", iov[i].dst_ptr_array);
    sets.push_back({{iov[i].src_ptr_array, len}, {iov[i].dst_ptr_array, len}, bytes});
  }
  return sets;
}

template <class Iov, class Len>
int vector(const char* fn, Kind kind, int datatype, void* scale, Iov* iov, Len iov_len, int proc,
           bool nonblocking = false, armci_hdl_t* hdl = nullptr) noexcept {
  return guard(fn, [&] {
    const std::vector<rma::IoSet> sets = io_sets(fn, iov, iov_len);
    if (sets.empty()) return check_proc(fn, "proc", proc);
    switch (kind) {
      case Kind::Put:
        return issue(nonblocking, hdl, [&] { rma::put_vector(sets, proc); },
                     [&] { return rma::put_vector_nb(sets, proc); });
      case Kind::Get:
        return issue(nonblocking, hdl, [&] { rma::get_vector(sets, proc); },
                     [&] { return rma::get_vector_nb(sets, proc); });
      case Kind::Acc: {
        const rma::AccType type = acc_type(fn, datatype);
        return issue(nonblocking, hdl, [&] { rma::acc_vector(type, scale, sets, proc); },
                     [&] { return rma::acc_vector_nb(type, scale, sets, proc); });
      }
    }
  });
}

constexpr int kNoType = 0;  // datatype argument of put and get (unused)
constexpr bool kNb = true;  // nonblocking

}  // namespace
}  // namespace armada::armci

using namespace armada::armci;

// The six calls of one descriptor type: ARMCI's armci_giov_t (int sizes; no suffix) and Armada's
// armci_giov_c_t (size_t sizes; suffix _c) take the same path.
#define ARMADA_ARMCI_VECTOR_CALLS(suffix, Iov, Len)                                                        \
  ARMCI_TWIN(int, ARMCI_PutV##suffix, (Iov * iov, Len iov_len, int proc)) {                                \
    return vector("ARMCI_PutV" #suffix, Kind::Put, kNoType, nullptr, iov, iov_len, proc);                \
  }                                                                                                         \
  ARMCI_TWIN(int, ARMCI_GetV##suffix, (Iov * iov, Len iov_len, int proc)) {                                \
    return vector("ARMCI_GetV" #suffix, Kind::Get, kNoType, nullptr, iov, iov_len, proc);                \
  }                                                                                                         \
  ARMCI_TWIN(int, ARMCI_AccV##suffix, (int datatype, void* scale, Iov* iov, Len iov_len, int proc)) {     \
    return vector("ARMCI_AccV" #suffix, Kind::Acc, datatype, scale, iov, iov_len, proc);                 \
  }                                                                                                         \
  ARMCI_TWIN(int, ARMCI_NbPutV##suffix, (Iov * iov, Len iov_len, int proc, armci_hdl_t* hdl)) {            \
    return vector("ARMCI_NbPutV" #suffix, Kind::Put, kNoType, nullptr, iov, iov_len, proc, kNb, hdl);    \
  }                                                                                                         \
  ARMCI_TWIN(int, ARMCI_NbGetV##suffix, (Iov * iov, Len iov_len, int proc, armci_hdl_t* hdl)) {            \
    return vector("ARMCI_NbGetV" #suffix, Kind::Get, kNoType, nullptr, iov, iov_len, proc, kNb, hdl);    \
  }                                                                                                         \
  ARMCI_TWIN(int, ARMCI_NbAccV##suffix,                                                                     \
             (int datatype, void* scale, Iov* iov, Len iov_len, int proc, armci_hdl_t* hdl)) {              \
    return vector("ARMCI_NbAccV" #suffix, Kind::Acc, datatype, scale, iov, iov_len, proc, kNb, hdl);     \
  }

ARMADA_ARMCI_VECTOR_CALLS(, armci_giov_t, int)
ARMADA_ARMCI_VECTOR_CALLS(_c, armci_giov_c_t, size_t)
#undef ARMADA_ARMCI_VECTOR_CALLS
