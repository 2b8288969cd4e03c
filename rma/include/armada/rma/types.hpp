// Element types and operation codes shared by accumulate, atomics and collectives.
#pragma once

#include "armada/rma/cxx20.hpp"  // first: one clear error without C++20

#include <complex>
#include <cstddef>
#include <type_traits>

namespace armada::rma {

/// Element type of an accumulate (ARMCI_ACC_INT, _LNG, _FLT, _DBL, _CPL, _DCP).
enum class AccType : int { Int, Long, Float, Double, ComplexFloat, ComplexDouble };

/// Size in bytes of one element of `type`.
constexpr std::size_t size_of(AccType type) noexcept {
  switch (type) {
    case AccType::Int: return sizeof(int);
    case AccType::Long: return sizeof(long);
    case AccType::Float: return sizeof(float);
    case AccType::Double: return sizeof(double);
    case AccType::ComplexFloat: return sizeof(std::complex<float>);
    case AccType::ComplexDouble: return sizeof(std::complex<double>);
  }
  return 0;
}

const char* to_string(AccType type) noexcept;

/// The AccType of a C++ element type (a compile error for types accumulate does not support).
template <class T>
constexpr AccType acc_type_of() {
  if constexpr (std::is_same_v<T, int>) return AccType::Int;
  else if constexpr (std::is_same_v<T, long>) return AccType::Long;
  else if constexpr (std::is_same_v<T, float>) return AccType::Float;
  else if constexpr (std::is_same_v<T, double>) return AccType::Double;
  else if constexpr (std::is_same_v<T, std::complex<float>>) return AccType::ComplexFloat;
  else if constexpr (std::is_same_v<T, std::complex<double>>) return AccType::ComplexDouble;
  else static_assert(sizeof(T) == 0, "accumulate supports int, long, float, double, complex<float>, complex<double>");
}

/// Types of value put/get (ARMCI_PutValue{Int,Long,Float,Double}).
template <class T>
concept ValueType = std::is_same_v<T, int> || std::is_same_v<T, long> ||
                    std::is_same_v<T, float> || std::is_same_v<T, double>;

/// Types of the read-modify-write atomics (ARMCI_FETCH_AND_ADD[_LONG], ARMCI_SWAP[_LONG]).
template <class T>
concept AtomicType = std::is_same_v<T, int> || std::is_same_v<T, long>;

}  // namespace armada::rma
