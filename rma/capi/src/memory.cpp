// Memory: collective allocation on the world or a group, local allocation, access epochs and
// local copies.
#include <algorithm>
#include <cstring>
#include <string>

#include "internal.hpp"

namespace armada::armci {

namespace {

/// Collective over the group: allocates `bytes` here and stores every member's base (NULL for
/// a zero-size slice) in base_ptrs, indexed by group rank.
void allocate(const char* function, void** base_ptrs, armci_size_t bytes, const GroupInfo& info) {
  not_null(function, "base_ptrs", base_ptrs);
  const std::size_t mine = to_size(function, "bytes", bytes);
  // When every member asks for 0 bytes there is nothing to allocate and nothing ARMCI_Free
  // could name later (rma::free learns the segment from a non-null base): answer it here.
  // The call's first collective: it waits serving this rank's node (rma::wait_serving), since a
  // member on its way here may first need a request only this process executes.
  unsigned long long most = mine;
  MPI_Request request;
  check_mpi(function, "MPI_Iallreduce",
            MPI_Iallreduce(MPI_IN_PLACE, &most, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, info.comm, &request));
  rma::wait_serving(request, function);
  if (most == 0) {
    std::fill_n(base_ptrs, info.group.size(), nullptr);
    return;
  }
  const std::vector<void*> bases = rma::allocate(mine, info.group);
  std::copy(bases.begin(), bases.end(), base_ptrs);
}

/// Collective over the group that allocated `ptr` (NULL on ranks with a zero-size slice).
void release(const char* function, void* ptr, const GroupInfo& info) {
  int any = ptr != nullptr;
  MPI_Request request;  // waits serving, as allocate's
  check_mpi(function, "MPI_Iallreduce", MPI_Iallreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_LOR, info.comm, &request));
  rma::wait_serving(request, function);
  if (any) rma::free(ptr, info.group);  // else: the 0-bytes-everywhere allocation above
}

/// The group of a call: the world, or the ARMCI_Group argument (looked up inside the guard).
struct Target {
  const ARMCI_Group* group = nullptr;  // null: the world
  GroupInfo resolve(const char* function) const {
    return group ? group_of(function, "group", group) : world_group(function);
  }
};

int malloc_on(const char* function, void** base_ptrs, armci_size_t bytes, Target target) noexcept {
  return guard(function, [&] { allocate(function, base_ptrs, bytes, target.resolve(function)); });
}

int free_on(const char* function, void* ptr, Target target) noexcept {
  return guard(function, [&] { release(function, ptr, target.resolve(function)); });
}

template <class Count>
void copy(const char* function, void* src, void* dst, Count size) noexcept {
  guard_void(function, [&] {
    const std::size_t n = to_size(function, "size", size);
    if (n) std::memmove(not_null(function, "dst", dst), not_null(function, "src", src), n);
  });
}

}  // namespace
}  // namespace armada::armci

using namespace armada::armci;

ARMCI_TWIN(int, ARMCI_Malloc, (void** base_ptrs, armci_size_t size)) {
  return malloc_on("ARMCI_Malloc", base_ptrs, size, {});
}
ARMCI_TWIN(int, ARMCI_Free, (void* ptr)) { return free_on("ARMCI_Free", ptr, {}); }

int ARMCI_Malloc_group(void** ptr_arr, armci_size_t bytes, ARMCI_Group* group) {
  return malloc_on("ARMCI_Malloc_group", ptr_arr, bytes, {group});
}
int ARMCI_Free_group(void* ptr, ARMCI_Group* group) { return free_on("ARMCI_Free_group", ptr, {group}); }

// The device (a SICM memory placement hint of ARMCI-MPI) has no meaning here.
ARMCI_TWIN(int, ARMCI_Malloc_memdev, (void** ptr_arr, armci_size_t bytes, const char*)) {
  return malloc_on("ARMCI_Malloc_memdev", ptr_arr, bytes, {});
}
ARMCI_TWIN(int, ARMCI_Malloc_group_memdev, (void** ptr_arr, armci_size_t bytes, ARMCI_Group* group, const char*)) {
  return malloc_on("ARMCI_Malloc_group_memdev", ptr_arr, bytes, {group});
}
ARMCI_TWIN(int, ARMCI_Free_memdev, (void* ptr)) { return free_on("ARMCI_Free_memdev", ptr, {}); }

// Local buffers: any memory may be a source or destination; these are page aligned. A size of
// 0 gives NULL.
ARMCI_TWIN(void*, ARMCI_Malloc_local, (armci_size_t size)) {
  constexpr const char* fn = "ARMCI_Malloc_local";
  return guard_value(fn, static_cast<void*>(nullptr), [&] { return rma::allocate_local(to_size(fn, "size", size)); });
}
ARMCI_TWIN(int, ARMCI_Free_local, (void* ptr)) {
  return guard("ARMCI_Free_local", [&] { rma::free_local(ptr); });
}

// A process's own slices are always directly accessible (no window epoch to open), so access
// epochs only check that ARMCI is up.
ARMCI_TWIN(void, ARMCI_Access_begin, (void*)) {
  guard_void("ARMCI_Access_begin", [] { require_init("ARMCI_Access_begin"); });
}
ARMCI_TWIN(void, ARMCI_Access_end, (void*)) {
  guard_void("ARMCI_Access_end", [] { require_init("ARMCI_Access_end"); });
}

// Local copies; the regions may overlap.
void ARMCI_Copy(void* src, void* dst, int size) { copy("ARMCI_Copy", src, dst, size); }
void ARMCI_Copy_c(void* src, void* dst, size_t size) { copy("ARMCI_Copy_c", src, dst, size); }
