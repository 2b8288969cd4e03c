// rma::init after rma::finalize ended MPI: a StateError that says why, not an abort inside MPI.
// Prints "StateError: <message>" and exits 0 when that is what happens, exits 1 otherwise.
#include <cstdio>

#include "armada/rma/rma.hpp"

int main(int argc, char** argv) {
  namespace rma = armada::rma;
  rma::init(&argc, &argv);  // starts MPI, so finalize ends it
  rma::finalize();
  try {
    rma::init(&argc, &argv);
    std::printf("rma::init after finalize succeeded\n");
    return 1;
  } catch (const rma::StateError& e) {
    std::printf("StateError: %s\n", e.what());
    return 0;
  } catch (const std::exception& e) {
    std::printf("wrong exception: %s\n", e.what());
    return 1;
  }
}
