// EAF's Fortran API (eaf.fh) over the C API: GA's argument lists.
#include <cstdlib>

#include "eaf.h"
#include "fortran.hpp"

using namespace armada::pario::fortran;

namespace {
// A byte count: negative or beyond size_t becomes the error `code` (nothing moves).
bool count(Int bytes, std::size_t* out) {
  if (bytes < 0) return false;
  *out = static_cast<std::size_t>(bytes);
  return true;
}

// EAF_Awrite or EAF_Aread: the request's id goes back only when the transfer started.
template <class Buf>
Int start_transfer(int (*transfer)(int, eaf_off_t, Buf*, std::size_t, int*), int bad_count, Int* fd, double* offset,
                   Buf* buf, Int* bytes, Int* req_id) {
  std::size_t n = 0;
  if (!count(*bytes, &n)) return bad_count;
  int id = -1;
  const int rc = transfer(narrow(*fd), *offset, buf, n, &id);
  if (rc == EAF_OK) *req_id = id;
  return rc;
}
}  // namespace

extern "C" {

Int eaf_open_(const char* fname, Int* type, Int* fd, Length flen) {
  int f = -1;
  const int rc = EAF_Open(text(fname, flen).c_str(), narrow(*type, 0), &f);
  if (rc == EAF_OK) *fd = f;
  return rc;
}

Int eaf_close_(Int* fd) { return EAF_Close(narrow(*fd)); }

Int eaf_write_(Int* fd, double* offset, const void* buf, Int* bytes) {
  std::size_t n = 0;
  if (!count(*bytes, &n)) return EAF_ERR_WRITE;
  return EAF_Write(narrow(*fd), *offset, buf, n);
}

Int eaf_read_(Int* fd, double* offset, void* buf, Int* bytes) {
  std::size_t n = 0;
  if (!count(*bytes, &n)) return EAF_ERR_READ;
  return EAF_Read(narrow(*fd), *offset, buf, n);
}

Int eaf_awrite_(Int* fd, double* offset, const void* buf, Int* bytes, Int* req_id) {
  return start_transfer(EAF_Awrite, EAF_ERR_AWRITE, fd, offset, buf, bytes, req_id);
}

Int eaf_aread_(Int* fd, double* offset, void* buf, Int* bytes, Int* req_id) {
  return start_transfer(EAF_Aread, EAF_ERR_AREAD, fd, offset, buf, bytes, req_id);
}

Int eaf_wait_(Int* fd, Int* id) { return EAF_Wait(narrow(*fd), narrow(*id)); }

Int eaf_probe_(Int* id, Int* status) {
  int s = 1;
  const int rc = EAF_Probe(narrow(*id), &s);
  if (rc == EAF_OK) *status = s;
  return rc;
}

Int eaf_delete_(const char* fname, Length flen) { return EAF_Delete(text(fname, flen).c_str()); }

Int eaf_length_(Int* fd, double* length) {
  eaf_off_t len = 0;
  const int rc = EAF_Length(narrow(*fd), &len);
  if (rc == EAF_OK) *length = len;
  return rc;
}

Int eaf_truncate_(Int* fd, double* length) { return EAF_Truncate(narrow(*fd), *length); }

// .true. when code is EAF's end of file (GA's documentation of eaf_eof).
FLogical eaf_eof_(Int* code) { return EAF_Eof(narrow(*code, 0)) == 0 ? 1 : 0; }

void eaf_errmsg_(Int* code, char* msg, Length mlen) {
  char buf[81] = {};
  EAF_Errmsg(narrow(*code, 0), buf);
  store(buf, msg, mlen);
}

Int eaf_stat_(const char* path, Int* avail_kb, char* fstype, Length plen, Length flen) {
  long kb = 0;
  char type[32] = {};
  if (flen < 3) return EAF_ERR_TOO_SHORT;  // room for "UFS"
  const int rc = EAF_Stat(text(path, plen).c_str(), &kb, type, sizeof(type));
  if (rc != EAF_OK) return rc;
  // In MiB, a 4-byte INTEGER holds up to 2 PiB of free space; more is reported as its largest value.
  *avail_kb = kb > static_cast<long>(INT64_MAX >> (64 - 8 * sizeof(Int))) ? static_cast<Int>(INT64_MAX >> (64 - 8 * sizeof(Int)))
                                                                       : static_cast<Int>(kb);
  store(type, fstype, flen);
  return EAF_OK;
}

void eaf_print_stats_(Int* fd) { EAF_Print_stats(narrow(*fd)); }

Int eaf_util_szint_() { return static_cast<Int>(sizeof(Int)); }

// A number in [0, 1) from the C library's random(); a non-zero seed reseeds it first.
double eaf_util_random_(Int* seed) {
  if (*seed) srandom(static_cast<unsigned>(*seed));
  return static_cast<double>(random()) / 2147483648.0;
}

}  // extern "C"
