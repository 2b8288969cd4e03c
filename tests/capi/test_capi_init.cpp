// Initialization variants, nesting and finalization, calls before initialization, ARMCI on a
// sub-communicator, and ARMCI next to a program that started armada::rma itself. No global
// environment: each test brings ARMCI up and down.
#include <gtest/gtest.h>

#include <vector>

#include "armada/rma/rma.hpp"
#include "capi_util.hpp"
#include "world_halves.hpp"

namespace armada::armci::test {
namespace {

TEST(Init, CallsBeforeInitFail) {
  ErrorCapture errors;
  EXPECT_EQ(ARMCI_Initialized(), 0);
  char buf[8];
  EXPECT_EQ(ARMCI_Put(buf, buf, 8, 0), ARMADA_ARMCI_ESTATE);
  errors.expect("ARMCI_Put", ARMADA_ARMCI_ESTATE, {"ARMCI_Put", "not initialized"});
  EXPECT_EQ(armci_msg_me(), -1);
  errors.expect("armci_msg_me", ARMADA_ARMCI_ESTATE, {"not initialized"});
  ARMCI_Barrier();
  errors.expect("ARMCI_Barrier", ARMADA_ARMCI_ESTATE, {"ARMCI_Init"});
  std::vector<void*> bases(8);
  EXPECT_EQ(ARMCI_Malloc(bases.data(), 8), ARMADA_ARMCI_ESTATE);
  errors.expect("ARMCI_Malloc", ARMADA_ARMCI_ESTATE, {"not initialized"});
  // Finalizing what is not initialized does nothing and says so in its code, without the hook
  // (Global Arrays calls it more than once and ignores the code).
  EXPECT_EQ(ARMCI_Finalize(), ARMADA_ARMCI_ESTATE);
  EXPECT_EQ(errors.count(), 0);
}

TEST(Init, NestedInitAndFinalize) {
  EXPECT_EQ(ARMCI_Init_thread(MPI_THREAD_MULTIPLE), 0);
  EXPECT_EQ(ARMCI_Initialized(), 1);
  EXPECT_EQ(ARMCI_Init(), 0);  // Global Arrays and TCGMSG initialize more than once
  int argc = 0;
  char** argv = nullptr;
  EXPECT_EQ(ARMCI_Init_args(&argc, &argv), 0);
  int world_size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  EXPECT_EQ(armci_msg_nproc(), world_size);
  EXPECT_EQ(ARMCI_Finalize(), 0);
  EXPECT_EQ(ARMCI_Finalize(), 0);
  EXPECT_EQ(ARMCI_Initialized(), 1);
  EXPECT_EQ(ARMCI_Finalize(), 0);  // the matching last one ends ARMCI
  EXPECT_EQ(ARMCI_Initialized(), 0);
  EXPECT_EQ(ARMCI_Finalize(), ARMADA_ARMCI_ESTATE);  // one too many
  // Again, through the profiling names.
  EXPECT_EQ(PARMCI_Init(), 0);
  EXPECT_EQ(PARMCI_Initialized(), 1);
  EXPECT_EQ(PARMCI_Finalize(), 0);
}

// Each half of the world runs its own ARMCI: ranks are ranks of the communicator.
TEST(Init, SubCommunicator) {
  const armada::test::WorldHalves halves;
  const int world_rank = halves.world_rank, half_rank = halves.half_rank, half_size = halves.half_size;
  ASSERT_EQ(ARMCI_Init_thread_comm(MPI_THREAD_SINGLE, halves.half), 0);
  EXPECT_EQ(armci_msg_me(), half_rank);
  EXPECT_EQ(armci_msg_nproc(), half_size);
  {
    Segment seg(sizeof(int));
    const int v = world_rank;
    EXPECT_EQ(ARMCI_Put(const_cast<int*>(&v), seg.at((half_rank + 1) % half_size), sizeof v, (half_rank + 1) % half_size), 0);
    ARMCI_Barrier();
    const int from = (half_rank + half_size - 1) % half_size;
    EXPECT_EQ(*seg.local<int>(), world_rank - 2 * (half_rank - from));
    ARMCI_Barrier();
  }
  EXPECT_EQ(ARMCI_Finalize(), 0);
  ASSERT_EQ(ARMCI_Init_mpi_comm(MPI_COMM_WORLD), 0);
  EXPECT_EQ(armci_msg_nproc(), halves.world_size);
  EXPECT_EQ(ARMCI_Finalize(), 0);
}

// A C++ program that started armada::rma lends it to ARMCI; ARMCI_Finalize leaves it running.
TEST(Init, NextToTheCppApi) {
  armada::rma::init(MPI_COMM_WORLD);
  ASSERT_EQ(ARMCI_Init(), 0);
  {
    Segment seg(64);
    ARMCI_Barrier();
  }
  EXPECT_EQ(ARMCI_Finalize(), 0);
  EXPECT_TRUE(armada::rma::initialized());
  {
    ErrorCapture errors;
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, 0, armada::rma::rank() == 0 ? 1 : 0, &half);  // reordered
    int same = MPI_IDENT;
    MPI_Comm_compare(half, MPI_COMM_WORLD, &same);
    if (same != MPI_IDENT && same != MPI_CONGRUENT) {  // 2 or more ranks: a reordering
      EXPECT_EQ(ARMCI_Init_mpi_comm(half), ARMADA_ARMCI_ESTATE);
      errors.expect("ARMCI_Init_mpi_comm", ARMADA_ARMCI_ESTATE, {"another communicator"});
    }
    MPI_Comm_free(&half);
  }
  armada::rma::finalize();
}

}  // namespace
}  // namespace armada::armci::test
