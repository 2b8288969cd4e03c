// Brings GA up around every ga test program (MPI itself is the harness's), as GA programs do:
// MPI_Init by the program, then GA_Initialize ... GA_Terminate.
#include <gtest/gtest.h>

#include "ga.h"

namespace {
class GaEnvironment : public ::testing::Environment {
 public:
  void SetUp() override { GA_Initialize(); }
  void TearDown() override { GA_Terminate(); }
};
const auto* const registered = ::testing::AddGlobalTestEnvironment(new GaEnvironment);
}  // namespace
