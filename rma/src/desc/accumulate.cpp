#include "desc/accumulate.hpp"

#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace armada::rma::detail {

namespace {

// The kernels are compiled for AVX-512, AVX2 and baseline x86-64, and the dynamic loader picks
// the widest the CPU has (GCC function multiversioning), so accumulate keeps up with glibc's
// memcpy, which does the same. Bodies are always_inline templates, instantiated inside each clone.
// Not under sanitizers: the clones' ifunc resolver runs during relocation, before the
// sanitizer runtime is initialized, and crashes the program at load time.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_THREAD__) && \
    !defined(__SANITIZE_ADDRESS__)
#define ARMADA_KERNEL __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define ARMADA_KERNEL
#endif
#define ARMADA_INLINE inline __attribute__((always_inline))

template <class T>
ARMADA_INLINE void axpy(T scale, const std::byte* src, std::byte* dst, std::size_t bytes) noexcept {
  const T* __restrict s = reinterpret_cast<const T*>(src);
  T* __restrict d = reinterpret_cast<T*>(dst);
  const std::size_t n = bytes / sizeof(T);
  if (scale == T(1)) {
    for (std::size_t i = 0; i < n; ++i) d[i] += s[i];
  } else {
    for (std::size_t i = 0; i < n; ++i) d[i] += scale * s[i];
  }
}

// Complex as interleaved (re, im) pairs with the textbook product written out, so that the
// compiler vectorizes it and never calls the NaN-careful __muldc3 of std::complex operator*.
template <class R>
ARMADA_INLINE void axpy_complex(R a, R b, const std::byte* src, std::byte* dst, std::size_t bytes) noexcept {
  const R* __restrict s = reinterpret_cast<const R*>(src);
  R* __restrict d = reinterpret_cast<R*>(dst);
  const std::size_t n = bytes / (2 * sizeof(R));
  if (a == R(1) && b == R(0)) {
    for (std::size_t i = 0; i < 2 * n; ++i) d[i] += s[i];
    return;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const R x = s[2 * i], y = s[2 * i + 1];
    d[2 * i] += a * x - b * y;
    d[2 * i + 1] += a * y + b * x;
  }
}

// Signed integers wrap around (two's complement) instead of overflowing into undefined
// behaviour: the same bits, computed in the unsigned type.
ARMADA_KERNEL void acc_int(int scale, const std::byte* s, std::byte* d, std::size_t n) noexcept {
  axpy<unsigned>(static_cast<unsigned>(scale), s, d, n);
}
ARMADA_KERNEL void acc_long(long scale, const std::byte* s, std::byte* d, std::size_t n) noexcept {
  axpy<unsigned long>(static_cast<unsigned long>(scale), s, d, n);
}
ARMADA_KERNEL void acc_float(float scale, const std::byte* s, std::byte* d, std::size_t n) noexcept {
  axpy<float>(scale, s, d, n);
}
ARMADA_KERNEL void acc_double(double scale, const std::byte* s, std::byte* d, std::size_t n) noexcept {
  axpy<double>(scale, s, d, n);
}
ARMADA_KERNEL void acc_cfloat(float a, float b, const std::byte* s, std::byte* d, std::size_t n) noexcept {
  axpy_complex<float>(a, b, s, d, n);
}
ARMADA_KERNEL void acc_cdouble(double a, double b, const std::byte* s, std::byte* d, std::size_t n) noexcept {
  axpy_complex<double>(a, b, s, d, n);
}

template <class T>
T load(const void* p) noexcept {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

void accumulate_aligned(AccType type, const void* scale, const std::byte* src, std::byte* dst,
                        std::size_t bytes) noexcept {
  switch (type) {
    case AccType::Int: acc_int(load<int>(scale), src, dst, bytes); return;
    case AccType::Long: acc_long(load<long>(scale), src, dst, bytes); return;
    case AccType::Float: acc_float(load<float>(scale), src, dst, bytes); return;
    case AccType::Double: acc_double(load<double>(scale), src, dst, bytes); return;
    case AccType::ComplexFloat: {
      const auto c = load<std::complex<float>>(scale);
      acc_cfloat(c.real(), c.imag(), src, dst, bytes);
      return;
    }
    case AccType::ComplexDouble: {
      const auto c = load<std::complex<double>>(scale);
      acc_cdouble(c.real(), c.imag(), src, dst, bytes);
      return;
    }
  }
}

// Elements at addresses their type does not align (ARMCI allows any byte stride): each side
// is copied a block at a time into aligned buffers, added there, and the sum copied back. The
// kernels' typed loads would be undefined behaviour there, and vector code may fault.
void accumulate_unaligned(AccType type, const void* scale, const std::byte* src, std::byte* dst,
                          std::size_t bytes) noexcept {
  constexpr std::size_t kBlock = 2048;  // a multiple of every element size
  alignas(64) std::byte s[kBlock], d[kBlock];
  while (bytes > 0) {
    const std::size_t n = bytes < kBlock ? bytes : kBlock;
    std::memcpy(s, src, n);
    std::memcpy(d, dst, n);
    accumulate_aligned(type, scale, s, d, n);
    std::memcpy(dst, d, n);
    src += n;
    dst += n;
    bytes -= n;
  }
}

// The alignment the kernels' element type needs (complex types: that of their parts).
std::size_t element_alignment(AccType type) noexcept {
  switch (type) {
    case AccType::Int: return alignof(int);
    case AccType::Long: return alignof(long);
    case AccType::Float:
    case AccType::ComplexFloat: return alignof(float);
    case AccType::Double:
    case AccType::ComplexDouble: return alignof(double);
  }
  return alignof(std::max_align_t);
}

}  // namespace

void accumulate(AccType type, const void* scale, const std::byte* src, std::byte* dst,
                std::size_t bytes) noexcept {
  const std::uintptr_t where = reinterpret_cast<std::uintptr_t>(src) | reinterpret_cast<std::uintptr_t>(dst);
  if (where % element_alignment(type) == 0) [[likely]]
    accumulate_aligned(type, scale, src, dst, bytes);
  else
    accumulate_unaligned(type, scale, src, dst, bytes);
}

}  // namespace armada::rma::detail
