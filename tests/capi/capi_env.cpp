// Brings ARMCI up around every C API test program (MPI itself is the harness's).
#include <gtest/gtest.h>

#include <armci.h>

namespace {
class ArmciEnvironment : public ::testing::Environment {
 public:
  void SetUp() override { ASSERT_EQ(ARMCI_Init(), 0); }
  void TearDown() override { ASSERT_EQ(ARMCI_Finalize(), 0); }
};
const auto* const registered = ::testing::AddGlobalTestEnvironment(new ArmciEnvironment);
}  // namespace
