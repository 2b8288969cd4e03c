// What pario's Fortran entry points share: the program's default INTEGER (the library is built
// once per width, as armada_ga_fortran is) and gfortran's calling convention (trailing
// underscore, arguments by reference, a hidden size_t length per CHARACTER argument after all
// the others), the same conventions ga/fortran/binding.hpp describes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "ga.h"

namespace armada::pario::fortran {

#if ARMADA_PARIO_FORTRAN_INTEGER_BYTES == 8
using Int = std::int64_t;
#elif ARMADA_PARIO_FORTRAN_INTEGER_BYTES == 4
using Int = std::int32_t;
#else
#error "define ARMADA_PARIO_FORTRAN_INTEGER_BYTES as 4 or 8 (the program's default INTEGER)"
#endif
using FLogical = Int;  // a default LOGICAL has a default INTEGER's size; gfortran's .true. is 1
using Length = std::size_t;

/// A CHARACTER argument as a C++ string, trailing blanks dropped.
inline std::string text(const char* s, Length n) {
  std::string t(s ? s : "", s ? n : 0);
  if (const auto nul = t.find('\0'); nul != std::string::npos) t.erase(nul);
  const auto end = t.find_last_not_of(' ');
  t.erase(end == std::string::npos ? 0 : end + 1);
  return t;
}

/// Stores s in a CHARACTER argument, cut to its length or padded with blanks.
inline void store(const std::string& s, char* out, Length n) {
  if (!out) return;
  const Length k = s.size() < n ? s.size() : n;
  std::memcpy(out, s.data(), k);
  std::memset(out + k, ' ', n - k);
}

/// An MT_F_ type of mafdecls.fh as the C type of the same layout (MT_F_INT: this build's
/// INTEGER); C types pass through.
inline int c_type(Int t) {
  switch (t) {
    case MT_F_INT: case MT_F_LOG: return ARMADA_PARIO_FORTRAN_INTEGER_BYTES == 8 ? C_LONG : C_INT;
    case MT_F_REAL: return C_FLOAT;
    case MT_F_DBL: return C_DBL;
    case MT_F_SCPL: return C_SCPL;
    case MT_F_DCPL: return C_DCPL;
  }
  return static_cast<int>(t);
}

/// The inverse: a C type as the MT_F_ type a Fortran program names it by (a type with no Fortran
/// name in this build, e.g. C_INT with 8-byte INTEGER, as it is).
inline Int f_type(int t) {
  switch (t) {
    case C_INT: return ARMADA_PARIO_FORTRAN_INTEGER_BYTES == 4 ? MT_F_INT : C_INT;
    case C_LONG: return ARMADA_PARIO_FORTRAN_INTEGER_BYTES == 8 ? MT_F_INT : C_LONG;
    case C_FLOAT: return MT_F_REAL;
    case C_DBL: return MT_F_DBL;
    case C_SCPL: return MT_F_SCPL;
    case C_DCPL: return MT_F_DCPL;
  }
  return t;
}

/// An INTEGER handle or count as an int: out of range becomes `bad` (an invalid value).
inline int narrow(Int v, int bad = -1) {
  return v < INT32_MIN || v > INT32_MAX ? bad : static_cast<int>(v);
}

}  // namespace armada::pario::fortran
