// GA's element types as arrays' (base/types.hpp).
#include <string>

#include "base/types.hpp"

namespace armada::ga {

// ---- element types ----------------------------------------------------------------------------

ElemType elem_type(const char* function, int type) {
  switch (type) {
    case C_INT: return ElemType::Int;
    case C_LONG: case C_LONGLONG: case F_INT: return ElemType::Long;  // 8 bytes each (LP64)
    case C_FLOAT: case F_REAL: return ElemType::Float;
    case C_DBL: case F_DBL: return ElemType::Double;
    case C_SCPL: case F_SCPL: return ElemType::ComplexFloat;
    case C_DCPL: case F_DCPL: return ElemType::ComplexDouble;
  }
  bad_argument(function, "type", std::to_string(type),
               "not an array type GA and Armada share (C_INT, C_LONG, C_LONGLONG, C_FLOAT, C_DBL, C_SCPL, "
               "C_DCPL or their F_ names)");
}

void require_type(const char* function, const char* argument, int g, const Array& a, ElemType type,
                  const char* ga_name) {
  if (a.type() != type)
    bad_argument(function, argument, std::to_string(g),
                 "holds " + std::string(rma::to_string(a.type())) + ". " + function + " needs " + ga_name);
}


linalg::Op op_of(const char* function, const char* argument, char t) {
  switch (t) {
    case 'N': case 'n': return linalg::Op::none;
    case 'T': case 't': return linalg::Op::transpose;
    case 'C': case 'c': return linalg::Op::conj_transpose;
  }
  bad_argument(function, argument, std::string("'") + t + "'", "must be 'N', 'T' or 'C'");
}

}  // namespace armada::ga
