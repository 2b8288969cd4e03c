/* The Fortran module's two C helpers.
 *
 * Buffers: the module's procedures take any Fortran array as `type(*), dimension(..)` and pass
 * it on to armada_f_buffer, a bind(C) interface, so that it arrives here as a C descriptor
 * (ISO_Fortran_binding.h) carrying its type, element size, rank, extents and contiguity. One
 * check then serves every element type and every rank (0 to 7): the buffer must hold the array's
 * element type, be contiguous (blocking procedures declare it `contiguous`, so the compiler has
 * already copied a section with gaps; a nonblocking operation must never point into such a
 * temporary) and hold enough elements. Nothing here converts indices: that
 * happens in the arrays C API's Fortran view (armada_gaf_*).
 *
 * Messages: the module reports every error through one per-thread message, kept here. Errors of
 * the C APIs are copied into it (armada_f_keep_*_message), the module's own checks write it. */
#include <ISO_Fortran_binding.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "armada/arrays/c_api.h"
#include "armada/linalg/c_api.h"
#include "buffers.h"

static _Thread_local char g_message[1024];

/* A message of the module's own checks, in the form of the C APIs' ("[rank 0] armada_get: ..."),
 * naming array `handle` when there is one (handle < 0: none). Returns `code`. */
int armada_f_reject(const char* op, const char* text, int handle, int code) {
  char array[512] = "";
  if (handle >= 0) armada_gaf_describe(handle, array, sizeof array);
  char prefix[32] = "";
  armada_ga_message_prefix(prefix, sizeof prefix);
  snprintf(g_message, sizeof g_message, "%s%s: %s%s%s", prefix, op, text, array[0] ? "; " : "", array);
  return code;
}

/* armada_f_reject of "argument '<arg>' <format...>". */
static int fail(int code, int handle, const char* op, const char* arg, const char* format, ...) {
  char what[512];
  int n = snprintf(what, sizeof what, "argument '%s' ", arg);
  va_list args;
  va_start(args, format);
  vsnprintf(what + n, sizeof what - (size_t)n, format, args);
  va_end(args);
  return armada_f_reject(op, what, handle, code);
}

const char* armada_f_message(void) { return g_message; }
void armada_f_set_message(const char* message) { snprintf(g_message, sizeof g_message, "%s", message); }
void armada_f_keep_ga_message(void) { armada_f_set_message(armada_ga_error_message()); }
void armada_f_keep_la_message(void) { armada_f_set_message(armada_la_error_message()); }

/* The element types, in ARMADA_GA_* order: descriptor type code and size (their Fortran spelling:
 * armada_gaf_type_name). */
static const struct {
  CFI_type_t cfi;
  size_t bytes;
} g_types[] = {
    {CFI_type_int32_t, 4},       {CFI_type_int64_t, 8},        {CFI_type_float, 4},
    {CFI_type_double, 8},        {CFI_type_float_Complex, 8},  {CFI_type_double_Complex, 16},
};
enum { n_types = sizeof g_types / sizeof g_types[0] };

static const char* fortran_type_name(const CFI_cdesc_t* d) {
  for (int t = 0; t < n_types; ++t)
    if (d->type == g_types[t].cfi) return armada_gaf_type_name(t);
  return "a type Armada does not hold";
}

static int64_t element_count(const CFI_cdesc_t* d) {
  int64_t n = 1;
  for (int r = 0; r < d->rank; ++r) n *= (int64_t)d->dim[r].extent;
  return n;
}

/* The ARMADA_GA_* type of a buffer's elements, or -1. */
int armada_f_buffer_type(const CFI_cdesc_t* buf) {
  for (int t = 0; t < n_types; ++t)
    if (buf->type == g_types[t].cfi && buf->elem_len == g_types[t].bytes) return t;
  return -1;
}

/* Checks that `buf` may carry `count` elements of ARMADA_GA_* `type` without a copy and stores
 * its address in *addr. `op` and `arg` name the procedure and the argument in the message, `handle`
 * the array it is for (< 0: none). */
int armada_f_buffer(const CFI_cdesc_t* buf, int type, int64_t count, const char* op, const char* arg, int handle,
                    void** addr) {
  if (type < 0 || type >= n_types)
    return fail(ARMADA_GA_ERR_TYPE, handle, op, arg, "is for an array of unknown element type %d", type);
  if (armada_f_buffer_type(buf) != type)
    return fail(ARMADA_GA_ERR_TYPE, handle, op, arg, "is %s (element size %zu), the array holds %s",
                fortran_type_name(buf), buf->elem_len, armada_gaf_type_name(type));
  if (buf->rank > 0 && !CFI_is_contiguous(buf))
    return fail(ARMADA_GA_ERR_ARG, handle, op, arg,
                "is not contiguous (an array section with gaps): a nonblocking operation needs the buffer "
                "itself, which stays in place until the wait");
  const int64_t have = element_count(buf);
  if (have < count)
    return fail(ARMADA_GA_ERR_ARG, handle, op, arg, "has %lld elements, the operation needs %lld", (long long)have,
                (long long)count);
  *addr = buf->base_addr;
  return ARMADA_GA_OK;
}

/* The element count and ARMADA_GA_* type of a buffer for an operation of its own (collectives
 * on Fortran arrays): any of the six types, contiguous. */
int armada_f_plain_buffer(const CFI_cdesc_t* buf, const char* op, const char* arg, int* type, int64_t* count,
                          void** addr) {
  *type = armada_f_buffer_type(buf);
  if (*type < 0)
    return fail(ARMADA_GA_ERR_TYPE, -1, op, arg,
                "is %s (element size %zu): integer(4), integer(8), real(4), real(8), complex(4) or complex(8) "
                "expected",
                fortran_type_name(buf), buf->elem_len);
  *count = element_count(buf);
  return armada_f_buffer(buf, *type, *count, op, arg, -1, addr);
}
