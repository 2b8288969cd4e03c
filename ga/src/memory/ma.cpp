// The subset of MA (GA's memory allocator) that GA programs call: blocks named by handles, a
// stack of them (popped newest first) and heap blocks, each with MA's index from the base array
// of its type, all in the one segment MA_init reserves (ma_segment.hpp).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "base/call.hpp"
#include "create/handles.hpp"
#include "macdecls.h"
#include "memory/ma_segment.hpp"

using namespace armada;
using namespace armada::ga;

char ma_cb_char[2];
int ma_cb_int[2];
long ma_cb_long[2];
long long ma_cb_longlong[2];
float ma_cb_float[2];
double ma_cb_dbl[2];
MA_LongDouble ma_cb_ldbl[2];
// Aligned to their size, as the Fortran API's scpl_mb/dcpl_mb (ga/fortran): a block's offset from
// either base is then a whole number of elements.
alignas(8) MA_SingleComplex ma_cb_scpl[2];
alignas(16) MA_DoubleComplex ma_cb_dcpl[2];
MA_LongDoubleComplex ma_cb_ldcpl[2];

namespace {

struct TypeInfo {
  Integer type;
  std::size_t size;
  std::size_t align;
  char* base;  // MA's base array of the type: index = (address - base) / size
};

// One table for every MA type (C and Fortran names of the same element).
const TypeInfo kTypes[] = {
    {MT_C_CHAR, 1, 1, ma_cb_char},
    {MT_C_INT, sizeof(int), alignof(int), reinterpret_cast<char*>(ma_cb_int)},
    {MT_C_LONGINT, sizeof(long), alignof(long), reinterpret_cast<char*>(ma_cb_long)},
    {MT_C_LONGLONG, sizeof(long long), alignof(long long), reinterpret_cast<char*>(ma_cb_longlong)},
    {MT_C_FLOAT, sizeof(float), alignof(float), reinterpret_cast<char*>(ma_cb_float)},
    {MT_C_DBL, sizeof(double), alignof(double), reinterpret_cast<char*>(ma_cb_dbl)},
    {MT_C_LDBL, sizeof(MA_LongDouble), alignof(MA_LongDouble), reinterpret_cast<char*>(ma_cb_ldbl)},
    {MT_C_SCPL, sizeof(MA_SingleComplex), alignof(MA_SingleComplex), reinterpret_cast<char*>(ma_cb_scpl)},
    {MT_C_DCPL, sizeof(MA_DoubleComplex), alignof(MA_DoubleComplex), reinterpret_cast<char*>(ma_cb_dcpl)},
    {MT_C_LDCPL, sizeof(MA_LongDoubleComplex), alignof(MA_LongDoubleComplex), reinterpret_cast<char*>(ma_cb_ldcpl)},
    {MT_F_BYTE, 1, 1, ma_cb_char},
    {MT_F_INT, sizeof(Integer), alignof(Integer), reinterpret_cast<char*>(ma_cb_long)},
    {MT_F_LOG, sizeof(Integer), alignof(Integer), reinterpret_cast<char*>(ma_cb_long)},
    {MT_F_REAL, sizeof(float), alignof(float), reinterpret_cast<char*>(ma_cb_float)},
    {MT_F_DBL, sizeof(double), alignof(double), reinterpret_cast<char*>(ma_cb_dbl)},
    {MT_F_SCPL, sizeof(MA_SingleComplex), alignof(MA_SingleComplex), reinterpret_cast<char*>(ma_cb_scpl)},
    {MT_F_DCPL, sizeof(MA_DoubleComplex), alignof(MA_DoubleComplex), reinterpret_cast<char*>(ma_cb_dcpl)},
};

const TypeInfo& type_info(const char* function, Integer type) {
  for (const TypeInfo& t : kTypes)
    if (t.type == type) return t;
  bad_argument(function, "datatype", std::to_string(type), "not an MA type (MT_C_CHAR .. MT_C_LONGLONG)");
}

struct Block {
  char* data = nullptr;  // null once freed
  const TypeInfo* type = nullptr;
  bool on_stack = false;
};
std::vector<Block> g_blocks;  // handle = index
std::vector<Integer> g_stack;  // handles, newest last
MaSegment g_segment;          // reserved by MA_init

// MA's defaults: no automatic verification, errors not fatal, errors printed.
Boolean g_ma_auto_verify = MA_FALSE;
Boolean g_ma_hard_fail = MA_FALSE;
Boolean g_ma_error_print = MA_TRUE;

// Room, beyond MA_init's sizes, for the padding that places each block on its element (up to two
// elements and an alignment per block) for a thousand blocks of the largest type.
constexpr std::size_t kPaddingRoom = 1000 * 96;

/// The error of a count `argument` = nelem of `size`-byte elements whose size in bytes does not
/// fit a 64-bit size (it once wrapped: MA gave a block of a few bytes, which the program wrote past).
[[noreturn]] void size_overflows(const char* function, const char* argument, Integer nelem, std::size_t size) {
  bad_argument(function, argument, std::to_string(nelem),
               std::to_string(nelem) + " elements of " + std::to_string(size) + " bytes overflow a 64-bit size");
}

/// What MA reports without ending the job (no room, not initialized): printed unless
/// MA_set_error_print(MA_FALSE), fatal after MA_set_hard_fail(MA_TRUE), else MA_FALSE.
Boolean refuse(const char* function, const std::string& argument, const std::string& value, const std::string& why) {
  if (g_ma_hard_fail) bad_argument(function, argument, value, why);
  if (g_ma_error_print) std::fprintf(stderr, "%s: %s = %s: %s\n", function, argument.c_str(), value.c_str(), why.c_str());
  return MA_FALSE;
}

/// A new block's handle, or -1 after refuse().
Integer allocate(const char* function, Integer datatype, Integer nelem, bool on_stack) {
  const TypeInfo& t = type_info(function, datatype);
  if (nelem < 0) bad_argument(function, "nelem", std::to_string(nelem), "must be >= 0");
  std::size_t bytes = 0;
  if (__builtin_mul_overflow(static_cast<std::size_t>(nelem), t.size, &bytes) || bytes > static_cast<std::size_t>(PTRDIFF_MAX))
    size_overflows(function, "nelem", nelem, t.size);
  if (!g_segment.reserved()) {
    refuse(function, "nelem", std::to_string(nelem), "MA is not initialized (call MA_init, ma_init from Fortran, first)");
    return -1;
  }
  const MaPlacement where{t.size, t.align, reinterpret_cast<std::uintptr_t>(t.base)};
  char* p = on_stack ? g_segment.push(bytes, where) : g_segment.allocate(bytes, where);
  if (!p) {
    refuse(function, "nelem", std::to_string(nelem),
           std::to_string(bytes) + " bytes do not fit: " + std::to_string(g_segment.available()) + " of MA_init's " +
               std::to_string(g_segment.size()) + " bytes are free between the " + (on_stack ? "stack" : "heap") +
               " and the " + (on_stack ? "heap" : "stack") + " (a larger MA_init)");
    return -1;
  }
  g_blocks.push_back(Block{p, &t, on_stack});
  const Integer handle = static_cast<Integer>(g_blocks.size()) - 1;
  if (on_stack) g_stack.push_back(handle);
  return handle;
}

Block& block(const char* function, Integer handle) {
  if (handle < 0 || handle >= static_cast<Integer>(g_blocks.size()) || !g_blocks[static_cast<std::size_t>(handle)].data)
    bad_argument(function, "memhandle", std::to_string(handle), "not a live MA block");
  return g_blocks[static_cast<std::size_t>(handle)];
}

MA_AccessIndex index_of(const Block& b) {
  return static_cast<MA_AccessIndex>((reinterpret_cast<std::intptr_t>(b.data) - reinterpret_cast<std::intptr_t>(b.type->base)) /
                                     static_cast<std::intptr_t>(b.type->size));
}

Boolean get(const char* function, Integer datatype, Integer nelem, Integer* memhandle, MA_AccessIndex* index,
            bool on_stack) {
  return guarded(function, [&]() -> Boolean {
    if (!memhandle) bad_argument(function, "memhandle", "NULL", "a place for the handle is required");
    const Integer handle = allocate(function, datatype, nelem, on_stack);
    if (handle < 0) return MA_FALSE;
    *memhandle = handle;
    if (index) *index = index_of(g_blocks[static_cast<std::size_t>(handle)]);
    return MA_TRUE;
  });
}

}  // namespace

extern "C" {

Boolean MA_init(Integer datatype, Integer nominal_stack, Integer nominal_heap) {
  return guarded("MA_init", [&]() -> Boolean {
    const TypeInfo& t = type_info("MA_init", datatype);
    if (nominal_stack < 0) bad_argument("MA_init", "nominal_stack", std::to_string(nominal_stack), "must be >= 0");
    if (nominal_heap < 0) bad_argument("MA_init", "nominal_heap", std::to_string(nominal_heap), "must be >= 0");
    std::size_t bytes = 0;
    if (__builtin_add_overflow(static_cast<std::size_t>(nominal_stack), static_cast<std::size_t>(nominal_heap), &bytes) ||
        __builtin_mul_overflow(bytes, t.size, &bytes) || __builtin_add_overflow(bytes, kPaddingRoom, &bytes))
      size_overflows("MA_init", "nominal_heap", nominal_heap, t.size);
    if (!g_segment.empty())
      return refuse("MA_init", "datatype", std::to_string(datatype),
                    "MA is initialized and has live blocks (free them before a new MA_init)");
    if (!g_segment.reserve(bytes))
      return refuse("MA_init", "nominal_heap", std::to_string(nominal_heap),
                    "the system refused to reserve the " + std::to_string(bytes) + " bytes of the stack and heap");
    g_blocks.clear();
    g_stack.clear();
    return MA_TRUE;
  });
}
Boolean MA_initialized(void) { return g_segment.reserved() ? MA_TRUE : MA_FALSE; }

// MA's three debugging switches: each stores its flag and returns the previous one, as MA's.
// Armada's MA checks every argument on every call and ends the job on a bad one with a message
// either way, so the flags change nothing else (docs/ga.md).
Boolean MA_set_auto_verify(Integer value) {
  const Boolean old = g_ma_auto_verify;
  g_ma_auto_verify = value ? MA_TRUE : MA_FALSE;
  return old;
}
Boolean MA_set_hard_fail(Integer value) {
  const Boolean old = g_ma_hard_fail;
  g_ma_hard_fail = value ? MA_TRUE : MA_FALSE;
  return old;
}
Boolean MA_set_error_print(Integer value) {
  const Boolean old = g_ma_error_print;
  g_ma_error_print = value ? MA_TRUE : MA_FALSE;
  return old;
}

Boolean MA_push_get(Integer datatype, Integer nelem, const char*, Integer* memhandle, MA_AccessIndex* index) {
  return get("MA_push_get", datatype, nelem, memhandle, index, true);
}
Boolean MA_push_stack(Integer datatype, Integer nelem, const char*, Integer* memhandle) {
  return get("MA_push_stack", datatype, nelem, memhandle, nullptr, true);
}
Boolean MA_alloc_get(Integer datatype, Integer nelem, const char*, Integer* memhandle, MA_AccessIndex* index) {
  return get("MA_alloc_get", datatype, nelem, memhandle, index, false);
}
Boolean MA_allocate_heap(Integer datatype, Integer nelem, const char*, Integer* memhandle) {
  return get("MA_allocate_heap", datatype, nelem, memhandle, nullptr, false);
}

Boolean MA_pop_stack(Integer memhandle) {
  return guarded("MA_pop_stack", [&]() -> Boolean {
    Block& b = block("MA_pop_stack", memhandle);
    if (g_stack.empty() || g_stack.back() != memhandle)
      bad_argument("MA_pop_stack", "memhandle", std::to_string(memhandle),
                   b.on_stack ? "not the top of the stack (pop the newest block first)" : "a heap block (MA_free_heap)");
    g_stack.pop_back();
    g_segment.pop();
    b = Block{};
    return MA_TRUE;
  });
}
Boolean MA_free_heap(Integer memhandle) {
  return guarded("MA_free_heap", [&]() -> Boolean {
    Block& b = block("MA_free_heap", memhandle);
    if (b.on_stack) bad_argument("MA_free_heap", "memhandle", std::to_string(memhandle), "a stack block (MA_pop_stack)");
    g_segment.release(b.data);
    b = Block{};
    return MA_TRUE;
  });
}
Boolean MA_get_index(Integer memhandle, MA_AccessIndex* index) {
  return guarded("MA_get_index", [&]() -> Boolean {
    const Block& b = block("MA_get_index", memhandle);
    if (index) *index = index_of(b);
    return MA_TRUE;
  });
}
Boolean MA_get_pointer(Integer memhandle, void* pointer) {
  return guarded("MA_get_pointer", [&]() -> Boolean {
    const Block& b = block("MA_get_pointer", memhandle);
    if (!pointer) bad_argument("MA_get_pointer", "pointer", "NULL", "the address of a pointer is required");
    *static_cast<void**>(pointer) = b.data;
    return MA_TRUE;
  });
}
Pointer MA_get_mbase(Integer datatype) {
  return guarded("MA_get_mbase", [&] { return type_info("MA_get_mbase", datatype).base; });
}
Integer MA_sizeof(Integer datatype1, Integer nelem1, Integer datatype2) {
  return guarded("MA_sizeof", [&] {
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

}  // extern "C"
