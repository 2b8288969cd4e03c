/* GA's parallel I/O from C (pario/: eaf.h, dra.h, sf.h), checked against GA's documented
 * semantics at 1, 2 and 4 processes: EAF's files (synchronous and asynchronous transfers that
 * overlap the caller, probe/wait, truncate, length, stat, delete, error codes and texts), DRA's
 * disk arrays (whole arrays, sections, a transposed section, 3-d, reopen read-only, inquire,
 * delete) and SF's shared file, and the bad arguments: the code returned and the message each
 * process prints. Rank 0 prints "pario_c: passed" when every check held on every process. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <ftw.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "dra.h"
#include "eaf.h"
#include "ga.h"
#include "sf.h"

static int failures = 0;
static int me = 0, np = 1;
static char dir[256];

#define CHECK(cond, ...)                                    \
  do {                                                      \
    if (!(cond)) {                                          \
      failures++;                                           \
      fprintf(stderr, "[rank %d] check failed: ", me);      \
      fprintf(stderr, __VA_ARGS__);                         \
      fprintf(stderr, " (line %d)\n", __LINE__);            \
    }                                                       \
  } while (0)

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static void path(char* out, const char* name) { snprintf(out, 512, "%.255s/%.200s", dir, name); }

static int exists(const char* p) { return access(p, F_OK) == 0; }

/* stderr of this process while the last call ran, for the message checks. */
static int saved_stderr = -1;
static char captured[4096];
static void capture_begin(void) {
  char p[512];
  snprintf(p, sizeof p, "%s/stderr.%d", dir, me);
  fflush(stderr);
  saved_stderr = dup(2);
  int fd = open(p, O_CREAT | O_TRUNC | O_WRONLY, 0644);
  dup2(fd, 2);
  close(fd);
}
static const char* capture_end(void) {
  char p[512];
  snprintf(p, sizeof p, "%s/stderr.%d", dir, me);
  fflush(stderr);
  dup2(saved_stderr, 2);
  close(saved_stderr);
  FILE* f = fopen(p, "r");
  size_t n = f ? fread(captured, 1, sizeof captured - 1, f) : 0;
  captured[n] = 0;
  if (f) fclose(f);
  unlink(p);
  return captured;
}
#define CHECK_MESSAGE(call, code, text)                                                       \
  do {                                                                                        \
    capture_begin();                                                                          \
    int rc_ = (call);                                                                         \
    const char* out_ = capture_end();                                                         \
    CHECK(rc_ == (code), "%s returned %d, expected %d", #call, rc_, (int)(code));             \
    CHECK(strstr(out_, text) != NULL, "%s printed '%s', expected '%s'", #call, out_, text);   \
  } while (0)

/* ---- EAF ------------------------------------------------------------------------------------ */

static void eaf_sync_and_lengths(int fd) {
  double a[1000], b[1000];
  for (int i = 0; i < 1000; ++i) a[i] = me * 10000 + i;
  CHECK(EAF_Write(fd, 0, a, sizeof a) == EAF_OK, "EAF_Write at 0");
  CHECK(EAF_Write(fd, 8000, a, sizeof a) == EAF_OK, "EAF_Write at 8000");
  eaf_off_t len = -1;
  CHECK(EAF_Length(fd, &len) == EAF_OK && len == 16000, "EAF_Length %g, expected 16000", len);
  memset(b, 0, sizeof b);
  CHECK(EAF_Read(fd, 8000, b, sizeof b) == EAF_OK && memcmp(a, b, sizeof a) == 0, "EAF_Read back");
  CHECK(EAF_Truncate(fd, 8000) == EAF_OK, "EAF_Truncate");
  CHECK(EAF_Length(fd, &len) == EAF_OK && len == 8000, "length after EAF_Truncate %g", len);
  int rc = EAF_Read(fd, 7992, b, 16);
  CHECK(rc == EAF_ERR_EOF, "EAF_Read past the end returned %d", rc);
  CHECK(EAF_Eof(rc) == 0 && EAF_Eof(EAF_OK) != 0 && EAF_Eof(EAF_ERR_READ) != 0, "EAF_Eof");
  CHECK(EAF_Read(fd, 8000, b, 0) == EAF_OK, "EAF_Read of 0 bytes at the end");
}

static void eaf_async(int* fdp, const char* file) {
  int fd = *fdp;
  enum { n = 1 << 19 };  /* 4 MiB of doubles */
  double* a = malloc(n * sizeof(double));
  double* b = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i) a[i] = 0.5 * i + me;
  int r1 = -1, r2 = -1, status = -1;
  CHECK(EAF_Awrite(fd, 0, a, n / 2 * sizeof(double), &r1) == EAF_OK, "EAF_Awrite 1");
  CHECK(EAF_Awrite(fd, n / 2 * sizeof(double), a + n / 2, n / 2 * sizeof(double), &r2) == EAF_OK, "EAF_Awrite 2");
  CHECK(r1 != r2, "two requests, one id");
  CHECK(EAF_Wait(fd, r2) == EAF_OK && EAF_Wait(fd, r1) == EAF_OK, "EAF_Wait of the writes (the later one first)");
  CHECK(EAF_Wait(fd, r1) == EAF_ERR_WAIT, "a second EAF_Wait of one request");
  CHECK(EAF_Aread(fd, 0, b, n * sizeof(double), &r1) == EAF_OK, "EAF_Aread");
  double t0 = seconds();
  do {
    CHECK(EAF_Probe(r1, &status) == EAF_OK, "EAF_Probe");
  } while (status != 0 && seconds() - t0 < 30);
  CHECK(status == 0, "EAF_Probe never said the read was done");
  CHECK(EAF_Wait(fd, r1) == EAF_OK, "EAF_Wait of the read");
  CHECK(memcmp(a, b, n * sizeof(double)) == 0, "EAF_Aread gave what EAF_Awrite wrote");
  CHECK(EAF_Probe(r1, &status) == EAF_ERR_PROBE, "EAF_Probe of a waited request");

  /* The transfer runs on its own: held back 500 ms on the helper thread, the call returns before
   * that, a probe before that says running, the wait takes the rest. (A loaded machine may delay
   * this process, never the transfer's end: each check allows for that.) */
  const double delay = 0.5;
  setenv("ARMADA_TEST_PARIO_IO_DELAY_MS", "500", 1);
  t0 = seconds();
  CHECK(EAF_Aread(fd, 0, b, 64, &r1) == EAF_OK, "EAF_Aread (delayed)");
  double started = seconds() - t0;
  unsetenv("ARMADA_TEST_PARIO_IO_DELAY_MS");
  CHECK(started < delay, "EAF_Aread took %.3f s: it did not return before its transfer", started);
  CHECK(EAF_Probe(r1, &status) == EAF_OK, "EAF_Probe of a running read");
  double probed = seconds() - t0;
  CHECK(status == 1 || probed >= delay, "EAF_Probe said done %.3f s after a transfer held back %.1f s", probed, delay);
  CHECK(EAF_Wait(fd, r1) == EAF_OK, "EAF_Wait (delayed)");
  double waited = seconds() - t0;
  CHECK(waited >= delay - 0.01, "EAF_Wait returned after %.3f s, before the transfer could end", waited);
  /* EAF_Close waits for the file's pending requests: a write held back 500 ms is in the file
   * after the close (closing under it would leave the helper writing to a closed descriptor). */
  double tail[4] = {7, 8, 9, 10 + me}, back[4] = {0};
  setenv("ARMADA_TEST_PARIO_IO_DELAY_MS", "500", 1);
  CHECK(EAF_Awrite(fd, 64, tail, sizeof tail, &r1) == EAF_OK, "EAF_Awrite (delayed)");
  unsetenv("ARMADA_TEST_PARIO_IO_DELAY_MS");
  CHECK(EAF_Close(fd) == EAF_OK, "EAF_Close with a write pending");
  CHECK(EAF_Open(file, EAF_RW, &fd) == EAF_OK, "EAF_Open again");
  CHECK(EAF_Read(fd, 64, back, sizeof back) == EAF_OK && memcmp(tail, back, sizeof tail) == 0,
        "the write pending at EAF_Close is in the file (read %g %g %g %g)", back[0], back[1], back[2], back[3]);
  /* A request runs past the file's end: EOF from the wait. */
  CHECK(EAF_Aread(fd, n * sizeof(double) - 8, b, 16, &r1) == EAF_OK, "EAF_Aread past the end");
  CHECK(EAF_Wait(fd, r1) == EAF_ERR_EOF, "EAF_Wait of a read past the end");
  *fdp = fd;
  free(a);
  free(b);
}

static void eaf_errors(int fd) {
  double x[4] = {0};
  char msg[81];
  int id = 0;
  CHECK(EAF_Write(999, 0, x, 8) == EAF_ERR_INVALID_FD, "EAF_Write to a bad fd");
  CHECK(EAF_Read(-1, 0, x, 8) == EAF_ERR_INVALID_FD, "EAF_Read of fd -1");
  CHECK(EAF_Awrite(77, 0, x, 8, &id) == EAF_ERR_INVALID_FD, "EAF_Awrite to a bad fd");
  CHECK(EAF_Close(123) == EAF_ERR_INVALID_FD, "EAF_Close of a bad fd");
  CHECK(EAF_Read(fd, 1.5, x, 8) == EAF_ERR_NONINTEGER_OFFSET, "EAF_Read at 1.5");
  CHECK(EAF_Write(fd, -8, x, 8) == EAF_ERR_WRITE, "EAF_Write at -8");
  CHECK(EAF_Wait(fd, 424242) == EAF_ERR_WAIT, "EAF_Wait of an unknown request");
  CHECK(EAF_Probe(424242, &id) == EAF_ERR_PROBE, "EAF_Probe of an unknown request");
  EAF_Errmsg(EAF_ERR_EOF, msg);
  CHECK(strcmp(msg, "end of file") == 0, "EAF_Errmsg(EOF) = '%s'", msg);
  EAF_Errmsg(EAF_ERR_INVALID_FD, msg);
  CHECK(strcmp(msg, "invalid file descriptor") == 0, "EAF_Errmsg(INVALID_FD) = '%s'", msg);
  EAF_Errmsg(12345, msg);
  CHECK(msg[0] == 0, "EAF_Errmsg of an unknown code = '%s'", msg);
}

static void eaf_read_only(const char* file) {
  int fd = -1, id = 0;
  double x[2] = {1, 2}, y[2];
  char missing[512];
  path(missing, "no-such-file");
  CHECK(EAF_Open(missing, EAF_R, &fd) == EAF_ERR_OPEN, "EAF_Open EAF_R of a missing file");
  CHECK(EAF_Open(file, 7, &fd) == EAF_ERR_OPEN, "EAF_Open with mode 7");
  CHECK(EAF_Open(file, EAF_R, &fd) == EAF_OK, "EAF_Open EAF_R");
  CHECK(EAF_Write(fd, 0, x, sizeof x) == EAF_ERR_WRITE, "EAF_Write to a read-only file");
  CHECK(EAF_Awrite(fd, 0, x, sizeof x, &id) == EAF_ERR_AWRITE, "EAF_Awrite to a read-only file");
  CHECK(EAF_Truncate(fd, 0) == EAF_ERR_TRUNCATE, "EAF_Truncate of a read-only file");
  CHECK(EAF_Read(fd, 8, y, sizeof y) == EAF_OK && y[0] == 0.5 + me, "EAF_Read of a read-only file");
  CHECK(EAF_Close(fd) == EAF_OK, "EAF_Close");
  CHECK(EAF_Open(file, EAF_W, &fd) == EAF_OK, "EAF_Open EAF_W");
  CHECK(EAF_Read(fd, 0, y, sizeof y) == EAF_ERR_READ, "EAF_Read of a write-only file");
  CHECK(EAF_Close(fd) == EAF_OK, "EAF_Close");
}

static void eaf_tests(void) {
  char file[512], slash[600], fstype[16];
  snprintf(slash, sizeof slash, "eaf.%d", me);
  path(file, slash);
  int fd = -1;
  CHECK(EAF_Open(file, EAF_RW, &fd) == EAF_OK && fd >= 0, "EAF_Open EAF_RW");
  eaf_sync_and_lengths(fd);
  eaf_async(&fd, file);
  eaf_errors(fd);
  CHECK(EAF_Close(fd) == EAF_OK, "EAF_Close");
  CHECK(EAF_Close(fd) == EAF_ERR_INVALID_FD, "EAF_Close twice");
  eaf_read_only(file);
  long kb = -1;
  snprintf(slash, sizeof slash, "%s/", dir);
  /* In MiB, as GA 5.8 answers (NWChem multiplies by 1024); free space may move a little meanwhile. */
  struct statvfs vfs;
  statvfs(dir, &vfs);
  const long mib = (long)((unsigned long long)vfs.f_bavail * vfs.f_frsize >> 20);
  CHECK(EAF_Stat(slash, &kb, fstype, sizeof fstype) == EAF_OK && labs(kb - mib) <= 64 && strcmp(fstype, "UFS") == 0,
        "EAF_Stat: %ld (statvfs: %ld MiB), '%s'", kb, mib, fstype);
  CHECK(EAF_Stat(file, &kb, fstype, 4) == EAF_ERR_TOO_SHORT, "EAF_Stat with a 4-byte fstype");
  CHECK(EAF_Delete(file) == EAF_OK && !exists(file), "EAF_Delete");
  CHECK(EAF_Delete(file) == EAF_OK, "EAF_Delete of a missing file");
}

/* ---- DRA ------------------------------------------------------------------------------------ */

enum { M = 13, N = 9 };

static double value(int i, int j) { return 100.0 * i + j; }

static int new_array(int type, int m, int n, const char* name) {
  int dims[2] = {m, n};
  int g = NGA_Create(type, 2, dims, (char*)name, NULL);
  GA_Zero(g);
  return g;
}

/* The whole m x n array g, on every process. */
static void fetch(int g, int m, int n, double* out) {
  int lo[2] = {0, 0}, hi[2] = {m - 1, n - 1}, ld[1] = {n};
  NGA_Get(g, lo, hi, out, ld);
}

/* How many elements of the whole M x N array g differ from value(i, j). */
static int differ_from_values(int g) {
  static double got[M * N];
  fetch(g, M, N, got);
  int bad = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) bad += got[i * N + j] != value(i, j);
  return bad;
}

static void dra_whole_and_inquire(int g, const char* file, int* d) {
  dra_size_t dims[2] = {M, N}, req[2] = {M, N};
  int req_id = -1, status = -1, type = 0, ndim = 0;
  CHECK(NDRA_Create(C_DBL, 2, dims, "a disk array", (char*)file, DRA_RW, req, d) == 0, "NDRA_Create");
  CHECK(NDRA_Write(g, *d, &req_id) == 0, "NDRA_Write");
  CHECK(DRA_Probe(req_id, &status) == 0 && status == 0, "DRA_Probe");
  CHECK(DRA_Wait(req_id) == 0 && DRA_Wait(DRA_REQ_INVALID) == 0, "DRA_Wait");
  int g2 = new_array(C_DBL, M, N, "g2");
  CHECK(NDRA_Read(g2, *d, &req_id) == 0 && DRA_Wait(req_id) == 0, "NDRA_Read");
  const int bad = differ_from_values(g2);
  CHECK(bad == 0, "NDRA_Read gave back what NDRA_Write wrote (%d elements differ)", bad);
  dra_size_t idims[7] = {0};
  char name[80] = "", fname[600] = "";
  CHECK(NDRA_Inquire(*d, &type, &ndim, idims, name, fname) == 0, "NDRA_Inquire");
  CHECK(type == C_DBL && ndim == 2 && idims[0] == M && idims[1] == N, "NDRA_Inquire: type %d ndim %d dims %ld %ld",
        type, ndim, idims[0], idims[1]);
  CHECK(strcmp(name, "a disk array") == 0 && strcmp(fname, file) == 0, "NDRA_Inquire: '%s' '%s'", name, fname);
  GA_Destroy(g2);
}

/* g[2:5, 1:3] -> d[7:10, 4:6], read back into g3[0:3, 0:2]; d elsewhere keeps the whole write. */
static void dra_sections(int g, int d) {
  int glo[2] = {2, 1}, ghi[2] = {5, 3}, r = -1;
  dra_size_t dlo[2] = {7, 4}, dhi[2] = {10, 6};
  int g3 = new_array(C_DBL, M, N, "g3");
  CHECK(NDRA_Write_section(0, g, glo, ghi, d, dlo, dhi, &r) == 0 && DRA_Wait(r) == 0, "NDRA_Write_section");
  int lo3[2] = {0, 0}, hi3[2] = {3, 2};
  CHECK(NDRA_Read_section(0, g3, lo3, hi3, d, dlo, dhi, &r) == 0 && DRA_Wait(r) == 0, "NDRA_Read_section");
  int g4 = new_array(C_DBL, M, N, "g4");
  CHECK(NDRA_Read(g4, d, &r) == 0, "NDRA_Read after the section write");
  static double s3[M * N], s4[M * N];
  fetch(g3, M, N, s3);
  fetch(g4, M, N, s4);
  int bad = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      const int in3 = i <= 3 && j <= 2, ind = i >= 7 && i <= 10 && j >= 4 && j <= 6;
      bad += s3[i * N + j] != (in3 ? value(i + 2, j + 1) : 0);
      bad += s4[i * N + j] != (ind ? value(i - 5, j - 3) : value(i, j));
    }
  CHECK(bad == 0, "sections: %d elements differ", bad);
  GA_Destroy(g3);
  GA_Destroy(g4);
}

/* transp: g[0:2, 0:4] (3 x 5) -> d[0:4, 0:2] (5 x 3) transposed; read plainly into g5 and back
 * transposed into g6. */
static void dra_transpose(int g, int d) {
  int glo[2] = {0, 0}, ghi[2] = {2, 4}, r = -1;
  dra_size_t dlo[2] = {0, 0}, dhi[2] = {4, 2};
  CHECK(NDRA_Write_section(1, g, glo, ghi, d, dlo, dhi, &r) == 0, "NDRA_Write_section transposed");
  int g5 = new_array(C_DBL, M, N, "g5"), g6 = new_array(C_DBL, M, N, "g6");
  int lo5[2] = {0, 0}, hi5[2] = {4, 2};
  CHECK(NDRA_Read_section(0, g5, lo5, hi5, d, dlo, dhi, &r) == 0, "NDRA_Read_section");
  CHECK(NDRA_Read_section(1, g6, glo, ghi, d, dlo, dhi, &r) == 0, "NDRA_Read_section transposed");
  static double s5[M * N], s6[M * N];
  fetch(g5, M, N, s5);
  fetch(g6, M, N, s6);
  int bad = 0;
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 3; ++j) bad += s5[i * N + j] != value(j, i);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 5; ++j) bad += s6[i * N + j] != value(i, j);
  CHECK(bad == 0, "transposed sections: %d elements differ", bad);
  GA_Destroy(g5);
  GA_Destroy(g6);
}

static void dra_errors(int g, int d, const char* file) {
  int r = -1, gi = new_array(C_INT, M, N, "gi"), dd = -1;
  char expect[300];
  CHECK_MESSAGE(NDRA_Read(g, 4242, &r), DRA_ERR_ARGUMENT, "NDRA_Read: argument 'd_a' = 4242: not an open disk array handle");
  CHECK_MESSAGE(NDRA_Write(12345, d, &r), DRA_ERR_ARGUMENT, "NDRA_Write: argument 'g_a' = 12345: not a live global array handle");
  snprintf(expect, sizeof expect, "NDRA_Write: argument 'g_a' = %d: holds C_INT, the disk array C_DBL", gi);
  CHECK_MESSAGE(NDRA_Write(gi, d, &r), DRA_ERR_ARGUMENT, expect);
  int glo[2] = {0, 0}, ghi[2] = {3, 3};
  dra_size_t dlo[2] = {10, 0}, dhi[2] = {13, 3};
  CHECK_MESSAGE(NDRA_Write_section(0, g, glo, ghi, d, dlo, dhi, &r), DRA_ERR_ARGUMENT,
                "NDRA_Write_section: argument 'dhi[0]' = 13: must be in dlo[0] .. 12");
  dhi[0] = 12;
  CHECK_MESSAGE(NDRA_Write_section(0, g, glo, ghi, d, dlo, dhi, &r), DRA_ERR_ARGUMENT,
                "NDRA_Write_section: argument 'dhi[0]' = 12: the disk section's extent 3 differs from the global section's 4");
  /* Arguments bad on one process only: every process returns the code (none enters the
   * collective transfer alone and waits there for ever). */
  if (np > 1) {
    dra_size_t dlo1[2] = {0, 0}, dhi1[2] = {me == 1 ? 13 : 3, 3};
    CHECK_MESSAGE(NDRA_Write_section(0, g, glo, ghi, d, dlo1, dhi1, &r), DRA_ERR_ARGUMENT,
                  me == 1 ? "NDRA_Write_section: argument 'dhi[0]' = 13: must be in dlo[0] .. 12"
                          : "NDRA_Write_section: argument '(arguments)' = this process's: valid here, but another process of the group refused its own");
    CHECK_MESSAGE(NDRA_Read(me == 1 ? 4242 : g, d, &r), DRA_ERR_ARGUMENT, me == 1 ? "not a live global array handle" : "another process of the group refused");
  }
  CHECK_MESSAGE(DRA_Wait(99999), DRA_ERR_ARGUMENT, "DRA_Wait: argument 'request' = 99999: no read or write returned it");
  char missing[512];
  path(missing, "no-such.dra");
  CHECK_MESSAGE(DRA_Open(missing, DRA_R, &dd), DRA_ERR_IO, "cannot be opened");
  CHECK_MESSAGE(DRA_Open((char*)file, 5, &dd), DRA_ERR_ARGUMENT, "DRA_Open: argument 'mode' = 5: must be DRA_R, DRA_W or DRA_RW");
  dra_size_t dims[2] = {M, 0};
  CHECK_MESSAGE(NDRA_Create(C_DBL, 2, dims, "x", missing, DRA_RW, dims, &dd), DRA_ERR_ARGUMENT,
                "NDRA_Create: argument 'dims[1]' = 0: must be in 1 .. ");
  char longname[80];
  memset(longname, 'n', 73);
  longname[73] = 0;
  dra_size_t dims2[2] = {M, N};
  CHECK_MESSAGE(NDRA_Create(C_DBL, 2, dims2, longname, missing, DRA_RW, dims2, &dd), DRA_ERR_ARGUMENT,
                "longer than 72 characters (GA's DRA_MAX_NAME)");
  GA_Destroy(gi);
}

/* Closed, the file keeps the array; opened DRA_R it reads and refuses writes. */
static void dra_reopen(int g, int* d, const char* file) {
  int r = -1;
  CHECK(DRA_Close(*d) == 0 && exists(file), "DRA_Close keeps the file");
  CHECK(DRA_Open((char*)file, DRA_R, d) == 0, "DRA_Open DRA_R");
  int g7 = new_array(C_DBL, M, N, "g7");
  int lo[2] = {7, 4}, hi[2] = {10, 6};
  dra_size_t dlo[2] = {7, 4}, dhi[2] = {10, 6};
  CHECK(NDRA_Read_section(0, g7, lo, hi, *d, dlo, dhi, &r) == 0, "NDRA_Read_section after DRA_Open");
  static double s7[M * N];
  fetch(g7, M, N, s7);
  CHECK(s7[8 * N + 5] == value(3, 2) && s7[0] == 0, "the reopened array holds what was written");
  char expect[200];
  snprintf(expect, sizeof expect, "NDRA_Write: argument 'd_a' = %d: was opened DRA_R: it cannot be written", *d);
  CHECK_MESSAGE(NDRA_Write(g, *d, &r), DRA_ERR_ARGUMENT, expect);
  GA_Destroy(g7);
}

/* A 3-d int array, a section of it. */
static void dra_3d(void) {
  char file[512];
  path(file, "cube.dra");
  int dims[3] = {4, 5, 6}, d = -1, r = -1;
  dra_size_t ddims[3] = {4, 5, 6};
  int g = NGA_Create(C_INT, 3, dims, "cube", NULL), h = NGA_Create(C_INT, 3, dims, "cube2", NULL);
  GA_Zero(h);
  if (me == 0) {
    int v[120], lo[3] = {0, 0, 0}, hi[3] = {3, 4, 5}, ld[2] = {5, 6};
    for (int k = 0; k < 120; ++k) v[k] = k;
    NGA_Put(g, lo, hi, v, ld);
  }
  GA_Sync();
  CHECK(NDRA_Create(C_INT, 3, ddims, "cube", file, DRA_W, ddims, &d) == 0, "NDRA_Create 3-d");
  CHECK(NDRA_Write(g, d, &r) == 0, "NDRA_Write 3-d");
  CHECK_MESSAGE(NDRA_Read(h, d, &r), DRA_ERR_ARGUMENT, "was opened DRA_W: it cannot be read");
  CHECK(DRA_Close(d) == 0 && DRA_Open(file, DRA_RW, &d) == 0, "reopen 3-d");
  int lo[3] = {1, 1, 2}, hi[3] = {2, 3, 4};
  dra_size_t dlo[3] = {1, 1, 2}, dhi[3] = {2, 3, 4};
  CHECK(NDRA_Read_section(0, h, lo, hi, d, dlo, dhi, &r) == 0, "NDRA_Read_section 3-d");
  int all[120], alo[3] = {0, 0, 0}, ahi[3] = {3, 4, 5}, ld[2] = {5, 6}, bad = 0;
  NGA_Get(h, alo, ahi, all, ld);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 5; ++j)
      for (int k = 0; k < 6; ++k) {
        const int in = i >= 1 && i <= 2 && j >= 1 && j <= 3 && k >= 2 && k <= 4, at = (i * 5 + j) * 6 + k;
        bad += all[at] != (in ? at : 0);
      }
  CHECK(bad == 0, "3-d section: %d elements differ", bad);
  CHECK(DRA_Delete(d) == 0, "DRA_Delete 3-d");
  GA_Destroy(g);
  GA_Destroy(h);
}

/* A block-cyclic array (blocks of 3 x 2, GA's simple layout): written whole and as a section,
 * read back into a regular array and into another block-cyclic one. */
static void dra_block_cyclic(int g, const char* file) {
  int dims[2] = {M, N}, block[2] = {3, 2}, r = -1, d = -1;
  int b = GA_Create_handle();
  GA_Set_data(b, 2, dims, C_DBL);
  GA_Set_block_cyclic(b, block);
  CHECK(GA_Allocate(b), "GA_Allocate of a block-cyclic array");
  GA_Copy(g, b);
  dra_size_t ddims[2] = {M, N};
  CHECK(NDRA_Create(C_DBL, 2, ddims, "bc", (char*)file, DRA_RW, ddims, &d) == 0, "NDRA_Create");
  CHECK(NDRA_Write(b, d, &r) == 0, "NDRA_Write of a block-cyclic array");
  int h = new_array(C_DBL, M, N, "h");
  CHECK(NDRA_Read(h, d, &r) == 0, "NDRA_Read into a regular array");
  int bad = differ_from_values(h);
  CHECK(bad == 0, "a block-cyclic array written: %d elements differ", bad);
  GA_Zero(b);
  int lo[2] = {1, 1}, hi[2] = {11, 7};
  dra_size_t dlo[2] = {1, 1}, dhi[2] = {11, 7};
  CHECK(NDRA_Read_section(0, b, lo, hi, d, dlo, dhi, &r) == 0, "NDRA_Read_section into a block-cyclic array");
  GA_Copy(b, h);
  static double got[M * N];
  fetch(h, M, N, got);
  bad = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      const int in = i >= 1 && i <= 11 && j >= 1 && j <= 7;
      bad += got[i * N + j] != (in ? value(i, j) : 0);
    }
  CHECK(bad == 0, "a block-cyclic array read: %d elements differ", bad);
  CHECK(DRA_Delete(d) == 0, "DRA_Delete");
  GA_Destroy(h);
  GA_Destroy(b);
}

/* Files that are no disk array, or lost their end; a directory that is not there; DRA used
 * before DRA_Init. */
static void dra_bad_files(void) {
  char garbage[512], cut[512], nodir[512], expect[700];
  int d = -1;
  path(garbage, "garbage.dra");
  path(cut, "cut.dra");
  path(nodir, "no-such-dir/a.dra");
  if (me == 0) {
    FILE* f = fopen(garbage, "w");
    for (int i = 0; i < 5000; ++i) fputc('x', f);
    fclose(f);
  }
  GA_Sync();
  snprintf(expect, sizeof expect, "DRA_Open: argument 'filename' = \"%s\": is not a disk array file", garbage);
  CHECK_MESSAGE(DRA_Open(garbage, DRA_R, &d), DRA_ERR_IO, expect);
  dra_size_t dims[2] = {M, N};
  CHECK(NDRA_Create(C_DBL, 2, dims, "cut", cut, DRA_RW, dims, &d) == 0 && DRA_Close(d) == 0, "NDRA_Create");
  if (me == 0) CHECK(truncate(cut, 4096 + 100) == 0, "truncate");
  GA_Sync();
  snprintf(expect, sizeof expect, "DRA_Open: argument 'filename' = \"%s\": is truncated: 4196 bytes, its array needs 5032", cut);
  CHECK_MESSAGE(DRA_Open(cut, DRA_RW, &d), DRA_ERR_IO, expect);
  snprintf(expect, sizeof expect, "NDRA_Create: argument 'filename' = \"%s\": cannot be opened", nodir);
  CHECK_MESSAGE(NDRA_Create(C_DBL, 2, dims, "x", nodir, DRA_RW, dims, &d), DRA_ERR_IO, expect);
  GA_Sync();
  if (me == 0) {
    unlink(garbage);
    unlink(cut);
  }
}

static void dra_tests(void) {
  char file[512];
  path(file, "a.dra");
  CHECK(DRA_Init(-1, -1.0, -1.0, -1.0) == 0, "DRA_Init");
  int g = new_array(C_DBL, M, N, "g");
  if (me == 0) {
    static double v[M * N];
    int lo[2] = {0, 0}, hi[2] = {M - 1, N - 1}, ld[1] = {N};
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) v[i * N + j] = value(i, j);
    NGA_Put(g, lo, hi, v, ld);
  }
  GA_Sync();
  int d = -1;
  dra_whole_and_inquire(g, file, &d);
  dra_sections(g, d);
  dra_errors(g, d, file);
  dra_reopen(g, &d, file);
  CHECK(DRA_Delete(d) == 0, "DRA_Delete");
  GA_Sync();
  CHECK(!exists(file), "DRA_Delete removed the file");
  int r = -1;
  char gone[100];
  snprintf(gone, sizeof gone, "NDRA_Read: argument 'd_a' = %d: not an open disk array handle", d);
  CHECK_MESSAGE(NDRA_Read(g, d, &r), DRA_ERR_ARGUMENT, gone);
  /* The transposed section on a fresh array (a DRA_RW one). */
  dra_size_t dims[2] = {M, N};
  CHECK(NDRA_Create(C_DBL, 2, dims, "t", file, DRA_RW, dims, &d) == 0, "NDRA_Create");
  dra_transpose(g, d);
  CHECK(DRA_Delete(d) == 0, "DRA_Delete");
  dra_block_cyclic(g, file);
  dra_3d();
  dra_bad_files();
  CHECK(DRA_Terminate() == 0, "DRA_Terminate");
  CHECK_MESSAGE(DRA_Open(file, DRA_R, &d), DRA_ERR_STATE, "DRA_Open: argument '(DRA)' = not initialized: call DRA_Init (dra_init) first");
  GA_Destroy(g);
}

/* ---- SF ------------------------------------------------------------------------------------- */

static void sf_tests(void) {
  char base[512], file[600], msg[81];
  path(base, "shared");
  int h = -1, ids[2], a[1000], b[1000], c[1000];
  CHECK(SF_Create(base, 1e6, 1e5, 4000, &h) == 0, "SF_Create");
  snprintf(file, sizeof file, "%s.%d", base, h);
  CHECK(exists(file), "SF_Create made %s", file);
  for (int i = 0; i < 1000; ++i) a[i] = me * 1000 + i;
  CHECK(SF_Write(h, me * 4000.0, 4000, (char*)a, &ids[0]) == 0, "SF_Write");
  CHECK(SF_Wait(&ids[0]) == 0 && ids[0] == -1, "SF_Wait");
  CHECK(SF_Wait(&ids[0]) == 0, "SF_Wait of a finished id");
  GA_Sync();
  const int next = (me + 1) % np;
  CHECK(SF_Read(h, next * 4000.0, 2000, (char*)b, &ids[0]) == 0, "SF_Read 1");
  CHECK(SF_Read(h, next * 4000.0 + 2000, 2000, (char*)b + 2000, &ids[1]) == 0, "SF_Read 2");
  CHECK(SF_Waitall(ids, 2) == 0, "SF_Waitall");
  int bad = 0;
  for (int i = 0; i < 1000; ++i) bad += b[i] != next * 1000 + i;
  CHECK(bad == 0, "SF_Read of rank %d's block: %d differ", next, bad);
  CHECK(SF_Read(h, 5e5, 8, (char*)c, &ids[0]) == 0 && SF_Wait(&ids[0]) == SF_ERR_EOF, "SF_Read past the end");
  char expect[200];
  snprintf(expect, sizeof expect, "SF_Write: argument 'offset + bytes' = 1000002: exceeds the file's hard limit 1000000");
  CHECK_MESSAGE(SF_Write(h, 999998.0, 4, (char*)a, &ids[0]), SF_ERR_LIMIT, expect);
  CHECK_MESSAGE(SF_Write(4242, 0, 4, (char*)a, &ids[0]), SF_ERR_ARGUMENT, "SF_Write: argument 'handle' = 4242: not a live shared file handle");
  CHECK_MESSAGE(SF_Read(h, 0.5, 4, (char*)a, &ids[0]), SF_ERR_ARGUMENT, "SF_Read: argument 'offset' = 0.5");
  int unknown = 777777;
  CHECK_MESSAGE(SF_Wait(&unknown), SF_ERR_ARGUMENT, "SF_Wait: argument 'req_id' = 777777: no SF_Read or SF_Write returned it");
  /* Asynchronous: a write held back 500 ms returns before that, its wait takes the rest; a write
   * still held back when SF_Destroy comes is waited for there. */
  setenv("ARMADA_TEST_PARIO_IO_DELAY_MS", "500", 1);
  double t0 = seconds();
  CHECK(SF_Write(h, me * 4000.0, 8, (char*)a, &ids[0]) == 0, "SF_Write (delayed)");
  double started = seconds() - t0;
  CHECK(started < 0.5, "SF_Write took %.3f s: it did not return before its transfer", started);
  CHECK(SF_Wait(&ids[0]) == 0, "SF_Wait (delayed)");
  double waited = seconds() - t0;
  CHECK(waited >= 0.49, "SF_Wait returned after %.3f s, before the transfer could end", waited);
  t0 = seconds();
  CHECK(SF_Write(h, me * 4000.0, 8, (char*)a, &ids[1]) == 0, "SF_Write (delayed, not waited)");
  unsetenv("ARMADA_TEST_PARIO_IO_DELAY_MS");
  SF_Errmsg(SF_ERR_LIMIT, msg);
  CHECK(strstr(msg, "hard size limit") != NULL, "SF_Errmsg: '%s'", msg);
  CHECK(SF_Destroy(h) == 0, "SF_Destroy");
  waited = seconds() - t0;
  CHECK(waited >= 0.49, "SF_Destroy returned %.3f s after a write it did not wait for", waited);
  GA_Sync();
  CHECK(!exists(file), "SF_Destroy removed %s", file);
}

static int remove_entry(const char* p, const struct stat* st, int flag, struct FTW* ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(p);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  me = GA_Nodeid();
  np = GA_Nnodes();
  if (me == 0) {
    snprintf(dir, sizeof dir, "%s/armada-pario-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir)) dir[0] = 0;
  }
  MPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (!dir[0]) GA_Error("pario_c: no temporary directory", 0);
  eaf_tests();
  dra_tests();
  sf_tests();
  GA_Sync();
  if (me == 0) nftw(dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);  /* what a failed check left too */
  int total = failures;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0) {
    if (total == 0) printf("pario_c: passed\n");
    else printf("pario_c: %d check(s) failed\n", total);
  }
  GA_Terminate();
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
