// GA's memory accounting: the per-process limit on GA memory (GA_Initialize_ltd,
// GA_Set_memory_limit) that array creation, duplication and GA_Getmem are charged against, and
// GA_Getmem/GA_Freemem, GA-managed memory outside arrays. GA_Memory_avail, GA_Inquire_memory and
// GA_Print_stats report from here.
#include <algorithm>
#include <cstdint>
#include <map>
#include <span>
#include <utility>
#include <vector>

#include "armada/rma/collectives.hpp"
#include "armada/rma/memory.hpp"
#include "base/call.hpp"
#include "base/types.hpp"
#include "create/handles.hpp"
#include "groups/groups.hpp"
#include "memory/accounting.hpp"

using namespace armada;
using namespace armada::ga;

namespace {

struct Accounting {
  bool limited = false;
  std::size_t limit = 0;         // bytes per process, when limited
  std::size_t array_bytes = 0;   // held by live arrays (their blocks with ghost frames)
  std::size_t getmem_bytes = 0;  // held by GA_Getmem
  std::size_t peak = 0;          // most held at once
  std::size_t held() const { return array_bytes + getmem_bytes; }
};
Accounting g_memory;

// GA_Getmem's blocks by local address: their group (GA_Freemem frees collectively on it), size,
// and place in the order of allocation (GA_Terminate frees what is left in that order, which
// is the same on every member of each group).
struct GetmemBlock {
  rma::Group group;
  std::size_t bytes;
  std::uint64_t order;
};
std::map<void*, GetmemBlock> g_getmem;
std::uint64_t g_getmem_count = 0;

/// GA passes the limit as a size_t that it reads as a signed count: a value that is negative
/// there ((size_t)-1, say) removes the limit.
void set_limit(std::size_t limit) {
  g_memory.limited = static_cast<std::int64_t>(limit) >= 0;
  g_memory.limit = g_memory.limited ? limit : 0;
}

std::size_t available() {
  if (!g_memory.limited) return static_cast<std::size_t>(-1);  // GA's -1: no bound is known
  return g_memory.limit > g_memory.held() ? g_memory.limit - g_memory.held() : 0;
}

/// GA_Getmem's group: GA reads a handle <= 0 as the world (its programs pass 0).
rma::Group getmem_group(const char* function, int grp_id) {
  return grp_id <= 0 ? rma::Group::world() : group(function, grp_id);
}

void* getmem(const char* function, int type, int nelem, int grp_id) {
  return guarded(function, [&]() -> void* {
    require_initialized(function);
    const std::size_t esize = arrays::size_of(elem_type(function, type));
    if (nelem < 0) bad_argument(function, "nelem", std::to_string(nelem), "must be >= 0");
    const rma::Group g = getmem_group(function, grp_id);
    // Every member gets memory of its own, also for nelem = 0 (GA_Freemem finds it by address).
    const std::size_t bytes = std::max<std::size_t>(static_cast<std::size_t>(nelem) * esize, 64);
    if (!charge_memory(g, bytes, MemoryUse::getmem))
      bad_argument(function, "nelem", std::to_string(nelem),
                   "exceeds GA's memory limit on some process of the group (GA_Set_memory_limit; " +
                       std::to_string(available()) + " bytes left here)");
    void* mine = rma::allocate(bytes, g)[static_cast<std::size_t>(g.rank())];
    g_getmem.emplace(mine, GetmemBlock{g, bytes, g_getmem_count++});
    return mine;
  });
}

void freemem(const char* function, void* ptr) {
  guarded(function, [&] {
    const auto it = g_getmem.find(ptr);
    if (it == g_getmem.end())
      bad_argument(function, "ptr", ptr ? "a pointer GA_Getmem did not return" : "NULL",
                   "not memory from GA_Getmem, or freed already");
    const GetmemBlock block = it->second;
    g_getmem.erase(it);
    rma::free(ptr, block.group);
    refund_memory(block.bytes, MemoryUse::getmem);
  });
}

}  // namespace

namespace armada::ga {

bool charge_memory(const rma::Group& g, std::size_t bytes, MemoryUse use) {
  int fits = !g_memory.limited || bytes <= available() ? 1 : 0;
  rma::allreduce(std::span<int>(&fits, 1), rma::ReduceOp::Min, g);
  if (!fits) return false;
  (use == MemoryUse::array ? g_memory.array_bytes : g_memory.getmem_bytes) += bytes;
  g_memory.peak = std::max(g_memory.peak, g_memory.held());
  return true;
}

void refund_memory(std::size_t bytes, MemoryUse use) {
  std::size_t& held = use == MemoryUse::array ? g_memory.array_bytes : g_memory.getmem_bytes;
  held -= std::min(held, bytes);
}

std::size_t peak_memory() { return g_memory.peak; }

void reset_memory_accounting() {
  std::vector<std::pair<std::uint64_t, void*>> left;
  for (const auto& [ptr, block] : g_getmem) left.emplace_back(block.order, ptr);
  std::sort(left.begin(), left.end());
  for (const auto& [order, ptr] : left) rma::free(ptr, g_getmem.at(ptr).group);
  g_getmem.clear();
  g_memory = Accounting{};
}

}  // namespace armada::ga

extern "C" {

void GA_Initialize_ltd(size_t limit) {
  GA_Initialize();
  set_limit(limit);
}
void GA_Set_memory_limit(size_t limit) { set_limit(limit); }
void NGA_Set_memory_limit(size_t limit) { set_limit(limit); }
int GA_Memory_limited(void) { return g_memory.limited ? 1 : 0; }
size_t GA_Memory_avail(void) { return available(); }
size_t NGA_Memory_avail(void) { return available(); }
size_t GA_Inquire_memory(void) { return g_memory.array_bytes; }

void GA_Register_stack_memory(void* (*ext_alloc)(size_t, int, char*), void (*ext_free)(void*)) {
  guarded("GA_Register_stack_memory", [&] {
    if (!ext_alloc) bad_argument("GA_Register_stack_memory", "ext_alloc", "NULL", "an allocation function is required");
    if (!ext_free) bad_argument("GA_Register_stack_memory", "ext_free", "NULL", "a free function is required");
  });
}
// GA sets buffers aside for the gather/scatter of up to nelems elements; Armada's need none, so
// only the pairing is checked.
namespace {
bool g_gatscat_buf = false;
}
void NGA_Alloc_gatscat_buf(int nelems) {
  guarded("NGA_Alloc_gatscat_buf", [&] {
    if (nelems < 0) bad_argument("NGA_Alloc_gatscat_buf", "nelems", std::to_string(nelems), "must be >= 0");
    if (g_gatscat_buf)
      throw rma::StateError("NGA_Alloc_gatscat_buf",
                            rma::error_message("NGA_Alloc_gatscat_buf", "a buffer is set aside already (NGA_Free_gatscat_buf first)"));
    g_gatscat_buf = true;
  });
}
void NGA_Free_gatscat_buf(void) {
  guarded("NGA_Free_gatscat_buf", [] {
    if (!g_gatscat_buf)
      throw rma::StateError("NGA_Free_gatscat_buf",
                            rma::error_message("NGA_Free_gatscat_buf", "no buffer was set aside (NGA_Alloc_gatscat_buf)"));
    g_gatscat_buf = false;
  });
}

void* GA_Getmem(int type, int nelem, int grp_id) { return getmem("GA_Getmem", type, nelem, grp_id); }
void GA_Freemem(void* ptr) { freemem("GA_Freemem", ptr); }

}  // extern "C"
