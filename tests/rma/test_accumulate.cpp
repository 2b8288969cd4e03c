// Accumulate: all six types with scale factors, against a local reference; every rank
// accumulating into one location at once gives the exact sum.
#include <gtest/gtest.h>

#include <complex>
#include <cstring>
#include <limits>
#include <thread>

#include "test_util.hpp"

namespace armada::rma {
namespace {

using test::Segment;
using cf = std::complex<float>;
using cd = std::complex<double>;

template <class T>
T value(std::size_t i, int r) {
  if constexpr (std::is_same_v<T, cf> || std::is_same_v<T, cd>) {
    using R = typename T::value_type;
    return T(static_cast<R>(i % 17) + static_cast<R>(r), static_cast<R>(i % 5) - static_cast<R>(r));
  } else {
    return static_cast<T>(static_cast<long>(i % 23) - 11 + r);
  }
}

template <class T>
class AccTyped : public ::testing::Test {};
using AccTypes = ::testing::Types<int, long, float, double, cf, cd>;
TYPED_TEST_SUITE(AccTyped, AccTypes);

TYPED_TEST(AccTyped, ScaledAccumulateMatchesReference) {
  using T = TypeParam;
  const std::size_t n = 3000;  // crosses accumulate lock stripes (16 KiB) for the wider types
  Segment seg(n * sizeof(T));
  for (std::size_t i = 0; i < n; ++i) seg.local<T>()[i] = value<T>(i, 100);
  barrier();
  // Every rank adds scale * src into the next rank's array; scale differs per rank.
  const int t = (rank() + 1) % size();
  std::vector<T> src(n);
  for (std::size_t i = 0; i < n; ++i) src[i] = value<T>(i, rank());
  T scale;
  if constexpr (std::is_same_v<T, cf> || std::is_same_v<T, cd>)
    scale = T(2, -1);
  else
    scale = static_cast<T>(rank() + 2);
  acc(src.data(), seg.at<T>(t), n, scale);
  barrier();
  const int from = (rank() + size() - 1) % size();
  T from_scale;
  if constexpr (std::is_same_v<T, cf> || std::is_same_v<T, cd>)
    from_scale = T(2, -1);
  else
    from_scale = static_cast<T>(from + 2);
  for (std::size_t i = 0; i < n; ++i) {
    const T want = value<T>(i, 100) + from_scale * value<T>(i, from);
    EXPECT_EQ(seg.local<T>()[i], want) << "element " << i;  // small integers: exact in every type
  }
  barrier();
}

// ARMCI allows any byte stride, so accumulate elements need not be aligned to their type: here
// the target stride is 4 * sizeof(T) - 1 bytes and the source stride sizeof(T) + 1 (both sides
// unaligned), and one target element straddles a 16 KiB accumulate-lock stripe boundary. Every
// rank accumulates into rank 0 at once, nonblocking, several times: the sums are exact only if
// each element is applied whole and atomically.
TYPED_TEST(AccTyped, UnalignedElementsAtAnyByteStrideAccumulateAtomically) {
  using T = TypeParam;
  constexpr std::size_t stripe = 16384, dst_stride = 4 * sizeof(T) - 1, src_stride = sizeof(T) + 1;
  const std::size_t n = 2 * stripe / dst_stride + 2;
  Segment seg(2 * stripe + dst_stride * n);
  std::fill_n(seg.local<unsigned char>(), 2 * stripe + dst_stride * n, 0);
  // The element that starts on the last byte before a stripe boundary inside rank 0's slice.
  const auto base0 = reinterpret_cast<std::uintptr_t>(seg.base(0));
  const std::size_t straddle = (stripe - base0 % stripe) % stripe + stripe - 1;
  const std::size_t first = straddle % dst_stride;
  ASSERT_LT(straddle / dst_stride, n);
  std::vector<unsigned char> src(1 + src_stride * n);
  for (std::size_t i = 0; i < n; ++i) {
    const T v = value<T>(i, rank());
    std::memcpy(&src[1 + src_stride * i], &v, sizeof v);
  }
  auto scale_of = [](int r) {
    if constexpr (std::is_same_v<T, cf> || std::is_same_v<T, cd>) return T(2, -static_cast<typename T::value_type>(r));
    else return static_cast<T>(r + 1);
  };
  const T scale = scale_of(rank());
  const std::size_t count[] = {sizeof(T), n}, ss[] = {src_stride}, ds[] = {dst_stride};
  barrier();
  const int K = 4;
  std::vector<Handle> pending;
  for (int k = 0; k < K; ++k)
    pending.push_back(acc_strided_nb(acc_type_of<T>(), &scale, &src[1], ss, seg.base(0) + first, ds, count, 0));
  for (Handle& h : pending) h.wait();
  barrier();
  if (rank() == 0) {
    for (std::size_t i = 0; i < n; ++i) {
      T want{};
      for (int r = 0; r < size(); ++r) want += static_cast<T>(K) * scale_of(r) * value<T>(i, r);
      T got;
      std::memcpy(&got, seg.local<unsigned char>() + first + dst_stride * i, sizeof got);
      ASSERT_EQ(got, want) << "element " << i << (first + dst_stride * i == straddle ? " (straddles a stripe)" : "");
    }
  }
  barrier();
}

TEST(Accumulate, ContiguousAtUnalignedAddresses) {
  Segment seg(64);
  std::fill_n(seg.local<unsigned char>(), 64, 0);
  barrier();
  unsigned char src[1 + 3 * sizeof(double)];
  for (int i = 0; i < 3; ++i) {
    const double v = i + 1;
    std::memcpy(src + 1 + i * sizeof(double), &v, sizeof v);
  }
  const double two = 2;
  acc(AccType::Double, &two, src + 1, seg.base(0) + 3, 3 * sizeof(double), 0);
  barrier();
  if (rank() == 0)
    for (int i = 0; i < 3; ++i) {
      double got;
      std::memcpy(&got, seg.local<unsigned char>() + 3 + i * sizeof(double), sizeof got);
      EXPECT_EQ(got, 2.0 * (i + 1) * size()) << i;
    }
  barrier();
}

TEST(Accumulate, AllRanksIntoOneLocationGiveTheExactSum) {
  // Each rank adds its rank+1 to every element K times; integers and doubles both exact.
  const std::size_t n = 4096;
  const int K = 50;
  Segment seg(n * (sizeof(long) + sizeof(double)));
  auto* longs = seg.local<long>();
  auto* doubles = reinterpret_cast<double*>(seg.local<long>() + n);
  for (std::size_t i = 0; i < n; ++i) longs[i] = 0, doubles[i] = 0;
  barrier();
  std::vector<long> one_l(n, rank() + 1);
  std::vector<double> one_d(n, rank() + 1.0);
  for (int k = 0; k < K; ++k) {
    acc(one_l.data(), seg.at<long>(0), n);
    acc(one_d.data(), GlobalPtr<double>(0, reinterpret_cast<double*>(seg.base<long>(0) + n)), n);
  }
  barrier();
  if (rank() == 0) {
    const long want = static_cast<long>(K) * size() * (size() + 1) / 2;
    for (std::size_t i = 0; i < n; ++i) {
      EXPECT_EQ(longs[i], want) << "long element " << i;
      EXPECT_EQ(doubles[i], static_cast<double>(want)) << "double element " << i;
    }
  }
  barrier();
}

TEST(Accumulate, NonblockingHandleCompletesTheAccumulate) {
  Segment seg(64 * sizeof(double));
  for (int i = 0; i < 64; ++i) seg.local<double>()[i] = 1;
  barrier();
  std::vector<double> src(64, 0.5);
  const double scale = 4;
  Handle h = acc_nb(AccType::Double, &scale, src.data(), seg.base<double>(0), 64 * sizeof(double), 0);
  h.wait();
  barrier();
  if (rank() == 0) {
    for (int i = 0; i < 64; ++i) EXPECT_EQ(seg.local<double>()[i], 1 + 2.0 * size());
  }
  barrier();
}

}  // namespace
}  // namespace armada::rma

namespace armada::rma {
namespace {

TEST(Accumulate, IntegersWrapAroundInsteadOfOverflowing) {
  test::Segment seg(2 * sizeof(long));
  seg.local<int>()[0] = std::numeric_limits<int>::max();
  seg.local<long>()[1] = std::numeric_limits<long>::min();
  barrier();
  if (rank() == 0) {
    const int one = 1;
    acc(&one, GlobalPtr<int>(0, seg.base<int>(0)), 1);
    const long minus_one = -1;
    acc(&minus_one, GlobalPtr<long>(0, seg.base<long>(0) + 1), 1, 3L);
    EXPECT_EQ(seg.local<int>()[0], std::numeric_limits<int>::min());
    EXPECT_EQ(seg.local<long>()[1], std::numeric_limits<long>::max() - 2);
  }
  barrier();
}

TEST(Accumulate, ThreadsOfEveryRankAccumulateAtOnce) {
  // MPI_THREAD_MULTIPLE: 3 threads per rank accumulate into the same doubles of rank 0.
  const std::size_t n = 2048;
  const int threads = 3, K = 20;
  test::Segment seg(n * sizeof(double));
  std::fill_n(seg.local<double>(), n, 0.0);
  barrier();
  std::vector<double> ones(n, 1.0);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&] {
      for (int k = 0; k < K; ++k) acc(ones.data(), GlobalPtr<double>(0, seg.base<double>(0)), n);
    });
  for (auto& th : pool) th.join();
  barrier();
  if (rank() == 0) {
    for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(seg.local<double>()[i], static_cast<double>(threads * K * size()));
  }
  barrier();
}

}  // namespace
}  // namespace armada::rma
