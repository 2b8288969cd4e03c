/* Armada's Global Arrays C API: the subset of GA 5.8's memory allocator (MA) that GA programs
 * call. MA_init reserves one segment of (stack + heap) elements of its type, which the heap
 * (first fit) and the stack (MA_pop_stack frees the newest, and only the newest) share: a block
 * that does not fit, or one asked for before MA_init, gives MA_FALSE and a message, as in MA.
 * The index a block is given is its offset, in elements, from the base array of its type
 * (ma_cb_int, ma_cb_dbl, ...), as in MA: `ma_cb_dbl[index]` is its first element. */
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
 * with a message naming the function, as GA_Error does. */
extern Boolean MA_init(Integer datatype, Integer nominal_stack, Integer nominal_heap);
extern Boolean MA_initialized(void);
extern Boolean MA_push_get(Integer datatype, Integer nelem, const char* name, Integer* memhandle,
                           MA_AccessIndex* index);
extern Boolean MA_push_stack(Integer datatype, Integer nelem, const char* name, Integer* memhandle);
extern Boolean MA_pop_stack(Integer memhandle);
extern Boolean MA_alloc_get(Integer datatype, Integer nelem, const char* name, Integer* memhandle,
                            MA_AccessIndex* index);
extern Boolean MA_allocate_heap(Integer datatype, Integer nelem, const char* name, Integer* memhandle);
extern Boolean MA_free_heap(Integer memhandle);
extern Boolean MA_get_index(Integer memhandle, MA_AccessIndex* index);
/* `pointer` is a void** (MA's prototype says void*). */
extern Boolean MA_get_pointer(Integer memhandle, void* pointer);
extern Pointer MA_get_mbase(Integer datatype);
/* MA's debugging switches: each sets its flag and returns the previous value (MA's defaults:
 * MA_FALSE, MA_FALSE, MA_TRUE). Armada's MA always checks its arguments and ends the job on a
 * bad one with a message; a request it cannot serve (no room, no MA_init) is printed unless
 * error_print is off, and ends the job when hard_fail is on. */
extern Boolean MA_set_auto_verify(Integer value);
extern Boolean MA_set_hard_fail(Integer value);
extern Boolean MA_set_error_print(Integer value);
/* Bytes of nelem1 elements of datatype1, in elements of datatype2 (rounded up). */
extern Integer MA_sizeof(Integer datatype1, Integer nelem1, Integer datatype2);

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
