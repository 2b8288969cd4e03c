// GA's own MPI collective waits serving its node (tests/rma/server_waits.hpp's pattern): with
// rank 0's node server thread held, rank 0 enters GA_Pgroup_split_irreg first, whose first wait
// is its gather of the colors; the last rank (another node) first gets an element that rank 0
// holds. A blocking MPI_Allgather there never served the get: the watchdog ended the job.
#include <gtest/gtest.h>

#include "ga.h"
#include "server_waits.hpp"

namespace {

TEST(GaWaits, PgroupSplitIrreg) {
  if (!armada::rma::test::server_shape())
    GTEST_SKIP() << "needs the server transport with rank 0 and the last rank on different nodes";
  const int me = GA_Nodeid(), np = GA_Nnodes();
  int dims[1] = {np * 4};
  char name[] = "held";
  const int g = NGA_Create(C_DBL, 1, dims, name, nullptr);
  ASSERT_NE(g, 0);
  double seven = 7.0;
  GA_Fill(g, &seven);  // element 0 is rank 0's (the default block distribution)
  int split = 0;
  armada::rma::test::while_held_then(
      "GA_Pgroup_split_irreg", [&] { split = GA_Pgroup_split_irreg(GA_Pgroup_get_world(), me % 2); }, [&] {
        int lo[1] = {0}, hi[1] = {0}, ld[1] = {1};
        double got = 0;
        NGA_Get(g, lo, hi, &got, ld);
        EXPECT_EQ(got, 7.0);
      });
  EXPECT_EQ(GA_Pgroup_nnodes(split), me % 2 == 0 ? (np + 1) / 2 : np / 2);
  GA_Destroy(g);
}

}  // namespace
