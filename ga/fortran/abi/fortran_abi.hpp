// What every Fortran library of Armada's GA installation shares (GA's Fortran API in ga/fortran,
// TCGMSG's, pario's): the program's default INTEGER, a compile-time choice since each library is
// built once per width (armada_fortran_libraries in cmake/ArmadaLibrary.cmake defines
// ARMADA_FORTRAN_INTEGER_BYTES), and gfortran's calling convention (trailing underscore, every
// argument by reference, a hidden size_t length per CHARACTER argument after all the others).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace armada::fortran_abi {

#if ARMADA_FORTRAN_INTEGER_BYTES == 8
using Int = std::int64_t;
#elif ARMADA_FORTRAN_INTEGER_BYTES == 4
using Int = std::int32_t;
#else
#error "define ARMADA_FORTRAN_INTEGER_BYTES as 4 or 8 (the program's default INTEGER)"
#endif
/// A default LOGICAL has the size of a default INTEGER; gfortran's .true. is 1.
using Logical = Int;
inline constexpr Logical kTrue = 1;
inline constexpr Logical kFalse = 0;
/// gfortran's hidden length of a CHARACTER argument.
using Length = std::size_t;

/// A CHARACTER argument as a C++ string: up to a NUL (a C string passed on), trailing blanks dropped.
inline std::string text(const char* s, Length n) {
  std::string t(s ? s : "", s ? n : 0);
  if (const auto nul = t.find('\0'); nul != std::string::npos) t.erase(nul);
  const auto end = t.find_last_not_of(' ');
  t.erase(end == std::string::npos ? 0 : end + 1);
  return t;
}

}  // namespace armada::fortran_abi
