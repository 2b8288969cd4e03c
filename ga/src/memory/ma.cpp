// MA, GA's memory allocator, whole (macdecls.h): blocks named by handles, a stack of them (popped
// newest first, or chopped) and heap blocks, all in the one segment MA_init reserves
// (ma_segment.hpp), each with MA's index from the base of its type. The Fortran API
// (ga/fortran/memory.cpp) calls these same functions: one table of blocks, and one index per
// block whichever side allocated it (the MT_F_* bases are the Fortran common blocks).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "base/call.hpp"
#include "macdecls.h"
#include "memory/ma_segment.hpp"

using namespace armada;
using namespace armada::ga;

// Aligned beyond their element so that MA_set_numalign's alignments up to 64 bytes keep every
// block a whole number of elements from its base.
alignas(64) char ma_cb_char[2];
alignas(64) int ma_cb_int[2];
alignas(64) long ma_cb_long[2];
alignas(64) long long ma_cb_longlong[2];
alignas(64) float ma_cb_float[2];
alignas(64) double ma_cb_dbl[2];
alignas(64) MA_LongDouble ma_cb_ldbl[2];
alignas(64) MA_SingleComplex ma_cb_scpl[2];
alignas(64) MA_DoubleComplex ma_cb_dcpl[2];
alignas(64) MA_LongDoubleComplex ma_cb_ldcpl[2];

namespace {

struct TypeInfo {
  const char* name;  // as MA's reports name it
  std::size_t size;
  std::size_t align;
  char* base;  // index = (address - base) / size
};

// MT_BASE + i. The MT_F_* entries stand on the C arrays until the Fortran library informs MA of
// its common blocks (ma_inform_base).
TypeInfo g_types[] = {
    {"char", 1, 1, ma_cb_char},
    {"int", sizeof(int), alignof(int), reinterpret_cast<char*>(ma_cb_int)},
    {"long int", sizeof(long), alignof(long), reinterpret_cast<char*>(ma_cb_long)},
    {"float", sizeof(float), alignof(float), reinterpret_cast<char*>(ma_cb_float)},
    {"double", sizeof(double), alignof(double), reinterpret_cast<char*>(ma_cb_dbl)},
    {"long double", sizeof(MA_LongDouble), alignof(MA_LongDouble), reinterpret_cast<char*>(ma_cb_ldbl)},
    {"single precision complex", sizeof(MA_SingleComplex), 8, reinterpret_cast<char*>(ma_cb_scpl)},
    {"double precision complex", sizeof(MA_DoubleComplex), 16, reinterpret_cast<char*>(ma_cb_dcpl)},
    {"long double precision complex", sizeof(MA_LongDoubleComplex), 16, reinterpret_cast<char*>(ma_cb_ldcpl)},
    {"byte", 1, 1, ma_cb_char},
    {"integer", sizeof(Integer), alignof(Integer), reinterpret_cast<char*>(ma_cb_long)},
    {"logical", sizeof(Integer), alignof(Integer), reinterpret_cast<char*>(ma_cb_long)},
    {"real", sizeof(float), alignof(float), reinterpret_cast<char*>(ma_cb_float)},
    {"double precision", sizeof(double), alignof(double), reinterpret_cast<char*>(ma_cb_dbl)},
    {"single precision complex", sizeof(MA_SingleComplex), 8, reinterpret_cast<char*>(ma_cb_scpl)},
    {"double precision complex", sizeof(MA_DoubleComplex), 16, reinterpret_cast<char*>(ma_cb_dcpl)},
    {"long long", sizeof(long long), alignof(long long), reinterpret_cast<char*>(ma_cb_longlong)},
};
constexpr Integer kTypeCount = sizeof(g_types) / sizeof(g_types[0]);

bool valid_type(Integer type) { return type >= MT_BASE && type < MT_BASE + kTypeCount; }

const TypeInfo& type_info(const char* function, Integer type) {
  if (!valid_type(type))
    bad_argument(function, "datatype", std::to_string(type),
                 "not an MA type (MT_C_CHAR .. MT_C_LONGLONG, MT_F_BYTE .. MT_F_DCPL: 1000 .. 1016)");
  return g_types[type - MT_BASE];
}

struct Block {
  char* data = nullptr;  // null once freed
  Integer type = 0;
  Integer nelem = 0;
  bool on_stack = false;
  char name[MA_NAMESIZE] = {};
  std::size_t live_at = 0;  // its row in g_live
  std::size_t bytes() const { return static_cast<std::size_t>(nelem) * g_types[type - MT_BASE].size; }
};
std::vector<Block> g_blocks;         // handle = index
std::vector<Integer> g_free_handles;  // of freed blocks, given out again (as MA's table does)
std::vector<Integer> g_stack;         // handles, newest last
MaSegment g_segment;                  // reserved by MA_init

/// The live blocks packed in one array: what the check before every call walks under
/// MA_set_auto_verify(MA_TRUE), which NWChem turns on (g_blocks also holds freed handles' slots).
struct LiveBlock {
  const char* data;
  std::size_t bytes;
  Integer handle;
};
std::vector<LiveBlock> g_live;

// MA's defaults: no automatic verification, errors not fatal, errors printed, no trace.
Boolean g_ma_auto_verify = MA_FALSE;
Boolean g_ma_hard_fail = MA_FALSE;
Boolean g_ma_error_print = MA_TRUE;
bool g_trace = false;
Integer g_numalign = 0;
void (*g_terminate)(const char*, int) = nullptr;  // MA_set_error_callback  // blocks start on 2^g_numalign bytes (0: their element's alignment)

// MA_print_stats's counts: per public routine, and the blocks and bytes of each region.
enum Routine {
  kAllocGet, kAllocateHeap, kChopStack, kFreeHeap, kFreeHeapPiece, kGetIndex, kGetMbase, kGetNextMemhandle,
  kGetNumalign, kGetPointer, kInit, kInitialized, kInitMemhandleIterator, kInquireAvail, kInquireHeap,
  kInquireHeapCheckStack, kInquireHeapNoPartition, kInquireStack, kInquireStackCheckHeap,
  kInquireStackNoPartition, kPopStack, kPrintStats, kPushGet, kPushStack, kSetAutoVerify, kSetErrorPrint,
  kSetHardFail, kSetNumalign, kSizeof, kSizeofOverhead, kSummarizeAllocatedBlocks, kTrace,
  kVerifyAllocatorStuff, kRoutineCount
};
const char* const kRoutineNames[kRoutineCount] = {
    "MA_alloc_get", "MA_allocate_heap", "MA_chop_stack", "MA_free_heap", "MA_free_heap_piece", "MA_get_index",
    "MA_get_mbase", "MA_get_next_memhandle", "MA_get_numalign", "MA_get_pointer", "MA_init", "MA_initialized",
    "MA_init_memhandle_iterator", "MA_inquire_avail", "MA_inquire_heap", "MA_inquire_heap_check_stack",
    "MA_inquire_heap_no_partition", "MA_inquire_stack", "MA_inquire_stack_check_heap",
    "MA_inquire_stack_no_partition", "MA_pop_stack", "MA_print_stats", "MA_push_get", "MA_push_stack",
    "MA_set_auto_verify", "MA_set_error_print", "MA_set_hard_fail", "MA_set_numalign", "MA_sizeof",
    "MA_sizeof_overhead", "MA_summarize_allocated_blocks", "MA_trace", "MA_verify_allocator_stuff"};
struct Region {
  std::size_t blocks = 0, blocks_max = 0, bytes = 0, bytes_max = 0;
  void add(std::size_t b) {
    blocks_max = std::max(blocks_max, ++blocks);
    bytes_max = std::max(bytes_max, bytes += b);
  }
  void remove(std::size_t b) {
    --blocks;
    bytes -= b;
  }
};
struct Stats {
  unsigned long calls[kRoutineCount] = {};
  Region heap, stack;
} g_stats;

std::vector<Integer> g_iterators;  // per iterator handle, the next block handle it looks at

/// The error of a count `argument` = nelem of `size`-byte elements whose size in bytes does not
/// fit a 64-bit size (it once wrapped: MA gave a block of a few bytes, which the program wrote past).
[[noreturn]] void size_overflows(const char* function, const char* argument, Integer nelem, std::size_t size) {
  bad_argument(function, argument, std::to_string(nelem),
               std::to_string(nelem) + " elements of " + std::to_string(size) + " bytes overflow a 64-bit size");
}

/// What MA reports without ending the job (no room, not initialized): printed on stderr unless
/// MA_set_error_print(MA_FALSE), fatal after MA_set_hard_fail(MA_TRUE), else MA_FALSE.
Boolean refuse(const char* function, const std::string& argument, const std::string& value, const std::string& why) {
  if (g_ma_hard_fail) {
    if (g_terminate) {  // MA_set_error_callback's function ends the job, as MA's calls it
      std::fprintf(stderr, "%s: %s = %s: %s\n", function, argument.c_str(), value.c_str(), why.c_str());
      g_terminate("MA aborting", 0);
    }
    bad_argument(function, argument, value, why);
  }
  if (g_ma_error_print) std::fprintf(stderr, "%s: %s = %s: %s\n", function, argument.c_str(), value.c_str(), why.c_str());
  return MA_FALSE;
}

bool verify();  // MA_verify_allocator_stuff

/// Every live block's two guards are intact.
bool guards_intact() {
  for (const LiveBlock& l : g_live)
    if (!MaSegment::left_guard_ok(l.data) || !MaSegment::right_guard_ok(l.data, l.bytes)) return false;
  return true;
}

/// Every public routine starts here: counted, and with MA_set_auto_verify(MA_TRUE) the
/// allocator checked first (false: it is damaged, verify() has said where, and the routine
/// returns its failure, as MA's).
bool enter(Routine r) {
  ++g_stats.calls[r];
  return !g_ma_auto_verify || guards_intact() || verify();
}

MaPlacement placement(const TypeInfo& t) {
  const std::size_t align = std::max<std::size_t>(t.align, std::size_t{1} << g_numalign);
  return MaPlacement::of(t.size, align, reinterpret_cast<std::uintptr_t>(t.base));
}

std::size_t checked_bytes(const char* function, const TypeInfo& t, Integer nelem) {
  if (nelem < 0) bad_argument(function, "nelem", std::to_string(nelem), "must be >= 0");
  std::size_t bytes = 0;
  if (__builtin_mul_overflow(static_cast<std::size_t>(nelem), t.size, &bytes) || bytes > static_cast<std::size_t>(PTRDIFF_MAX))
    size_overflows(function, "nelem", nelem, t.size);
  return bytes;
}

Integer new_handle(const Block& b) {
  Integer h = static_cast<Integer>(g_blocks.size());
  if (g_free_handles.empty()) {
    g_blocks.push_back(b);
  } else {
    h = g_free_handles.back();
    g_free_handles.pop_back();
    g_blocks[static_cast<std::size_t>(h)] = b;
  }
  g_blocks[static_cast<std::size_t>(h)].live_at = g_live.size();
  g_live.push_back({b.data, b.bytes(), h});
  return h;
}

void forget(Integer handle) {
  const std::size_t row = g_blocks[static_cast<std::size_t>(handle)].live_at;
  g_live[row] = g_live.back();  // the last row moves into the freed one
  g_blocks[static_cast<std::size_t>(g_live[row].handle)].live_at = row;
  g_live.pop_back();
  g_blocks[static_cast<std::size_t>(handle)] = Block{};
  g_free_handles.push_back(handle);
}

/// A new block's handle, or -1 after refuse().
Integer allocate(const char* function, Integer datatype, Integer nelem, const char* name, bool on_stack) {
  const TypeInfo& t = type_info(function, datatype);
  const std::size_t bytes = checked_bytes(function, t, nelem);
  if (!g_segment.reserved())
    return refuse(function, "nelem", std::to_string(nelem), "MA is not initialized (call MA_init, ma_init from Fortran, first)"), -1;
  if (g_trace) std::printf("MA: %s '%s' (%ld)\n", on_stack ? "pushing" : "allocating", name ? name : "", static_cast<long>(nelem));
  char* p = on_stack ? g_segment.push(bytes, placement(t)) : g_segment.allocate(bytes, placement(t));
  if (!p) {
    refuse(function, "nelem", std::to_string(nelem),
           std::to_string(bytes) + " bytes do not fit: " + std::to_string(g_segment.available()) + " of MA_init's " +
               std::to_string(g_segment.size()) + " bytes are free between the " + (on_stack ? "stack" : "heap") +
               " and the " + (on_stack ? "heap" : "stack") + " (a larger MA_init)");
    return -1;
  }
  Block b{p, datatype, nelem, on_stack, {}};
  if (name) std::strncpy(b.name, name, MA_NAMESIZE - 1);
  const Integer handle = new_handle(b);
  if (on_stack) {
    g_stack.push_back(handle);
    g_stats.stack.add(bytes);
  } else {
    g_stats.heap.add(bytes);
  }
  return handle;
}

Block& block(const char* function, Integer handle) {
  if (handle < 0 || handle >= static_cast<Integer>(g_blocks.size()) || !g_blocks[static_cast<std::size_t>(handle)].data)
    bad_argument(function, "memhandle", std::to_string(handle), "not a live MA block");
  return g_blocks[static_cast<std::size_t>(handle)];
}

/// MA's index: 0-based, in elements of the block's type from that type's base (Fortran's is
/// this + 1).
MA_AccessIndex index_of(const Block& b) {
  const TypeInfo& t = g_types[b.type - MT_BASE];
  return static_cast<MA_AccessIndex>((reinterpret_cast<std::intptr_t>(b.data) - reinterpret_cast<std::intptr_t>(t.base)) /
                                     static_cast<std::intptr_t>(t.size));
}

Boolean get(const char* function, Routine r, Integer datatype, Integer nelem, const char* name, Integer* memhandle,
            MA_AccessIndex* index, bool on_stack) {
  return guarded(function, [&]() -> Boolean {
    if (!enter(r)) return MA_FALSE;
    if (!memhandle) bad_argument(function, "memhandle", "NULL", "a place for the handle is required");
    const Integer handle = allocate(function, datatype, nelem, name, on_stack);
    if (handle < 0) return MA_FALSE;
    *memhandle = handle;
    if (index) *index = index_of(g_blocks[static_cast<std::size_t>(handle)]);
    return MA_TRUE;
  });
}

/// Pops the stack's top block.
void pop_top() {
  const Integer h = g_stack.back();
  Block& b = g_blocks[static_cast<std::size_t>(h)];
  if (g_trace) std::printf("MA: popping '%s'\n", b.name);
  g_stats.stack.remove(b.bytes());
  g_stack.pop_back();
  g_segment.pop();
  forget(h);
}

// ---- diagnostics ------------------------------------------------------------------------------

/// One block of MA_summarize_allocated_blocks, with MA's index from `index_base` (C 0, Fortran 1).
void print_block(Integer handle, const Block& b, int index_base) {
  const TypeInfo& t = g_types[b.type - MT_BASE];
  std::printf("%s block '%s', handle %ld:\n", b.on_stack ? "stack" : "heap", b.name, static_cast<long>(handle));
  std::printf("\ttype of elements:\t\t%s\n", t.name);
  std::printf("\tnumber of elements:\t\t%ld\n", static_cast<long>(b.nelem));
  std::printf("\taddress of client space:\t%p\n", static_cast<void*>(b.data));
  std::printf("\tindex for client space:\t\t%ld\n", static_cast<long>(index_of(b) + index_base));
  std::printf("\ttotal number of bytes:\t\t%zu\n", b.bytes());
}

bool verify() {
  int blocks[2] = {}, bad[2] = {}, left[2] = {}, right[2] = {};
  bool header = false;
  for (std::size_t h = 0; h < g_blocks.size(); ++h) {
    const Block& b = g_blocks[h];
    if (!b.data) continue;
    const int region = b.on_stack ? 1 : 0;
    ++blocks[region];
    const bool l = MaSegment::left_guard_ok(b.data), r = MaSegment::right_guard_ok(b.data, b.bytes());
    if (l && r) continue;
    if (!header) std::printf("MA_verify_allocator_stuff: starting scan ...\n");
    header = true;
    ++bad[region];
    left[region] += !l;
    right[region] += !r;
    std::printf("%s block '%s', handle %zu, index %ld:%s%s\n", region ? "stack" : "heap", b.name, h,
                static_cast<long>(index_of(b)), l ? "" : " its left signature is overwritten",
                r ? "" : " its right signature is overwritten (written past its end)");
  }
  const bool table_ok = g_stack.size() == static_cast<std::size_t>(blocks[1]) &&
                        g_live.size() == static_cast<std::size_t>(blocks[0] + blocks[1]) && g_segment.consistent();
  if (bad[0] + bad[1] == 0 && table_ok) return true;
  if (header) std::printf("MA_verify_allocator_stuff: scan completed\n");
  std::fprintf(stderr,
               "MA_verify_allocator_stuff: MA's blocks are damaged\n\t\t\t\theap\tstack\n"
               "\tleft signature errors\t%4d\t%5d\n\tright signature errors\t%4d\t%5d\n"
               "\ttotal bad blocks\t%4d\t%5d\n\ttotal blocks\t\t%4d\t%5d\n%s",
               left[0], left[1], right[0], right[1], bad[0], bad[1], blocks[0], blocks[1],
               table_ok ? "" : "\tMA's own tables disagree (stack or heap bookkeeping)\n");
  return false;
}

// ---- MA_inquire_* -----------------------------------------------------------------------------

/// The most elements of `t` one heap block can take in a hole left by freed heap blocks.
Integer largest_hole(const TypeInfo& t) {
  std::size_t best = 0;
  for (const auto& [lo, hi] : g_segment.heap_holes())
    best = std::max(best, MaSegment::fit_from_low(lo, hi, t.size, placement(t)));
  return static_cast<Integer>(best);
}

enum class Inquiry { avail, heap, heap_check_stack, heap_no_partition, stack, stack_check_heap, stack_no_partition };

/// GA's answers: the heap's share is [heap top, partition), the stack's [partition, stack low);
/// the partition MA_init drew is not enforced, so "check" forms also bound by the other region
/// and "no_partition" forms ignore it; the heap forms also count holes between heap blocks.
Integer inquire(const char* function, Routine r, Integer datatype, Inquiry what) {
  return guarded(function, [&]() -> Integer {
    const TypeInfo& t = type_info(function, datatype);
    if (!enter(r)) return 0;
    if (!g_segment.reserved())
      return refuse(function, "datatype", std::to_string(datatype), "MA is not initialized (call MA_init first)");
    const std::uintptr_t hp = g_segment.heap_high(), sp = g_segment.stack_low(), part = g_segment.partition();
    const MaPlacement where = placement(t);
    switch (what) {
      case Inquiry::avail:
      case Inquiry::stack_no_partition:
        return static_cast<Integer>(MaSegment::fit_from_high(hp, sp, t.size, where));
      case Inquiry::heap:
        return std::max(static_cast<Integer>(MaSegment::fit_from_low(hp, part, t.size, where)), largest_hole(t));
      case Inquiry::heap_check_stack:
        return std::max(static_cast<Integer>(MaSegment::fit_from_low(hp, std::min(part, sp), t.size, where)),
                        largest_hole(t));
      case Inquiry::heap_no_partition:
        return std::max(static_cast<Integer>(MaSegment::fit_from_low(hp, sp, t.size, where)), largest_hole(t));
      case Inquiry::stack:
        return static_cast<Integer>(MaSegment::fit_from_high(part, sp, t.size, where));
      case Inquiry::stack_check_heap:
        return static_cast<Integer>(MaSegment::fit_from_high(std::max(part, hp), sp, t.size, where));
    }
    return 0;
  });
}

/// A region's bytes as MA_init sizes it: `nominal` elements of `t` and one block's overhead
/// (guards and the placement's worst padding), as GA's MA adds one per region; MA_DEFAULT_SPACE
/// gives MA's default 2^19 bytes.
std::size_t region_bytes(const char* argument, Integer nominal, const TypeInfo& t) {
  if (nominal == MA_DEFAULT_SPACE) return std::size_t{1} << 19;
  if (nominal < 0)
    bad_argument("MA_init", argument, std::to_string(nominal), "must be >= 0, or MA_DEFAULT_SPACE (-1)");
  std::size_t bytes = 0;
  const std::size_t overhead = 2 * kMaGuardBytes + placement(t).modulus - 1;
  if (__builtin_mul_overflow(static_cast<std::size_t>(nominal), t.size, &bytes) ||
      __builtin_add_overflow(bytes, overhead, &bytes) || bytes > static_cast<std::size_t>(PTRDIFF_MAX) / 2)
    size_overflows("MA_init", argument, nominal, t.size);
  return bytes;
}

}  // namespace

void armada::ga::ma_inform_base(long datatype, const void* first, const void* second) {
  if (datatype < MT_F_BYTE || datatype > MT_F_DCPL || !g_segment.empty()) return;  // blocks keep their base
  TypeInfo& t = g_types[datatype - MT_BASE];
  t.base = static_cast<char*>(const_cast<void*>(first));
  t.size = t.align = static_cast<std::size_t>(static_cast<const char*>(second) - static_cast<const char*>(first));
}

extern "C" {

Boolean MA_init(Integer datatype, Integer nominal_stack, Integer nominal_heap) {
  return guarded("MA_init", [&]() -> Boolean {
    if (!enter(kInit)) return MA_FALSE;
    const TypeInfo& t = type_info("MA_init", datatype);
    const std::size_t stack = region_bytes("nominal_stack", nominal_stack, t);
    const std::size_t heap = region_bytes("nominal_heap", nominal_heap, t);
    if (!g_segment.empty())
      return refuse("MA_init", "datatype", std::to_string(datatype),
                    "MA is initialized and has live blocks (free them before a new MA_init)");
    if (!g_segment.reserve(stack + heap, heap))
      return refuse("MA_init", "nominal_heap", std::to_string(nominal_heap),
                    "the system refused to reserve the " + std::to_string(stack + heap) + " bytes of the stack and heap");
    g_blocks.clear();
    g_free_handles.clear();
    g_live.clear();
    g_stack.clear();
    return MA_TRUE;
  });
}
Boolean MA_initialized(void) {
  ++g_stats.calls[kInitialized];
  return g_segment.reserved() ? MA_TRUE : MA_FALSE;
}

// MA's debugging switches: each stores its flag and returns the previous one, as MA's.
Boolean MA_set_auto_verify(Integer value) {
  ++g_stats.calls[kSetAutoVerify];
  const Boolean old = g_ma_auto_verify;
  g_ma_auto_verify = value ? MA_TRUE : MA_FALSE;
  return old;
}
Boolean MA_set_hard_fail(Integer value) {
  ++g_stats.calls[kSetHardFail];
  const Boolean old = g_ma_hard_fail;
  g_ma_hard_fail = value ? MA_TRUE : MA_FALSE;
  return old;
}
Boolean MA_set_error_print(Integer value) {
  ++g_stats.calls[kSetErrorPrint];
  const Boolean old = g_ma_error_print;
  g_ma_error_print = value ? MA_TRUE : MA_FALSE;
  return old;
}
Boolean MA_set_numalign(Integer value) {
  ++g_stats.calls[kSetNumalign];
  if (value < 0 || value > 30)
    return refuse("MA_set_numalign", "value", std::to_string(value), "must be in 0 .. 30 (blocks on 2^value bytes)");
  g_numalign = value;
  return MA_TRUE;
}
Boolean MA_get_numalign(Integer* value) {
  return guarded("MA_get_numalign", [&]() -> Boolean {
    ++g_stats.calls[kGetNumalign];
    if (!value) bad_argument("MA_get_numalign", "value", "NULL", "a place for the alignment is required");
    *value = g_numalign;
    return MA_TRUE;
  });
}
void MA_set_error_callback(void (*func)(const char*, int)) { g_terminate = func; }
void MA_trace(Boolean value) {
  ++g_stats.calls[kTrace];
  g_trace = value != MA_FALSE;
}

Boolean MA_push_get(Integer datatype, Integer nelem, const char* name, Integer* memhandle, MA_AccessIndex* index) {
  return get("MA_push_get", kPushGet, datatype, nelem, name, memhandle, index, true);
}
Boolean MA_push_stack(Integer datatype, Integer nelem, const char* name, Integer* memhandle) {
  return get("MA_push_stack", kPushStack, datatype, nelem, name, memhandle, nullptr, true);
}
Boolean MA_alloc_get(Integer datatype, Integer nelem, const char* name, Integer* memhandle, MA_AccessIndex* index) {
  return get("MA_alloc_get", kAllocGet, datatype, nelem, name, memhandle, index, false);
}
Boolean MA_allocate_heap(Integer datatype, Integer nelem, const char* name, Integer* memhandle) {
  return get("MA_allocate_heap", kAllocateHeap, datatype, nelem, name, memhandle, nullptr, false);
}

Boolean MA_pop_stack(Integer memhandle) {
  return guarded("MA_pop_stack", [&]() -> Boolean {
    if (!enter(kPopStack)) return MA_FALSE;
    const Block& b = block("MA_pop_stack", memhandle);
    if (g_stack.empty() || g_stack.back() != memhandle)
      bad_argument("MA_pop_stack", "memhandle", std::to_string(memhandle),
                   b.on_stack ? "not the top of the stack (pop the newest block first, or MA_chop_stack)"
                              : "a heap block (MA_free_heap)");
    pop_top();
    return MA_TRUE;
  });
}
// Pops `memhandle` and every stack block pushed after it.
Boolean MA_chop_stack(Integer memhandle) {
  return guarded("MA_chop_stack", [&]() -> Boolean {
    if (!enter(kChopStack)) return MA_FALSE;
    if (!block("MA_chop_stack", memhandle).on_stack)
      bad_argument("MA_chop_stack", "memhandle", std::to_string(memhandle), "a heap block (MA_free_heap)");
    while (g_stack.back() != memhandle) pop_top();
    pop_top();
    return MA_TRUE;
  });
}
Boolean MA_free_heap(Integer memhandle) {
  return guarded("MA_free_heap", [&]() -> Boolean {
    if (!enter(kFreeHeap)) return MA_FALSE;
    Block& b = block("MA_free_heap", memhandle);
    if (b.on_stack) bad_argument("MA_free_heap", "memhandle", std::to_string(memhandle), "a stack block (MA_pop_stack)");
    if (g_trace) std::printf("MA: freeing '%s'\n", b.name);
    g_stats.heap.remove(b.bytes());
    g_segment.release(b.data);
    forget(memhandle);
    return MA_TRUE;
  });
}
// Frees the last `nelem` elements of a heap block (all of it when nelem >= its size), as MA's.
Boolean MA_free_heap_piece(Integer memhandle, Integer nelem) {
  return guarded("MA_free_heap_piece", [&]() -> Boolean {
    if (!enter(kFreeHeapPiece)) return MA_FALSE;
    Block& b = block("MA_free_heap_piece", memhandle);
    if (b.on_stack)
      bad_argument("MA_free_heap_piece", "memhandle", std::to_string(memhandle), "a stack block (MA_pop_stack)");
    if (nelem < 0) bad_argument("MA_free_heap_piece", "nelem", std::to_string(nelem), "must be >= 0");
    if (nelem >= b.nelem) return MA_free_heap(memhandle);
    if (g_trace) std::printf("MA: freeing %ld elements of '%s'\n", static_cast<long>(nelem), b.name);
    const std::size_t before = b.bytes();
    b.nelem -= nelem;
    g_live[b.live_at].bytes = b.bytes();
    g_stats.heap.bytes -= before - b.bytes();
    g_segment.shrink(b.data, b.bytes());
    return MA_TRUE;
  });
}
Boolean MA_get_index(Integer memhandle, MA_AccessIndex* index) {
  return guarded("MA_get_index", [&]() -> Boolean {
    if (!enter(kGetIndex)) return MA_FALSE;
    const Block& b = block("MA_get_index", memhandle);
    if (!index) bad_argument("MA_get_index", "index", "NULL", "a place for the index is required");
    *index = index_of(b);
    return MA_TRUE;
  });
}
Boolean MA_get_pointer(Integer memhandle, void* pointer) {
  return guarded("MA_get_pointer", [&]() -> Boolean {
    if (!enter(kGetPointer)) return MA_FALSE;
    const Block& b = block("MA_get_pointer", memhandle);
    if (!pointer) bad_argument("MA_get_pointer", "pointer", "NULL", "the address of a pointer is required");
    *static_cast<void**>(pointer) = b.data;
    return MA_TRUE;
  });
}
Pointer MA_get_mbase(Integer datatype) {
  return guarded("MA_get_mbase", [&] {
    ++g_stats.calls[kGetMbase];
    return type_info("MA_get_mbase", datatype).base;
  });
}

// The iterator: every block live when MA_get_next_memhandle reaches it, once, in handle order.
Boolean MA_init_memhandle_iterator(Integer* ithandle) {
  return guarded("MA_init_memhandle_iterator", [&]() -> Boolean {
    if (!enter(kInitMemhandleIterator)) return MA_FALSE;
    if (!ithandle) bad_argument("MA_init_memhandle_iterator", "ithandle", "NULL", "a place for the iterator is required");
    g_iterators.push_back(0);
    *ithandle = static_cast<Integer>(g_iterators.size()) - 1;
    return MA_TRUE;
  });
}
Boolean MA_get_next_memhandle(Integer* ithandle, Integer* memhandle) {
  return guarded("MA_get_next_memhandle", [&]() -> Boolean {
    if (!enter(kGetNextMemhandle)) return MA_FALSE;
    if (!ithandle || *ithandle < 0 || *ithandle >= static_cast<Integer>(g_iterators.size()))
      bad_argument("MA_get_next_memhandle", "ithandle", ithandle ? std::to_string(*ithandle) : "NULL",
                   "not an iterator of MA_init_memhandle_iterator");
    if (!memhandle) bad_argument("MA_get_next_memhandle", "memhandle", "NULL", "a place for the handle is required");
    Integer& next = g_iterators[static_cast<std::size_t>(*ithandle)];
    for (; next < static_cast<Integer>(g_blocks.size()); ++next)
      if (g_blocks[static_cast<std::size_t>(next)].data) {
        *memhandle = next++;
        return MA_TRUE;
      }
    return MA_FALSE;  // no more blocks
  });
}

Integer MA_inquire_avail(Integer datatype) { return inquire("MA_inquire_avail", kInquireAvail, datatype, Inquiry::avail); }
Integer MA_inquire_heap(Integer datatype) { return inquire("MA_inquire_heap", kInquireHeap, datatype, Inquiry::heap); }
Integer MA_inquire_heap_check_stack(Integer datatype) {
  return inquire("MA_inquire_heap_check_stack", kInquireHeapCheckStack, datatype, Inquiry::heap_check_stack);
}
Integer MA_inquire_heap_no_partition(Integer datatype) {
  return inquire("MA_inquire_heap_no_partition", kInquireHeapNoPartition, datatype, Inquiry::heap_no_partition);
}
Integer MA_inquire_stack(Integer datatype) { return inquire("MA_inquire_stack", kInquireStack, datatype, Inquiry::stack); }
Integer MA_inquire_stack_check_heap(Integer datatype) {
  return inquire("MA_inquire_stack_check_heap", kInquireStackCheckHeap, datatype, Inquiry::stack_check_heap);
}
Integer MA_inquire_stack_no_partition(Integer datatype) {
  return inquire("MA_inquire_stack_no_partition", kInquireStackNoPartition, datatype, Inquiry::stack_no_partition);
}

Integer MA_sizeof(Integer datatype1, Integer nelem1, Integer datatype2) {
  return guarded("MA_sizeof", [&] {
    ++g_stats.calls[kSizeof];
    const TypeInfo& a = type_info("MA_sizeof", datatype1);
    const TypeInfo& b = type_info("MA_sizeof", datatype2);
    if (nelem1 < 0) bad_argument("MA_sizeof", "nelem1", std::to_string(nelem1), "must be >= 0");
    Integer bytes = 0;
    if (__builtin_mul_overflow(nelem1, static_cast<Integer>(a.size), &bytes))
      size_overflows("MA_sizeof", "nelem1", nelem1, a.size);
    // Rounded up without adding first, which could overflow in turn.
    const Integer size2 = static_cast<Integer>(b.size);
    return bytes / size2 + (bytes % size2 != 0 ? 1 : 0);
  });
}
// The most a block costs beyond its elements (its guards and the worst padding of any type),
// in elements of `datatype`, rounded up.
Integer MA_sizeof_overhead(Integer datatype) {
  return guarded("MA_sizeof_overhead", [&] {
    ++g_stats.calls[kSizeofOverhead];
    const TypeInfo& t = type_info("MA_sizeof_overhead", datatype);
    std::size_t worst = 0;
    for (const TypeInfo& u : g_types) worst = std::max<std::size_t>(worst, placement(u).modulus);
    const std::size_t bytes = 2 * kMaGuardBytes + worst - 1;
    return static_cast<Integer>((bytes + t.size - 1) / t.size);
  });
}

}  // extern "C"

void armada::ga::ma_summarize_allocated_blocks(int index_base) {
  guarded("MA_summarize_allocated_blocks", [&] {
    if (!enter(kSummarizeAllocatedBlocks)) return;
    std::printf("MA_summarize_allocated_blocks: starting scan ...\n");
    int counts[2] = {};
    for (int region = 0; region < 2; ++region)  // heap, then stack
      for (std::size_t h = 0; h < g_blocks.size(); ++h)
        if (g_blocks[h].data && g_blocks[h].on_stack == (region == 1)) {
          print_block(static_cast<Integer>(h), g_blocks[h], index_base);
          ++counts[region];
        }
    std::printf("MA_summarize_allocated_blocks: scan completed: %d heap block%s, %d stack block%s\n", counts[0],
                counts[0] == 1 ? "" : "s", counts[1], counts[1] == 1 ? "" : "s");
    std::fflush(stdout);
  });
}
extern "C" {

void MA_summarize_allocated_blocks(void) { ma_summarize_allocated_blocks(0); }

Boolean MA_verify_allocator_stuff(void) {
  ++g_stats.calls[kVerifyAllocatorStuff];
  const bool ok = verify();
  std::fflush(stdout);
  return ok ? MA_TRUE : MA_FALSE;
}

void MA_print_stats(Boolean printroutines) {
  ++g_stats.calls[kPrintStats];
  const Stats& s = g_stats;
  std::printf("MA usage statistics:\n\n\tallocation statistics:\n");
  std::printf("\t\t\t\t\t      heap\t     stack\n\t\t\t\t\t      ----\t     -----\n");
  std::printf("\tcurrent number of blocks\t%10zu\t%10zu\n", s.heap.blocks, s.stack.blocks);
  std::printf("\tmaximum number of blocks\t%10zu\t%10zu\n", s.heap.blocks_max, s.stack.blocks_max);
  std::printf("\tcurrent total bytes\t\t%10zu\t%10zu\n", s.heap.bytes, s.stack.bytes);
  std::printf("\tmaximum total bytes\t\t%10zu\t%10zu\n", s.heap.bytes_max, s.stack.bytes_max);
  std::printf("\tmaximum total K-bytes\t\t%10zu\t%10zu\n", (s.heap.bytes_max + 999) / 1000, (s.stack.bytes_max + 999) / 1000);
  std::printf("\tmaximum total M-bytes\t\t%10zu\t%10zu\n", (s.heap.bytes_max + 999999) / 1000000,
              (s.stack.bytes_max + 999999) / 1000000);
  if (printroutines) {
    std::printf("\n\tcalls per routine:\n");
    for (int r = 0; r < kRoutineCount; ++r) std::printf("\t\t%10lu  %s\n", s.calls[r], kRoutineNames[r]);
  }
  std::fflush(stdout);
}

}  // extern "C"
