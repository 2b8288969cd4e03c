// DRA's C API (dra.h): GA's C view (C types, C order, zero-based) onto dra_core.
#include "dra.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "dra_core.hpp"

using armada::pario::Caller;
namespace dra = armada::pario::dra;

namespace {

// GA's C interface leaves the room of name and filename to the caller, who sizes it for GA's
// limits (72 and 248 characters and the NUL), which create and open enforce.
void copy_out(const std::string& s, char* out) {
  if (out) std::strcpy(out, s.c_str());
}

int section_call(const char* fn, bool write, logical transp, int g_a, int glo[], int ghi[], int d_a, dra_size_t dlo[],
                 dra_size_t dhi[], int* request) {
  const Caller c{fn};
  const int n = GA_Valid_handle(g_a) ? GA_Ndim(g_a) : 0;
  std::int64_t gl[dra::kMaxDim] = {}, gh[dra::kMaxDim] = {}, dl[dra::kMaxDim] = {}, dh[dra::kMaxDim] = {};
  for (int k = 0; k < n && glo && ghi && dlo && dhi; ++k) {
    gl[k] = glo[k];
    gh[k] = ghi[k];
    dl[k] = dlo[k];
    dh[k] = dhi[k];
  }
  if (n > 0 && (!glo || !ghi || !dlo || !dhi))
    return armada::pario::refuse(DRA_ERR_ARGUMENT, fn, "glo, ghi, dlo, dhi", "NULL", "the section's bounds are required");
  return dra::section(c, write, transp != 0, g_a, gl, gh, d_a, dl, dh, request);
}

}  // namespace

extern "C" {

int DRA_Init(int max_arrays, double, double, double) { return dra::init(Caller{"DRA_Init"}, max_arrays); }

int DRA_Terminate(void) { return dra::terminate(); }

int NDRA_Create(int type, int ndim, dra_size_t dims[], char* name, char* filename, int mode, dra_size_t[],
                int* d_a) {
  std::int64_t d[dra::kMaxDim] = {};
  for (int k = 0; dims && k < ndim && k < dra::kMaxDim; ++k) d[k] = dims[k];
  if (!dims) return armada::pario::refuse(DRA_ERR_ARGUMENT, "NDRA_Create", "dims", "NULL", "the dimensions are required");
  return dra::create(Caller{"NDRA_Create"}, type, ndim, d, name, filename, mode, d_a);
}

int NDRA_Create_config(int type, int ndim, dra_size_t dims[], char* name, char* filename, int mode,
                       dra_size_t reqdims[], int, int, int* d_a) {
  return NDRA_Create(type, ndim, dims, name, filename, mode, reqdims, d_a);  // one file whatever the config
}

int DRA_Open(char* filename, int mode, int* d_a) { return dra::open(Caller{"DRA_Open"}, filename, mode, d_a); }

int NDRA_Inquire(int d_a, int* type, int* ndim, dra_size_t dims[], char* name, char* filename) {
  std::int64_t d[dra::kMaxDim] = {};
  std::string n, f;
  int nd = 0;
  const int rc = dra::inquire(Caller{"NDRA_Inquire"}, d_a, type, &nd, d, &n, &f);
  if (rc) return rc;
  if (ndim) *ndim = nd;
  for (int k = 0; dims && k < nd; ++k) dims[k] = d[k];
  copy_out(n, name);
  copy_out(f, filename);
  return 0;
}

int NDRA_Write(int g_a, int d_a, int* request) { return dra::whole(Caller{"NDRA_Write"}, true, g_a, d_a, request); }

int NDRA_Read(int g_a, int d_a, int* request) { return dra::whole(Caller{"NDRA_Read"}, false, g_a, d_a, request); }

int NDRA_Write_section(logical transp, int g_a, int glo[], int ghi[], int d_a, dra_size_t dlo[], dra_size_t dhi[],
                       int* request) {
  return section_call("NDRA_Write_section", true, transp, g_a, glo, ghi, d_a, dlo, dhi, request);
}

int NDRA_Read_section(logical transp, int g_a, int glo[], int ghi[], int d_a, dra_size_t dlo[], dra_size_t dhi[],
                      int* request) {
  return section_call("NDRA_Read_section", false, transp, g_a, glo, ghi, d_a, dlo, dhi, request);
}

int DRA_Probe(int request, int* compl_status) { return dra::probe(Caller{"DRA_Probe"}, request, compl_status); }

int DRA_Wait(int request) { return dra::wait(Caller{"DRA_Wait"}, request); }

int DRA_Delete(int d_a) { return dra::close(Caller{"DRA_Delete"}, d_a, true); }

int DRA_Close(int d_a) { return dra::close(Caller{"DRA_Close"}, d_a, false); }

void DRA_Set_debug(logical) {}

void DRA_Set_default_config(int, int) {}

void DRA_Flick(void) {}  // requests complete before their call returns: nothing to progress

void DRA_Print_internals(int d_a) {
  int type = 0, ndim = 0;
  std::int64_t dims[dra::kMaxDim] = {};
  std::string name, filename;
  if (dra::inquire(Caller{"DRA_Print_internals"}, d_a, &type, &ndim, dims, &name, &filename)) return;
  std::printf("disk array %d: \"%s\" in file \"%s\", type %d, dims", d_a, name.c_str(), filename.c_str(), type);
  for (int k = 0; k < ndim; ++k) std::printf(" %lld", static_cast<long long>(dims[k]));
  std::printf("\n");
  std::fflush(stdout);
}

}  // extern "C"
