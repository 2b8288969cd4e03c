// SF's Fortran API (sf.fh) over the C API: GA's argument lists (sizes and offsets DOUBLE PRECISION).
#include <vector>

#include "fortran.hpp"
#include "sf.h"

using namespace armada::pario::fortran;

extern "C" {

Int sf_create_(const char* fname, double* hard, double* soft, double* req, Int* handle, Length flen) {
  std::string name = text(fname, flen);
  int h = -1;
  const int rc = SF_Create(name.data(), *hard, *soft, *req, &h);
  if (rc == 0) *handle = h;
  return rc;
}

Int sf_create_suffix_(const char* fname, double* hard, double* soft, double* req, Int* handle, Int* suffix,
                      Length flen) {
  std::string name = text(fname, flen);
  int h = -1;
  const int rc = SF_Create_suffix(name.data(), *hard, *soft, *req, &h, narrow(*suffix, 0));
  if (rc == 0) *handle = h;
  return rc;
}

Int sf_destroy_(Int* handle) { return SF_Destroy(narrow(*handle)); }
Int sf_rwtor_(Int* handle) { return SF_Rwtor(narrow(*handle)); }
Int sf_open_(Int* handle) { return SF_Open(narrow(*handle)); }
Int sf_close_(Int* handle) { return SF_Close(narrow(*handle)); }
Int sf_fsync_(Int* handle) { return SF_Fsync(narrow(*handle)); }

Int sf_write_(Int* handle, double* offset, double* bytes, char* buffer, Int* req_id) {
  int id = -1;
  const int rc = SF_Write(narrow(*handle), *offset, *bytes, buffer, &id);
  if (rc == 0) *req_id = id;
  return rc;
}

Int sf_read_(Int* handle, double* offset, double* bytes, char* buffer, Int* req_id) {
  int id = -1;
  const int rc = SF_Read(narrow(*handle), *offset, *bytes, buffer, &id);
  if (rc == 0) *req_id = id;
  return rc;
}

Int sf_wait_(Int* req_id) {
  int id = narrow(*req_id, -2);
  const int rc = SF_Wait(&id);
  *req_id = id;
  return rc;
}

Int sf_waitall_(Int* list, Int* num) {
  const int n = narrow(*num, -1);
  std::vector<int> ids(n > 0 ? n : 0);
  for (int i = 0; i < n; ++i) ids[i] = narrow(list[i], -2);
  const int rc = SF_Waitall(ids.data(), n);
  for (int i = 0; i < n; ++i) list[i] = ids[i];
  return rc;
}

void sf_errmsg_(Int* code, char* msg, Length mlen) {
  char buf[81] = {};
  SF_Errmsg(narrow(*code, 0), buf);
  store(buf, msg, mlen);
}

}  // extern "C"
