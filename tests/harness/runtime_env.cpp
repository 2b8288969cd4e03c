// Brings a library's runtime up around every test of a program (MPI itself is the harness's:
// mpi_gtest_main.cpp). One file for every test folder; the runtime is the folder's parameter,
// chosen by armada_test_runtime(<target> <runtime>) in tests/CMakeLists.txt:
//   rma    armada::rma::init / finalize (tests/rma, arrays, linalg, apps)
//   armci  ARMCI_Init / ARMCI_Finalize, each must return 0 (tests/capi)
//   ga     GA_Initialize / GA_Terminate, as GA programs do after their own MPI_Init (tests/ga)
#include <gtest/gtest.h>

#if defined(ARMADA_TEST_RUNTIME_ARMCI)
#include <armci.h>
#elif defined(ARMADA_TEST_RUNTIME_GA)
#include "ga.h"
#elif defined(ARMADA_TEST_RUNTIME_RMA)
#include "armada/rma/rma.hpp"
#else
#error "armada_test_runtime() defines ARMADA_TEST_RUNTIME_<RMA|ARMCI|GA>"
#endif

namespace {

void start_runtime() {
#if defined(ARMADA_TEST_RUNTIME_ARMCI)
  ASSERT_EQ(ARMCI_Init(), 0);
#elif defined(ARMADA_TEST_RUNTIME_GA)
  GA_Initialize();
#else
  armada::rma::init(MPI_COMM_WORLD);
#endif
}

void stop_runtime() {
#if defined(ARMADA_TEST_RUNTIME_ARMCI)
  ASSERT_EQ(ARMCI_Finalize(), 0);
#elif defined(ARMADA_TEST_RUNTIME_GA)
  GA_Terminate();
#else
  armada::rma::finalize();
#endif
}

class RuntimeEnvironment : public ::testing::Environment {
 public:
  void SetUp() override { start_runtime(); }
  void TearDown() override { stop_runtime(); }
};
const auto* const registered = ::testing::AddGlobalTestEnvironment(new RuntimeEnvironment);

}  // namespace
