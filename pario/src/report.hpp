// How pario names a bad argument: "[rank r] <function>: argument '<name>' = <value>: <why>" on
// stderr of the process that passed it, then the function returns its code (GA's DRA and SF
// return codes; NWChem checks them and stops with its own message).
#pragma once

#include <cstdint>
#include <string>

namespace armada::pario {

/// Prints the message and returns `code`.
int refuse(int code, const std::string& function, const std::string& argument, const std::string& value,
           const std::string& why);
/// A string argument as a message shows it: quoted, or NULL.
std::string quoted(const char* s);

/// The convention of the caller, for messages: C (name[d], zero-based) or Fortran (name(k),
/// one-based, dimensions reversed), and its function name.
struct Caller {
  std::string function;
  bool fortran = false;
  /// The name of entry d (C order) of index array `base` of an ndim-d tuple.
  std::string entry(const char* base, int d, int ndim) const;
  /// An index as the caller wrote it.
  std::int64_t shown(std::int64_t c_index) const { return fortran ? c_index + 1 : c_index; }
};

}  // namespace armada::pario
