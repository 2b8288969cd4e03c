// Strided put, get and accumulate (blocking and nonblocking), the strided flag puts, and the
// local strided copies Global Arrays borrows (armci_write_strided / armci_read_strided).
#include <array>
#include <cstring>
#include <span>
#include <string>

#include "internal.hpp"

namespace armada::armci {

namespace {

/// An ARMCI stride descriptor (int or size_t arrays) as the core's size_t spans.
struct Strides {
  std::array<std::size_t, rma::max_stride_levels> src{}, dst{};
  std::array<std::size_t, rma::max_stride_levels + 1> count{};
  std::size_t levels = 0;
  bool empty = false;  // a count of 0 at some level: nothing to move

  std::span<const std::size_t> src_span() const { return {src.data(), levels}; }
  std::span<const std::size_t> dst_span() const { return {dst.data(), levels}; }
  std::span<const std::size_t> count_span() const { return {count.data(), levels + 1}; }
};

/// Reads and checks a descriptor. The core checks the shape itself (strides covering the
/// levels below); here only what the C types allow to be wrong: levels, nulls, negatives.
template <class I>
Strides strides(const char* fn, const I* src_stride, const I* dst_stride, const I* count, int stride_levels) {
  if (stride_levels < 0 || stride_levels > rma::max_stride_levels)
    bad_argument(fn, "stride_levels", std::to_string(stride_levels),
                 "must be 0.." + std::to_string(rma::max_stride_levels));
  Strides s;
  s.levels = static_cast<std::size_t>(stride_levels);
  not_null(fn, "count", count);
  if (s.levels) {
    not_null(fn, "src_stride_ar", src_stride);
    not_null(fn, "dst_stride_ar", dst_stride);
  }
  for (std::size_t l = 0; l <= s.levels; ++l) {
    s.count[l] = to_size(fn, element("count", l), count[l]);
    s.empty = s.empty || s.count[l] == 0;
  }
  for (std::size_t l = 0; l < s.levels; ++l) {
    s.src[l] = to_size(fn, element("src_stride_ar", l), src_stride[l]);
    s.dst[l] = to_size(fn, element("dst_stride_ar", l), dst_stride[l]);
  }
  return s;
}

template <class I>
int strided(const char* fn, Kind kind, int datatype, void* scale, void* src, const I* src_stride,
            void* dst, const I* dst_stride, const I* count, int stride_levels, int proc,
            bool nonblocking = false, armci_hdl_t* hdl = nullptr) noexcept {
  return guard(fn, [&] {
    const Strides s = strides(fn, src_stride, dst_stride, count, stride_levels);
    if (s.empty) return check_proc(fn, "proc", proc);
    const auto ss = s.src_span(), ds = s.dst_span(), cs = s.count_span();
    switch (kind) {
      case Kind::Put:
        return issue(nonblocking, hdl, [&] { rma::put_strided(src, ss, dst, ds, cs, proc); },
                     [&] { return rma::put_strided_nb(src, ss, dst, ds, cs, proc); });
      case Kind::Get:
        return issue(nonblocking, hdl, [&] { rma::get_strided(src, ss, dst, ds, cs, proc); },
                     [&] { return rma::get_strided_nb(src, ss, dst, ds, cs, proc); });
      case Kind::Acc: {
        const rma::AccType type = acc_type(fn, datatype);
        return issue(nonblocking, hdl, [&] { rma::acc_strided(type, scale, src, ss, dst, ds, cs, proc); },
                     [&] { return rma::acc_strided_nb(type, scale, src, ss, dst, ds, cs, proc); });
      }
    }
  });
}

template <class I>
int puts_flag(const char* fn, void* src, const I* src_stride, void* dst, const I* dst_stride,
              const I* count, int stride_levels, int* flag, int value, int proc) noexcept {
  return guard(fn, [&] {
    const Strides s = strides(fn, src_stride, dst_stride, count, stride_levels);
    not_null(fn, "flag", flag);  // checked before any byte moves
    if (s.empty) rma::put_notify(src, dst, 0, flag, value, proc);  // the flag alone
    else rma::put_strided_notify(src, s.src_span(), dst, s.dst_span(), s.count_span(), flag, value, proc);
  });
}

/// Copies between the strided layout at `ptr` and the contiguous `buf`, block by block in order.
void copy_strided(const char* fn, void* ptr, int stride_levels, const int* stride, const int* count,
                  char* buf, bool into_buf) {
  const Strides s = strides(fn, stride, stride, count, stride_levels);
  if (s.empty) return;
  not_null(fn, "ptr", ptr);
  not_null(fn, "buf", buf);
  std::array<std::size_t, rma::max_stride_levels> index{};
  for (;;) {
    std::size_t offset = 0;
    for (std::size_t l = 0; l < s.levels; ++l) offset += index[l] * s.src[l];
    char* block = static_cast<char*>(ptr) + offset;
    if (into_buf)
      std::memcpy(buf, block, s.count[0]);
    else
      std::memcpy(block, buf, s.count[0]);
    buf += s.count[0];
    std::size_t l = 0;  // odometer over the levels
    while (l < s.levels && ++index[l] == s.count[l + 1]) index[l++] = 0;
    if (l == s.levels) return;
  }
}

constexpr int kNoType = 0;  // datatype argument of put and get (unused)
constexpr bool kNb = true;  // nonblocking

}  // namespace
}  // namespace armada::armci

using namespace armada::armci;

// ---- int descriptors (ARMCI) -----------------------------------------------------------------
ARMCI_TWIN(int, ARMCI_PutS, (void* src, int src_stride[], void* dst, int dst_stride[], int count[], int levels, int proc)) {
  return strided("ARMCI_PutS", Kind::Put, kNoType, nullptr, src, src_stride, dst, dst_stride, count, levels, proc);
}
ARMCI_TWIN(int, ARMCI_GetS, (void* src, int src_stride[], void* dst, int dst_stride[], int count[], int levels, int proc)) {
  return strided("ARMCI_GetS", Kind::Get, kNoType, nullptr, src, src_stride, dst, dst_stride, count, levels, proc);
}
ARMCI_TWIN(int, ARMCI_AccS, (int datatype, void* scale, void* src, int src_stride[], void* dst, int dst_stride[],
                             int count[], int levels, int proc)) {
  return strided("ARMCI_AccS", Kind::Acc, datatype, scale, src, src_stride, dst, dst_stride, count, levels, proc);
}
ARMCI_TWIN(int, ARMCI_NbPutS, (void* src, int src_stride[], void* dst, int dst_stride[], int count[], int levels,
                               int proc, armci_hdl_t* hdl)) {
  return strided("ARMCI_NbPutS", Kind::Put, kNoType, nullptr, src, src_stride, dst, dst_stride, count, levels, proc,
                 kNb, hdl);
}
ARMCI_TWIN(int, ARMCI_NbGetS, (void* src, int src_stride[], void* dst, int dst_stride[], int count[], int levels,
                               int proc, armci_hdl_t* hdl)) {
  return strided("ARMCI_NbGetS", Kind::Get, kNoType, nullptr, src, src_stride, dst, dst_stride, count, levels, proc,
                 kNb, hdl);
}
ARMCI_TWIN(int, ARMCI_NbAccS, (int datatype, void* scale, void* src, int src_stride[], void* dst, int dst_stride[],
                               int count[], int levels, int proc, armci_hdl_t* hdl)) {
  return strided("ARMCI_NbAccS", Kind::Acc, datatype, scale, src, src_stride, dst, dst_stride, count, levels, proc,
                 kNb, hdl);
}
ARMCI_TWIN(int, ARMCI_PutS_flag, (void* src, int src_stride[], void* dst, int dst_stride[], int count[], int levels,
                                  int* flag, int value, int proc)) {
  return puts_flag("ARMCI_PutS_flag", src, src_stride, dst, dst_stride, count, levels, flag, value, proc);
}

// Global Arrays' own ARMCI has a "direct" variant; every put is direct here.
int ARMCI_PutS_flag_dir(void* src, int src_stride[], void* dst, int dst_stride[], int count[], int levels,
                        int* flag, int value, int proc) {
  return puts_flag("ARMCI_PutS_flag_dir", src, src_stride, dst, dst_stride, count, levels, flag, value, proc);
}

// ---- size_t descriptors (Armada) -------------------------------------------------------------
ARMCI_TWIN(int, ARMCI_PutS_c, (void* src, size_t src_stride[], void* dst, size_t dst_stride[], size_t count[],
                               int levels, int proc)) {
  return strided("ARMCI_PutS_c", Kind::Put, kNoType, nullptr, src, src_stride, dst, dst_stride, count, levels, proc);
}
ARMCI_TWIN(int, ARMCI_GetS_c, (void* src, size_t src_stride[], void* dst, size_t dst_stride[], size_t count[],
                               int levels, int proc)) {
  return strided("ARMCI_GetS_c", Kind::Get, kNoType, nullptr, src, src_stride, dst, dst_stride, count, levels, proc);
}
ARMCI_TWIN(int, ARMCI_AccS_c, (int datatype, void* scale, void* src, size_t src_stride[], void* dst,
                               size_t dst_stride[], size_t count[], int levels, int proc)) {
  return strided("ARMCI_AccS_c", Kind::Acc, datatype, scale, src, src_stride, dst, dst_stride, count, levels, proc);
}
ARMCI_TWIN(int, ARMCI_NbPutS_c, (void* src, size_t src_stride[], void* dst, size_t dst_stride[], size_t count[],
                                 int levels, int proc, armci_hdl_t* hdl)) {
  return strided("ARMCI_NbPutS_c", Kind::Put, kNoType, nullptr, src, src_stride, dst, dst_stride, count, levels,
                 proc, kNb, hdl);
}
ARMCI_TWIN(int, ARMCI_NbGetS_c, (void* src, size_t src_stride[], void* dst, size_t dst_stride[], size_t count[],
                                 int levels, int proc, armci_hdl_t* hdl)) {
  return strided("ARMCI_NbGetS_c", Kind::Get, kNoType, nullptr, src, src_stride, dst, dst_stride, count, levels,
                 proc, kNb, hdl);
}
ARMCI_TWIN(int, ARMCI_NbAccS_c, (int datatype, void* scale, void* src, size_t src_stride[], void* dst,
                                 size_t dst_stride[], size_t count[], int levels, int proc, armci_hdl_t* hdl)) {
  return strided("ARMCI_NbAccS_c", Kind::Acc, datatype, scale, src, src_stride, dst, dst_stride, count, levels,
                 proc, kNb, hdl);
}
ARMCI_TWIN(int, ARMCI_PutS_flag_c, (void* src, size_t src_stride[], void* dst, size_t dst_stride[], size_t count[],
                                    int levels, int* flag, int value, int proc)) {
  return puts_flag("ARMCI_PutS_flag_c", src, src_stride, dst, dst_stride, count, levels, flag, value, proc);
}

// ---- local strided copies --------------------------------------------------------------------
// write_strided packs the strided data at ptr into buf; read_strided unpacks buf into ptr.
void armci_write_strided(void* ptr, int stride_levels, int stride_arr[], int count[], char* buf) {
  guard_void("armci_write_strided", [&] {
    copy_strided("armci_write_strided", ptr, stride_levels, stride_arr, count, buf, true);
  });
}

void armci_read_strided(void* ptr, int stride_levels, int stride_arr[], int count[], char* buf) {
  guard_void("armci_read_strided", [&] {
    copy_strided("armci_read_strided", ptr, stride_levels, stride_arr, count, buf, false);
  });
}
