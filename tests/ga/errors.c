/* Bad arguments end a GA program as GA_Error does: the message names the GA function, the
 * argument and its value. argv[1] picks the mistake; each case is one ctest row expecting the
 * job to fail with that message (tests/ga/CMakeLists.txt). Reaching the end is a failure. */
#include "ga_check.h"

#include <string.h>

/* MA_set_error_callback's function of the ma_callback case. */
static void ma_terminate(const char* message, int code) {
  fprintf(stderr, "ma_callback: %s %d\n", message, code);
  fflush(stderr);
}

int main(int argc, char** argv) {
  ga_start(&argc, &argv);
  const char* which = argc > 1 ? argv[1] : "";
  int dims[2] = {10, 8};
  const int g = NGA_Create(C_DBL, 2, dims, "err", NULL);
  double buf[100];
  int lo[2] = {0, 0}, hi[2] = {3, 3}, ld[1] = {4};
  if (!strcmp(which, "patch")) {
    hi[0] = 10; /* one past the last row */
    NGA_Get(g, lo, hi, buf, ld);
  } else if (!strcmp(which, "handle")) {
    NGA_Put(12345, lo, hi, buf, ld);
  } else if (!strcmp(which, "type")) {
    NGA_Create(4242, 2, dims, "bad", NULL);
  } else if (!strcmp(which, "op")) {
    double x = 1;
    GA_Dgop(&x, 1, "avg");
  } else if (!strcmp(which, "op_float")) {
    double x = 1;
    GA_Dgop(&x, 1, "or");
  } else if (!strcmp(which, "dims")) {
    int bad[2] = {10, 0};
    NGA_Create(C_DBL, 2, bad, "bad", NULL);
  } else if (!strcmp(which, "ddot")) {
    int one[1] = {4};
    const int gi = NGA_Create(C_INT, 1, one, "ints", NULL);
    GA_Ddot(gi, gi);
  } else if (!strcmp(which, "gemm")) {
    GA_Dgemm('X', 'N', 2, 2, 2, 1.0, g, g, 0.0, g);
  } else if (!strcmp(which, "user")) {
    GA_Error("the program gave up", 42);
  } else if (!strcmp(which, "ma")) {
    MA_pop_stack(77);
  } else if (!strcmp(which, "ma_callback")) {
    /* MA_set_hard_fail makes a refusal fatal; MA_set_error_callback's function hears of it first. */
    Integer h = -1;
    MA_AccessIndex index = 0;
    MA_init(MT_C_DBL, 10, 10);
    MA_set_hard_fail(MA_TRUE);
    MA_set_error_callback(ma_terminate);
    MA_push_get(MT_C_DBL, 1000, "too big", &h, &index);
  } else if (!strncmp(which, "ma_", 3) && strncmp(which, "ma_overflow_", 12)) {
    /* MA's stack and heap calls given the wrong kind of block, count or iterator. */
    Integer h = -1, it = 12345, next = -1;
    MA_init(MT_C_DBL, 100, 100);
    MA_allocate_heap(MT_C_DBL, 10, "heap", &h);
    if (!strcmp(which, "ma_chop_heap")) MA_chop_stack(h);
    if (!strcmp(which, "ma_piece")) MA_free_heap_piece(h, -1);
    if (!strcmp(which, "ma_iterator")) MA_get_next_memhandle(&it, &next);
    if (!strcmp(which, "ma_init_size")) MA_init(MT_C_DBL, -2, 100);
    if (!strcmp(which, "ma_type")) MA_inquire_avail(77);
  } else if (!strcmp(which, "diag")) {
    int five[1] = {5};
    const int v = NGA_Create(C_DBL, 1, five, "short", NULL);
    GA_Set_diagonal(g, v);
  } else if (!strcmp(which, "scale")) {
    GA_Scale_rows(g, g);
  } else if (!strcmp(which, "gop")) {
    double x = 1;
    GA_Gop(4242, &x, 1, "+");
  } else if (!strcmp(which, "zdot")) {
    GA_Zdot(g, g);
  } else if (!strcmp(which, "split")) {
    GA_Pgroup_split_irreg(GA_Pgroup_get_world(), -1);
  } else if (!strcmp(which, "norm")) {
    GA_Norm1(g, NULL);
  } else if (!strcmp(which, "check_handle")) {
    GA_Check_handle(12345, "before the solver");
  } else if (!strcmp(which, "freemem")) {
    GA_Freemem(buf);
  } else if (!strcmp(which, "getmem")) {
    GA_Set_memory_limit(1000);
    GA_Getmem(C_DBL, 1000, 0);
  } else if (!strcmp(which, "diag_s")) {
    int sq[2] = {4, 4};
    const int h = NGA_Create(C_DBL, 2, sq, "H", NULL), s = NGA_Create(C_DBL, 2, sq, "S", NULL);
    const int v = NGA_Create(C_DBL, 2, sq, "V", NULL);
    double eval[4];
    GA_Diag(h, s, v, eval); /* S = 0 */
  } else if (!strcmp(which, "diag_dims")) {
    int sq[2] = {4, 4}, other[2] = {4, 5};
    const int h = NGA_Create(C_DBL, 2, sq, "H", NULL), s = NGA_Create(C_DBL, 2, sq, "S", NULL);
    const int v = NGA_Create(C_DBL, 2, other, "V", NULL);
    double eval[4];
    GA_Diag(h, s, v, eval);
  } else if (!strcmp(which, "gatscat")) {
    NGA_Free_gatscat_buf();
  } else if (!strcmp(which, "scan")) {
    GA_Scan_copy(g, g, g, 0, 3); /* g is 10 x 8 */
  } else if (!strcmp(which, "mask")) {
    int n[1] = {10};
    int short_n[1] = {5};
    const int v = NGA_Create(C_DBL, 1, n, "v", NULL), m = NGA_Create(C_DBL, 1, short_n, "m", NULL);
    GA_Scan_add(v, v, m, 0, 9, 0); /* the mask holds 0 .. 4 only */
  } else if (!strcmp(which, "stepmax")) {
    int n[1] = {10};
    const int v = NGA_Create(C_DBL, 1, n, "v", NULL);
    double minus = -1, step = 0;
    GA_Fill(v, &minus);
    GA_Step_max(v, v, &step);
  } else if (!strcmp(which, "ghost_dir")) {
    int width[2] = {1, 1};
    const int gg = NGA_Create_ghosts(C_DBL, 2, dims, width, "ghosts", NULL);
    NGA_Update_ghost_dir(gg, 2, 1, 1); /* a 2-D array has dimensions 0 and 1 */
  } else if (!strcmp(which, "ghost_none")) {
    NGA_Update_ghost_dir(g, 0, 1, 1); /* g has no ghost cells */
  } else if (!strcmp(which, "ghost_mask")) {
    int width[2] = {1, 1}, mask[2] = {0, 2};
    const int gg = NGA_Create_ghosts(C_DBL, 2, dims, width, "ghosts", NULL);
    ga_nbhdl_t h;
    NGA_NbGet_ghost_dir(gg, mask, &h);
  } else if (!strcmp(which, "ghost_element")) {
    int width[2] = {1, 1}, sub[2] = {0, 0}, eld[1];
    const int gg = NGA_Create_ghosts(C_DBL, 2, dims, width, "ghosts", NULL);
    void* p;
    sub[1] = 100; /* far past the block and its ghost cells */
    NGA_Access_ghost_element(gg, &p, sub, eld);
  } else if (!strcmp(which, "deallocated")) {
    GA_Deallocate(g); /* the handle stays, planned: GA_Allocate would allocate it again */
    NGA_Put(g, lo, hi, buf, ld);
  } else if (!strcmp(which, "deallocate")) {
    GA_Deallocate(12345);
  } else if (!strcmp(which, "compare_distr")) {
    GA_Compare_distr(g, 12345);
  } else if (!strcmp(which, "destroyed_planned")) {
    const int h = GA_Create_handle();
    GA_Destroy(h); /* frees the planned handle */
    GA_Is_mirrored(h);
  } else if (!strcmp(which, "irreg_flag")) {
    GA_Set_irreg_flag(12345, 1);
  } else if (!strcmp(which, "lock_held")) {
    GA_Create_mutexes(2);
    GA_Lock(1);
    GA_Lock(1); /* held by this thread: would wait for ever */
  } else if (!strncmp(which, "ma_overflow_", 12)) {
    /* Counts whose size in bytes wraps a 64-bit integer (2^61 + 1 doubles are 2^64 + 8 bytes):
     * MA once gave a block of 8 bytes, which the write below then ran past. */
    const Integer huge = ((Integer)1 << 61) + 1;
    const char* fn = which + 12;
    Integer h = -1;
    MA_AccessIndex index = 0;
    Boolean ok = MA_FALSE;
    if (!strcmp(fn, "init")) {
      MA_init(MT_C_DBL, huge, 0);
    } else if (!strcmp(fn, "sizeof")) {
      fprintf(stderr, "errors: MA_sizeof gave %ld\n", (long)MA_sizeof(MT_C_DBL, huge, MT_C_CHAR));
    } else if (!strcmp(fn, "push_get")) {
      ok = MA_push_get(MT_C_DBL, huge, "huge", &h, &index);
    } else if (!strcmp(fn, "push_stack")) {
      ok = MA_push_stack(MT_C_DBL, huge, "huge", &h);
    } else if (!strcmp(fn, "alloc_get")) {
      ok = MA_alloc_get(MT_C_DCPL, ((Integer)1 << 60) + 1, "huge", &h, &index);
    } else if (!strcmp(fn, "allocate_heap")) {
      ok = MA_allocate_heap(MT_C_DBL, huge, "huge", &h);
    }
    if (ok) {
      double* p = NULL;
      MA_get_pointer(h, &p);
      fprintf(stderr, "errors: MA gave a block for %ld doubles\n", (long)huge);
      for (int i = 0; i < 4096; ++i) p[i] = i; /* a real block of that size has room */
    }
  } else if (!strncmp(which, "differ_", 7)) {
    /* The last rank passes another array of the same shape, another scalar, or makes another
     * call: every rank must end with the mismatch named, before anything moves. */
    const int last = GA_Nodeid() == GA_Nnodes() - 1;
    int sq[2] = {8, 8};
    const int a = NGA_Create(C_DBL, 2, sq, "a", NULL), b = NGA_Create(C_DBL, 2, sq, "b", NULL);
    const int c = NGA_Create(C_DBL, 2, sq, "c", NULL);
    double one = 1, two = 2;
    if (!strcmp(which, "differ_copy")) GA_Copy(a, last ? b : c);
    if (!strcmp(which, "differ_add")) GA_Add(&one, a, &one, a, last ? b : c);
    if (!strcmp(which, "differ_scale")) GA_Scale(a, last ? &two : &one);
    if (!strcmp(which, "differ_fill")) GA_Fill(last ? b : a, &one);
    if (!strcmp(which, "differ_ddot")) GA_Ddot(a, last ? b : c);
    if (!strcmp(which, "differ_dgemm")) GA_Dgemm('N', 'N', 8, 8, 8, last ? 2.0 : 1.0, a, b, 0.0, c);
    if (!strcmp(which, "differ_zero_sync")) last ? GA_Zero(a) : GA_Sync();
    if (!strcmp(which, "differ_destroy_sync")) last ? GA_Destroy(a) : GA_Sync();
    if (!strcmp(which, "differ_shift_diagonal")) GA_Shift_diagonal(a, last ? &two : &one);
    if (!strcmp(which, "differ_randomize")) GA_Randomize(a, last ? &two : &one);
  }
  fprintf(stderr, "errors: case '%s' returned\n", which);
  GA_Destroy(g);
  ga_finish("errors");
  return 3;
}
