// Armada's own memory (mutex words, collective-arrival slots) lives in segments like a user's
// and can lie right after one (MPICH with rdma placed the arrival slots there): a user operation
// that reaches it, e.g. a range one past the end of a segment, must be refused before any byte
// moves, on every transport, while the library itself still reads it.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "core/state.hpp"  // detail::allocate_segment, detail::get_internal
#include "test_util.hpp"

namespace armada::rma {
namespace {

using test::expect_error;

constexpr std::size_t kWords = 8;

TEST(OwnMemory, UserOperationsCannotAddressIt) {
  std::vector<void*> own = detail::allocate_segment("test", kWords * sizeof(long), Group::world(), true);
  auto* mine = static_cast<long*>(own[static_cast<std::size_t>(rank())]);
  for (std::size_t i = 0; i < kWords; ++i) mine[i] = 1000L * rank() + static_cast<long>(i);
  barrier();

  const int t = (rank() + 1) % size();
  auto* remote = static_cast<long*>(own[static_cast<std::size_t>(t)]);
  long buffer[kWords] = {};
  const double scale = 1;
  const std::size_t count[2] = {sizeof(long), 2}, stride[1] = {2 * sizeof(long)};
  void* remote_words[1] = {remote};
  void* local_words[1] = {buffer};
  const IoSet put_set{local_words, remote_words, sizeof(long)};
  const IoSet get_set{remote_words, local_words, sizeof(long)};
  auto refused = [](const char* op, auto&& call) {
    SCOPED_TRACE(op);
    expect_error<InvalidArgument>(call, {op, "Armada's own memory", "not in a segment from rma::allocate"});
  };
  refused("rma::put", [&] { put(buffer, remote, sizeof buffer, t); });
  refused("rma::get", [&] { get(remote, buffer, sizeof(long), t); });
  refused("rma::acc", [&] { acc(AccType::Long, &scale, buffer, remote, sizeof(long), t); });
  refused("rma::put", [&] { put_nbi(buffer, remote, sizeof(long), t); });
  refused("rma::put_strided", [&] { put_strided(buffer, stride, remote, stride, count, t); });
  refused("rma::get_strided", [&] { get_strided(remote, stride, buffer, stride, count, t); });
  refused("rma::put_vector", [&] { put_vector({&put_set, 1}, t); });
  refused("rma::get_vector", [&] { get_vector({&get_set, 1}, t); });
  refused("rma::fetch_add", [&] { (void)fetch_add(GlobalPtr<long>(t, remote), 1L); });
  refused("rma::compare_swap", [&] { (void)compare_swap(GlobalPtr<long>(t, remote + 1), 0L, 1L); });
  refused("rma::put_notify", [&] { put_notify(buffer, remote, sizeof(long), remote + 2, 1L, t); });
  refused("rma::node_address", [&] { (void)node_address(t, remote, sizeof(long)); });
  wait_all();
  barrier();

  // Nothing reached it, and the library's own read sees every word.
  for (std::size_t i = 0; i < kWords; ++i) EXPECT_EQ(mine[i], 1000L * rank() + static_cast<long>(i)) << "word " << i;
  detail::get_internal(remote, buffer, sizeof buffer, t);
  for (std::size_t i = 0; i < kWords; ++i) EXPECT_EQ(buffer[i], 1000L * t + static_cast<long>(i)) << "word " << i;
  barrier();
  free(mine, Group::world());
}

// A user's segment beside it stays fully usable: the check refuses only the internal slice.
TEST(OwnMemory, UserSegmentsBesideItStayUsable) {
  std::vector<void*> own = detail::allocate_segment("test", sizeof(long), Group::world(), true);
  test::Segment user(sizeof(long));
  const int t = (rank() + 1) % size();
  put_value(7L + rank(), GlobalPtr<long>(t, user.base<long>(t)));
  (void)fetch_add(GlobalPtr<long>(t, user.base<long>(t)), 1L);
  barrier();
  EXPECT_EQ(*user.local<long>(), 8L + (rank() + size() - 1) % size());
  barrier();
  free(own[static_cast<std::size_t>(rank())], Group::world());
}

}  // namespace
}  // namespace armada::rma
