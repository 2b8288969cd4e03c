// GA's element types (C_INT, C_DBL, F_DBL, ...) and transpose flags as arrays' and linalg's.
#pragma once

#include <string>

#include "armada/linalg/gemm.hpp"
#include "armada_ga_type_names.hpp"
#include "base/call.hpp"

namespace armada::ga {

/// The arrays element type of GA type `type` (C_INT, C_DBL, F_DBL, ...); bad_argument otherwise.
ElemType elem_type(const char* function, int type);
/// GA's name of element type `type` (C_INT, F_DBL, ...).
using ga_names::type_name;
/// Throws bad_argument (naming `argument` = handle `g`) unless `a` holds `type` (GA: `ga_name`).
void require_type(const char* function, const char* argument, int g, const Array& a, ElemType type,
                  const char* ga_name);
/// Calls f(T{}) with T the C++ element type of `type`.
using arrays::with_element_type;

/// GA's transpose flags of matrix products ('N', 'T', 'C', either case) as linalg's op.
linalg::Op op_of(const char* function, const char* argument, char flag);

}  // namespace armada::ga
