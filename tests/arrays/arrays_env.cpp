// Brings the rma runtime up around every arrays test program (MPI itself is the harness's).
#include <gtest/gtest.h>

#include "armada/rma/rma.hpp"

namespace {
class RmaEnvironment : public ::testing::Environment {
 public:
  void SetUp() override { armada::rma::init(MPI_COMM_WORLD); }
  void TearDown() override { armada::rma::finalize(); }
};
const auto* const registered = ::testing::AddGlobalTestEnvironment(new RmaEnvironment);
}  // namespace
