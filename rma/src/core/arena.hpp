// The symmetric arena: address space reserved at the same address in every process of the job,
// from which a group's collective allocation takes the same offset on every member. A node's
// shared object then lies at the same address in every process of every node, so a member's base
// follows from one origin per segment and the member's place in its node's object, and no table
// of a base per member per segment is needed (issue 53: 8 B per member per array, 76 MiB per rank
// at 100k ranks and 100 arrays, the one term above 64 MiB; OpenSHMEM's symmetric heap does the
// same). Reserved with PROT_NONE and MAP_NORESERVE: it costs no memory until a segment maps an
// object into it.
//
// Where any rank cannot reserve the range (another mapping is there: a sanitizer's shadow, a
// library), or ARMADA_SYMMETRIC_GIB=0, the arena is off on every rank and slices lie where mmap
// puts them (bases kept per member, as before). A segment that finds no common free range falls
// back the same way, alone.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace armada::rma::detail {

class SymmetricArena {
 public:
  /// Collective over `world`: reserves `bytes` at the same address on every rank, or stays off
  /// on every rank (reason() says why).
  SymmetricArena(const char* op, MPI_Comm world, std::size_t bytes);
  ~SymmetricArena();
  SymmetricArena(const SymmetricArena&) = delete;
  SymmetricArena& operator=(const SymmetricArena&) = delete;

  bool on() const noexcept { return base_ != nullptr; }
  std::byte* base() const noexcept { return base_; }
  std::size_t size() const noexcept { return size_; }
  /// Why the arena is off ("" when on).
  const std::string& reason() const noexcept { return reason_; }

  /// Collective over `comm` (a group's members, every one calling with the same `bytes`): the
  /// lowest offset free on every member, taken on each, as an address; null on every member
  /// when no common range is free (or the arena is off). Rounds of two reductions, one when the
  /// members' arenas are alike (allocations in the same order: the common case).
  std::byte* take(const char* op, std::size_t bytes, MPI_Comm comm);
  /// Gives back a range take() returned, once nothing is mapped there but the reservation
  /// (a ShmRegion created at an address puts it back when it ends). `unmapped`: the bytes from
  /// `at` that another mapping replaced and has since removed (a transport's memory, which UCX
  /// unmaps itself): reserved again first, and where that fails (another mapping took the hole
  /// meanwhile) the range stays taken: address space lost, never a mapping overwritten.
  void give_back(std::byte* at, std::size_t bytes, std::size_t unmapped = 0) noexcept;

 private:
  /// The lowest free offset >= from where `bytes` fit, or SIZE_MAX (under mutex_).
  std::size_t lowest_fit(std::size_t from, std::size_t bytes) const;
  bool fits(std::size_t at, std::size_t bytes) const;
  void take_range(std::size_t at, std::size_t bytes);

  std::byte* base_ = nullptr;
  std::size_t size_ = 0;
  std::string reason_;
  std::map<std::size_t, std::size_t> free_;  // offset -> length, disjoint, never adjacent
  mutable std::mutex mutex_;
};

}  // namespace armada::rma::detail
