// armada::linalg: distributed dense linear algebra on armada::arrays. One include for all of it.
#pragma once

#include "armada/rma/cxx20.hpp"  // first: one clear error without C++20

#include "armada/linalg/errors.hpp"
#include "armada/linalg/gemm.hpp"
#include "armada/linalg/settings.hpp"
#include "armada/linalg/solve.hpp"
#include "armada/linalg/transform.hpp"
