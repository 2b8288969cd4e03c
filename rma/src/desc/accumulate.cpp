#include "desc/accumulate.hpp"

#include <complex>
#include <cstring>
#include <type_traits>

namespace armada::rma::detail {

namespace {

template <class T>
void axpy(T scale, const std::byte* src, std::byte* dst, std::size_t bytes) noexcept {
  if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    // Integers wrap around (two's complement) instead of overflowing into undefined behaviour:
    // the same bits, computed in the unsigned type.
    using U = std::make_unsigned_t<T>;
    axpy<U>(static_cast<U>(scale), src, dst, bytes);
    return;
  }
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
void axpy_complex(const std::complex<R>& scale, const std::byte* src, std::byte* dst,
                  std::size_t bytes) noexcept {
  const R* __restrict s = reinterpret_cast<const R*>(src);
  R* __restrict d = reinterpret_cast<R*>(dst);
  const std::size_t n = bytes / sizeof(std::complex<R>);
  const R a = scale.real(), b = scale.imag();
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

template <class T>
T load(const void* p) noexcept {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

}  // namespace

void accumulate(AccType type, const void* scale, const std::byte* src, std::byte* dst,
                std::size_t bytes) noexcept {
  switch (type) {
    case AccType::Int: axpy(load<int>(scale), src, dst, bytes); return;
    case AccType::Long: axpy(load<long>(scale), src, dst, bytes); return;
    case AccType::Float: axpy(load<float>(scale), src, dst, bytes); return;
    case AccType::Double: axpy(load<double>(scale), src, dst, bytes); return;
    case AccType::ComplexFloat: axpy_complex(load<std::complex<float>>(scale), src, dst, bytes); return;
    case AccType::ComplexDouble: axpy_complex(load<std::complex<double>>(scale), src, dst, bytes); return;
  }
}

bool is_unit_scale(AccType type, const void* scale) noexcept {
  switch (type) {
    case AccType::Int: return load<int>(scale) == 1;
    case AccType::Long: return load<long>(scale) == 1;
    case AccType::Float: return load<float>(scale) == 1.0f;
    case AccType::Double: return load<double>(scale) == 1.0;
    case AccType::ComplexFloat: return load<std::complex<float>>(scale) == std::complex<float>(1);
    case AccType::ComplexDouble: return load<std::complex<double>>(scale) == std::complex<double>(1);
  }
  return false;
}

}  // namespace armada::rma::detail
