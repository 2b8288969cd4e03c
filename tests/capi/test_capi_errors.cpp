// Bad arguments and wrong states: every area reports a nonzero code (with the error hook
// installed; without it the job aborts, tested by capi_abort) and a message naming the rank,
// the ARMCI function, the argument and its value; nothing moves.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "capi_util.hpp"
#include "error_codes.hpp"  // rma/capi/src: the API's one table of codes
#include "untouched_target.hpp"

namespace armada::armci::test {
namespace {

constexpr int EARG = ARMADA_ARMCI_EARG;
constexpr int ESTATE = ARMADA_ARMCI_ESTATE;

class Errors : public armada::test::UntouchedTarget<Segment> {
 protected:
  void sync() override { ARMCI_Barrier(); }
  char* remote(std::size_t off = 0) const { return seg_->at(right(), off); }
  ErrorCapture errors_;
};

TEST_F(Errors, Contiguous) {
  const std::string bad = std::to_string(nproc());
  EXPECT_EQ(ARMCI_Put(buf_, remote(), 8, nproc()), EARG);
  errors_.expect("ARMCI_Put", EARG, {"[rank ", "(in ARMCI_Put)", "'target'", bad.c_str()});
  EXPECT_EQ(ARMCI_Get(remote(), buf_, -1, right()), EARG);
  errors_.expect("ARMCI_Get", EARG, {"ARMCI_Get: argument 'bytes' = -1", "negative"});
  EXPECT_EQ(ARMCI_Put(buf_, remote(kBytes - 4), 8, right()), EARG);
  errors_.expect("ARMCI_Put", EARG, {"past the end", "(in ARMCI_Put)"});
  EXPECT_EQ(ARMCI_Put(buf_, buf_, 8, right()), EARG);  // a local address is no remote target
  errors_.expect("ARMCI_Put", EARG, {"'dst'"});
  double one = 1;
  EXPECT_EQ(ARMCI_Acc(42, &one, buf_, remote(), 8, right()), EARG);
  errors_.expect("ARMCI_Acc", EARG, {"argument 'datatype' = 42", "ARMCI_ACC_INT"});
  EXPECT_EQ(ARMCI_Acc(ARMCI_ACC_DBL, nullptr, buf_, remote(), 8, right()), EARG);
  errors_.expect("ARMCI_Acc", EARG, {"'scale'"});
  EXPECT_EQ(ARMCI_Acc_c(ARMCI_ACC_DBL, &one, buf_, remote(), 7, right()), EARG);
  errors_.expect("ARMCI_Acc_c", EARG, {"(in ARMCI_Acc_c)"});
  EXPECT_EQ(ARMCI_PutValueInt(1, remote(), -2), EARG);
  errors_.expect("ARMCI_PutValueInt", EARG, {"-2"});
  EXPECT_EQ(ARMCI_GetValueDouble(buf_, right()), 0.0);
  errors_.expect("ARMCI_GetValueDouble", EARG, {"'src'"});
  EXPECT_EQ(ARMCI_Put_flag(buf_, remote(), 4, nullptr, 1, right()), EARG);
  errors_.expect("ARMCI_Put_flag", EARG, {"argument 'flag' = NULL"});
  ARMCI_Copy(buf_, buf_ + 8, -3);
  errors_.expect("ARMCI_Copy", EARG, {"'size' = -3"});
  ARMCI_Fence(nproc() + 3);
  errors_.expect("ARMCI_Fence", EARG, {"'proc'", std::to_string(nproc() + 3).c_str()});
}

TEST_F(Errors, StridedAndVector) {
  int stride[9] = {16, 32, 64, 128, 256, 512, 1024, 2048, 4096};
  int count[10] = {8, 2, 1, 1, 1, 1, 1, 1, 1, 1};
  EXPECT_EQ(ARMCI_PutS(buf_, stride, remote(), stride, count, 9, right()), EARG);
  errors_.expect("ARMCI_PutS", EARG, {"'stride_levels' = 9", "0..8"});
  EXPECT_EQ(ARMCI_GetS(remote(), stride, buf_, stride, count, -1, right()), EARG);
  errors_.expect("ARMCI_GetS", EARG, {"'stride_levels' = -1"});
  int neg[2] = {8, -2};
  EXPECT_EQ(ARMCI_PutS(buf_, stride, remote(), stride, neg, 1, right()), EARG);
  errors_.expect("ARMCI_PutS", EARG, {"'count[1]' = -2"});
  int negstride[1] = {-16};
  EXPECT_EQ(ARMCI_PutS(buf_, negstride, remote(), stride, count, 1, right()), EARG);
  errors_.expect("ARMCI_PutS", EARG, {"'src_stride_ar[0]' = -16"});
  EXPECT_EQ(ARMCI_PutS(buf_, stride, remote(), stride, nullptr, 1, right()), EARG);
  errors_.expect("ARMCI_PutS", EARG, {"'count' = NULL"});
  int small[1] = {4};  // a stride shorter than the 8 contiguous bytes below it
  EXPECT_EQ(ARMCI_PutS(buf_, stride, remote(), small, count, 1, right()), EARG);
  errors_.expect("ARMCI_PutS", EARG, {"(in ARMCI_PutS)"});
  int one = 1;
  EXPECT_EQ(ARMCI_AccS(ARMCI_ACC_INT, &one, buf_, stride, remote(), stride, count, 1, nproc()), EARG);
  errors_.expect("ARMCI_AccS", EARG, {"'target'"});
  armci_hdl_t h;
  ARMCI_INIT_HANDLE(&h);
  EXPECT_EQ(ARMCI_NbPutS(buf_, stride, remote(kBytes - 8), stride, count, 1, right(), &h), EARG);
  errors_.expect("ARMCI_NbPutS", EARG, {"(in ARMCI_NbPutS)"});
  EXPECT_EQ(ARMCI_Wait(&h), 0);  // the failed call recorded nothing
  std::size_t cs[2] = {8, 2}, ss[1] = {4};
  EXPECT_EQ(ARMCI_PutS_c(buf_, ss, remote(), ss, cs, 1, right()), EARG);
  errors_.expect("ARMCI_PutS_c", EARG, {"(in ARMCI_PutS_c)"});

  EXPECT_EQ(ARMCI_PutV(nullptr, 1, right()), EARG);
  errors_.expect("ARMCI_PutV", EARG, {"'iov' = NULL"});
  EXPECT_EQ(ARMCI_GetV(nullptr, -1, right()), EARG);
  errors_.expect("ARMCI_GetV", EARG, {"'iov_len' = -1"});
  void* src[2] = {buf_, buf_ + 8};
  void* dst[2] = {remote(), remote(4)};
  void* local_overlap[2] = {buf_, buf_ + 4};  // overlapping (local) destinations of a get
  armci_giov_t giov = {dst, local_overlap, 8, 2};
  EXPECT_EQ(ARMCI_GetV(&giov, 1, right()), EARG);
  errors_.expect("ARMCI_GetV", EARG, {"overlap", "(in ARMCI_GetV)"});
  armci_giov_t negative = {src, dst, -8, 2};
  EXPECT_EQ(ARMCI_NbPutV(&negative, 1, right(), nullptr), EARG);
  errors_.expect("ARMCI_NbPutV", EARG, {"'iov[0].bytes' = -8"});
  armci_giov_t nulls = {src, nullptr, 8, 1};
  EXPECT_EQ(ARMCI_AccV(ARMCI_ACC_DBL, &one, &nulls, 1, right()), EARG);
  errors_.expect("ARMCI_AccV", EARG, {"'iov[0].dst_ptr_array' = NULL"});
  EXPECT_EQ(ARMCI_WaitAll(), 0);
}

TEST_F(Errors, HandlesRmwAndMutexes) {
  EXPECT_NE(ARMCI_Wait(nullptr), 0);
  errors_.expect("ARMCI_Wait", EARG, {"'hdl' = NULL"});
  ARMCI_INIT_HANDLE(nullptr);
  errors_.expect("ARMCI_INIT_HANDLE", EARG, {"'hdl' = NULL"});
  EXPECT_EQ(ARMCI_WaitProc(-1), EARG);
  errors_.expect("ARMCI_WaitProc", EARG, {"'proc' = -1"});
  armci_hdl_t agg;
  ARMCI_INIT_HANDLE(&agg);
  ARMCI_SET_AGGREGATE_HANDLE(&agg);
  EXPECT_EQ(ARMCI_NbPut(buf_, remote(kBytes), 4, right(), &agg), EARG);
  errors_.expect("ARMCI_NbPut", EARG, {"(in ARMCI_NbPut)"});
  EXPECT_EQ(ARMCI_Wait(&agg), 0);

  int old = 0;
  EXPECT_EQ(ARMCI_Rmw(17, &old, remote(), 1, right()), EARG);
  errors_.expect("ARMCI_Rmw", EARG, {"argument 'op' = 17", "ARMCI_FETCH_AND_ADD"});
  EXPECT_EQ(ARMCI_Rmw(ARMCI_FETCH_AND_ADD, nullptr, remote(), 1, right()), EARG);
  errors_.expect("ARMCI_Rmw", EARG, {"'ploc' = NULL"});
  EXPECT_EQ(ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &old, remote(1), 1, right()), EARG);  // misaligned
  errors_.expect("ARMCI_Rmw", EARG, {"(in ARMCI_Rmw)"});

  ARMCI_Lock(0, 0);
  errors_.expect("ARMCI_Lock", ESTATE, {"no mutexes exist"});
  EXPECT_EQ(ARMCI_Destroy_mutexes(), ESTATE);
  errors_.expect("ARMCI_Destroy_mutexes", ESTATE, {"no mutexes exist"});
  EXPECT_EQ(ARMCI_Create_mutexes(-1), EARG);
  errors_.expect("ARMCI_Create_mutexes", EARG, {"'count' = -1"});
  ASSERT_EQ(ARMCI_Create_mutexes(1), 0);
  EXPECT_EQ(ARMCI_Create_mutexes(1), ESTATE);
  errors_.expect("ARMCI_Create_mutexes", ESTATE, {"exist already"});
  ARMCI_Lock(5, 0);
  errors_.expect("ARMCI_Lock", EARG, {"(in ARMCI_Lock)", "'mutex'"});
  ARMCI_Lock(0, nproc());
  errors_.expect("ARMCI_Lock", EARG, {"'proc'"});
  ARMCI_Unlock(0, right());  // not held
  errors_.expect("ARMCI_Unlock", EARG, {"(in ARMCI_Unlock)"});
  ARMCI_Lock(0, right());
  ARMCI_Lock(0, right());  // held by this thread: it once waited for ever
  errors_.expect("ARMCI_Lock", ESTATE, {"held by this thread already", "(in ARMCI_Lock)"});
  ARMCI_Unlock(0, right());
  ARMCI_Barrier();
  EXPECT_EQ(ARMCI_Destroy_mutexes(), 0);
  ARMCIX_Lock_hdl(nullptr, 0, 0);
  errors_.expect("ARMCIX_Lock_hdl", EARG, {"'hdl' = NULL", "not a live mutex handle"});
  int fake = 0;
  EXPECT_NE(ARMCIX_Trylock_hdl(reinterpret_cast<armcix_mutex_hdl_t>(&fake), 0, 0), 0);
  errors_.expect("ARMCIX_Trylock_hdl", EARG, {"not a live mutex handle"});
  EXPECT_EQ(ARMCIX_Create_mutexes_hdl(1, nullptr), nullptr);
  errors_.expect("ARMCIX_Create_mutexes_hdl", EARG, {"'pgroup' = NULL"});
}

TEST_F(Errors, MemoryGroupsAndTopology) {
  std::vector<void*> bases(static_cast<std::size_t>(nproc()));
  EXPECT_EQ(ARMCI_Malloc(bases.data(), -5), EARG);  // every rank: no collective starts
  errors_.expect("ARMCI_Malloc", EARG, {"'bytes' = -5"});
  EXPECT_EQ(ARMCI_Malloc(nullptr, 8), EARG);
  errors_.expect("ARMCI_Malloc", EARG, {"'base_ptrs' = NULL"});
  EXPECT_EQ(ARMCI_Malloc_local(-1), nullptr);
  errors_.expect("ARMCI_Malloc_local", EARG, {"'size' = -1"});
  EXPECT_EQ(ARMCI_Free(buf_), EARG);  // every rank passes a non-segment address
  errors_.expect("ARMCI_Free", EARG, {"(in ARMCI_Free)", "my_base"});

  ARMCI_Group g;
  int list[2] = {0, 0};
  ARMCI_Group_create(2, list, &g);
  errors_.expect("ARMCI_Group_create", EARG, {"listed twice", "(in ARMCI_Group_create)"});
  int out_of_range = nproc();
  ARMCI_Group_create(1, &out_of_range, &g);
  errors_.expect("ARMCI_Group_create", EARG, {"not a rank of the parent group"});
  ARMCI_Group_create(-1, list, &g);
  errors_.expect("ARMCI_Group_create", EARG, {"'grp_size' = -1"});
  ARMCI_Group world;
  ARMCI_Group_get_world(&world);
  EXPECT_EQ(ARMCI_Absolute_id(&world, nproc()), -1);
  errors_.expect("ARMCI_Absolute_id", EARG, {"'group_rank'", std::to_string(nproc()).c_str()});
  ARMCI_Group dup;
  ASSERT_EQ(ARMCIX_Group_dup(&world, &dup), 0);
  ARMCI_Group stale = dup;
  ARMCI_Group_free(&dup);
  EXPECT_EQ(ARMCI_Malloc_group(bases.data(), 8, &stale), EARG);
  errors_.expect("ARMCI_Malloc_group", EARG, {"not a live ARMCI group"});
  ARMCI_Group none{MPI_COMM_NULL, MPI_COMM_NULL, nullptr, nullptr, -1, 0};
  armci_msg_group_barrier(&none);
  errors_.expect("armci_msg_group_barrier", EARG, {"only members may use a group"});
  EXPECT_EQ(ARMCIX_Group_split(&world, -3, 0, &dup), EARG);
  errors_.expect("ARMCIX_Group_split", EARG, {"'color' = -3"});

  EXPECT_EQ(armci_domain_count(7), -1);
  errors_.expect("armci_domain_count", EARG, {"'domain' = 7"});
  EXPECT_EQ(armci_domain_nprocs(ARMCI_DOMAIN_SMP, nproc()), -1);
  errors_.expect("armci_domain_nprocs", EARG, {"'id'"});
  EXPECT_EQ(armci_domain_glob_proc_id(ARMCI_DOMAIN_SMP, 0, 1), -1);
  errors_.expect("armci_domain_glob_proc_id", EARG, {"'loc_proc_id' = 1"});
  EXPECT_EQ(ARMCI_Same_node(-1), 0);
  errors_.expect("ARMCI_Same_node", EARG, {"'proc' = -1"});
  EXPECT_EQ(ARMCI_Init_thread(9), EARG);
  errors_.expect("ARMCI_Init_thread", EARG, {"'armci_requested' = 9"});
}

TEST_F(Errors, Message) {
  int x = 1;
  armci_msg_igop(&x, 1, const_cast<char*>("plus"));
  errors_.expect("armci_msg_igop", EARG, {"'op' = \"plus\""});
  EXPECT_EQ(x, 1);
  double d = 1;
  armci_msg_dgop(&d, 1, const_cast<char*>("or"));
  errors_.expect("armci_msg_dgop", EARG, {"argument 'op' = \"or\"", "integer type"});
  armci_msg_gop_scope(SCOPE_ALL, &x, 1, const_cast<char*>("+"), 9);
  errors_.expect("armci_msg_gop_scope", EARG, {"'type' = 9"});
  armci_msg_gop_scope(5, &x, 1, const_cast<char*>("+"), ARMCI_INT);
  errors_.expect("armci_msg_gop_scope", EARG, {"'scope' = 5"});
  armci_msg_igop(&x, -1, const_cast<char*>("+"));
  errors_.expect("armci_msg_igop", EARG, {"'n' = -1"});
  armci_msg_sel(&x, sizeof x, const_cast<char*>("avg"), ARMCI_INT, 1);
  errors_.expect("armci_msg_sel", EARG, {"'op' = \"avg\""});
  armci_msg_sel(&x, 2, const_cast<char*>("min"), ARMCI_LONG, 1);
  errors_.expect("armci_msg_sel", EARG, {"'n' = 2", "shorter"});
  armci_msg_bcast(&x, sizeof x, nproc());
  errors_.expect("armci_msg_bcast", EARG, {"'root'"});
  armci_msg_snd(1, &x, sizeof x, -1);
  errors_.expect("armci_msg_snd", EARG, {"'to' = -1"});
  armci_msg_rcv(1, &x, -4, nullptr, 0);
  errors_.expect("armci_msg_rcv", EARG, {"'buflen' = -4"});
  std::vector<void*> ptrs(static_cast<std::size_t>(nproc()));
  armci_exchange_address(ptrs.data(), nproc() + 1);
  errors_.expect("armci_exchange_address", EARG, {"'n'"});
  int root, up, l, r;
  armci_msg_bintree(SCOPE_ALL, &root, nullptr, &l, &r);
  errors_.expect("armci_msg_bintree", EARG, {"'Up' = NULL"});
  (void)up;
}

// The message layer's collectives open with an agreement: a bad argument on one member, or
// members in different calls, fail every member by name (the others waited in MPI_Bcast for
// ever, or met another call's MPI collective).
TEST_F(Errors, MessageCollectivesFailOnEveryMember) {
  if (nproc() < 2) GTEST_SKIP() << "needs two members: one with another argument or call";
  const bool last = me() == nproc() - 1;
  int x = 1;
  armci_msg_bcast(&x, sizeof x, last ? nproc() : 0);
  errors_.expect("armci_msg_bcast", EARG, {"'root'", std::to_string(nproc()).c_str()});
  if (last)
    armci_msg_barrier();
  else
    armci_msg_bcast(&x, sizeof x, 0);
  errors_.expect(last ? "armci_msg_barrier" : "armci_msg_bcast", EARG, {"armci_msg_barrier", "armci_msg_bcast"});
  armci_msg_bcast(&x, sizeof x, last ? 1 : 0);  // another root
  errors_.expect("armci_msg_bcast", EARG, {"'root'", "must be the same on every member"});
  x = 2;
  armci_msg_igop(&x, 1, const_cast<char*>("+"));  // and the layer is usable afterwards
  EXPECT_EQ(x, 2 * nproc());
}

TEST_F(Errors, GarbageHandles) {
  // Regression: ARMCI_Wait/Test on memory that was never a handle returned 0 silently.
  armci_hdl_t garbage{-7, 0};
  EXPECT_EQ(ARMCI_Wait(&garbage), EARG);
  errors_.expect("ARMCI_Wait", EARG, {"ARMCI_Wait: argument 'hdl'", "target -7", "not a handle"});
  // ARMCI_Test reports through the hook and returns 0 ("nothing outstanding"), so that a
  // `while (ARMCI_Test(&h))` loop ends.
  armci_hdl_t never{1 << 30, 0};
  EXPECT_EQ(ARMCI_Test(&never), 0);
  errors_.expect("ARMCI_Test", EARG, {"'hdl'", "never issued"});
  // A fresh handle and a completed copy are fine (Global Arrays waits copies).
  armci_hdl_t h;
  ARMCI_INIT_HANDLE(&h);
  EXPECT_EQ(ARMCI_Wait(&h), 0);
  EXPECT_EQ(ARMCI_NbGet(remote(), buf_, 8, right(), &h), 0);
  const armci_hdl_t copy = h;
  EXPECT_EQ(ARMCI_Wait(&h), 0);
  armci_hdl_t stale = copy;
  EXPECT_EQ(ARMCI_Wait(&stale), 0);
  EXPECT_EQ(errors_.count(), 0);
}

// Every error kind of armada::rma has its ARMCI code, from the API's one table.
TEST(ErrorCodes, EachKindHasItsArmciCode) {
  using K = rma::ErrorKind;
  const std::pair<K, int> expected[] = {
      {K::argument, EARG},
      {K::handle, EARG},
      {K::type, EARG},
      {K::state, ESTATE},
      {K::unsupported, ARMADA_ARMCI_EUNSUPPORTED},
      {K::system, ARMADA_ARMCI_ESYSTEM},
      {K::internal, ARMADA_ARMCI_EINTERNAL},
      {K::singular, ARMADA_ARMCI_EINTERNAL},
      {K::not_positive_definite, ARMADA_ARMCI_EINTERNAL},
      {K::no_convergence, ARMADA_ARMCI_EINTERNAL},
  };
  static_assert(std::size(expected) == rma::error_kind_count);
  for (const auto& [kind, code] : expected) EXPECT_EQ(error_codes[kind], code) << rma::to_string(kind);
}

}  // namespace
}  // namespace armada::armci::test
