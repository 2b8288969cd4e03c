// GA's names of its element types (C_INT, F_DBL, ...) for messages: the one table ga/ and pario/
// print them from. A build-time header of Armada's (no GA header includes it; not installed).
#pragma once

#include <string>

#include "gacommon.h"

namespace armada::ga_names {

/// GA's name of element type `type`, or its number when GA has none.
inline std::string type_name(int type) {
  switch (type) {
    case C_INT: return "C_INT";
    case C_LONG: return "C_LONG";
    case C_LONGLONG: return "C_LONGLONG";
    case C_FLOAT: return "C_FLOAT";
    case C_DBL: return "C_DBL";
    case C_SCPL: return "C_SCPL";
    case C_DCPL: return "C_DCPL";
    case F_INT: return "F_INT";
    case F_REAL: return "F_REAL";
    case F_DBL: return "F_DBL";
    case F_SCPL: return "F_SCPL";
    case F_DCPL: return "F_DCPL";
  }
  return std::to_string(type);
}

}  // namespace armada::ga_names
