/* Armada's Global Arrays C API: GA 5.8's memory allocator (MA), whole, with GA's prototypes.
 * MA_init reserves one segment of (stack + heap) elements of its type (MA_DEFAULT_SPACE: 2^19
 * bytes), which the heap (first fit, from the low end) and the stack (from the high end; pops the
 * newest block, chops the newest ones) share: a block that does not fit, or one asked for before
 * MA_init, gives MA_FALSE and a message, as in MA. A block's index is its offset, in elements,
 * from the base of its type: ma_cb_dbl for MT_C_DBL (`ma_cb_dbl[index]` is its first element),
 * and for MT_F_* types the Fortran common blocks (dbl_mb, int_mb, ...), so that a block of
 * MT_F_DBL has one index, 0-based here and 1-based from Fortran, whichever side allocated it.
 * docs/ga.md lists the differences from GA's MA. */
#ifndef ARMADA_GA_MACDECLS_H
#define ARMADA_GA_MACDECLS_H

#include "macommon.h"
#include "typesf2c.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef Integer Boolean; /* MA_TRUE or MA_FALSE */
typedef char* Pointer;
typedef long MA_AccessIndex;
typedef long double MA_LongDouble;
typedef struct { float dummy[2]; } MA_SingleComplex;
typedef struct { double dummy[2]; } MA_DoubleComplex;
typedef struct { double dummy[4]; } MA_LongDoubleComplex;

/* The MT_* names without the C_ (macdecls.h). */
#define MT_CHAR MT_C_CHAR
#define MT_INT MT_C_INT
#define MT_LONGINT MT_C_LONGINT
#define MT_LONGLONG MT_C_LONGLONG
#define MT_REAL MT_C_FLOAT
#define MT_DBL MT_C_DBL
#define MT_LDBL MT_C_LDBL
#define MT_SCPL MT_C_SCPL
#define MT_DCPL MT_C_DCPL
#define MT_LDCPL MT_C_LDCPL
#define MT_C_FIRST MT_CHAR
#define MT_C_LAST MT_LDCPL

/* Bad arguments (an unknown type, a negative count, an unknown or non-top handle) abort the job
 * with a message naming the function, the argument and its value, as GA_Error does. */
extern Boolean MA_alloc_get(Integer datatype, Integer nelem, const char* name, Integer* memhandle,
                            MA_AccessIndex* index);
extern Boolean MA_allocate_heap(Integer datatype, Integer nelem, const char* name, Integer* memhandle);
/* Pops `memhandle` and every stack block pushed after it. */
extern Boolean MA_chop_stack(Integer memhandle);
extern Boolean MA_free_heap(Integer memhandle);
/* Frees the last `nelem` elements of a heap block (all of it when nelem >= its size). */
extern Boolean MA_free_heap_piece(Integer memhandle, Integer nelem);
extern Boolean MA_get_index(Integer memhandle, MA_AccessIndex* index);
extern Pointer MA_get_mbase(Integer datatype);
/* Each block live when reached, once, in handle order; MA_FALSE after the last. */
extern Boolean MA_get_next_memhandle(Integer* ithandle, Integer* memhandle);
extern Boolean MA_get_numalign(Integer* value);
/* `pointer` is a void** (MA's prototype says void*). */
extern Boolean MA_get_pointer(Integer memhandle, void* pointer);
extern Boolean MA_init(Integer datatype, Integer nominal_stack, Integer nominal_heap);
extern Boolean MA_initialized(void);
extern Boolean MA_init_memhandle_iterator(Integer* ithandle);
/* Elements of `datatype` one more block can hold: between the heap and the stack (avail,
 * stack_no_partition); the heap's part below MA_init's partition or a hole between heap blocks
 * (heap; check_stack: also below the stack; no_partition: up to the stack); the stack's part
 * above the partition (stack; check_heap: also above the heap). */
extern Integer MA_inquire_avail(Integer datatype);
extern Integer MA_inquire_heap(Integer datatype);
extern Integer MA_inquire_heap_check_stack(Integer datatype);
extern Integer MA_inquire_heap_no_partition(Integer datatype);
extern Integer MA_inquire_stack(Integer datatype);
extern Integer MA_inquire_stack_check_heap(Integer datatype);
extern Integer MA_inquire_stack_no_partition(Integer datatype);
extern Boolean MA_pop_stack(Integer memhandle);
/* Blocks and bytes (current, maximum) of the heap and the stack; with `printroutines` the calls
 * of each MA routine. */
extern void MA_print_stats(Boolean printroutines);
extern Boolean MA_push_get(Integer datatype, Integer nelem, const char* name, Integer* memhandle,
                           MA_AccessIndex* index);
extern Boolean MA_push_stack(Integer datatype, Integer nelem, const char* name, Integer* memhandle);
/* MA's debugging switches: each sets its flag and returns the previous value (MA's defaults:
 * MA_FALSE, MA_FALSE, MA_TRUE). Armada's MA always checks its arguments and ends the job on a
 * bad one with a message; a request it cannot serve (no room, no MA_init) is printed unless
 * error_print is off, and ends the job when hard_fail is on. With auto_verify, each call first
 * runs MA_verify_allocator_stuff and fails if it does. */
extern Boolean MA_set_auto_verify(Boolean value);
extern Boolean MA_set_error_print(Boolean value);
extern Boolean MA_set_hard_fail(Boolean value);
/* Blocks start on 2^value bytes (0 .. 30; 0: their element's alignment). */
extern Boolean MA_set_numalign(Integer value);
/* Bytes of nelem1 elements of datatype1, in elements of datatype2 (rounded up). */
extern Integer MA_sizeof(Integer datatype1, Integer nelem1, Integer datatype2);
/* The most one block costs beyond its elements, in elements of `datatype` (rounded up). */
extern Integer MA_sizeof_overhead(Integer datatype);
/* Each live block (name, type, count, address, index) on stdout. */
extern void MA_summarize_allocated_blocks(void);
/* Prints each push, pop, allocation and free on stdout while on. */
extern void MA_trace(Boolean value);
/* Checks each live block's guard words and MA's own tables: MA_TRUE when all is well, else the
 * damaged blocks are printed and MA_FALSE returned. */
extern Boolean MA_verify_allocator_stuff(void);
/* Called ("MA aborting", 0) before the job ends on an error MA_set_hard_fail made fatal. */
extern void MA_set_error_callback(void (*func)(const char*, int));

extern char ma_cb_char[];
extern int ma_cb_int[];
extern long ma_cb_long[];
extern long long ma_cb_longlong[];
extern float ma_cb_float[];
extern double ma_cb_dbl[];
extern MA_LongDouble ma_cb_ldbl[];
extern MA_SingleComplex ma_cb_scpl[];
extern MA_DoubleComplex ma_cb_dcpl[];
extern MA_LongDoubleComplex ma_cb_ldcpl[];

#ifdef __cplusplus
}
#endif

#endif
