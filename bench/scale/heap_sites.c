// libarmada-heap-sites: which code holds the heap a phase of a program leaves behind (issue 53,
// docs/scaling.md "Where init's heap lives"). Loaded with LD_PRELOAD beside a program that marks
// its phases (armada-scale --heap-sites FILE); mallinfo2 says how much a phase kept, this says
// who allocated it: every allocation made inside a phase and still live when the file is written,
// with its size, its phase and its call stack (glibc's backtrace; symbolized on writing).
// scripts/heap_sites.py compares two job sizes site by site (bytes per rank of the job).
//
// Interposes malloc, calloc, realloc, free, posix_memalign, aligned_alloc and memalign over
// glibc's own entry points (__libc_*). Allocations are recorded only between begin and end;
// frees always (a phase's block freed later is not reported). One lock around the table: the
// program's other threads (a transport's service thread, the MPI library's) allocate too.
#define _GNU_SOURCE
#include <execinfo.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

extern void* __libc_malloc(size_t);
extern void* __libc_calloc(size_t, size_t);
extern void* __libc_realloc(void*, size_t);
extern void* __libc_memalign(size_t, size_t);
extern void __libc_free(void*);

enum { kCapacity = 1 << 20, kDepth = 12, kPhases = 16, kPhaseName = 32 };

struct Block {
  void* p;  // null: never used; kTombstone: freed
  size_t bytes;
  int phase;
  int depth;
  void* stack[kDepth];
};

static void* const kTombstone = (void*)1;
static struct Block g_table[kCapacity];
static char g_phase_names[kPhases][kPhaseName];
static int g_phases = 0;
static atomic_int g_recording = -1;  // the phase being recorded, or -1
static atomic_flag g_lock = ATOMIC_FLAG_INIT;
static size_t g_dropped = 0;          // table full: allocations not recorded
static __thread int t_inside = 0;     // backtrace and stdio allocate too

static void lock(void) {
  while (atomic_flag_test_and_set_explicit(&g_lock, memory_order_acquire)) {
  }
}
static void unlock(void) { atomic_flag_clear_explicit(&g_lock, memory_order_release); }
static size_t slot_of(const void* p) { return (size_t)(((uintptr_t)p >> 4) * 0x9E3779B97F4A7C15ull >> 40) & (kCapacity - 1); }

static void record(void* p, size_t bytes) {
  const int phase = atomic_load_explicit(&g_recording, memory_order_relaxed);
  if (phase < 0 || !p || t_inside) return;
  t_inside = 1;
  void* stack[kDepth];
  const int depth = backtrace(stack, kDepth);
  lock();
  size_t i = slot_of(p), probes = 0;
  while (g_table[i].p && g_table[i].p != kTombstone && probes++ < kCapacity) i = (i + 1) & (kCapacity - 1);
  if (probes >= kCapacity) {
    ++g_dropped;
  } else {
    g_table[i].p = p;
    g_table[i].bytes = bytes;
    g_table[i].phase = phase;
    g_table[i].depth = depth;
    memcpy(g_table[i].stack, stack, sizeof stack);
  }
  unlock();
  t_inside = 0;
}

static void forget(void* p) {
  if (!p || g_phases == 0) return;
  lock();
  size_t i = slot_of(p);
  for (size_t probes = 0; probes < kCapacity && g_table[i].p; ++probes, i = (i + 1) & (kCapacity - 1))
    if (g_table[i].p == p) {
      g_table[i].p = kTombstone;
      break;
    }
  unlock();
}

void* malloc(size_t n) {
  void* p = __libc_malloc(n);
  record(p, n);
  return p;
}
void* calloc(size_t count, size_t n) {
  void* p = __libc_calloc(count, n);
  record(p, count * n);
  return p;
}
void* realloc(void* old, size_t n) {
  forget(old);
  void* p = __libc_realloc(old, n);
  record(p, n);
  return p;
}
void free(void* p) {
  forget(p);
  __libc_free(p);
}
void* memalign(size_t alignment, size_t n) {
  void* p = __libc_memalign(alignment, n);
  record(p, n);
  return p;
}
void* aligned_alloc(size_t alignment, size_t n) { return memalign(alignment, n); }
int posix_memalign(void** out, size_t alignment, size_t n) {
  void* p = __libc_memalign(alignment, n);
  if (!p) return 12;  // ENOMEM
  record(p, n);
  *out = p;
  return 0;
}

/// Starts recording the allocations of phase `name` (ending the one being recorded). Returns 0,
/// or -1 when there are more than kPhases phases.
int armada_heap_sites_begin(const char* name) {
  if (g_phases >= kPhases) return -1;
  t_inside = 1;
  void* warm[2];
  backtrace(warm, 2);  // its first call loads libgcc: not inside a phase
  t_inside = 0;
  snprintf(g_phase_names[g_phases], kPhaseName, "%s", name);
  atomic_store(&g_recording, g_phases++);
  return 0;
}

void armada_heap_sites_end(void) { atomic_store(&g_recording, -1); }

/// Writes every recorded block still live: "block <phase> <bytes>" then its stack, one frame a
/// line. The first lines say the job's size (`ranks`) and the table's losses. Returns 0 or -1.
int armada_heap_sites_write(const char* path, int ranks) {
  armada_heap_sites_end();
  t_inside = 1;
  FILE* f = fopen(path, "w");
  if (!f) {
    t_inside = 0;
    return -1;
  }
  fprintf(f, "ranks %d\ndropped %zu\n", ranks, g_dropped);
  lock();
  for (size_t i = 0; i < kCapacity; ++i) {
    const struct Block* b = &g_table[i];
    if (!b->p || b->p == kTombstone) continue;
    fprintf(f, "block %s %zu\n", g_phase_names[b->phase], b->bytes);
    fflush(f);
    // Frames 0-1 are record() and the interposed entry point.
    if (b->depth > 2) backtrace_symbols_fd((void* const*)b->stack + 2, b->depth - 2, fileno(f));
  }
  unlock();
  fclose(f);
  t_inside = 0;
  return 0;
}
