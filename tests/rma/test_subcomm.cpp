// The runtime on a sub-communicator of an MPI the program initialized itself: the world is the
// sub-communicator, and the runtime can be finalized and started again on another one.
// (No armada_test_runtime here: this program drives init/finalize itself.)
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstring>

#include "armada/rma/rma.hpp"
#include "world_halves.hpp"

namespace armada::rma {
namespace {

TEST(SubCommunicator, InitOnHalvesThenOnTheWholeWorld) {
  const armada::test::WorldHalves halves;
  const int wrank = halves.world_rank, hrank = halves.half_rank, hsize = halves.half_size;

  init(halves.half);
  EXPECT_EQ(rank(), hrank);
  EXPECT_EQ(size(), hsize);
  auto bases = allocate(sizeof(int));
  EXPECT_EQ(bases.size(), static_cast<std::size_t>(hsize));
  const int next = (hrank + 1) % hsize;
  put_value(wrank, GlobalPtr<int>(next, static_cast<int*>(bases[static_cast<std::size_t>(next)])));
  barrier();
  // The previous rank of my half, in world numbering: halves hold every 2nd world rank.
  const int prev_world = 2 * ((hrank + hsize - 1) % hsize) + wrank % 2;
  EXPECT_EQ(*static_cast<int*>(bases[static_cast<std::size_t>(hrank)]), prev_world);
  free(bases[static_cast<std::size_t>(hrank)]);
  finalize();
  EXPECT_FALSE(initialized());

  init(MPI_COMM_WORLD);
  EXPECT_EQ(size(), halves.world_size);
  void* local = allocate_local(100);
  EXPECT_NE(local, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(local) % 4096, 0u);
  std::memset(local, 1, 100);
  free_local(local);
  EXPECT_EQ(allocate_local(0), nullptr);
  finalize();
}

TEST(SubCommunicator, CallsBeforeInitAreStateErrors) {
  EXPECT_FALSE(initialized());
  try {
    (void)rank();
    ADD_FAILURE() << "rank() before init did not throw";
  } catch (const StateError& e) {
    EXPECT_NE(std::string(e.what()).find("not initialized"), std::string::npos) << e.what();
  }
  EXPECT_THROW(allocate(8), StateError);
  EXPECT_THROW(put(nullptr, nullptr, 0, 0), StateError);
  EXPECT_THROW(init(MPI_COMM_NULL), InvalidArgument);
}

}  // namespace
}  // namespace armada::rma
