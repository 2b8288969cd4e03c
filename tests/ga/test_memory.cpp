// GA's memory limit (GA_Set_memory_limit, GA_Memory_avail, GA_Inquire_memory and what array
// creation, duplication, GA_Allocate, GA_Deallocate and GA_Getmem do under it),
// GA_Getmem/GA_Freemem, handle checks, the debugging and sync-masking switches, and
// GA_Print_stats' counts.
#include <gtest/gtest.h>

#include <mpi.h>

#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "ga-mpi.h"
#include "ga.h"
#include "ga_test_util.hpp"

namespace {

using ga_test::name;

constexpr size_t kUnlimited = static_cast<size_t>(-1);

/// Removes any limit when a test ends, passed or not (the next test starts unlimited).
struct NoLimitAfter {
  ~NoLimitAfter() { GA_Set_memory_limit(kUnlimited); }
};

/// The bytes a 2-D double array takes on this process: its block with a ghost frame of `w`.
size_t my_bytes(int g, int w = 0) {
  int lo[2], hi[2];
  NGA_Distribution(g, GA_Nodeid(), lo, hi);
  if (hi[0] < lo[0] || hi[1] < lo[1]) return 0;
  return sizeof(double) * static_cast<size_t>(hi[0] - lo[0] + 1 + 2 * w) * static_cast<size_t>(hi[1] - lo[1] + 1 + 2 * w);
}

/// True on every process when `ok` holds on every process.
bool everywhere(bool ok) {
  int v = ok ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_MIN, GA_MPI_Comm());
  return v == 1;
}

TEST(GaMemory, WithoutALimitNothingIsRefused) {
  EXPECT_EQ(GA_Memory_limited(), 0);
  EXPECT_EQ(NGA_Memory_limited(), 0);
  EXPECT_EQ(GA_Memory_avail(), kUnlimited);
  EXPECT_EQ(NGA_Memory_avail(), kUnlimited);
  const size_t before = GA_Inquire_memory();
  int dims[2] = {40, 30};
  const int g = NGA_Create(C_DBL, 2, dims, name("unlimited"), nullptr);
  ASSERT_NE(g, 0);
  EXPECT_EQ(GA_Inquire_memory(), before + my_bytes(g));
  GA_Destroy(g);
  EXPECT_EQ(GA_Inquire_memory(), before);
}

TEST(GaMemory, ArraysAreChargedWithTheirGhostsAndRefundedOnDestroy) {
  NoLimitAfter reset;
  const size_t before = GA_Inquire_memory();
  GA_Set_memory_limit(before + 1000000);
  EXPECT_EQ(GA_Memory_limited(), 1);
  EXPECT_EQ(GA_Memory_avail(), 1000000u);
  int dims[2] = {40, 30}, width[2] = {2, 2};
  const int g = NGA_Create_ghosts(C_DBL, 2, dims, width, name("ghosted"), nullptr);
  ASSERT_NE(g, 0);
  EXPECT_EQ(GA_Inquire_memory(), before + my_bytes(g, 2));
  EXPECT_EQ(NGA_Memory_avail(), 1000000u - my_bytes(g, 2));
  const int d = GA_Duplicate(g, name("ghosted copy"));
  ASSERT_NE(d, 0);
  EXPECT_EQ(GA_Memory_avail(), 1000000u - 2 * my_bytes(g, 2));
  GA_Destroy(d);
  GA_Destroy(g);
  EXPECT_EQ(GA_Memory_avail(), 1000000u);
  EXPECT_EQ(GA_Inquire_memory(), before);
}

TEST(GaMemory, AnArrayOverTheLimitOfOneProcessFailsOnEveryProcess) {
  NoLimitAfter reset;
  const int np = GA_Nnodes(), me = GA_Nodeid();
  // Process 0 owns rows 0 .. 89 of 100; the others share the last 10 (one block each at most).
  std::vector<int> map = {0};
  for (int p = 1; p < np; ++p) map.push_back(90 + (p - 1) * 10 / (np - 1));
  map.push_back(0);
  int dims[2] = {100, 10}, block[2] = {np, 1};
  const size_t before = GA_Inquire_memory();
  // Room for 20 rows everywhere: too little on process 0 only (one process: too little there).
  GA_Set_memory_limit(before + 20 * 10 * sizeof(double));
  const int g = NGA_Create_irreg(C_DBL, 2, dims, name("lopsided"), block, map.data());
  EXPECT_EQ(g, 0) << "process " << me;
  EXPECT_TRUE(everywhere(g == 0));
  EXPECT_EQ(GA_Inquire_memory(), before);
  // With the limit raised it is made, and a duplicate over the limit fails everywhere too.
  GA_Set_memory_limit(before + 100 * 10 * sizeof(double));
  const int h = NGA_Create_irreg(C_DBL, 2, dims, name("lopsided"), block, map.data());
  ASSERT_TRUE(everywhere(h != 0));
  const int dup = GA_Duplicate(h, name("second lopsided"));
  // Process 0 holds 90 of the 100 rows (all at one process): a second copy does not fit there.
  EXPECT_TRUE(everywhere(dup == 0));
  if (dup != 0) GA_Destroy(dup);
  GA_Destroy(h);
  EXPECT_EQ(GA_Inquire_memory(), before);
}

TEST(GaMemory, AllocateOverTheLimitLeavesTheHandleToAllocateLater) {
  NoLimitAfter reset;
  const size_t before = GA_Inquire_memory();
  GA_Set_memory_limit(before + 64);
  int dims[2] = {50, 50};
  const int g = GA_Create_handle();
  GA_Set_data(g, 2, dims, C_DBL);
  EXPECT_EQ(GA_Allocate(g), 0);
  EXPECT_EQ(GA_Valid_handle(g), 0);  // planned, not allocated
  GA_Set_memory_limit(kUnlimited);
  EXPECT_EQ(GA_Memory_limited(), 0);
  EXPECT_EQ(GA_Allocate(g), 1);
  EXPECT_EQ(GA_Valid_handle(g), 1);
  GA_Destroy(g);
}

/// Every process's block of 2-D array g: lo[0], hi[0], lo[1], hi[1] for process 0, 1, ...
std::vector<int> blocks(int g) {
  std::vector<int> all;
  for (int p = 0; p < GA_Nnodes(); ++p) {
    int lo[2], hi[2];
    NGA_Distribution(g, p, lo, hi);
    all.insert(all.end(), {lo[0], hi[0], lo[1], hi[1]});
  }
  return all;
}

TEST(GaMemory, DeallocateRefundsTheMemoryAndKeepsTheHandleToAllocateAgain) {
  NoLimitAfter reset;
  const int np = GA_Nnodes();
  const size_t before = GA_Inquire_memory();
  // An irregular map (uneven rows), ghost widths and a name: all kept by the handle.
  const int starts[4] = {0, 1, 3, 6};
  std::vector<int> map(starts, starts + np);
  map.push_back(0);
  int dims[2] = {12, 7}, block[2] = {np, 1}, width[2] = {1, 1};
  const int g = NGA_Create_ghosts_irreg(C_DBL, 2, dims, width, name("kept"), block, map.data());
  ASSERT_NE(g, 0);
  const std::vector<int> layout = blocks(g);
  const size_t mine = my_bytes(g, 1);
  EXPECT_EQ(GA_Inquire_memory(), before + mine);
  double five = 5;
  GA_Fill(g, &five);
  GA_Set_memory_limit(before + mine);  // exactly full here
  EXPECT_EQ(GA_Memory_avail(), 0u);
  EXPECT_EQ(GA_Deallocate(g), 1);
  EXPECT_EQ(GA_Inquire_memory(), before);
  EXPECT_EQ(GA_Memory_avail(), mine);  // refunded
  EXPECT_EQ(GA_Valid_handle(g), 0);    // planned again, as GA's
  EXPECT_EQ(NGA_Deallocate(g), 0);     // nothing left to free (GA: 0)
  EXPECT_EQ(GA_Allocate(g), 1);
  EXPECT_EQ(GA_Valid_handle(g), 1);
  EXPECT_EQ(GA_Inquire_memory(), before + mine);
  EXPECT_EQ(blocks(g), layout);
  EXPECT_STREQ(GA_Inquire_name(g), "kept");
  EXPECT_EQ(GA_Has_ghosts(g), 1);
  int type = 0, ndim = 0, got[2] = {0, 0};
  NGA_Inquire(g, &type, &ndim, got);
  EXPECT_EQ(type, C_DBL);
  EXPECT_EQ(ndim, 2);
  EXPECT_EQ(got[0], 12);
  EXPECT_EQ(got[1], 7);
  // The contents are not kept: a new array (zero, as every new Armada array), then usable.
  for (double x : ga_test::whole(g, 12, 7)) ASSERT_EQ(x, 0.0);
  double seven = 7;
  GA_Fill(g, &seven);
  for (double x : ga_test::whole(g, 12, 7)) ASSERT_EQ(x, 7.0);
  GA_Destroy(g);
  EXPECT_EQ(GA_Inquire_memory(), before);
}

TEST(GaMemory, DeallocatedMemoryGoesToOtherArraysUnderTheLimit) {
  NoLimitAfter reset;
  const size_t before = GA_Inquire_memory();
  int dims[2] = {40, 20};
  const int a = NGA_Create(C_DBL, 2, dims, name("first"), nullptr);
  ASSERT_TRUE(everywhere(a != 0));
  const size_t mine = my_bytes(a);
  ASSERT_GT(mine, 0u);
  GA_Set_memory_limit(before + mine + mine / 2);  // room for one such array, not two
  EXPECT_TRUE(everywhere(NGA_Create(C_DBL, 2, dims, name("second"), nullptr) == 0));
  EXPECT_EQ(NGA_Deallocate(a), 1);
  const int b = NGA_Create(C_DBL, 2, dims, name("second"), nullptr);
  EXPECT_TRUE(everywhere(b != 0));
  EXPECT_EQ(GA_Allocate(a), 0);  // over the limit now: a stays planned
  EXPECT_EQ(GA_Valid_handle(a), 0);
  GA_Destroy(b);
  EXPECT_EQ(NGA_Allocate(a), 1);
  EXPECT_EQ(GA_Inquire_memory(), before + mine);
  // GA_Destroy frees a planned handle too (here after GA_Deallocate): nothing is charged.
  EXPECT_EQ(GA_Deallocate(a), 1);
  GA_Destroy(a);
  EXPECT_EQ(GA_Verify_handle(a), 0);
  EXPECT_EQ(GA_Inquire_memory(), before);
}

TEST(GaMemory, GetmemGivesEveryProcessItsOwnChargedMemory) {
  NoLimitAfter reset;
  const size_t before = GA_Inquire_memory();
  GA_Set_memory_limit(before + 100000);
  auto* p = static_cast<double*>(GA_Getmem(C_DBL, 1000, 0));
  ASSERT_NE(p, nullptr);
  for (int i = 0; i < 1000; ++i) p[i] = GA_Nodeid() + i;
  GA_Sync();
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(p[i], GA_Nodeid() + i);
  EXPECT_EQ(GA_Memory_avail(), 100000u - 8000u);
  EXPECT_EQ(GA_Inquire_memory(), before);  // arrays only, as GA's
  GA_Freemem(p);
  EXPECT_EQ(GA_Memory_avail(), 100000u);
  // Over the limit: GA_Getmem fails (tests/ga/errors.c, case getmem); zero elements work.
  void* none = GA_Getmem(C_INT, 0, -1);
  EXPECT_NE(none, nullptr);
  GA_Freemem(none);
}

TEST(GaHandles, VerifyDebugMaskSyncAndBufferCalls) {
  int dims[1] = {10};
  const int g = NGA_Create(C_INT, 1, dims, name("v"), nullptr);
  EXPECT_EQ(GA_Verify_handle(g), 1);
  EXPECT_EQ(NGA_Verify_handle(g), 1);
  GA_Check_handle(g, name("a live handle"));  // returns
  EXPECT_EQ(GA_Verify_handle(12345), 0);
  EXPECT_EQ(NGA_Verify_handle(0), 0);
  GA_Set_debug(1);
  EXPECT_EQ(GA_Get_debug(), 1);
  NGA_Set_debug(0);
  EXPECT_EQ(NGA_Get_debug(), 0);
  // Masking the syncs of the next collective changes no result.
  GA_Mask_sync(0, 0);
  int one = 1;
  GA_Fill(g, &one);
  NGA_Mask_sync(1, 1);
  std::vector<int> v(10);
  int lo[1] = {0}, hi[1] = {9};
  NGA_Get(g, lo, hi, v.data(), nullptr);
  for (int x : v) EXPECT_EQ(x, 1);
  NGA_Alloc_gatscat_buf(100);
  NGA_Free_gatscat_buf();
  GA_Register_stack_memory([](size_t bytes, int, char*) { return std::malloc(bytes); }, [](void* p) { std::free(p); });
  GA_Destroy(g);
  EXPECT_EQ(GA_Verify_handle(g), 0);
}

TEST(GaGroups, EveryProcessHasAGroupOfItself) {
  const int self = GA_Pgroup_self();
  EXPECT_EQ(NGA_Pgroup_self(), self);
  EXPECT_NE(self, GA_Pgroup_get_world());
  EXPECT_EQ(GA_Pgroup_nnodes(self), 1);
  EXPECT_EQ(GA_Pgroup_nodeid(self), 0);
  // An array on it is this process's alone: its collectives involve no other process.
  int dims[1] = {5};
  const int g = NGA_Create_config(C_INT, 1, dims, name("mine"), nullptr, self);
  ASSERT_NE(g, 0);
  int value = 10 + GA_Nodeid();
  GA_Fill(g, &value);
  std::vector<int> v(5);
  int lo[1] = {0}, hi[1] = {4};
  NGA_Get(g, lo, hi, v.data(), nullptr);
  for (int x : v) EXPECT_EQ(x, 10 + GA_Nodeid());
  double x = GA_Nodeid();
  GA_Pgroup_dgop(self, &x, 1, name("+"));
  EXPECT_EQ(x, GA_Nodeid());
  GA_Pgroup_sync(self);
  GA_Destroy(g);
  // 0: the C API takes C indices (GA without USE_FAPI), as GA's C programs require.
  EXPECT_EQ(GA_Uses_fapi(), 0);
}

/// The row `label` of GA_Print_stats' table, one number per column ("-" read as 0).
std::vector<unsigned long long> stats_row(const std::string& text, const std::string& label) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(label, 0) != 0) continue;
    std::istringstream cells(line.substr(label.size()));
    std::vector<unsigned long long> row;
    for (std::string c; cells >> c;) row.push_back(c == "-" ? 0 : std::stoull(c));
    return row;
  }
  return {};
}

TEST(GaStats, PrintStatsCountsThisProcessCallsAndBytes) {
  const std::string before = ga_test::capture_stdout([] { GA_Print_stats(); });
  int dims[1] = {64};
  const int g = NGA_Create(C_DBL, 1, dims, name("counted"), nullptr);
  std::vector<double> buf(10, 1.0);
  int lo[1] = {3}, hi[1] = {12}, sub[1] = {5};
  NGA_Get(g, lo, hi, buf.data(), nullptr);
  NGA_Put(g, lo, hi, buf.data(), nullptr);
  NGA_Put(g, lo, hi, buf.data(), nullptr);
  double alpha = 1.0;
  NGA_Acc(g, lo, hi, buf.data(), nullptr, &alpha);
  int* subs[1] = {sub};
  NGA_Gather(g, buf.data(), subs, 1);
  GA_Sync();
  GA_Destroy(g);
  const std::string after = ga_test::capture_stdout([] { GA_Print_stats(); });
  ASSERT_NE(after.find("GA statistics for process " + std::to_string(GA_Nodeid())), std::string::npos) << after;
  ASSERT_NE(after.find("Max memory consumed for GA by this process"), std::string::npos) << after;
  const auto c0 = stats_row(before, "calls:"), c1 = stats_row(after, "calls:");
  const auto b0 = stats_row(before, "bytes:"), b1 = stats_row(after, "bytes:");
  ASSERT_EQ(c0.size(), 8u) << before;
  ASSERT_EQ(c1.size(), 8u) << after;
  ASSERT_EQ(b1.size(), 8u) << after;
  // create, destroy, get, put, acc, scatter, gather, read&inc
  const std::vector<unsigned long long> calls = {1, 1, 1, 2, 1, 0, 1, 0}, bytes = {0, 0, 80, 160, 80, 0, 8, 0};
  for (std::size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(c1[i] - c0[i], calls[i]) << "column " << i << "\n" << after;
    EXPECT_EQ(b1[i] - b0[i], bytes[i]) << "column " << i << "\n" << after;
  }
}

}  // namespace
