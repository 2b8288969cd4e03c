/* The Fortran module's C helpers (buffers.c), as the module calls them: the generated interfaces
 * (scripts/gen-fortran-interfaces.py) are made from these declarations, and buffers.c includes
 * this header so that the C compiler holds the definitions to them. */
#ifndef ARMADA_FORTRAN_BUFFERS_H
#define ARMADA_FORTRAN_BUFFERS_H

#include <ISO_Fortran_binding.h>
#include <stdint.h>

/* The buffer `buf` (any Fortran array, as a C descriptor) checked for array `handle`'s element
 * `type` and at least `count` elements, contiguous; its address in *addr. Returns
 * ARMADA_GA_OK or an error code with the message set (naming `op` and `arg`). */
int armada_f_buffer(const CFI_cdesc_t* buf, int type, int64_t count, const char* op, const char* arg, int handle,
                    void** addr);
/* A buffer that belongs to no array: its element type (ARMADA_GA_*), element count and address. */
int armada_f_plain_buffer(const CFI_cdesc_t* buf, const char* op, const char* arg, int* type, int64_t* count,
                          void** addr);
/* The element type (ARMADA_GA_*) of buffer `buf`, or -1 for a type no array holds. */
int armada_f_buffer_type(const CFI_cdesc_t* buf);
/* Sets the message to "<op>: <text>" naming array `handle` (handle < 0: none); returns `code`. */
int armada_f_reject(const char* op, const char* text, int handle, int code);
/* The calling thread's message, and setting it. */
const char* armada_f_message(void);
void armada_f_set_message(const char* message);
/* Copies the arrays (linalg) C API's last message into the module's. */
void armada_f_keep_ga_message(void);
void armada_f_keep_la_message(void);

#endif
