// Strided and I/O vector put/get/acc (int and size_t descriptors, blocking and nonblocking) and
// the local strided copies armci_write_strided / armci_read_strided.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <vector>

#include "capi_util.hpp"

namespace armada::armci::test {
namespace {

// A 3-d patch [2][3][4] of doubles inside a remote [4][5][6] array, from a local [2][3][4] buffer
// with padding: two stride levels on each side.
constexpr int R0 = 4, R1 = 5, R2 = 6;  // remote dims
constexpr int P0 = 2, P1 = 3, P2 = 4;  // patch dims
constexpr int L2 = 5, L1 = 4;          // local padded dims (inner two)

std::size_t remote_index(int i, int j, int k) { return (static_cast<std::size_t>(i + 1) * R1 + (j + 1)) * R2 + (k + 2); }

TEST(Strided, PutGetAccThreeLevels) {
  Segment seg(R0 * R1 * R2 * sizeof(double));
  std::fill_n(seg.local<double>(), R0 * R1 * R2, -1.0);
  std::vector<double> buf(P0 * L1 * L2, 0), back(P0 * L1 * L2, 0);
  for (int i = 0; i < P0; ++i)
    for (int j = 0; j < P1; ++j)
      for (int k = 0; k < P2; ++k) buf[(i * L1 + j) * L2 + k] = me() * 1000 + i * 100 + j * 10 + k;
  int src_stride[2] = {L2 * sizeof(double), L1 * L2 * sizeof(double)};
  int dst_stride[2] = {R2 * sizeof(double), R1 * R2 * sizeof(double)};
  int count[3] = {P2 * sizeof(double), P1, P0};
  double* dst = seg.at<double>(right(), remote_index(0, 0, 0));
  ARMCI_Barrier();
  EXPECT_EQ(ARMCI_PutS(buf.data(), src_stride, dst, dst_stride, count, 2, right()), 0);
  ARMCI_Barrier();
  for (int i = 0; i < P0; ++i)
    for (int j = 0; j < P1; ++j)
      for (int k = 0; k < P2; ++k)
        EXPECT_EQ(seg.local<double>()[remote_index(i, j, k)], left() * 1000 + i * 100 + j * 10 + k);
  EXPECT_EQ(seg.local<double>()[0], -1.0);  // outside the patch: untouched
  EXPECT_EQ(ARMCI_GetS(dst, dst_stride, back.data(), src_stride, count, 2, right()), 0);
  for (int i = 0; i < P0; ++i)
    for (int j = 0; j < P1; ++j)
      for (int k = 0; k < P2; ++k) EXPECT_EQ(back[(i * L1 + j) * L2 + k], buf[(i * L1 + j) * L2 + k]);
  ARMCI_Barrier();
  // Everyone accumulates into rank 0's patch.
  double scale = 2;
  EXPECT_EQ(ARMCI_AccS(ARMCI_ACC_DBL, &scale, buf.data(), src_stride, seg.at<double>(0, remote_index(0, 0, 0)),
                       dst_stride, count, 2, 0), 0);
  ARMCI_Barrier();
  if (me() == 0) {
    const int p = nproc();
    for (int i = 0; i < P0; ++i)
      for (int j = 0; j < P1; ++j)
        for (int k = 0; k < P2; ++k) {
          // What rank p-1 put there, plus 2 * every rank's buffer value.
          const double put = (p - 1) * 1000.0 + i * 100 + j * 10 + k;
          double sum = 0;
          for (int r = 0; r < p; ++r) sum += r * 1000.0 + i * 100 + j * 10 + k;
          const double expected = put + 2 * sum;
          EXPECT_EQ(seg.local<double>()[remote_index(i, j, k)], expected);
        }
  }
  ARMCI_Barrier();
}

TEST(Strided, SizeTAndNonblocking) {
  constexpr int rows = 8, cols = 16;
  Segment seg(rows * cols * sizeof(int));
  std::fill_n(seg.local<int>(), rows * cols, 0);
  std::vector<int> src(rows * 4);
  std::iota(src.begin(), src.end(), 100 * me());
  std::size_t ss = 4 * sizeof(int), ds = cols * sizeof(int), cnt[2] = {4 * sizeof(int), rows};
  ARMCI_Barrier();
  EXPECT_EQ(ARMCI_PutS_c(src.data(), &ss, seg.at<int>(right(), 2), &ds, cnt, 1, right()), 0);
  armci_hdl_t h;
  ARMCI_INIT_HANDLE(&h);
  EXPECT_EQ(ARMCI_NbPutS_c(src.data(), &ss, seg.at<int>(right(), 8), &ds, cnt, 1, right(), &h), 0);
  EXPECT_EQ(ARMCI_Wait(&h), 0);
  int one = 1;
  EXPECT_EQ(ARMCI_AccS_c(ARMCI_ACC_INT, &one, src.data(), &ss, seg.at<int>(right(), 8), &ds, cnt, 1, right()), 0);
  EXPECT_EQ(ARMCI_NbAccS_c(ARMCI_ACC_INT, &one, src.data(), &ss, seg.at<int>(right(), 8), &ds, cnt, 1, right(), nullptr), 0);
  EXPECT_EQ(ARMCI_WaitProc(right()), 0);
  ARMCI_Barrier();
  std::vector<int> back(rows * 4, -1), back2(rows * 4, -1);
  EXPECT_EQ(ARMCI_NbGetS_c(seg.at<int>(right(), 2), &ds, back.data(), &ss, cnt, 1, right(), &h), 0);
  int is = 4 * sizeof(int), id = cols * sizeof(int), icnt[2] = {4 * sizeof(int), rows};
  armci_hdl_t h2;
  ARMCI_INIT_HANDLE(&h2);
  EXPECT_EQ(ARMCI_NbGetS(seg.at<int>(right(), 8), &id, back2.data(), &is, icnt, 1, right(), &h2), 0);
  EXPECT_EQ(ARMCI_Wait(&h2), 0);
  EXPECT_EQ(ARMCI_Wait(&h), 0);
  EXPECT_EQ(back, src);
  for (int i = 0; i < rows * 4; ++i) EXPECT_EQ(back2[i], 3 * src[i]) << i;
  ARMCI_Barrier();
  // Int-descriptor nonblocking put and accumulate, completed by WaitAll.
  EXPECT_EQ(ARMCI_NbPutS(src.data(), &is, seg.at<int>(right(), 2), &id, icnt, 1, right(), nullptr), 0);
  EXPECT_EQ(ARMCI_WaitAll(), 0);
  EXPECT_EQ(ARMCI_NbAccS(ARMCI_ACC_INT, &one, src.data(), &is, seg.at<int>(right(), 2), &id, icnt, 1, right(), &h), 0);
  EXPECT_EQ(ARMCI_Wait(&h), 0);
  ARMCI_Barrier();
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < 4; ++c) EXPECT_EQ(seg.local<int>()[r * cols + 2 + c], 2 * (100 * left() + r * 4 + c));
  ARMCI_Barrier();
}

// ARMCI allows any byte stride: a nonblocking strided accumulate of ints at a stride of 4*4-1
// bytes (unaligned elements) from every rank into rank 0 gives exact sums.
TEST(Strided, NonblockingAccumulateAtAnOddByteStride) {
  constexpr int n = 100, stride = 4 * 4 - 1;
  Segment seg(n * stride + 4);
  std::fill_n(seg.local<char>(), n * stride + 4, 0);
  int src[n];
  for (int i = 0; i < n; ++i) src[i] = i + me();
  int src_stride = sizeof(int), dst_stride = stride, count[2] = {sizeof(int), n}, scale = 3;
  ARMCI_Barrier();
  armci_hdl_t h;
  ARMCI_INIT_HANDLE(&h);
  EXPECT_EQ(ARMCI_NbAccS(ARMCI_ACC_INT, &scale, src, &src_stride, seg.at<char>(0, 1), &dst_stride, count, 1, 0, &h), 0);
  EXPECT_EQ(ARMCI_AccS(ARMCI_ACC_INT, &scale, src, &src_stride, seg.at<char>(0, 1), &dst_stride, count, 1, 0), 0);
  EXPECT_EQ(ARMCI_Wait(&h), 0);
  ARMCI_Barrier();
  if (me() == 0)
    for (int i = 0; i < n; ++i) {
      int got;
      std::memcpy(&got, seg.local<char>(1 + i * stride), sizeof got);
      EXPECT_EQ(got, 2 * 3 * (nproc() * i + nproc() * (nproc() - 1) / 2)) << "element " << i;
    }
  ARMCI_Barrier();
}

TEST(Strided, ZeroLevelsAndEmptyCounts) {
  Segment seg(64);
  std::memset(seg.local(), 0, 64);
  char src[16] = "abcdefghijklmno";
  int count0[1] = {16};
  ARMCI_Barrier();
  EXPECT_EQ(ARMCI_PutS(src, nullptr, seg.at(right()), nullptr, count0, 0, right()), 0);
  int stride = 16, empty[2] = {4, 0};
  EXPECT_EQ(ARMCI_PutS(src, &stride, seg.at(right(), 32), &stride, empty, 1, right()), 0);
  ARMCI_Barrier();
  EXPECT_EQ(std::memcmp(seg.local(), src, 16), 0);
  EXPECT_EQ(seg.local()[32], 0);
  ARMCI_Barrier();
}

TEST(Strided, LocalPackUnpack) {
  double grid[3][5];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 5; ++j) grid[i][j] = i * 10 + j;
  int stride = 5 * sizeof(double), count[2] = {2 * sizeof(double), 3};
  double packed[6];
  armci_write_strided(&grid[0][1], 1, &stride, count, reinterpret_cast<char*>(packed));
  const double expected[6] = {1, 2, 11, 12, 21, 22};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(packed[i], expected[i]);
  for (double& x : packed) x = -x;
  armci_read_strided(&grid[0][3], 1, &stride, count, reinterpret_cast<char*>(packed));
  EXPECT_EQ(grid[0][3], -1);
  EXPECT_EQ(grid[2][4], -22);
  EXPECT_EQ(grid[2][2], 22);
}

// Scatter every other element of a local array to the right neighbour's array in reverse
// order, gather it back, and scatter-accumulate with repeated destinations.
TEST(Vector, PutGetAccWithRepeats) {
  constexpr int n = 64;
  Segment seg(n * sizeof(long));
  std::fill_n(seg.local<long>(), n, 0L);
  std::vector<long> src(n);
  std::iota(src.begin(), src.end(), me() * 1000L);
  std::vector<void*> s1, d1, s2, d2;
  for (int i = 0; i < n / 2; ++i) {
    s1.push_back(&src[2 * i]);
    d1.push_back(seg.at<long>(right(), n - 1 - i));
  }
  s2.push_back(&src[1]);
  d2.push_back(seg.at<long>(right(), 0));
  armci_giov_t iov[2] = {{s1.data(), d1.data(), sizeof(long), n / 2}, {s2.data(), d2.data(), sizeof(long), 1}};
  ARMCI_Barrier();
  EXPECT_EQ(ARMCI_PutV(iov, 2, right()), 0);
  ARMCI_Barrier();
  for (int i = 0; i < n / 2; ++i) EXPECT_EQ(seg.local<long>()[n - 1 - i], left() * 1000L + 2 * i);
  EXPECT_EQ(seg.local<long>()[0], left() * 1000L + 1);
  // Gather: destinations local, sources remote.
  std::vector<long> back(n / 2, -1);
  std::vector<void*> gs, gd;
  for (int i = 0; i < n / 2; ++i) {
    gs.push_back(seg.at<long>(right(), n - 1 - i));
    gd.push_back(&back[i]);
  }
  armci_giov_t giov = {gs.data(), gd.data(), sizeof(long), n / 2};
  EXPECT_EQ(ARMCI_GetV(&giov, 1, right()), 0);
  for (int i = 0; i < n / 2; ++i) EXPECT_EQ(back[i], src[2 * i]);
  ARMCI_Barrier();
  // Accumulate 1 five times into element 1 of everyone's array (repeated destinations count).
  long one = 1, ones[5] = {1, 1, 1, 1, 1};
  std::vector<void*> as, ad;
  for (int i = 0; i < 5; ++i) {
    as.push_back(&ones[i]);
    ad.push_back(nullptr);
  }
  for (int p = 0; p < nproc(); ++p) {
    for (auto& d : ad) d = seg.at<long>(p, 1);
    armci_giov_t aiov = {as.data(), ad.data(), sizeof(long), 5};
    EXPECT_EQ(ARMCI_AccV(ARMCI_ACC_LNG, &one, &aiov, 1, p), 0);
  }
  ARMCI_Barrier();
  EXPECT_EQ(seg.local<long>()[1], 5L * nproc());
  ARMCI_Barrier();
}

// Global Arrays' scatter with repeated subscripts sends one PutV whose destinations repeat:
// accepted, and one of the values sent to a repeated place lands there; AccV adds them all.
TEST(Vector, RepeatedAndOverlappingPutDestinations) {
  constexpr int n = 16;
  Segment seg(n * sizeof(long));
  std::fill_n(seg.local<long>(), n, -1L);
  long src[3 * n];
  std::vector<void*> s, d;
  for (int i = 0; i < 3 * n; ++i) {  // subscripts i % n, each three times, in scrambled order
    src[i] = me() * 1000L + i;
    s.push_back(&src[i]);
    d.push_back(seg.at<long>(right(), (7 * i) % n));
  }
  armci_giov_t iov = {s.data(), d.data(), sizeof(long), 3 * n};
  ARMCI_Barrier();
  EXPECT_EQ(ARMCI_PutV(&iov, 1, right()), 0);
  ARMCI_Barrier();
  for (int slot = 0; slot < n; ++slot) {
    const long v = seg.local<long>()[slot];
    const long i = v - left() * 1000L;
    EXPECT_TRUE(i >= 0 && i < 3 * n && (7 * i) % n == slot) << "slot " << slot << " holds " << v;
  }
  ARMCI_Barrier();
  armci_hdl_t h;
  ARMCI_INIT_HANDLE(&h);
  EXPECT_EQ(ARMCI_NbPutV(&iov, 1, right(), &h), 0);
  EXPECT_EQ(ARMCI_Wait(&h), 0);
  ARMCI_Barrier();
  std::fill_n(seg.local<long>(), n, 0L);
  ARMCI_Barrier();
  long two = 2;
  EXPECT_EQ(ARMCI_AccV(ARMCI_ACC_LNG, &two, &iov, 1, right()), 0);
  EXPECT_EQ(ARMCI_NbAccV(ARMCI_ACC_LNG, &two, &iov, 1, right(), &h), 0);
  EXPECT_EQ(ARMCI_Wait(&h), 0);
  ARMCI_Barrier();
  for (int slot = 0; slot < n; ++slot) {
    long want = 0;
    for (int i = 0; i < 3 * n; ++i)
      if ((7 * i) % n == slot) want += 2 * 2 * (left() * 1000L + i);
    EXPECT_EQ(seg.local<long>()[slot], want) << "slot " << slot;
  }
  ARMCI_Barrier();
}

TEST(Vector, NonblockingAndSizeT) {
  constexpr int n = 32;
  Segment seg(n * sizeof(int));
  std::fill_n(seg.local<int>(), n, 0);
  std::vector<int> src(n);
  std::iota(src.begin(), src.end(), me() * 100);
  std::vector<void*> s, d;
  for (int i = 0; i < n; ++i) {
    s.push_back(&src[i]);
    d.push_back(seg.at<int>(right(), i));
  }
  armci_giov_t iov = {s.data(), d.data(), sizeof(int), n};
  armci_giov_c_t iov_c = {s.data(), d.data(), sizeof(int), n};
  armci_hdl_t h;
  ARMCI_INIT_HANDLE(&h);
  ARMCI_Barrier();
  EXPECT_EQ(ARMCI_NbPutV(&iov, 1, right(), &h), 0);
  EXPECT_EQ(ARMCI_Wait(&h), 0);
  int two = 2;
  EXPECT_EQ(ARMCI_NbAccV(ARMCI_ACC_INT, &two, &iov, 1, right(), &h), 0);
  EXPECT_EQ(ARMCI_Wait(&h), 0);
  EXPECT_EQ(ARMCI_AccV_c(ARMCI_ACC_INT, &two, &iov_c, 1, right()), 0);
  EXPECT_EQ(ARMCI_NbAccV_c(ARMCI_ACC_INT, &two, &iov_c, 1, right(), nullptr), 0);
  EXPECT_EQ(ARMCI_WaitAll(), 0);
  ARMCI_Barrier();
  for (int i = 0; i < n; ++i) EXPECT_EQ(seg.local<int>()[i], 7 * (left() * 100 + i));
  std::vector<int> back(n, -1);
  std::vector<void*> gs(d), gd;
  for (int i = 0; i < n; ++i) gd.push_back(&back[i]);
  armci_giov_t giov = {gs.data(), gd.data(), sizeof(int), n};
  armci_giov_c_t giov_c = {gs.data(), gd.data(), sizeof(int), n};
  EXPECT_EQ(ARMCI_NbGetV(&giov, 1, right(), &h), 0);
  EXPECT_EQ(ARMCI_Wait(&h), 0);
  for (int i = 0; i < n; ++i) EXPECT_EQ(back[i], 7 * src[i]);
  ARMCI_Barrier();
  EXPECT_EQ(ARMCI_PutV_c(&iov_c, 1, right()), 0);
  ARMCI_Barrier();
  EXPECT_EQ(ARMCI_GetV_c(&giov_c, 1, right()), 0);
  EXPECT_EQ(back, src);
  EXPECT_EQ(ARMCI_NbPutV_c(&iov_c, 1, right(), &h), 0);
  EXPECT_EQ(ARMCI_Wait(&h), 0);
  EXPECT_EQ(ARMCI_NbGetV_c(&giov_c, 1, right(), &h), 0);
  EXPECT_EQ(ARMCI_Wait(&h), 0);
  EXPECT_EQ(back, src);
  // Empty descriptors move nothing.
  armci_giov_t empty = {nullptr, nullptr, 0, 0};
  EXPECT_EQ(ARMCI_PutV(&empty, 1, right()), 0);
  EXPECT_EQ(ARMCI_GetV(nullptr, 0, right()), 0);
  ARMCI_Barrier();
}

}  // namespace
}  // namespace armada::armci::test
