// armada::arrays: Global Arrays-style distributed N-d arrays on armada::rma. One include for
// all of it except the Eigen views (armada/arrays/eigen.hpp) and HDF5 I/O (armada/arrays/io.hpp).
#pragma once

#include "armada/rma/cxx20.hpp"  // first: one clear error without C++20

#include "armada/arrays/collective.hpp"
#include "armada/arrays/distribution.hpp"
#include "armada/arrays/global_array.hpp"
#include "armada/arrays/operations.hpp"
#include "armada/arrays/scan.hpp"
#include "armada/arrays/types.hpp"
