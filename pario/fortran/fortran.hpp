// What pario's Fortran entry points share: the Fortran conventions of fortran_abi.hpp (the
// program's default INTEGER, gfortran's calling convention), CHARACTER results and MA's types.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "fortran_abi.hpp"
#include "ga.h"

namespace armada::pario::fortran {

using fortran_abi::Int;
using fortran_abi::Length;
using fortran_abi::text;
using FLogical = fortran_abi::Logical;

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
    case MT_F_INT: case MT_F_LOG: return ARMADA_FORTRAN_INTEGER_BYTES == 8 ? C_LONG : C_INT;
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
    case C_INT: return ARMADA_FORTRAN_INTEGER_BYTES == 4 ? MT_F_INT : C_INT;
    case C_LONG: return ARMADA_FORTRAN_INTEGER_BYTES == 8 ? MT_F_INT : C_LONG;
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
