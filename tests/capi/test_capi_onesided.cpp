// Contiguous put/get/acc (int and size_t counts), value operations, flag puts, fences and the
// barrier, local copies and access epochs.
#include <gtest/gtest.h>

#include <complex>
#include <cstring>
#include <numeric>
#include <vector>

#include "capi_util.hpp"

namespace armada::armci::test {
namespace {

TEST(Contiguous, PutGetRing) {
  constexpr int n = 1000;
  Segment seg(n * sizeof(int));
  std::vector<int> src(n), back(n, -1);
  std::iota(src.begin(), src.end(), me() * 10000);
  EXPECT_EQ(ARMCI_Put(src.data(), seg.at(right()), n * sizeof(int), right()), 0);
  ARMCI_Barrier();
  for (int i = 0; i < n; ++i) EXPECT_EQ(seg.local<int>()[i], left() * 10000 + i) << i;
  EXPECT_EQ(ARMCI_Get(seg.at(right()), back.data(), n * sizeof(int), right()), 0);
  EXPECT_EQ(back, src);
  ARMCI_Barrier();
}

TEST(Contiguous, SizeTVariants) {
  constexpr std::size_t n = 512;
  Segment seg(n * sizeof(double));
  std::vector<double> src(n), back(n, 0);
  for (std::size_t i = 0; i < n; ++i) src[i] = me() + 0.5 * static_cast<double>(i);
  EXPECT_EQ(ARMCI_Put_c(src.data(), seg.at(right()), n * sizeof(double), right()), 0);
  ARMCI_Barrier();
  EXPECT_EQ(ARMCI_Get_c(seg.at(right()), back.data(), n * sizeof(double), right()), 0);
  EXPECT_EQ(back, src);
  const double two = 2;
  ARMCI_Barrier();
  EXPECT_EQ(ARMCI_Acc_c(ARMCI_ACC_DBL, const_cast<double*>(&two), src.data(), seg.at(right()), n * sizeof(double), right()), 0);
  ARMCI_Barrier();
  for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(seg.local<double>()[i], 3 * (left() + 0.5 * static_cast<double>(i)));
  ARMCI_Barrier();
}

TEST(Contiguous, ZeroBytesMoveNothing) {
  Segment seg(64);
  std::memset(seg.local(), 7, 64);
  char buf[8] = {};
  ARMCI_Barrier();
  EXPECT_EQ(ARMCI_Put(buf, seg.at(right()), 0, right()), 0);
  EXPECT_EQ(ARMCI_Get(seg.at(right()), buf, 0, right()), 0);
  ARMCI_Barrier();
  EXPECT_EQ(seg.local()[0], 7);
  ARMCI_Barrier();
}

// Every process accumulates into every process's array at once: each element must count every
// contribution (accumulate is atomic per element), for every ARMCI_ACC_* type.
template <class T>
void all_to_all_acc(int type, T scale) {
  constexpr int n = 257;
  Segment seg(n * sizeof(T));
  std::fill_n(seg.local<T>(), n, T(0));
  std::vector<T> ones(n, T(1));
  ARMCI_Barrier();
  for (int round = 0; round < 3; ++round)
    for (int p = 0; p < nproc(); ++p)
      EXPECT_EQ(ARMCI_Acc(type, &scale, ones.data(), seg.at(p), n * sizeof(T), p), 0);
  ARMCI_Barrier();
  const T expected = static_cast<T>(scale * static_cast<T>(3 * nproc()));
  for (int i = 0; i < n; ++i) EXPECT_EQ(seg.local<T>()[i], expected) << "type " << type << " element " << i;
  ARMCI_Barrier();
}

TEST(Contiguous, AccumulateEveryType) {
  all_to_all_acc<int>(ARMCI_ACC_INT, 3);
  all_to_all_acc<long>(ARMCI_ACC_LNG, -2);
  all_to_all_acc<float>(ARMCI_ACC_FLT, 0.5f);
  all_to_all_acc<double>(ARMCI_ACC_DBL, 1.25);
  all_to_all_acc<std::complex<float>>(ARMCI_ACC_CPL, {1.0f, 2.0f});
  all_to_all_acc<std::complex<double>>(ARMCI_ACC_DCP, {0.5, -1.0});
}

TEST(Values, PutAndGetEveryType) {
  Segment seg(64);
  ARMCI_Barrier();
  const int r = right();
  char* base = seg.at(r);
  EXPECT_EQ(ARMCI_PutValueInt(me() + 1, base, r), 0);
  EXPECT_EQ(ARMCI_PutValueLong(-7L * (me() + 1), base + 8, r), 0);
  EXPECT_EQ(ARMCI_PutValueFloat(0.25f * static_cast<float>(me()), base + 16, r), 0);
  EXPECT_EQ(ARMCI_PutValueDouble(1e10 + me(), base + 24, r), 0);
  armci_hdl_t h;
  ARMCI_INIT_HANDLE(&h);
  EXPECT_EQ(ARMCI_NbPutValueInt(me() + 2, base + 32, r, &h), 0);
  EXPECT_EQ(ARMCI_NbPutValueLong(me() + 3, base + 40, r, &h), 0);
  EXPECT_EQ(ARMCI_NbPutValueFloat(1.5f, base + 48, r, &h), 0);
  EXPECT_EQ(ARMCI_NbPutValueDouble(2.5, base + 56, r, &h), 0);
  EXPECT_EQ(ARMCI_Wait(&h), 0);
  ARMCI_Barrier();
  EXPECT_EQ(ARMCI_GetValueInt(base, r), me() + 1);
  EXPECT_EQ(ARMCI_GetValueLong(base + 8, r), -7L * (me() + 1));
  EXPECT_EQ(ARMCI_GetValueFloat(base + 16, r), 0.25f * static_cast<float>(me()));
  EXPECT_EQ(ARMCI_GetValueDouble(base + 24, r), 1e10 + me());
  EXPECT_EQ(ARMCI_GetValueInt(base + 32, r), me() + 2);
  EXPECT_EQ(ARMCI_GetValueLong(base + 40, r), me() + 3);
  EXPECT_EQ(ARMCI_GetValueFloat(base + 48, r), 1.5f);
  EXPECT_EQ(ARMCI_GetValueDouble(base + 56, r), 2.5);
  ARMCI_Barrier();
}

// The flag says the data is there: the target spins on its own flag, then reads the data.
TEST(Flags, PutFlagAndPutSFlag) {
  constexpr int n = 4096;
  Segment seg(2 * n * sizeof(int) + 3 * sizeof(int));
  int* data = seg.local<int>();
  volatile int* flags = seg.local<int>(2 * n);
  flags[0] = 0;
  flags[1] = 0;
  ARMCI_Barrier();
  std::vector<int> src(2 * n);
  std::iota(src.begin(), src.end(), me());
  EXPECT_EQ(ARMCI_Put_flag(src.data(), seg.at(right()), n * sizeof(int), seg.at<int>(right(), 2 * n), 1, right()), 0);
  int src_stride = 2 * sizeof(int), dst_stride = sizeof(int), count[2] = {sizeof(int), n};
  EXPECT_EQ(ARMCI_PutS_flag(src.data(), &src_stride, seg.at<int>(right(), n), &dst_stride, count, 1,
                            seg.at<int>(right(), 2 * n + 1), 2, right()), 0);
  while (flags[0] != 1 || flags[1] != 2) ARMCI_Access_begin(data), ARMCI_Access_end(data);
  for (int i = 0; i < n; ++i) EXPECT_EQ(data[i], left() + i) << i;
  for (int i = 0; i < n; ++i) EXPECT_EQ(data[n + i], left() + 2 * i) << i;
  ARMCI_Barrier();
  // Size_t and "direct" forms.
  flags[0] = 0;
  flags[1] = 0;
  flags[2] = 0;
  ARMCI_Barrier();
  EXPECT_EQ(ARMCI_Put_flag_c(src.data(), seg.at(right()), n * sizeof(int), seg.at<int>(right(), 2 * n), 3, right()), 0);
  std::size_t cs[2] = {sizeof(int), n}, ss = 2 * sizeof(int), ds = sizeof(int);
  EXPECT_EQ(ARMCI_PutS_flag_c(src.data(), &ss, seg.at<int>(right(), n), &ds, cs, 1, seg.at<int>(right(), 2 * n + 1), 4, right()), 0);
  while (flags[0] != 3 || flags[1] != 4) {
  }
  EXPECT_EQ(ARMCI_PutS_flag_dir(src.data(), &src_stride, seg.at<int>(right(), n), &dst_stride, count, 1,
                                seg.at<int>(right(), 2 * n + 2), 5, right()), 0);
  while (flags[2] != 5) {
  }
  ARMCI_Barrier();
}

// armci_notify / armci_notify_wait: data put before a notification is in place when the wait
// returns; counts follow classic ARMCI (notify returns the number sent, wait stores the number
// of waits and returns the number received). Round after round around the ring, then to self.
TEST(Notify, DataBeforeTheNotificationIsSeenAfterTheWait) {
  constexpr int n = 4096, rounds = 50;
  Segment seg(n * sizeof(int));
  std::vector<int> src(n);
  for (int round = 1; round <= rounds; ++round) {
    std::iota(src.begin(), src.end(), round * 100000 + me());
    EXPECT_EQ(ARMCI_Put(src.data(), seg.at(right()), n * sizeof(int), right()), 0);
    EXPECT_EQ(armci_notify(right()), round);
    int waited = -1;
    EXPECT_GE(armci_notify_wait(left(), &waited), round);
    EXPECT_EQ(waited, round);
    for (int i = 0; i < n; i += 97) ASSERT_EQ(seg.local<int>()[i], round * 100000 + left() + i) << "round " << round;
    ARMCI_Barrier();  // the next round's put overwrites what this one checked
  }
  // To self: the counts are per peer.
  EXPECT_EQ(armci_notify(me()), me() == right() ? rounds + 1 : 1);
  int waited = 0;
  EXPECT_GE(armci_notify_wait(me(), &waited), 1);
  // Bad input is refused, naming the function and the argument.
  ErrorCapture errors;
  EXPECT_EQ(armci_notify(-1), -1);
  errors.expect("armci_notify", ARMADA_ARMCI_EARG, {"'proc' = -1"});
  EXPECT_EQ(armci_notify_wait(left(), nullptr), -1);
  errors.expect("armci_notify_wait", ARMADA_ARMCI_EARG, {"'pval'"});
  ARMCI_Barrier();
}

TEST(Completion, FencesAndBarriers) {
  Segment seg(sizeof(long) * 64);
  std::fill_n(seg.local<long>(), 64, 0L);
  ARMCI_Barrier();
  long v[64];
  for (int i = 0; i < 64; ++i) v[i] = me() * 100 + i;
  for (int p = 0; p < nproc(); ++p) {
    EXPECT_EQ(ARMCI_Put(v, seg.at<long>(p, 0), sizeof v / 2, p), 0);
    ARMCI_Fence(p);
  }
  ARMCI_AllFence();
  armci_msg_barrier();
  ARMCI_Barrier();
  ARMCI_Group world;
  ARMCI_Group_get_world(&world);
  ARMCI_GroupFence(&world);
  // Every process wrote the first half of everyone's array; one of them won each element.
  for (int i = 0; i < 32; ++i) EXPECT_EQ(seg.local<long>()[i] % 100, i);
  ARMCI_Barrier();
}

TEST(Local, CopyMallocLocalAccess) {
  void* a = ARMCI_Malloc_local(1000);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a) % 64, 0u);
  std::memset(a, 5, 1000);
  char b[1000];
  ARMCI_Copy(a, b, 1000);
  EXPECT_EQ(b[999], 5);
  ARMCI_Copy_c(b, static_cast<char*>(a) + 1, 999);  // overlapping regions are fine
  EXPECT_EQ(static_cast<char*>(a)[999], 5);
  EXPECT_EQ(ARMCI_Malloc_local(0), nullptr);
  EXPECT_EQ(ARMCI_Free_local(a), 0);
  Segment seg(128);
  ARMCI_Access_begin(seg.local());
  seg.local()[0] = 1;
  ARMCI_Access_end(seg.local());
  EXPECT_EQ(seg.local()[0], 1);
  ARMCI_Barrier();
}

}  // namespace
}  // namespace armada::armci::test
