// Bad input: every case of DESIGN.md "Errors and bad input" is rejected with an InvalidArgument
// (or StateError / Unsupported) naming the operation, the argument and the value, and no byte
// of the target moves.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <new>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "armada/rma/assert.hpp"
#include "test_util.hpp"
#include "untouched_target.hpp"

namespace armada::rma {
namespace {

using test::expect_error;
using test::Segment;

class BadInput : public armada::test::UntouchedTarget<Segment> {
 protected:
  void sync() override { barrier(); }
  int target() const { return (rank() + 1) % size(); }
  std::byte* remote(std::size_t off = 0) const { return seg_->base(target()) + off; }
};

TEST_F(BadInput, WrongRank) {
  expect_error<InvalidArgument>([&] { put(buf_, remote(), 8, size()); },
                                {"[rank ", "rma::put", "argument 'target' = " , "not a rank of the world group"});
  expect_error<InvalidArgument>([&] { get(remote(), buf_, 8, -1); }, {"rma::get", "'target' = -1"});
  const double one = 1;
  expect_error<InvalidArgument>([&] { acc(AccType::Double, &one, buf_, remote(), 8, size() + 5); },
                                {"rma::acc", "'target'"});
  expect_error<InvalidArgument>([&] { fence(size()); }, {"rma::fence", "'target'"});
  expect_error<InvalidArgument>([&] { wait_target(-3); }, {"rma::wait_target", "-3"});
  expect_error<InvalidArgument>([&] { Aggregate a(size()); }, {"rma::Aggregate", "'target'"});
}

TEST_F(BadInput, AddressOutsideEverySegment) {
  expect_error<InvalidArgument>([&] { put(buf_, buf_ + 512, 8, target()); },
                                {"rma::put", "argument 'dst'", "not inside any segment of rank"});
  expect_error<InvalidArgument>([&] { get(nullptr, buf_, 8, target()); }, {"rma::get", "'src'"});
  // Rank r's address is not valid at rank r+1... unless both are the same segment slice: a
  // base of one rank used with another rank is caught when it falls outside that rank's slice.
  expect_error<InvalidArgument>([&] { put(buf_, remote(kBytes), 1, target()); }, {"'dst'"});
}

TEST_F(BadInput, RangePastTheEndOfASegment) {
  expect_error<InvalidArgument>([&] { put(buf_, remote(200), 57, target()); },
                                {"rma::put", "'dst'", "runs 1 bytes past the end of its segment"});
  expect_error<InvalidArgument>([&] { get(remote(8), buf_, kBytes, target()); }, {"rma::get", "past the end"});
  const std::size_t count[] = {16, 4};
  const std::size_t stride[] = {64};
  // Extent = 3 * 64 + 16 = 208 bytes; from offset 64 that ends at 272 > 256.
  expect_error<InvalidArgument>([&] { put_strided(buf_, stride, remote(64), stride, count, target()); },
                                {"rma::put_strided", "'dst'", "past the end"});
}

TEST_F(BadInput, StridedDescriptors) {
  const std::size_t count9[10] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  const std::size_t stride9[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  expect_error<InvalidArgument>([&] { put_strided(buf_, stride9, remote(), stride9, count9, target()); },
                                {"rma::put_strided", "stride_levels", "9", "at most 8"});
  const std::size_t count[] = {8, 2};
  const std::size_t s1[] = {16}, s2[] = {16, 32};
  expect_error<InvalidArgument>([&] { put_strided(buf_, s2, remote(), s1, count, target()); },
                                {"'src_stride'", "one stride per level (1)"});
  expect_error<InvalidArgument>([&] { get_strided(remote(), s1, buf_, s2, count, target()); },
                                {"rma::get_strided", "'dst_stride'"});
  const std::size_t zero[] = {8, 0};
  expect_error<InvalidArgument>([&] { put_strided(buf_, s1, remote(), s1, zero, target()); },
                                {"'count'", "count[1] is 0"});
  const std::size_t zero0[] = {0, 2};
  expect_error<InvalidArgument>([&] { put_strided(buf_, s1, remote(), s1, zero0, target()); }, {"count[0] is 0"});
  const std::size_t small[] = {4};
  expect_error<InvalidArgument>([&] { put_strided(buf_, s1, remote(), small, count, target()); },
                                {"'dst_stride'", "dst_stride[0] = 4 is smaller than the 8 bytes"});
  const std::size_t empty[] = {0};
  expect_error<InvalidArgument>([&] { put_strided(buf_, {}, remote(), {}, std::span<const std::size_t>(empty, 0), target()); },
                                {"'count'", "at least count[0]"});
  const std::size_t huge[] = {1ull << 40, 1ull << 40};
  const std::size_t hs[] = {1ull << 40};
  expect_error<InvalidArgument>([&] { put_strided(buf_, hs, remote(), hs, huge, target()); }, {"overflow"});
}

TEST_F(BadInput, NullLocalBuffers) {
  expect_error<InvalidArgument>([&] { put(nullptr, remote(), 8, target()); }, {"rma::put", "'src' = null"});
  expect_error<InvalidArgument>([&] { get(remote(), nullptr, 8, target()); }, {"rma::get", "'dst' = null"});
}

TEST_F(BadInput, AccumulateArguments) {
  const double one = 1;
  expect_error<InvalidArgument>([&] { acc(AccType::Double, nullptr, buf_, remote(), 8, target()); },
                                {"rma::acc", "'scale' = null"});
  expect_error<InvalidArgument>([&] { acc(AccType::Double, &one, buf_, remote(), 12, target()); },
                                {"'count[0]' = 12", "multiple of the double element size 8"});
  expect_error<InvalidArgument>([&] { acc(static_cast<AccType>(42), &one, buf_, remote(), 8, target()); },
                                {"'type' = 42", "not an AccType"});
  // (Unaligned addresses and strides are accepted: test_accumulate's UnalignedElements*.)
  const std::size_t count[] = {12, 2}, stride[] = {16};
  expect_error<InvalidArgument>(
      [&] { acc_strided(AccType::Double, &one, buf_, stride, remote(), stride, count, target()); },
      {"rma::acc_strided", "'count[0]' = 12", "element size 8"});
}

TEST_F(BadInput, HandlesAndFree) {
  expect_error<InvalidArgument>([&] { rma::free(buf_); }, {"rma::free", "'my_base'", "not the local base"});
  // free_local takes only what allocate_local gave (regression: a crash inside glibc).
  expect_error<InvalidArgument>([&] { free_local(buf_); }, {"rma::free_local", "'ptr'", "not memory from rma::allocate_local"});
  void* heap = std::malloc(64);
  expect_error<InvalidArgument>([&] { free_local(heap); }, {"rma::free_local"});
  std::free(heap);
  void* mine = allocate_local(100);
  free_local(mine);
  expect_error<InvalidArgument>([&] { free_local(mine); }, {"rma::free_local", "freed already"});
  free_local(nullptr);
  expect_error<InvalidArgument>([&] { segment_size(buf_); }, {"rma::segment_size"});
  // An empty handle is complete; waiting on it is fine.
  Handle h;
  h.wait();
  EXPECT_TRUE(h.test());
  EXPECT_EQ(h.target(), -1);
}

// Under direct delivery the target's server copies out of, or into, this process's buffer
// itself; a buffer it cannot access comes back as an error naming the operation (not a crash of
// the server or of the target), and no byte of the target moves.
TEST_F(BadInput, InaccessibleBufferUnderDirectDelivery) {
  constexpr std::size_t n = 64 << 10;  // above ARMADA_SERVER_INLINE: not carried in the request
  Segment big(n);
  std::memset(big.local(), 0x5A, n);
  barrier();
  const bool direct = server_direct(target());
  if (direct) {
    void* none = mmap(nullptr, n, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    EXPECT_NE(none, MAP_FAILED);
    if (none != MAP_FAILED) {
      std::byte* to = big.base(target());
      expect_error<SystemError>([&] { put(none, to, n, target()); }, {"rma::put", "could not copy", "Bad address"});
      expect_error<SystemError>([&] { get(to, none, n, target()); }, {"rma::get", "could not copy", "Bad address"});
      const double scale = 1;
      expect_error<SystemError>([&] { acc(AccType::Double, &scale, none, to, n, target()); },
                                {"rma::acc", "could not copy"});
      Handle h = get_nb(to, none, n, target());
      expect_error<SystemError>([&] { h.wait(); }, {"could not copy", "Bad address"});
      // The transport carries on: a good transfer right after.
      std::vector<unsigned char> back(n, 0);
      get(to, back.data(), n, target());
      EXPECT_EQ(back[n - 1], 0x5A);
      munmap(none, n);
    }
  }
  barrier();
  std::size_t moved = 0;
  for (std::size_t i = 0; i < n; ++i) moved += big.local<unsigned char>()[i] != 0x5A;
  EXPECT_EQ(moved, 0u) << "bytes of the target changed";
  int any = direct ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, world_comm());
  if (!any) GTEST_SKIP() << "no rank reaches its target by direct delivery in this configuration";
}

TEST(BadGroups, CreateAndAllocateCheckTheirArguments) {
  const int n = size();
  const int dup[] = {0, 0};
  expect_error<InvalidArgument>([&] { Group::create(Group::world(), dup); }, {"rma::Group::create", "listed twice"});
  const int out[] = {n};
  expect_error<InvalidArgument>([&] { Group::create(Group::world(), out); }, {"ranks[0]", "not a rank of the parent"});
  expect_error<InvalidArgument>([&] { Group::world().world_rank(n); }, {"rma::Group::world_rank", "'group_rank'"});
  expect_error<InvalidArgument>([&] { allocate(8, Group(nullptr)); }, {"rma::allocate", "'group'", "empty group"});
  barrier();
}

// Collective calls agree: a member whose part fails does not leave the others waiting in the
// next collective; every member throws, the others naming the failed rank, and the runtime
// stays usable (regression: a hang under the server transport).
TEST(Agreement, AllocationFailingOnOneRankFailsEveryRank) {
  const int last = size() - 1;
  // 2^40 fits the symmetric arena (16 TiB): every member takes its range, then gives it back.
  for (const std::size_t huge : {std::size_t{1} << 40, std::size_t{1} << 50, std::numeric_limits<std::size_t>::max()}) {
    const std::size_t bytes = rank() == last ? huge : 64;
    try {
      allocate(bytes);
      ADD_FAILURE() << "allocate(" << bytes << ") succeeded on rank " << rank();
    } catch (const Error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("rma::allocate"), std::string::npos) << what;
      // Members on the failing rank's node may fail themselves (under shared memory the node's
      // whole allocation fails); the others name a failed rank of that node.
      if (!same_node(rank(), last)) {
        bool named = false;
        for (int r : node_ranks(node_of(last)))
          named = named || what.find("rank " + std::to_string(r) + " failed, so the call failed on every member") !=
                               std::string::npos;
        EXPECT_TRUE(named) << what;
      }
    }
  }
  // Usable afterwards: a normal allocation works and moves data.
  Segment seg(sizeof(long));
  put_value(long{41} + rank(), seg.at<long>((rank() + 1) % size()));
  barrier();
  EXPECT_EQ(*seg.local<long>(), 41 + (rank() + size() - 1) % size());
  barrier();
}

TEST(Agreement, MutexAndGroupCreationFailingOnOneRankFailEveryRank) {
  const int last = size() - 1;
  expect_error<InvalidArgument>([&] { MutexSet::create(rank() == last ? -1 : 2); },
                                {"rma::MutexSet::create", "'count' = -1"});
  // A list that is bad on one member only, then lists that differ between members.
  std::vector<int> ranks{0};
  if (rank() == last) ranks = {0, 0};
  expect_error<InvalidArgument>([&] { Group::create(Group::world(), ranks); }, {"rma::Group::create", "listed twice"});
  if (size() > 1) {
    const std::vector<int> mine = rank() == last ? std::vector<int>{0, last} : std::vector<int>{0};
    expect_error<InvalidArgument>([&] { Group::create(Group::world(), mine); },
                                  {"rma::Group::create", "but rank 0 passed [0]"});
  }
  MutexSet ok = MutexSet::create(1);  // still usable
  ok.lock(0, last);
  ok.unlock(0, last);
  barrier();
  ok.destroy();
}

TEST(Mutexes, LockingAMutexTheCallerHoldsIsAnError) {
  // Regression: the second lock waited for ever (for its own caller to unlock).
  const int last = size() - 1;
  MutexSet set = MutexSet::create(2);
  set.lock(1, last);
  const std::string which = "mutex 1 of rank " + std::to_string(last);
  expect_error<StateError>([&] { set.lock(1, last); }, {"rma::MutexSet::lock", which.c_str(), "held by this thread already"});
  // Another thread of this process still waits for it, as any other process does.
  std::thread other([&] {
    set.lock(1, last);
    set.unlock(1, last);
  });
  set.unlock(1, last);
  other.join();
  set.lock(1, last);  // free again, and the failed call left nothing behind
  set.unlock(1, last);
  barrier();
  set.destroy();
}

TEST(OtherUsers, PreCreatedShmNamesDoNotBlockAllocation) {
  // Regression: names were /armada.<pid>.<counter>, so anyone who pre-created them made every
  // allocate fail. Take the names the old scheme would use for this process; allocation works.
  std::vector<std::string> taken;
  for (int k = 0; k < 64; ++k) {
    const std::string name = "/armada." + std::to_string(getpid()) + "." + std::to_string(k);
    const int fd = shm_open(name.c_str(), O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd >= 0) {
      close(fd);
      taken.push_back(name);
    }
  }
  barrier();
  {
    Segment seg(4096);
    put_value(7L, seg.at<long>((rank() + 1) % size()));
    barrier();
    EXPECT_EQ(*seg.local<long>(), 7L);
    barrier();
  }
  for (const std::string& name : taken) shm_unlink(name.c_str());
  EXPECT_EQ(taken.size(), 64u) << "could not take the old-scheme names (left over by another run?)";
}

/// Sets an environment variable for its lifetime and puts back what was there before.
class ScopedEnv {
 public:
  explicit ScopedEnv(const char* name) : name_(name) {
    if (const char* v = std::getenv(name)) saved_ = v;
  }
  ~ScopedEnv() {
    if (saved_) setenv(name_, saved_->c_str(), 1);
    else unsetenv(name_);
  }
  void set(const char* value) const { setenv(name_, value, 1); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> saved_;
};

// rma::transports(): every registered transport once, exactly one for node memory, each
// inter-node one an accepted ARMADA_TRANSPORT value; what runs is one of them.
TEST(Transports, ListIsWhatArmadaTransportAccepts) {
  std::set<std::string> names;
  int node_memory = 0;
  for (const RegisteredTransport& t : transports()) {
    EXPECT_TRUE(names.insert(t.name).second) << "listed twice: " << t.name;
    EXPECT_GT(std::strlen(t.summary), 0u) << t.name;
    if (!t.inter_node) {
      ++node_memory;
      continue;
    }
    const ScopedEnv transport("ARMADA_TRANSPORT");
    transport.set(t.name);
    EXPECT_EQ(read_config().transport, t.name);
  }
  EXPECT_EQ(node_memory, 1) << "one node-memory transport";
  for (const char* built_everywhere : {"shm", "server", "mpi-rma"}) EXPECT_EQ(names.count(built_everywhere), 1u);
  for (int r = 0; r < size(); ++r)
    if (const std::string running = transport_name(r); running != "none") {
      EXPECT_EQ(names.count(running), 1u) << running;
    }
  const ScopedEnv transport("ARMADA_TRANSPORT");
  transport.set("carrier-pigeon");
  expect_error<InvalidArgument>([] { read_config(); }, {"ARMADA_TRANSPORT", "'carrier-pigeon'", "server", "mpi-rma"});
}

// prepare_mpi_environment(): the transports' MPI settings (mpi-rma: Open MPI's osc sm,ucx,
// docs/mpi-quirks.md), unless the user set them. MPI is up: the variable is read no more.
TEST(Transports, PrepareMpiEnvironmentSetsWhatMpiRmaNeedsUnlessSet) {
  const ScopedEnv osc("OMPI_MCA_osc");
  const ScopedEnv lock("UCX_USE_MT_MUTEX");
  unsetenv("OMPI_MCA_osc");
  unsetenv("UCX_USE_MT_MUTEX");
  prepare_mpi_environment();
  ASSERT_NE(std::getenv("OMPI_MCA_osc"), nullptr);
  EXPECT_STREQ(std::getenv("OMPI_MCA_osc"), "sm,ucx");
  ASSERT_NE(std::getenv("UCX_USE_MT_MUTEX"), nullptr);
  EXPECT_STREQ(std::getenv("UCX_USE_MT_MUTEX"), "y") << "threads sharing cores must not spin on UCX's lock";
  osc.set("ucx");
  lock.set("n");
  prepare_mpi_environment();
  EXPECT_STREQ(std::getenv("OMPI_MCA_osc"), "ucx") << "a value the user set wins";
  EXPECT_STREQ(std::getenv("UCX_USE_MT_MUTEX"), "n") << "a value the user set wins";
}

// ---- the error vocabulary: kinds, messages, the assertion ------------------------------------

constexpr ErrorKind kAllKinds[] = {ErrorKind::argument, ErrorKind::handle, ErrorKind::type,
                                   ErrorKind::state, ErrorKind::unsupported, ErrorKind::system,
                                   ErrorKind::internal, ErrorKind::singular, ErrorKind::not_positive_definite,
                                   ErrorKind::no_convergence};
static_assert(std::size(kAllKinds) == error_kind_count);

TEST(ErrorKinds, EachClassCarriesItsKind) {
  EXPECT_EQ(InvalidArgument("op", "a", "1", "why").kind(), ErrorKind::argument);
  EXPECT_EQ(InvalidArgument("op", "a", "1", "why", ErrorKind::handle).kind(), ErrorKind::handle);
  EXPECT_EQ(InvalidArgument("op", "a", "1", "why", ErrorKind::type).kind(), ErrorKind::type);
  EXPECT_EQ(StateError("op", "m").kind(), ErrorKind::state);
  EXPECT_EQ(Unsupported("op", "m").kind(), ErrorKind::unsupported);
  EXPECT_EQ(SystemError("op", "m").kind(), ErrorKind::system);
  EXPECT_EQ(Error("op", "m").kind(), ErrorKind::internal);
  EXPECT_EQ(Error(ErrorKind::singular, "op", "m").kind(), ErrorKind::singular);
  // Errors the runtime raises itself.
  try {
    put(nullptr, nullptr, 8, size());
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::argument) << e.what();
  }
  std::set<std::string> names;
  for (ErrorKind k : kAllKinds) names.insert(to_string(k));
  EXPECT_EQ(names.size(), error_kind_count) << "every kind has its own name";
  EXPECT_STREQ(to_string(ErrorKind::not_positive_definite), "not_positive_definite");
}

TEST(ErrorKinds, CurrentErrorKindClassifiesAnyException) {
  const auto kind_of = [](auto&& thrower) {
    try {
      thrower();
    } catch (...) {
      return current_error_kind();
    }
    return ErrorKind::argument;
  };
  for (ErrorKind k : kAllKinds)
    EXPECT_EQ(kind_of([k] { throw Error(k, "op", "m"); }), k) << to_string(k);
  EXPECT_EQ(kind_of([] { throw StateError("op", "m"); }), ErrorKind::state);
  EXPECT_EQ(kind_of([] { throw std::bad_alloc(); }), ErrorKind::system);
  EXPECT_EQ(kind_of([] { throw std::runtime_error("x"); }), ErrorKind::internal);
  EXPECT_EQ(kind_of([] { throw 42; }), ErrorKind::internal);
}

// The message every C API (ARMCI's, GA's) reports for the exception it caught in `function`.
TEST(ErrorKinds, CurrentErrorMessageNamesTheCallThatCaughtIt) {
  const auto message_of = [](auto thrower) {
    try {
      thrower();
    } catch (...) {
      return current_error_message("API_Call");
    }
    return std::string("nothing thrown");
  };
  const std::string below = message_of([] { throw StateError("rma::put", "[rank 0] rma::put: no segment"); });
  EXPECT_EQ(below, "[rank 0] rma::put: no segment (in API_Call)");
  const std::string own = message_of([] { throw StateError("API_Call", "[rank 0] API_Call: not started"); });
  EXPECT_EQ(own, "[rank 0] API_Call: not started");
  EXPECT_EQ(message_of([] { throw std::bad_alloc(); }), error_message("API_Call", "out of memory"));
  EXPECT_EQ(message_of([] { throw std::runtime_error("x"); }), error_message("API_Call", "x"));
  EXPECT_EQ(message_of([] { throw 42; }), error_message("API_Call", "unknown exception"));
}

TEST(ErrorKinds, CodeTableLooksUpByKind) {
  constexpr ErrorCodeTable<int> codes{{{
      {ErrorKind::argument, 1}, {ErrorKind::handle, 2}, {ErrorKind::type, 3}, {ErrorKind::state, 4},
      {ErrorKind::unsupported, 5}, {ErrorKind::system, 6}, {ErrorKind::internal, 7}, {ErrorKind::singular, 8},
      {ErrorKind::not_positive_definite, 9}, {ErrorKind::no_convergence, 10},
  }}};
  static_assert(codes[ErrorKind::handle] == 2 && codes[ErrorKind::no_convergence] == 10);
  for (std::size_t i = 0; i < error_kind_count; ++i)
    EXPECT_EQ(codes[kAllKinds[i]], static_cast<int>(i) + 1);
  EXPECT_EQ(codes[static_cast<ErrorKind>(99)], 7) << "an unknown kind reads as internal";
}

TEST(ErrorMessages, BuiltInOnePlace) {
  const std::string prefix = "[rank " + std::to_string(rank()) + "] ";
  EXPECT_EQ(message_prefix(), prefix);
  EXPECT_EQ(error_message("rma::x", "went wrong"), prefix + "rma::x: went wrong");
  EXPECT_EQ(std::string(InvalidArgument("rma::x", "n", "3", "too big").what()),
            prefix + "rma::x: argument 'n' = 3: too big");
}

TEST(Assertion, ReportsExpressionFileAndLine) {
  const int x = 2;
  int line = 0;
  try {
    line = __LINE__ + 1;
    ARMADA_ASSERT(x + 1 == 4);
    ADD_FAILURE() << "the assertion did not fire";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.kind(), ErrorKind::internal);
    for (const std::string& part : {"[rank " + std::to_string(rank()) + "] ", std::string("internal error"),
                                    std::string("'x + 1 == 4'"),
                                    "test_errors.cpp:" + std::to_string(line), std::string("please report")})
      EXPECT_NE(what.find(part), std::string::npos) << "'" << what << "' lacks '" << part << "'";
    EXPECT_EQ(e.operation(), __func__);
  }
  EXPECT_NO_THROW(ARMADA_ASSERT(x == 2));
}

TEST(Agreement, TheOthersGetTheFailedRanksKind) {
  // Every kind crosses an agreement: the failed rank keeps its error, the others get one of
  // the same kind (and of the same class for arguments) naming it.
  for (ErrorKind k : {ErrorKind::handle, ErrorKind::type, ErrorKind::state, ErrorKind::system,
                      ErrorKind::internal, ErrorKind::not_positive_definite}) {
    try {
      agree("rma::test_agree", [&] {
        if (rank() != size() - 1) return;
        if (k == ErrorKind::handle || k == ErrorKind::type) throw InvalidArgument("rma::test_agree", "h", "7", "bad", k);
        throw Error(k, "rma::test_agree", error_message("rma::test_agree", "failed"));
      });
      ADD_FAILURE() << "agreement passed for " << to_string(k);
    } catch (const InvalidArgument& e) {
      EXPECT_TRUE(k == ErrorKind::handle || k == ErrorKind::type) << e.what();
      EXPECT_EQ(e.kind(), k) << e.what();
      EXPECT_EQ(e.argument(), "h");
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), k) << e.what();
      if (rank() != size() - 1) {
        EXPECT_NE(std::string(e.what()).find("rank " + std::to_string(size() - 1) + " failed"), std::string::npos)
            << e.what();
      }
    }
  }
}

TEST(BadSettings, MisspeltSettingsAreNamedWithTheClosestOne) {
  const ScopedEnv typo("ARMADA_TRANSPROT"), script("ARMADA_SANITIZE"), layer("ARMADA_LINALG_THREADS"),
      library("ARMADA_UCX_TLS");
  typo.set("mpi-rma");
  script.set("address");
  layer.set("2");
  library.set("tcp,self");
  // ARMADA_UCX_<NAME> configures the rdma transport's UCX context: known where rdma is built.
  const auto built = transports();
  const bool rdma = std::any_of(built.begin(), built.end(), [](const RegisteredTransport& t) { return std::string(t.name) == "rdma"; });
  bool found = false, library_reported = false;
  for (const UnknownSetting& u : unknown_settings()) {
    EXPECT_NE(u.name, "ARMADA_SANITIZE") << "a script's variable is no misspelt setting";
    EXPECT_NE(u.name, "ARMADA_LINALG_THREADS") << "another layer's setting is no misspelt rma setting";
    library_reported |= u.name == "ARMADA_UCX_TLS";
    EXPECT_NE(u.name, "ARMADA_TRANSPORT") << "a real setting reported as unknown";
    if (u.name == "ARMADA_TRANSPROT") {
      found = true;
      EXPECT_EQ(u.closest, "ARMADA_TRANSPORT");
    }
  }
  EXPECT_TRUE(found) << "ARMADA_TRANSPROT was not reported";
  EXPECT_EQ(library_reported, !rdma) << "ARMADA_UCX_TLS is the rdma transport's UCX setting where it is built, else unknown";
}

TEST(BadSettings, ConfigurationValuesAreChecked) {
  auto rejects = [](const char* name, const char* value, std::initializer_list<const char*> parts) {
    const ScopedEnv env(name);
    env.set(value);
    expect_error<InvalidArgument>([] { read_config(); }, parts);
  };
  rejects("ARMADA_NODE_SIZE", "two", {"rma::init", "ARMADA_NODE_SIZE", "'two'", "integer"});
  rejects("ARMADA_NODE_SIZE", "-1", {"ARMADA_NODE_SIZE", "'-1'"});
  rejects("ARMADA_VERBOSE", "maybe", {"ARMADA_VERBOSE", "'maybe'"});
  // The accepted values are the registered inter-node transports, whichever this build has (no
  // rdma without UCX; a new transport joins the list).
  std::string choices;
  for (const RegisteredTransport& t : transports())
    if (t.inter_node) choices += std::string(t.name) + ", ";
  choices += "none";
  rejects("ARMADA_TRANSPORT", "carrier-pigeon", {"ARMADA_TRANSPORT", "'carrier-pigeon'", choices.c_str()});
  rejects("ARMADA_SERVER_CLUSTER", "-1", {"ARMADA_SERVER_CLUSTER", "'-1'"});
  rejects("ARMADA_MPI_MEMORY", "heap", {"rma::init", "ARMADA_MPI_MEMORY", "'heap'", "mpi, shm"});
  rejects("ARMADA_MPI_IOV", "clever", {"ARMADA_MPI_IOV", "'clever'", "auto, batched, direct"});
  rejects("ARMADA_SERVER_DIRECT", "sometimes", {"rma::init", "ARMADA_SERVER_DIRECT", "'sometimes'", "auto, on, off"});
  rejects("ARMADA_SERVER_AWAKE_US", "-5", {"ARMADA_SERVER_AWAKE_US", "'-5'", "[0, 10000000]"});
  rejects("ARMADA_RDMA_PROGRESS", "sometimes", {"rma::init", "ARMADA_RDMA_PROGRESS", "'sometimes'", "auto, on, off"});
  {
    const ScopedEnv memory("ARMADA_MPI_MEMORY");
    memory.set("shm");
    EXPECT_EQ(read_config().text("ARMADA_MPI_MEMORY"), "shm");
  }
  {
    const ScopedEnv direct("ARMADA_SERVER_DIRECT");
    direct.set("off");
    EXPECT_EQ(read_config().text("ARMADA_SERVER_DIRECT"), "off");
  }
  // Surrounding blanks are no part of a value, on either side alike.
  for (const char* spaced : {" 3", "3 ", "\t3 \n"}) {
    const ScopedEnv size("ARMADA_NODE_SIZE");
    size.set(spaced);
    EXPECT_EQ(read_config().node_size, 3) << "'" << spaced << "'";
  }
  {
    const ScopedEnv transport("ARMADA_TRANSPORT");
    transport.set(" server ");
    EXPECT_EQ(read_config().transport, "server");
  }
  // A huge value is shown by its start and its length, not echoed whole.
  {
    const ScopedEnv huge("ARMADA_TRANSPORT");
    huge.set(std::string(100000, 'x').c_str());
    try {
      read_config();
      ADD_FAILURE() << "a 100 kB ARMADA_TRANSPORT was accepted";
    } catch (const InvalidArgument& e) {
      const std::string what = e.what();
      EXPECT_LT(what.size(), 1000u) << "the message echoes the whole value";
      EXPECT_NE(what.find("(100000 characters)"), std::string::npos) << what.substr(0, 300);
    }
  }
  // Everything is as it was: the environment reads back as the running configuration.
  EXPECT_EQ(read_config().node_size, config().node_size);
  EXPECT_EQ(read_config().text("ARMADA_SERVER_DIRECT"), config().text("ARMADA_SERVER_DIRECT"));
}

}  // namespace
}  // namespace armada::rma
