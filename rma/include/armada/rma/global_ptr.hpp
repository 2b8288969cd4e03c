// GlobalPtr<T>: remote memory named ARMCI's way, an address valid in the target rank's own
// address space plus that rank. Only addresses inside segments from rma::allocate may be targets.
#pragma once

#include "armada/rma/cxx20.hpp"  // first: one clear error without C++20

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace armada::rma {

template <class T>
class GlobalPtr {
 public:
  constexpr GlobalPtr() = default;
  constexpr GlobalPtr(int rank, T* address) : rank_(rank), address_(address) {}

  /// World rank that owns the memory.
  constexpr int rank() const noexcept { return rank_; }
  /// Address in the owner's address space (not dereferenceable elsewhere).
  constexpr T* address() const noexcept { return address_; }

  constexpr GlobalPtr operator+(std::ptrdiff_t n) const noexcept { return {rank_, address_ + n}; }
  constexpr GlobalPtr operator-(std::ptrdiff_t n) const noexcept { return {rank_, address_ - n}; }
  constexpr GlobalPtr& operator+=(std::ptrdiff_t n) noexcept { address_ += n; return *this; }
  constexpr bool operator==(const GlobalPtr&) const = default;

  /// Reinterprets the pointee type (the address is unchanged).
  template <class U>
  GlobalPtr<U> cast() const noexcept { return {rank_, reinterpret_cast<U*>(address_)}; }

 private:
  std::int32_t rank_ = -1;
  T* address_ = nullptr;
};

static_assert(sizeof(GlobalPtr<double>) == 16);
static_assert(std::is_trivially_copyable_v<GlobalPtr<double>>);

}  // namespace armada::rma
