// Handle checks, GA's debugging and sync-masking switches, and GA_Print_stats with the counters
// the one-sided operations and array creation feed.
#include <array>
#include <atomic>
#include <cstdio>

#include "base/call.hpp"
#include "create/handles.hpp"
#include "memory/accounting.hpp"
#include "services/stats.hpp"

using namespace armada;
using namespace armada::ga;

namespace {

constexpr std::size_t kStats = static_cast<std::size_t>(Stat::count_);
// Relaxed atomics: GA calls may come from several threads; the counts need no ordering.
std::array<std::atomic<std::uint64_t>, kStats> g_calls{};
std::array<std::atomic<std::uint64_t>, kStats> g_bytes{};
std::atomic<int> g_debug{0};

// The columns of GA_Print_stats, in Stat's order.
constexpr std::array<const char*, kStats> kNames = {"create", "destroy", "get",     "put",
                                                    "acc",    "scatter", "gather",  "read&inc"};

bool moves_bytes(Stat s) { return s != Stat::create && s != Stat::destroy; }

}  // namespace

namespace armada::ga {

void count_call(Stat what, std::size_t bytes) noexcept {
  const auto i = static_cast<std::size_t>(what);
  g_calls[i].fetch_add(1, std::memory_order_relaxed);
  g_bytes[i].fetch_add(bytes, std::memory_order_relaxed);
}

}  // namespace armada::ga

extern "C" {

void GA_Check_handle(int g_a, char* string) {
  // array() names the handle and why it is not valid; the program's text says where it was.
  const std::string where = std::string("GA_Check_handle (") + (string ? string : "no text") + ")";
  guarded(where.c_str(), [&] { array(where.c_str(), g_a); });
}

void GA_Set_debug(int flag) { g_debug.store(flag, std::memory_order_relaxed); }
int GA_Get_debug(void) { return g_debug.load(std::memory_order_relaxed); }

void GA_Mask_sync(int, int) {}  // every collective keeps its synchronization (ga.h)
void NGA_Mask_sync(int, int) {}

void GA_Print_stats(void) {
  guarded("GA_Print_stats", [] {
    require_initialized("GA_Print_stats");
    std::printf("GA statistics for process %d\n%-7s", GA_Nodeid(), "");
    for (const char* name : kNames) std::printf(" %10s", name);
    std::printf("\n%-7s", "calls:");
    for (const auto& c : g_calls) std::printf(" %10llu", static_cast<unsigned long long>(c.load()));
    std::printf("\n%-7s", "bytes:");
    for (std::size_t i = 0; i < kStats; ++i) {
      if (moves_bytes(static_cast<Stat>(i)))
        std::printf(" %10llu", static_cast<unsigned long long>(g_bytes[i].load()));
      else
        std::printf(" %10s", "-");
    }
    std::printf("\nMax memory consumed for GA by this process: %zu bytes\n", peak_memory());
    std::fflush(stdout);
  });
}

}  // extern "C"
