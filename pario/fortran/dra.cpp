// DRA's Fortran API (dra.fh): GA's argument lists, Fortran's view (MT_F_ types, Fortran order,
// one-based sections) turned into dra_core's C view; messages name the Fortran arguments.
#include <cstdint>
#include <string>

#include "../src/dra_core.hpp"
#include "dra.h"
#include "fortran.hpp"

using namespace armada::pario::fortran;
using armada::pario::Caller;
namespace dra = armada::pario::dra;

namespace {

Caller caller(const char* fn) { return Caller{fn, true}; }

// Fortran dims (n of them) in C order.
void reversed(int n, const Int* f, std::int64_t* c) {
  for (int k = 0; k < n; ++k) c[n - 1 - k] = f[k];
}
// Fortran one-based indices in C order, zero-based.
void c_index(int n, const Int* f, std::int64_t* c) {
  for (int k = 0; k < n; ++k) c[n - 1 - k] = f[k] - 1;
}

Int create(const char* fn, Int type, Int ndim, const Int* dims, const char* name, Length nlen, const char* filename,
           Length flen, Int mode, Int* d_a) {
  const int n = narrow(ndim, 0);
  std::int64_t d[dra::kMaxDim] = {};
  if (n >= 1 && n <= dra::kMaxDim) reversed(n, dims, d);
  int h = -1;
  const int rc = dra::create(caller(fn), c_type(type), n, d, text(name, nlen).c_str(), text(filename, flen).c_str(),
                             narrow(mode, 0), &h);
  if (rc == 0) *d_a = h;
  return rc;
}

Int inquire(const char* fn, Int d_a, Int* type, int* ndim, std::int64_t* fdims, char* name, Length nlen,
            char* filename, Length flen) {
  int t = 0;
  std::int64_t d[dra::kMaxDim] = {};
  std::string n, f;
  const int rc = dra::inquire(caller(fn), narrow(d_a), &t, ndim, d, &n, &f);
  if (rc) return rc;
  *type = f_type(t);
  for (int k = 0; k < *ndim; ++k) fdims[k] = d[*ndim - 1 - k];
  store(n, name, nlen);
  store(f, filename, flen);
  return 0;
}

Int section(const char* fn, bool write, FLogical* transp, Int* g_a, const Int* glo, const Int* ghi, Int* d_a,
            const Int* dlo, const Int* dhi, Int* request) {
  const int g = narrow(*g_a, 0);
  const int n = GA_Valid_handle(g) ? GA_Ndim(g) : 0;
  std::int64_t gl[dra::kMaxDim] = {}, gh[dra::kMaxDim] = {}, dl[dra::kMaxDim] = {}, dh[dra::kMaxDim] = {};
  c_index(n, glo, gl);
  c_index(n, ghi, gh);
  c_index(n, dlo, dl);
  c_index(n, dhi, dh);
  int r = DRA_REQ_INVALID;
  const int rc = dra::section(caller(fn), write, *transp != 0, g, gl, gh, narrow(*d_a), dl, dh, &r);
  if (rc == 0) *request = r;
  return rc;
}

// GA's 2-d forms: (ilo:ihi, jlo:jhi); a 1-d array uses (ilo:ihi) only.
Int section2(const char* fn, bool write, FLogical* transp, Int* g_a, Int* gilo, Int* gihi, Int* gjlo, Int* gjhi,
             Int* d_a, Int* dilo, Int* dihi, Int* djlo, Int* djhi, Int* request) {
  const Int glo[2] = {*gilo, *gjlo}, ghi[2] = {*gihi, *gjhi}, dlo[2] = {*dilo, *djlo}, dhi[2] = {*dihi, *djhi};
  return section(fn, write, transp, g_a, glo, ghi, d_a, dlo, dhi, request);
}

Int whole(const char* fn, bool write, Int* g_a, Int* d_a, Int* request) {
  int r = DRA_REQ_INVALID;
  const int rc = dra::whole(caller(fn), write, narrow(*g_a, 0), narrow(*d_a), &r);
  if (rc == 0) *request = r;
  return rc;
}

}  // namespace

extern "C" {

Int dra_init_(Int* max_arrays, double*, double*, double*) {
  return dra::init(caller("dra_init"), narrow(*max_arrays, 0));
}

Int dra_terminate_() { return dra::terminate(); }

Int dra_create_(Int* type, Int* dim1, Int* dim2, const char* name, const char* filename, Int* mode, Int*, Int*,
                Int* d_a, Length nlen, Length flen) {
  const Int dims[2] = {*dim1, *dim2};
  return create("dra_create", *type, 2, dims, name, nlen, filename, flen, *mode, d_a);
}

Int ndra_create_(Int* type, Int* ndim, Int* dims, const char* name, const char* filename, Int* mode, Int*, Int* d_a,
                 Length nlen, Length flen) {
  return create("ndra_create", *type, *ndim, dims, name, nlen, filename, flen, *mode, d_a);
}

Int ndra_create_config_(Int* type, Int* ndim, Int* dims, const char* name, const char* filename, Int* mode, Int*,
                        Int*, Int*, Int* d_a, Length nlen, Length flen) {
  return create("ndra_create_config", *type, *ndim, dims, name, nlen, filename, flen, *mode, d_a);
}

Int dra_open_(const char* filename, Int* mode, Int* d_a, Length flen) {
  int h = -1;
  const int rc = dra::open(caller("dra_open"), text(filename, flen).c_str(), narrow(*mode, 0), &h);
  if (rc == 0) *d_a = h;
  return rc;
}

Int dra_inquire_(Int* d_a, Int* type, Int* dim1, Int* dim2, char* name, char* filename, Length nlen, Length flen) {
  int n = 0;
  std::int64_t d[dra::kMaxDim] = {};
  const Int rc = inquire("dra_inquire", *d_a, type, &n, d, name, nlen, filename, flen);
  if (rc) return rc;
  *dim1 = static_cast<Int>(d[0]);
  *dim2 = n >= 2 ? static_cast<Int>(d[1]) : 1;
  return 0;
}

Int ndra_inquire_(Int* d_a, Int* type, Int* ndim, Int* dims, char* name, char* filename, Length nlen, Length flen) {
  int n = 0;
  std::int64_t d[dra::kMaxDim] = {};
  const Int rc = inquire("ndra_inquire", *d_a, type, &n, d, name, nlen, filename, flen);
  if (rc) return rc;
  *ndim = n;
  for (int k = 0; k < n; ++k) dims[k] = static_cast<Int>(d[k]);
  return 0;
}

Int dra_write_(Int* g_a, Int* d_a, Int* request) { return whole("dra_write", true, g_a, d_a, request); }
Int ndra_write_(Int* g_a, Int* d_a, Int* request) { return whole("ndra_write", true, g_a, d_a, request); }
Int dra_read_(Int* g_a, Int* d_a, Int* request) { return whole("dra_read", false, g_a, d_a, request); }
Int ndra_read_(Int* g_a, Int* d_a, Int* request) { return whole("ndra_read", false, g_a, d_a, request); }

Int dra_write_section_(FLogical* transp, Int* g_a, Int* gilo, Int* gihi, Int* gjlo, Int* gjhi, Int* d_a, Int* dilo,
                       Int* dihi, Int* djlo, Int* djhi, Int* request) {
  return section2("dra_write_section", true, transp, g_a, gilo, gihi, gjlo, gjhi, d_a, dilo, dihi, djlo, djhi,
                  request);
}

Int dra_read_section_(FLogical* transp, Int* g_a, Int* gilo, Int* gihi, Int* gjlo, Int* gjhi, Int* d_a, Int* dilo,
                      Int* dihi, Int* djlo, Int* djhi, Int* request) {
  return section2("dra_read_section", false, transp, g_a, gilo, gihi, gjlo, gjhi, d_a, dilo, dihi, djlo, djhi,
                  request);
}

Int ndra_write_section_(FLogical* transp, Int* g_a, Int* glo, Int* ghi, Int* d_a, Int* dlo, Int* dhi, Int* request) {
  return section("ndra_write_section", true, transp, g_a, glo, ghi, d_a, dlo, dhi, request);
}

Int ndra_read_section_(FLogical* transp, Int* g_a, Int* glo, Int* ghi, Int* d_a, Int* dlo, Int* dhi, Int* request) {
  return section("ndra_read_section", false, transp, g_a, glo, ghi, d_a, dlo, dhi, request);
}

Int dra_probe_(Int* request, Int* status) {
  int s = 1;
  const int rc = dra::probe(caller("dra_probe"), narrow(*request, -1), &s);
  if (rc == 0) *status = s;
  return rc;
}

Int dra_wait_(Int* request) { return dra::wait(caller("dra_wait"), narrow(*request, -1)); }
Int dra_delete_(Int* d_a) { return dra::close(caller("dra_delete"), narrow(*d_a), true); }
Int dra_close_(Int* d_a) { return dra::close(caller("dra_close"), narrow(*d_a), false); }
void dra_set_debug_(FLogical*) {}
void dra_flick_() {}
void dra_set_default_config_(Int*, Int*) {}
void dra_print_internals_(Int* d_a) { DRA_Print_internals(narrow(*d_a)); }

}  // extern "C"
