// Memory: collective allocation on the world or a group, local allocation, local copies.
#include <algorithm>
#include <cstring>
#include <string>

#include "internal.hpp"

namespace armada::armci {

namespace {

/// Collective over the group: allocates `bytes` here and stores every member's base (null for
/// a zero-size slice) in base_ptrs, indexed by group rank.
void allocate(const char* function, void** base_ptrs, armci_size_t bytes, const GroupInfo& info) {
  not_null(function, "base_ptrs", base_ptrs);
  const std::size_t mine = to_size(function, "bytes", bytes);
  // When every member asks for 0 bytes there is nothing to allocate, and nothing ARMCI_Free
  // could name later (rma::free needs a non-null base somewhere): answer it here.
  unsigned long long most = mine;
  MPI_Allreduce(MPI_IN_PLACE, &most, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, info.group.comm());
  if (most == 0) {
    std::fill_n(base_ptrs, info.group.size(), nullptr);
    return;
  }
  const std::vector<void*> bases = rma::allocate(mine, info.group);
  std::copy(bases.begin(), bases.end(), base_ptrs);
}

/// Collective over the group that allocated `ptr` (null on ranks with a zero-size slice).
void release(void* ptr, const GroupInfo& info) {
  int any = ptr != nullptr;
  MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_LOR, info.group.comm());
  if (any) rma::free(ptr, info.group);  // else: an allocation of 0 bytes everywhere
}

// `group` is called inside the guard and returns the GroupInfo to use.
template <class Group>
int malloc_on(const char* function, void** base_ptrs, armci_size_t bytes, Group&& group) {
  return guard(function, [&] { allocate(function, base_ptrs, bytes, group()); });
}

template <class Group>
int free_on(const char* function, void* ptr, Group&& group) {
  return guard(function, [&] { release(ptr, group()); });
}

auto world() { return [] { return world_group(); }; }
auto named(const char* function, const ARMCI_Group* group) {
  return [=] { return group_of(function, group); };
}

template <class Count>
void copy(const char* function, void* src, void* dst, Count size) {
  guard_void(function, [&] {
    const std::size_t n = to_size(function, "size", size);
    if (n) std::memmove(not_null(function, "dst", dst), not_null(function, "src", src), n);
  });
}

}  // namespace
}  // namespace armada::armci

using namespace armada::armci;

int PARMCI_Malloc(void** base_ptrs, armci_size_t size) { return malloc_on("ARMCI_Malloc", base_ptrs, size, world()); }
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_Malloc)

int PARMCI_Free(void* ptr) { return free_on("ARMCI_Free", ptr, world()); }
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_Free)

int ARMCI_Malloc_group(void** ptr_arr, armci_size_t bytes, ARMCI_Group* group) {
  return malloc_on("ARMCI_Malloc_group", ptr_arr, bytes, named("ARMCI_Malloc_group", group));
}

int ARMCI_Free_group(void* ptr, ARMCI_Group* group) {
  return free_on("ARMCI_Free_group", ptr, named("ARMCI_Free_group", group));
}

// The device (a SICM memory placement hint of ARMCI-MPI) has no meaning here.
int PARMCI_Malloc_memdev(void** ptr_arr, armci_size_t bytes, const char*) {
  return malloc_on("ARMCI_Malloc_memdev", ptr_arr, bytes, world());
}
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_Malloc_memdev)

int PARMCI_Malloc_group_memdev(void** ptr_arr, armci_size_t bytes, ARMCI_Group* group, const char*) {
  return malloc_on("ARMCI_Malloc_group_memdev", ptr_arr, bytes, named("ARMCI_Malloc_group_memdev", group));
}
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_Malloc_group_memdev)

int PARMCI_Free_memdev(void* ptr) { return free_on("ARMCI_Free_memdev", ptr, world()); }
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_Free_memdev)

void* PARMCI_Malloc_local(armci_size_t size) {
  constexpr const char* fn = "ARMCI_Malloc_local";
  return guard_value(fn, static_cast<void*>(nullptr), [&] { return rma::allocate_local(to_size(fn, "size", size)); });
}
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_Malloc_local)

int PARMCI_Free_local(void* ptr) {
  return guard("ARMCI_Free_local", [&] { rma::free_local(ptr); });
}
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_Free_local)

// Every local slice is always directly accessible in Armada (no window epochs to open), so
// access epochs only check that ARMCI is up.
void PARMCI_Access_begin(void*) { guard_void("ARMCI_Access_begin", [] { require_init("ARMCI_Access_begin"); }); }
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_Access_begin)
void PARMCI_Access_end(void*) { guard_void("ARMCI_Access_end", [] { require_init("ARMCI_Access_end"); }); }
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_Access_end)

void ARMCI_Copy(void* src, void* dst, int size) { copy("ARMCI_Copy", src, dst, size); }
void ARMCI_Copy_c(void* src, void* dst, size_t size) { copy("ARMCI_Copy_c", src, dst, size); }
