// Compiled with -std=c++17 by cxx_standard_test.cmake: Armada's C++ headers must stop it with
// one clear error that names C++20, before any error from their own code.
#include <armada/arrays/arrays.hpp>
#include <armada/linalg/linalg.hpp>
#include <armada/rma/rma.hpp>

int main() { return 0; }
