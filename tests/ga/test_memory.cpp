// GA's memory limit (GA_Set_memory_limit, GA_Memory_avail, GA_Inquire_memory and what array
// creation, duplication, GA_Allocate, GA_Deallocate and GA_Getmem do under it),
// GA_Getmem/GA_Freemem, handle checks, the debugging and sync-masking switches, and
// GA_Print_stats' counts; and MA (macdecls.h): MA_init's sizes as MA_inquire_* reports them, the
// stack's chop, the iterator, the guards MA_verify_allocator_stuff checks, and its reports.
#include <gtest/gtest.h>

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "ga-mpi.h"
#include "ga.h"
#include "ga_test_util.hpp"
#include "macdecls.h"

namespace {

using ga_test::name;

constexpr size_t kUnlimited = static_cast<size_t>(-1);

/// What this process holds when a test starts, the base of the limits it sets; any limit is
/// removed when the test ends, passed or not (the next test starts unlimited).
struct Budget {
  const size_t before = GA_Inquire_memory();
  ~Budget() { GA_Set_memory_limit(kUnlimited); }
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
  const Budget mem;
  GA_Set_memory_limit(mem.before + 1000000);
  EXPECT_EQ(GA_Memory_limited(), 1);
  EXPECT_EQ(GA_Memory_avail(), 1000000u);
  int dims[2] = {40, 30}, width[2] = {2, 2};
  const int g = NGA_Create_ghosts(C_DBL, 2, dims, width, name("ghosted"), nullptr);
  ASSERT_NE(g, 0);
  EXPECT_EQ(GA_Inquire_memory(), mem.before + my_bytes(g, 2));
  EXPECT_EQ(NGA_Memory_avail(), 1000000u - my_bytes(g, 2));
  const int d = GA_Duplicate(g, name("ghosted copy"));
  ASSERT_NE(d, 0);
  EXPECT_EQ(GA_Memory_avail(), 1000000u - 2 * my_bytes(g, 2));
  GA_Destroy(d);
  GA_Destroy(g);
  EXPECT_EQ(GA_Memory_avail(), 1000000u);
  EXPECT_EQ(GA_Inquire_memory(), mem.before);
}

TEST(GaMemory, AnArrayOverTheLimitOfOneProcessFailsOnEveryProcess) {
  const Budget mem;
  const int np = GA_Nnodes(), me = GA_Nodeid();
  // Process 0 owns rows 0 .. 89 of 100; the others share the last 10 (one block each at most).
  std::vector<int> map = {0};
  for (int p = 1; p < np; ++p) map.push_back(90 + (p - 1) * 10 / (np - 1));
  map.push_back(0);
  int dims[2] = {100, 10}, block[2] = {np, 1};
  // Room for 20 rows everywhere: too little on process 0 only (one process: too little there).
  GA_Set_memory_limit(mem.before + 20 * 10 * sizeof(double));
  const int g = NGA_Create_irreg(C_DBL, 2, dims, name("lopsided"), block, map.data());
  EXPECT_EQ(g, 0) << "process " << me;
  EXPECT_TRUE(everywhere(g == 0));
  EXPECT_EQ(GA_Inquire_memory(), mem.before);
  // With the limit raised it is made, and a duplicate over the limit fails everywhere too.
  GA_Set_memory_limit(mem.before + 100 * 10 * sizeof(double));
  const int h = NGA_Create_irreg(C_DBL, 2, dims, name("lopsided"), block, map.data());
  ASSERT_TRUE(everywhere(h != 0));
  const int dup = GA_Duplicate(h, name("second lopsided"));
  // Process 0 holds 90 of the 100 rows (all at one process): a second copy does not fit there.
  EXPECT_TRUE(everywhere(dup == 0));
  if (dup != 0) GA_Destroy(dup);
  GA_Destroy(h);
  EXPECT_EQ(GA_Inquire_memory(), mem.before);
}

TEST(GaMemory, AllocateOverTheLimitLeavesTheHandleToAllocateLater) {
  const Budget mem;
  GA_Set_memory_limit(mem.before + 64);
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
  const Budget mem;
  const int np = GA_Nnodes();
  // An irregular map (uneven rows), ghost widths and a name: all kept by the handle.
  const int starts[4] = {0, 1, 3, 6};
  std::vector<int> map(starts, starts + np);
  map.push_back(0);
  int dims[2] = {12, 7}, block[2] = {np, 1}, width[2] = {1, 1};
  const int g = NGA_Create_ghosts_irreg(C_DBL, 2, dims, width, name("kept"), block, map.data());
  ASSERT_NE(g, 0);
  const std::vector<int> layout = blocks(g);
  const size_t mine = my_bytes(g, 1);
  EXPECT_EQ(GA_Inquire_memory(), mem.before + mine);
  double five = 5;
  GA_Fill(g, &five);
  GA_Set_memory_limit(mem.before + mine);  // exactly full here
  EXPECT_EQ(GA_Memory_avail(), 0u);
  EXPECT_EQ(GA_Deallocate(g), 1);
  EXPECT_EQ(GA_Inquire_memory(), mem.before);
  EXPECT_EQ(GA_Memory_avail(), mine);  // refunded
  EXPECT_EQ(GA_Valid_handle(g), 0);    // planned again, as GA's
  EXPECT_EQ(NGA_Deallocate(g), 0);     // nothing left to free (GA: 0)
  EXPECT_EQ(GA_Allocate(g), 1);
  EXPECT_EQ(GA_Valid_handle(g), 1);
  EXPECT_EQ(GA_Inquire_memory(), mem.before + mine);
  EXPECT_EQ(blocks(g), layout);
  EXPECT_STREQ(GA_Inquire_name(g), "kept");
  EXPECT_EQ(GA_Has_ghosts(g), 1);
  ga_test::expect_shape(g, C_DBL, {12, 7});
  // The contents are not kept: a new array (zero, as every new Armada array), then usable.
  for (double x : ga_test::whole(g, 12, 7)) ASSERT_EQ(x, 0.0);
  double seven = 7;
  GA_Fill(g, &seven);
  for (double x : ga_test::whole(g, 12, 7)) ASSERT_EQ(x, 7.0);
  GA_Destroy(g);
  EXPECT_EQ(GA_Inquire_memory(), mem.before);
}

TEST(GaMemory, DeallocatedMemoryGoesToOtherArraysUnderTheLimit) {
  const Budget mem;
  int dims[2] = {40, 20};
  const int a = NGA_Create(C_DBL, 2, dims, name("first"), nullptr);
  ASSERT_TRUE(everywhere(a != 0));
  const size_t mine = my_bytes(a);
  ASSERT_GT(mine, 0u);
  GA_Set_memory_limit(mem.before + mine + mine / 2);  // room for one such array, not two
  EXPECT_TRUE(everywhere(NGA_Create(C_DBL, 2, dims, name("second"), nullptr) == 0));
  EXPECT_EQ(NGA_Deallocate(a), 1);
  const int b = NGA_Create(C_DBL, 2, dims, name("second"), nullptr);
  EXPECT_TRUE(everywhere(b != 0));
  EXPECT_EQ(GA_Allocate(a), 0);  // over the limit now: a stays planned
  EXPECT_EQ(GA_Valid_handle(a), 0);
  GA_Destroy(b);
  EXPECT_EQ(NGA_Allocate(a), 1);
  EXPECT_EQ(GA_Inquire_memory(), mem.before + mine);
  // GA_Destroy frees a planned handle too (here after GA_Deallocate): nothing is charged.
  EXPECT_EQ(GA_Deallocate(a), 1);
  GA_Destroy(a);
  EXPECT_EQ(GA_Verify_handle(a), 0);
  EXPECT_EQ(GA_Inquire_memory(), mem.before);
}

TEST(GaMemory, GetmemGivesEveryProcessItsOwnChargedMemory) {
  const Budget mem;
  GA_Set_memory_limit(mem.before + 100000);
  auto* p = static_cast<double*>(GA_Getmem(C_DBL, 1000, 0));
  ASSERT_NE(p, nullptr);
  for (int i = 0; i < 1000; ++i) p[i] = GA_Nodeid() + i;
  GA_Sync();
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(p[i], GA_Nodeid() + i);
  EXPECT_EQ(GA_Memory_avail(), 100000u - 8000u);
  EXPECT_EQ(GA_Inquire_memory(), mem.before);  // arrays only, as GA's
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

// ---- MA ---------------------------------------------------------------------------------------

/// Puts MA's switches back to their defaults when a test ends, passed or not.
struct MaDefaultsAfter {
  ~MaDefaultsAfter() {
    MA_set_auto_verify(MA_FALSE);
    MA_set_error_print(MA_TRUE);
    MA_trace(MA_FALSE);
    MA_set_numalign(0);
  }
};

/// The lines of `text` that NWChem's QA would copy into its comparison.
bool has_qa_words(const std::string& text) {
  return text.find("warning") != std::string::npos || text.find("failed") != std::string::npos ||
         text.find("nga_wait") != std::string::npos;
}

// MA_init(type, stack, heap) gives exactly `stack` elements to the stack's side of MA's partition
// and `heap` to the heap's, as GA's MA_inquire_stack/heap report them; the whole segment is what
// MA_inquire_avail reports, and a push or an allocation takes its elements and its overhead.
TEST(GaMa, InquireReportsTheSizesMaInitGave) {
  constexpr Integer kStack = 1000, kHeap = 3000;
  ASSERT_EQ(MA_init(MT_C_DBL, kStack, kHeap), MA_TRUE);
  const Integer overhead = MA_sizeof_overhead(MT_C_DBL);
  ASSERT_GT(overhead, 0);
  EXPECT_EQ(MA_inquire_stack(MT_C_DBL), kStack);
  EXPECT_EQ(MA_inquire_heap(MT_C_DBL), kHeap);
  EXPECT_GE(MA_inquire_avail(MT_C_DBL), kStack + kHeap);
  EXPECT_LE(MA_inquire_avail(MT_C_DBL), kStack + kHeap + overhead);
  EXPECT_EQ(MA_inquire_stack_no_partition(MT_C_DBL), MA_inquire_avail(MT_C_DBL));
  EXPECT_EQ(MA_inquire_heap_no_partition(MT_C_DBL), MA_inquire_avail(MT_C_DBL));
  // Counted in other types: the same bytes.
  EXPECT_GE(MA_inquire_stack(MT_C_CHAR), MA_sizeof(MT_C_DBL, kStack, MT_C_CHAR));
  EXPECT_LT(MA_inquire_stack(MT_C_CHAR), MA_sizeof(MT_C_DBL, kStack + 1, MT_C_CHAR));

  Integer s, h;
  ASSERT_EQ(MA_push_stack(MT_C_DBL, 400, "s", &s), MA_TRUE);
  ASSERT_EQ(MA_allocate_heap(MT_C_DBL, 1000, "h", &h), MA_TRUE);
  EXPECT_LT(MA_inquire_stack(MT_C_DBL), kStack - 400);
  EXPECT_GE(MA_inquire_stack(MT_C_DBL), kStack - 400 - overhead);
  EXPECT_LT(MA_inquire_heap(MT_C_DBL), kHeap - 1000);
  EXPECT_GE(MA_inquire_heap(MT_C_DBL), kHeap - 1000 - overhead);
  const Integer avail = MA_inquire_avail(MT_C_DBL);
  EXPECT_GE(avail, kStack + kHeap - 1400 - 2 * overhead);

  // The partition is GA's unenforced one: the stack may grow into the heap's part, which the
  // "check" forms then see and the plain heap form does not.
  Integer big;
  ASSERT_EQ(MA_push_stack(MT_C_DBL, 1000, "past the partition", &big), MA_TRUE);
  EXPECT_EQ(MA_inquire_stack(MT_C_DBL), 0);
  EXPECT_EQ(MA_inquire_stack_check_heap(MT_C_DBL), 0);
  EXPECT_LT(MA_inquire_heap_check_stack(MT_C_DBL), MA_inquire_heap(MT_C_DBL));
  EXPECT_EQ(MA_inquire_heap_check_stack(MT_C_DBL), MA_inquire_avail(MT_C_DBL));
  EXPECT_EQ(MA_inquire_stack_no_partition(MT_C_DBL), MA_inquire_avail(MT_C_DBL));

  // A push beyond what is left: MA_FALSE, and a message naming the call, argument and value.
  const Integer left = MA_inquire_avail(MT_C_DBL);
  Integer refused;
  testing::internal::CaptureStderr();
  EXPECT_EQ(MA_push_stack(MT_C_DBL, left + 1, "too big", &refused), MA_FALSE);
  const std::string why = testing::internal::GetCapturedStderr();
  EXPECT_NE(why.find("MA_push_stack: nelem = " + std::to_string(left + 1) + ": "), std::string::npos) << why;
  EXPECT_NE(why.find("do not fit"), std::string::npos) << why;
  Integer fits;
  ASSERT_EQ(MA_push_stack(MT_C_DBL, left, "just fits", &fits), MA_TRUE);
  EXPECT_EQ(MA_inquire_avail(MT_C_DBL), 0);

  // Everything freed: the sizes are whole again.
  ASSERT_EQ(MA_chop_stack(s), MA_TRUE);
  ASSERT_EQ(MA_free_heap(h), MA_TRUE);
  EXPECT_EQ(MA_inquire_stack(MT_C_DBL), kStack);
  EXPECT_EQ(MA_inquire_heap(MT_C_DBL), kHeap);
}

// MA_DEFAULT_SPACE: MA's default 2^19 bytes for a region.
TEST(GaMa, DefaultSpaceIsMasDefaultRoom) {
  ASSERT_EQ(MA_init(MT_C_DBL, MA_DEFAULT_SPACE, 100), MA_TRUE);
  EXPECT_EQ(MA_inquire_heap(MT_C_DBL), 100);
  EXPECT_LE(MA_inquire_stack(MT_C_CHAR), 1 << 19);
  EXPECT_GE(MA_inquire_stack(MT_C_CHAR), (1 << 19) - 2 * MA_sizeof_overhead(MT_C_CHAR));
}

// MA_chop_stack pops a block and every block pushed after it; MA_pop_stack pops only the top.
TEST(GaMa, ChopStackPopsTheBlockAndThoseAboveIt) {
  MaDefaultsAfter cleanup;
  ASSERT_EQ(MA_init(MT_C_DBL, 1000, 100), MA_TRUE);
  const Integer whole = MA_inquire_stack(MT_C_DBL);
  Integer a, b, c, d;
  MA_AccessIndex ia, ib;
  ASSERT_EQ(MA_push_get(MT_C_DBL, 10, "a", &a, &ia), MA_TRUE);
  const Integer after_a = MA_inquire_stack(MT_C_DBL);
  ASSERT_EQ(MA_push_get(MT_C_DBL, 20, "b", &b, &ib), MA_TRUE);
  ASSERT_EQ(MA_push_stack(MT_C_INT, 30, "c", &c), MA_TRUE);
  ASSERT_EQ(MA_push_stack(MT_C_CHAR, 5, "d", &d), MA_TRUE);
  ASSERT_EQ(MA_chop_stack(b), MA_TRUE);  // b, c, d
  EXPECT_EQ(MA_inquire_stack(MT_C_DBL), after_a);
  Integer it = 0, h = 0, live = 0;
  ASSERT_EQ(MA_init_memhandle_iterator(&it), MA_TRUE);
  while (MA_get_next_memhandle(&it, &h)) {
    ++live;
    EXPECT_EQ(h, a);
  }
  EXPECT_EQ(live, 1);
  // The next push takes b's place again, and a is still the top below it.
  Integer e;
  MA_AccessIndex ie;
  ASSERT_EQ(MA_push_get(MT_C_DBL, 20, "e", &e, &ie), MA_TRUE);
  EXPECT_EQ(ie, ib);
  ASSERT_EQ(MA_pop_stack(e), MA_TRUE);
  ASSERT_EQ(MA_chop_stack(a), MA_TRUE);
  EXPECT_EQ(MA_inquire_stack(MT_C_DBL), whole);
}

// The iterator hands out each live block once (heap and stack), and MA_FALSE after the last.
TEST(GaMa, IteratorVisitsEveryLiveBlockOnce) {
  MaDefaultsAfter cleanup;
  ASSERT_EQ(MA_init(MT_C_DBL, 1000, 1000), MA_TRUE);
  Integer h1, h2, s1, s2;
  ASSERT_EQ(MA_allocate_heap(MT_C_DBL, 10, "h1", &h1), MA_TRUE);
  ASSERT_EQ(MA_allocate_heap(MT_C_INT, 10, "h2", &h2), MA_TRUE);
  ASSERT_EQ(MA_push_stack(MT_C_DBL, 10, "s1", &s1), MA_TRUE);
  ASSERT_EQ(MA_push_stack(MT_C_LONGLONG, 10, "s2", &s2), MA_TRUE);
  auto visit = [] {
    std::vector<Integer> seen;
    Integer it = -1, h = -1;
    EXPECT_EQ(MA_init_memhandle_iterator(&it), MA_TRUE);
    while (MA_get_next_memhandle(&it, &h)) seen.push_back(h);
    EXPECT_EQ(MA_get_next_memhandle(&it, &h), MA_FALSE);  // stays at the end
    std::sort(seen.begin(), seen.end());
    return seen;
  };
  std::vector<Integer> all = {h1, h2, s1, s2};
  std::sort(all.begin(), all.end());
  EXPECT_EQ(visit(), all);
  ASSERT_EQ(MA_free_heap(h1), MA_TRUE);
  ASSERT_EQ(MA_pop_stack(s2), MA_TRUE);
  std::vector<Integer> two = {h2, s1};
  std::sort(two.begin(), two.end());
  EXPECT_EQ(visit(), two);
  ASSERT_EQ(MA_pop_stack(s1), MA_TRUE);
  ASSERT_EQ(MA_free_heap(h2), MA_TRUE);
  EXPECT_TRUE(visit().empty());
}

// MA_verify_allocator_stuff checks the guard words on each side of every block: a write one
// element past a block (or before it) is found, named by block, and MA_TRUE comes back once the
// guard is whole again. With MA_set_auto_verify every MA call checks first, and fails.
TEST(GaMa, VerifyFindsAWritePastABlock) {
  MaDefaultsAfter cleanup;
  ASSERT_EQ(MA_init(MT_C_DBL, 1000, 1000), MA_TRUE);
  Integer h, s;
  MA_AccessIndex ih, is;
  ASSERT_EQ(MA_alloc_get(MT_C_DBL, 10, "victim", &h, &ih), MA_TRUE);
  ASSERT_EQ(MA_push_get(MT_C_DBL, 10, "stacked", &s, &is), MA_TRUE);
  for (int k = 0; k < 10; ++k) ma_cb_dbl[ih + k] = ma_cb_dbl[is + k] = k;  // within: fine
  EXPECT_EQ(MA_verify_allocator_stuff(), MA_TRUE);

  for (const MA_AccessIndex at : {ih + 10, ih - 1, is + 10, is - 1}) {
    const double saved = ma_cb_dbl[at];
    ma_cb_dbl[at] = 1.0;  // one element past (or before) a block
    std::string report;
    testing::internal::CaptureStderr();
    const std::string out = ga_test::capture_stdout([&] { EXPECT_EQ(MA_verify_allocator_stuff(), MA_FALSE); });
    report = testing::internal::GetCapturedStderr();
    EXPECT_NE(out.find(at == ih + 10 || at == ih - 1 ? "heap block 'victim'" : "stack block 'stacked'"), std::string::npos)
        << out;
    EXPECT_NE(out.find(at == ih + 10 || at == is + 10 ? "right signature" : "left signature"), std::string::npos) << out;
    EXPECT_NE(report.find("total bad blocks"), std::string::npos) << report;
    EXPECT_FALSE(has_qa_words(out)) << out;
    // With auto-verify on, the next MA call finds it and fails.
    MA_set_auto_verify(MA_TRUE);
    Integer more;
    testing::internal::CaptureStderr();
    ga_test::capture_stdout([&] { EXPECT_EQ(MA_push_stack(MT_C_DBL, 1, "more", &more), MA_FALSE); });
    testing::internal::GetCapturedStderr();
    MA_set_auto_verify(MA_FALSE);
    ma_cb_dbl[at] = saved;
    EXPECT_EQ(MA_verify_allocator_stuff(), MA_TRUE);
  }
  ASSERT_EQ(MA_pop_stack(s), MA_TRUE);
  ASSERT_EQ(MA_free_heap(h), MA_TRUE);
}

// The check auto-verify makes before every call walks the live blocks only (NWChem turns it on,
// so it runs on every MA call): it must follow blocks freed out of order (the live list is
// reordered), handles given out again, and a block shrunk by MA_free_heap_piece (its right guard
// moved), and find a broken guard in any of them.
TEST(GaMa, AutoVerifyFollowsFreesReuseAndPieces) {
  MaDefaultsAfter cleanup;
  ASSERT_EQ(MA_init(MT_C_DBL, 100, 1000), MA_TRUE);
  Integer h[5];
  MA_AccessIndex at[5];
  for (int k = 0; k < 5; ++k) ASSERT_EQ(MA_alloc_get(MT_C_DBL, 10 + k, "block", &h[k], &at[k]), MA_TRUE);
  ASSERT_EQ(MA_free_heap(h[1]), MA_TRUE);  // from the middle, then the first
  ASSERT_EQ(MA_free_heap(h[0]), MA_TRUE);
  Integer again;
  MA_AccessIndex at_again;
  ASSERT_EQ(MA_alloc_get(MT_C_DBL, 3, "again", &again, &at_again), MA_TRUE);  // a freed handle
  ASSERT_EQ(MA_free_heap_piece(h[4], 4), MA_TRUE);                             // 14 -> 10 elements
  MA_set_auto_verify(MA_TRUE);
  Integer probe;
  ASSERT_EQ(MA_push_stack(MT_C_DBL, 1, "probe", &probe), MA_TRUE);  // all intact: calls succeed
  ASSERT_EQ(MA_pop_stack(probe), MA_TRUE);
  // One element past each live block in turn (h[4] past its new end): the next call fails.
  const std::pair<Integer, MA_AccessIndex> past[] = {{h[2], at[2] + 12}, {h[3], at[3] + 13}, {h[4], at[4] + 10},
                                                     {again, at_again + 3}};
  for (const auto& [handle, where] : past) {
    const double saved = ma_cb_dbl[where];
    ma_cb_dbl[where] = 1.0;
    testing::internal::CaptureStderr();
    ga_test::capture_stdout([&] { EXPECT_EQ(MA_push_stack(MT_C_DBL, 1, "probe", &probe), MA_FALSE) << handle; });
    const std::string report = testing::internal::GetCapturedStderr();
    EXPECT_NE(report.find("MA's blocks are damaged"), std::string::npos) << report;
    ma_cb_dbl[where] = saved;
    ASSERT_EQ(MA_push_stack(MT_C_DBL, 1, "probe", &probe), MA_TRUE) << handle;
    ASSERT_EQ(MA_pop_stack(probe), MA_TRUE);
  }
  MA_set_auto_verify(MA_FALSE);
  for (const Integer live : {h[2], h[3], h[4], again}) ASSERT_EQ(MA_free_heap(live), MA_TRUE);
  EXPECT_EQ(MA_verify_allocator_stuff(), MA_TRUE);
}

// MA_free_heap_piece keeps a heap block's first elements (its guard moves with its end) and
// gives the rest back; freeing at least all of it frees the block.
TEST(GaMa, FreeHeapPieceGivesTheTailBack) {
  MaDefaultsAfter cleanup;
  ASSERT_EQ(MA_init(MT_C_DBL, 10, 1000), MA_TRUE);
  Integer h;
  MA_AccessIndex ih;
  ASSERT_EQ(MA_alloc_get(MT_C_DBL, 100, "piece", &h, &ih), MA_TRUE);
  const Integer before = MA_inquire_heap(MT_C_DBL);
  ASSERT_EQ(MA_free_heap_piece(h, 40), MA_TRUE);
  EXPECT_EQ(MA_inquire_heap(MT_C_DBL), before + 40);
  EXPECT_EQ(MA_verify_allocator_stuff(), MA_TRUE);
  ma_cb_dbl[ih + 60] = 1.0;  // now past the block
  ga_test::capture_stdout([] {
    testing::internal::CaptureStderr();
    EXPECT_EQ(MA_verify_allocator_stuff(), MA_FALSE);
    testing::internal::GetCapturedStderr();
  });
  ASSERT_EQ(MA_free_heap_piece(h, 0), MA_TRUE);  // keeps all 60, sets the guard again
  EXPECT_EQ(MA_verify_allocator_stuff(), MA_TRUE);
  const std::string listing = ga_test::capture_stdout([] { MA_summarize_allocated_blocks(); });
  EXPECT_NE(listing.find("number of elements:\t\t60\n"), std::string::npos) << listing;
  ASSERT_EQ(MA_free_heap_piece(h, 60), MA_TRUE);  // the whole block
  EXPECT_EQ(MA_inquire_heap(MT_C_DBL), 1000);
}

// MA_summarize_allocated_blocks lists each live block with its name, type, count and C index;
// MA_print_stats counts blocks, bytes and calls; MA_trace prints each push, pop, allocation and
// free. None of it says what NWChem's QA copies ("warning", "failed", "nga_wait").
TEST(GaMa, ReportsListTheBlocksAndCountTheCalls) {
  MaDefaultsAfter cleanup;
  ASSERT_EQ(MA_init(MT_C_DBL, 1000, 1000), MA_TRUE);
  const std::string stats0 = ga_test::capture_stdout([] { MA_print_stats(MA_TRUE); });
  Integer h, s;
  MA_AccessIndex ih, is;
  ASSERT_EQ(MA_alloc_get(MT_C_INT, 7, "ints", &h, &ih), MA_TRUE);
  ASSERT_EQ(MA_push_get(MT_C_DBL, 3, "dbls", &s, &is), MA_TRUE);
  const std::string listing = ga_test::capture_stdout([] { MA_summarize_allocated_blocks(); });
  EXPECT_NE(listing.find("heap block 'ints', handle " + std::to_string(h) + ":"), std::string::npos) << listing;
  EXPECT_NE(listing.find("type of elements:\t\tint\n\tnumber of elements:\t\t7\n"), std::string::npos) << listing;
  EXPECT_NE(listing.find("index for client space:\t\t" + std::to_string(ih) + "\n"), std::string::npos) << listing;
  EXPECT_NE(listing.find("stack block 'dbls', handle " + std::to_string(s) + ":"), std::string::npos) << listing;
  EXPECT_NE(listing.find("type of elements:\t\tdouble\n\tnumber of elements:\t\t3\n"), std::string::npos) << listing;
  EXPECT_NE(listing.find("scan completed: 1 heap block, 1 stack block"), std::string::npos) << listing;
  const std::string stats = ga_test::capture_stdout([] { MA_print_stats(MA_TRUE); });
  EXPECT_NE(stats.find("current number of blocks\t         1\t         1"), std::string::npos) << stats;
  EXPECT_NE(stats.find("current total bytes\t\t        28\t        24"), std::string::npos) << stats;
  // One more MA_push_get and MA_alloc_get than before.
  auto calls = [](const std::string& text, const std::string& routine) {
    const auto at = text.find("  " + routine + "\n");
    if (at == std::string::npos) return -1L;
    return std::stol(text.substr(text.rfind('\t', at) + 1, at - text.rfind('\t', at) - 1));
  };
  EXPECT_EQ(calls(stats, "MA_push_get") - calls(stats0, "MA_push_get"), 1) << stats;
  EXPECT_EQ(calls(stats, "MA_alloc_get") - calls(stats0, "MA_alloc_get"), 1) << stats;
  EXPECT_EQ(calls(stats, "MA_print_stats") - calls(stats0, "MA_print_stats"), 1) << stats;

  const std::string traced = ga_test::capture_stdout([&] {
    MA_trace(MA_TRUE);
    Integer t, u;
    MA_push_stack(MT_C_DBL, 5, "traced push", &t);
    MA_pop_stack(t);
    MA_allocate_heap(MT_C_CHAR, 9, "traced heap", &u);
    MA_free_heap(u);
    MA_trace(MA_FALSE);
    MA_push_stack(MT_C_DBL, 5, "untraced", &t);
    MA_pop_stack(t);
  });
  EXPECT_EQ(traced,
            "MA: pushing 'traced push' (5)\nMA: popping 'traced push'\n"
            "MA: allocating 'traced heap' (9)\nMA: freeing 'traced heap'\n");
  EXPECT_FALSE(has_qa_words(listing + stats + traced));
  ASSERT_EQ(MA_pop_stack(s), MA_TRUE);
  ASSERT_EQ(MA_free_heap(h), MA_TRUE);
}

// MA_set_numalign(n): blocks start on 2^n bytes, whatever their type, and each is still a whole
// number of elements from its type's base (MA's index reaches it).
TEST(GaMa, NumalignAlignsEveryBlock) {
  MaDefaultsAfter cleanup;
  ASSERT_EQ(MA_init(MT_C_DBL, 10000, 10000), MA_TRUE);
  ASSERT_EQ(MA_set_numalign(6), MA_TRUE);
  Integer n = -1;
  ASSERT_EQ(MA_get_numalign(&n), MA_TRUE);
  EXPECT_EQ(n, 6);
  std::vector<Integer> stack;
  for (Integer type : {MT_C_CHAR, MT_C_INT, MT_C_DBL, MT_C_DCPL, MT_C_LDCPL}) {
    for (Integer count : {1, 3, 17}) {
      Integer h, s;
      MA_AccessIndex i;
      ASSERT_EQ(MA_alloc_get(type, count, "aligned heap", &h, &i), MA_TRUE);
      ASSERT_EQ(MA_push_get(type, count, "aligned stack", &s, &i), MA_TRUE);
      stack.push_back(s);
      for (Integer b : {h, s}) {
        char* p = nullptr;
        MA_AccessIndex index = 0;
        MA_get_pointer(b, &p);
        MA_get_index(b, &index);
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % 64, 0u) << "type " << type << " count " << count;
        EXPECT_EQ(p, MA_get_mbase(type) + index * MA_sizeof(type, 1, MT_C_CHAR));
      }
    }
  }
  EXPECT_EQ(MA_verify_allocator_stuff(), MA_TRUE);
  testing::internal::CaptureStderr();
  EXPECT_EQ(MA_set_numalign(31), MA_FALSE);
  EXPECT_NE(testing::internal::GetCapturedStderr().find("MA_set_numalign: value = 31"), std::string::npos);
  ASSERT_EQ(MA_chop_stack(stack.front()), MA_TRUE);
}

}  // namespace
