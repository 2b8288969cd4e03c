// DRA's work, shared by the C API (dra.cpp) and the Fortran API (fortran/dra.cpp): arguments in
// the C view (C types, C order, zero-based), messages in the caller's (Caller).
#pragma once

#include <cstdint>
#include <string>

#include "report.hpp"

namespace armada::pario::dra {

inline constexpr int kMaxDim = 7;

/// GA's element type as DRA keeps it: C_INT, C_LONG, C_FLOAT, C_DBL, C_SCPL or C_DCPL (a
/// Fortran-created array's F_ types map to the C type of the same layout); 0 for any other.
int canonical_type(int ga_type);

int init(const Caller& c, int max_arrays);
int terminate();
int create(const Caller& c, int type, int ndim, const std::int64_t* dims, const char* name, const char* filename,
           int mode, int* d_a);
int open(const Caller& c, const char* filename, int mode, int* d_a);
int inquire(const Caller& c, int d_a, int* type, int* ndim, std::int64_t* dims, std::string* name,
            std::string* filename);
/// dlo/dhi, glo/ghi: the C view, ndim of g_a entries each.
int section(const Caller& c, bool write, bool transp, int g_a, const std::int64_t* glo, const std::int64_t* ghi,
            int d_a, const std::int64_t* dlo, const std::int64_t* dhi, int* request);
int whole(const Caller& c, bool write, int g_a, int d_a, int* request);
int close(const Caller& c, int d_a, bool remove);
int wait(const Caller& c, int request);
int probe(const Caller& c, int request, int* status);
/// The ndim of live disk array d_a, or 0.
int ndim_of(int d_a);

}  // namespace armada::pario::dra
