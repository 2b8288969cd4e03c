// Nonblocking operations and armci_hdl_t: Wait completes one handle's operations, Test polls,
// WaitProc/WaitAll complete implicit handles, aggregate handles, copied handles, many
// outstanding handles.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <vector>

#include "capi_util.hpp"

namespace armada::armci::test {
namespace {

TEST(Handles, InitSetUnset) {
  armci_hdl_t h;
  std::memset(&h, 0xAB, sizeof h);
  ARMCI_INIT_HANDLE(&h);
  EXPECT_EQ(h.target, 0);
  EXPECT_EQ(h.aggregate, 0);
  ARMCI_SET_AGGREGATE_HANDLE(&h);
  EXPECT_NE(h.aggregate, 0);
  ARMCI_UNSET_AGGREGATE_HANDLE(&h);
  EXPECT_EQ(h.aggregate, 0);
  EXPECT_EQ(ARMCI_Wait(&h), 0);  // nothing outstanding
  EXPECT_EQ(ARMCI_Test(&h), 0);
}

TEST(Handles, PutGetAccWaitEach) {
  constexpr int n = 4096;
  Segment seg(3 * n * sizeof(double));
  std::fill_n(seg.local<double>(), 3 * n, 0.0);
  std::vector<double> a(n), b(n, -1);
  std::iota(a.begin(), a.end(), me() * 1.0e5);
  ARMCI_Barrier();
  armci_hdl_t hp, hg, ha;
  ARMCI_INIT_HANDLE(&hp);
  ARMCI_INIT_HANDLE(&hg);
  ARMCI_INIT_HANDLE(&ha);
  EXPECT_EQ(ARMCI_NbPut(a.data(), seg.at<double>(right(), 0), n * sizeof(double), right(), &hp), 0);
  const double scale = 3;
  EXPECT_EQ(ARMCI_NbAcc(ARMCI_ACC_DBL, const_cast<double*>(&scale), a.data(), seg.at<double>(right(), n),
                        n * sizeof(double), right(), &ha), 0);
  EXPECT_EQ(ARMCI_Wait(&hp), 0);
  EXPECT_EQ(hp.target, 0);  // a waited handle is free again
  // Get what the put wrote: the put has completed locally and was fenced below.
  ARMCI_Fence(right());
  EXPECT_EQ(ARMCI_NbGet(seg.at<double>(right(), 0), b.data(), n * sizeof(double), right(), &hg), 0);
  while (ARMCI_Test(&hg)) {
  }
  EXPECT_EQ(b, a);
  EXPECT_EQ(ARMCI_Wait(&ha), 0);
  ARMCI_Barrier();
  for (int i = 0; i < n; ++i) EXPECT_EQ(seg.local<double>()[n + i], 3 * (left() * 1.0e5 + i));
  ARMCI_Barrier();  // checked before the neighbour accumulates again
  // size_t forms.
  EXPECT_EQ(ARMCI_NbPut_c(a.data(), seg.at<double>(right(), 2 * n), n * sizeof(double), right(), &hp), 0);
  EXPECT_EQ(ARMCI_NbAcc_c(ARMCI_ACC_DBL, const_cast<double*>(&scale), a.data(), seg.at<double>(right(), n),
                          n * sizeof(double), right(), &ha), 0);
  EXPECT_EQ(ARMCI_Wait(&hp), 0);
  EXPECT_EQ(ARMCI_Wait(&ha), 0);
  ARMCI_Fence(right());
  std::vector<double> c(n, 0);
  EXPECT_EQ(ARMCI_NbGet_c(seg.at<double>(right(), 2 * n), c.data(), n * sizeof(double), right(), &hg), 0);
  EXPECT_EQ(ARMCI_Wait(&hg), 0);
  EXPECT_EQ(c, a);
  ARMCI_Barrier();
  for (int i = 0; i < n; ++i) EXPECT_EQ(seg.local<double>()[n + i], 6 * (left() * 1.0e5 + i));
  ARMCI_Barrier();
}

// Global Arrays keeps handles by value and waits on copies: the 8 bytes must carry everything.
TEST(Handles, CopiedHandleWaits) {
  Segment seg(1024);
  std::vector<char> src(1024, static_cast<char>('a' + me()));
  ARMCI_Barrier();
  armci_hdl_t original;
  ARMCI_INIT_HANDLE(&original);
  EXPECT_EQ(ARMCI_NbPut(src.data(), seg.at(right()), 1024, right(), &original), 0);
  armci_hdl_t copy = original;
  EXPECT_EQ(ARMCI_Wait(&copy), 0);
  EXPECT_EQ(ARMCI_Wait(&original), 0);  // stale copy: its request is gone, nothing to wait for
  ARMCI_Barrier();
  EXPECT_EQ(seg.local()[1023], static_cast<char>('a' + left()));
  ARMCI_Barrier();
}

// Waiting one handle leaves the others outstanding, and no small limit on handles exists.
TEST(Handles, ThousandsOutstanding) {
  constexpr int n = 5000;
  Segment seg(n * sizeof(int));
  std::vector<int> src(n);
  std::iota(src.begin(), src.end(), me());
  std::vector<armci_hdl_t> h(n);
  ARMCI_Barrier();
  for (int i = 0; i < n; ++i) {
    ARMCI_INIT_HANDLE(&h[static_cast<std::size_t>(i)]);
    EXPECT_EQ(ARMCI_NbPut(&src[static_cast<std::size_t>(i)], seg.at<int>(right(), static_cast<std::size_t>(i)), sizeof(int),
                          right(), &h[static_cast<std::size_t>(i)]), 0);
  }
  for (int i = n - 1; i >= 0; --i) EXPECT_EQ(ARMCI_Wait(&h[static_cast<std::size_t>(i)]), 0);
  ARMCI_Barrier();
  for (int i = 0; i < n; ++i) EXPECT_EQ(seg.local<int>()[i], left() + i);
  ARMCI_Barrier();
}

TEST(Handles, ImplicitWaitProcAndWaitAll) {
  constexpr int n = 3000;
  Segment seg(n * sizeof(long));
  std::vector<long> src(n);
  std::iota(src.begin(), src.end(), 7L * me());
  ARMCI_Barrier();
  for (int i = 0; i < n; ++i)
    EXPECT_EQ(ARMCI_NbPut(&src[static_cast<std::size_t>(i)], seg.at<long>(right(), static_cast<std::size_t>(i)), sizeof(long),
                          right(), nullptr), 0);
  EXPECT_EQ(ARMCI_WaitProc(right()), 0);
  std::vector<long> back(n, 0);
  for (int i = 0; i < n; i += 100)
    EXPECT_EQ(ARMCI_NbGet(seg.at<long>(right(), static_cast<std::size_t>(i)), &back[static_cast<std::size_t>(i)], 100 * sizeof(long),
                          right(), nullptr), 0);
  EXPECT_EQ(ARMCI_WaitAll(), 0);
  EXPECT_EQ(back, src);
  ARMCI_Barrier();
}

// Many small puts and gets under one aggregate handle, moved at Wait; nothing before.
TEST(Handles, Aggregate) {
  constexpr int n = 1000;
  Segment seg(2 * n * sizeof(int));
  std::fill_n(seg.local<int>(), 2 * n, -1);
  std::vector<int> src(n);
  std::iota(src.begin(), src.end(), me() * 10000);
  ARMCI_Barrier();
  armci_hdl_t agg;
  ARMCI_INIT_HANDLE(&agg);
  ARMCI_SET_AGGREGATE_HANDLE(&agg);
  for (int i = 0; i < n; ++i)
    EXPECT_EQ(ARMCI_NbPut(&src[static_cast<std::size_t>(i)], seg.at<int>(right(), 2 * static_cast<std::size_t>(i)), sizeof(int),
                          right(), &agg), 0);
  armci_hdl_t copy = agg;
  EXPECT_EQ(ARMCI_Wait(&copy), 0);
  ARMCI_Barrier();
  for (int i = 0; i < n; ++i) EXPECT_EQ(seg.local<int>()[2 * i], left() * 10000 + i);
  for (int i = 0; i < n; ++i) EXPECT_EQ(seg.local<int>()[2 * i + 1], -1);
  ARMCI_Barrier();  // checked before the neighbour writes its marker below
  // Aggregated gets, and a strided op on the same aggregate handle (issued as usual). Even
  // ranks first, then odd ones: two processes must not get from each other at the same time
  // over the server transport until the core separates its data tags by direction (see
  // capi_server_crossed_gets in CMakeLists.txt).
  std::vector<int> back(n, 0);
  std::vector<int> odd(n, 0);
  for (int phase = 0; phase < 2; ++phase) {
    if (me() % 2 == phase || nproc() == 1) {
      ARMCI_INIT_HANDLE(&agg);
      ARMCI_SET_AGGREGATE_HANDLE(&agg);
      for (int i = 0; i < n; ++i)
        EXPECT_EQ(ARMCI_NbGet(seg.at<int>(right(), 2 * static_cast<std::size_t>(i)), &back[static_cast<std::size_t>(i)],
                              sizeof(int), right(), &agg), 0);
      int stride = 2 * sizeof(int), count[2] = {sizeof(int), n};
      int odd_stride = sizeof(int);
      EXPECT_EQ(ARMCI_NbGetS(seg.at<int>(right(), 1), &stride, odd.data(), &odd_stride, count, 1, right(), &agg), 0);
      ARMCI_UNSET_AGGREGATE_HANDLE(&agg);  // recorded operations still move at Wait
      EXPECT_EQ(ARMCI_Wait(&agg), 0);
    }
    armci_msg_barrier();
  }
  EXPECT_EQ(back, src);
  for (int i = 0; i < n; ++i) EXPECT_EQ(odd[static_cast<std::size_t>(i)], -1);
  // A Test loop on an aggregate handle ends (Test moves what was recorded).
  ARMCI_SET_AGGREGATE_HANDLE(&agg);
  EXPECT_EQ(ARMCI_NbGet(seg.at<int>(right(), 0), &back[0], sizeof(int), right(), &agg), 0);
  while (ARMCI_Test(&agg)) {
  }
  EXPECT_EQ(back[0], src[0]);
  // A fence moves aggregated puts too.
  const int marker = -5;
  EXPECT_EQ(ARMCI_NbPut(const_cast<int*>(&marker), seg.at<int>(right(), 1), sizeof(int), right(), &agg), 0);
  ARMCI_Fence(right());
  ARMCI_Barrier();
  EXPECT_EQ(seg.local<int>()[1], -5);
  EXPECT_EQ(ARMCI_Wait(&agg), 0);
  ARMCI_Barrier();
}

}  // namespace
}  // namespace armada::armci::test
