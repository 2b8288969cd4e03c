// The message layer: identities, timer, send/receive, barriers, bintree, broadcasts (world,
// scoped, group, clus), every gop op string for every type, scopes and group variants, reduce,
// sel, and address exchange.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <climits>
#include <cmath>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "capi_util.hpp"

namespace armada::armci::test {
namespace {

char* op(const char* s) { return const_cast<char*>(s); }

TEST(Message, IdentityAndTimer) {
  int rank = -1, size = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  EXPECT_EQ(armci_msg_me(), rank);
  EXPECT_EQ(armci_msg_nproc(), size);
  const double t0 = armci_timer();
  EXPECT_GE(armci_timer(), t0);
}

TEST(Message, SendReceiveRing) {
  int out[4] = {me(), me() * 2, me() * 3, 7}, in[8] = {};
  int len = -1;
  if (nproc() == 1) {
    armci_msg_snd(11, out, sizeof out, 0);  // to self: returns before the receive (MPICH: regression)
    armci_msg_rcv(11, in, sizeof in, &len, 0);
  } else if (me() % 2 == 0) {
    armci_msg_snd(11, out, sizeof out, right());
    armci_msg_rcv(11, in, sizeof in, &len, left());
  } else {
    armci_msg_rcv(11, in, sizeof in, &len, left());
    armci_msg_snd(11, out, sizeof out, right());
  }
  EXPECT_EQ(len, static_cast<int>(sizeof out));
  EXPECT_EQ(in[0], left());
  EXPECT_EQ(in[2], left() * 3);
  // Any source: rank 0 hears from everyone else.
  if (me() == 0) {
    std::vector<int> seen(static_cast<std::size_t>(nproc()), 0);
    for (int i = 1; i < nproc(); ++i) {
      int v = -1;
      const int from = armci_msg_rcvany(12, &v, sizeof v, nullptr);
      EXPECT_EQ(v, from * 10);
      ++seen[static_cast<std::size_t>(from)];
    }
    for (int p = 1; p < nproc(); ++p) EXPECT_EQ(seen[static_cast<std::size_t>(p)], 1);
  } else {
    int v = me() * 10;
    armci_msg_snd(12, &v, sizeof v, 0);
  }
  armci_msg_barrier();
  parmci_msg_barrier();
}

TEST(Message, Bintree) {
  int root, up, left_child, right_child;
  armci_msg_bintree(SCOPE_ALL, &root, &up, &left_child, &right_child);
  EXPECT_EQ(root, 0);
  EXPECT_EQ(up, me() == 0 ? -1 : (me() - 1) / 2);
  EXPECT_EQ(left_child, 2 * me() + 1 < nproc() ? 2 * me() + 1 : -1);
  EXPECT_EQ(right_child, 2 * me() + 2 < nproc() ? 2 * me() + 2 : -1);
  armci_msg_bintree(SCOPE_NODE, &root, &up, &left_child, &right_child);
  EXPECT_EQ(root, me());
  EXPECT_EQ(up, -1);
  EXPECT_EQ(left_child, -1);
}

TEST(Message, Broadcasts) {
  const int root = nproc() - 1;
  double buf[5] = {};
  if (me() == root) std::iota(buf, buf + 5, 1.5);
  armci_msg_bcast(buf, sizeof buf, root);
  EXPECT_EQ(buf[4], 5.5);
  long x = me() == 0 ? 42 : 0;
  armci_msg_brdcst(&x, sizeof x, 0);
  EXPECT_EQ(x, 42);
  int y = me() == 0 ? 7 : me();
  armci_msg_bcast_scope(SCOPE_ALL, &y, sizeof y, 0);
  EXPECT_EQ(y, 7);
  y = me();
  armci_msg_bcast_scope(SCOPE_NODE, &y, sizeof y, me());  // within the caller's domain: itself
  EXPECT_EQ(y, me());
  armci_msg_bcast_scope(SCOPE_MASTERS, &y, sizeof y, root);
  EXPECT_EQ(y, root);
  armci_msg_clus_brdcst(&y, sizeof y);
  EXPECT_EQ(y, root);
  // Group broadcast from a world rank of the group (the odd ranks, or rank 0 alone).
  std::vector<int> members;
  for (int p = nproc() > 1 ? 1 : 0; p < nproc(); p += 2) members.push_back(p);
  ARMCI_Group g;
  ARMCI_Group_create(static_cast<int>(members.size()), members.data(), &g);
  if (g.comm != MPI_COMM_NULL) {
    const int groot = members.back();
    int z = me() == groot ? 99 : -1;
    armci_msg_group_bcast_scope(SCOPE_ALL, &z, sizeof z, groot, &g);
    EXPECT_EQ(z, 99);
    armci_grp_clus_brdcst(&z, sizeof z, me(), 1, &g);
    EXPECT_EQ(z, 99);
  }
  ARMCI_Group_free(&g);
  armci_msg_barrier();
}

// Values chosen so every op has a distinct, exactly known result: rank r contributes
// v = (r % 2 ? -(r + 1) : (r + 1)) * (i + 1) for element i.
template <class T>
T contribution(int r, int i) {
  return static_cast<T>((r % 2 ? -(r + 1) : (r + 1)) * (i + 1));
}

template <class T>
void check_arithmetic_ops(int type, void (*typed)(T*, int, char*)) {
  constexpr int n = 3;
  const int p = nproc();
  struct Case {
    const char* op;
    T (*expect)(int p, int i);
  };
  const Case cases[] = {
      {"+", [](int p, int i) { T s = 0; for (int r = 0; r < p; ++r) s += contribution<T>(r, i); return s; }},
      {"*", [](int p, int i) { T s = 1; for (int r = 0; r < p; ++r) s *= contribution<T>(r, i); return s; }},
      {"max", [](int p, int i) { T s = contribution<T>(0, i); for (int r = 1; r < p; ++r) s = std::max(s, contribution<T>(r, i)); return s; }},
      {"min", [](int p, int i) { T s = contribution<T>(0, i); for (int r = 1; r < p; ++r) s = std::min(s, contribution<T>(r, i)); return s; }},
      {"absmax", [](int p, int i) { return static_cast<T>(p * (i + 1)); }},
      {"absmin", [](int, int i) { return static_cast<T>(i + 1); }},
  };
  for (const Case& c : cases) {
    T x[n], y[n], z[n];
    for (int i = 0; i < n; ++i) x[i] = y[i] = z[i] = contribution<T>(me(), i);
    typed(x, n, op(c.op));
    armci_msg_gop_scope(SCOPE_ALL, y, n, op(c.op), type);
    armci_msg_gop_scope(SCOPE_MASTERS, z, n, op(c.op), type);
    for (int i = 0; i < n; ++i) {
      EXPECT_EQ(x[i], c.expect(p, i)) << "type " << type << " op " << c.op << " element " << i;
      EXPECT_EQ(y[i], c.expect(p, i)) << "type " << type << " op " << c.op << " (gop_scope)";
      EXPECT_EQ(z[i], c.expect(p, i)) << "type " << type << " op " << c.op << " (SCOPE_MASTERS)";
    }
    // SCOPE_NODE: the caller alone (absmax/absmin still take |x|).
    for (int i = 0; i < n; ++i) x[i] = contribution<T>(me(), i);
    armci_msg_gop_scope(SCOPE_NODE, x, n, op(c.op), type);
    const bool abs = std::strncmp(c.op, "abs", 3) == 0;
    for (int i = 0; i < n; ++i) {
      const T v = contribution<T>(me(), i);
      EXPECT_EQ(x[i], abs ? (v < 0 ? -v : v) : v) << "SCOPE_NODE " << c.op;
    }
  }
}

TEST(Gop, ArithmeticOpsEveryType) {
  check_arithmetic_ops<int>(ARMCI_INT, armci_msg_igop);
  check_arithmetic_ops<long>(ARMCI_LONG, armci_msg_lgop);
  check_arithmetic_ops<long long>(ARMCI_LONG_LONG, armci_msg_llgop);
  check_arithmetic_ops<float>(ARMCI_FLOAT, armci_msg_fgop);
  check_arithmetic_ops<double>(ARMCI_DOUBLE, armci_msg_dgop);
}

TEST(Gop, BitwiseAndLogical) {
  const int bit = 1 << me();
  int all = 0;
  for (int r = 0; r < nproc(); ++r) all |= 1 << r;
  const struct {
    const char* op;
    int expect;
  } cases[] = {{"or", all}, {"|", all}, {"and", nproc() == 1 ? bit : 0}, {"&", nproc() == 1 ? bit : 0},
               {"xor", all}, {"^", all}, {"||", 1}, {"&&", 1}};
  for (const auto& c : cases) {
    int x = bit;
    armci_msg_igop(&x, 1, op(c.op));
    EXPECT_EQ(x, c.expect) << c.op;
    long lx = bit;
    armci_msg_lgop(&lx, 1, op(c.op));
    EXPECT_EQ(lx, c.expect) << c.op;
    long long llx = bit;
    armci_msg_llgop(&llx, 1, op(c.op));
    EXPECT_EQ(llx, c.expect) << c.op;
  }
  int z = me() == 0 ? 0 : 5;
  armci_msg_igop(&z, 1, op("&&"));
  EXPECT_EQ(z, 0);
  z = me() == 0 ? 3 : 0;
  armci_msg_igop(&z, 1, op("||"));
  EXPECT_EQ(z, 1);
  // Fortran callers pad op strings with blanks.
  int w = 1;
  armci_msg_igop(&w, 1, op("+    "));
  EXPECT_EQ(w, nproc());
}

// GA's Fortran wrappers pass the operator as a Fortran string: no NUL, other literals after it.
// Each operator sits at the very end of a readable page, followed by a page that faults when
// touched (so reading one byte past the operator would crash), and the same operator followed
// by unrelated text matches it too.
TEST(Gop, FortranOperatorStringsMatchByPrefixAndReadNothingAfterThem) {
  const long page = sysconf(_SC_PAGESIZE);
  auto* pages = static_cast<char*>(mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  ASSERT_NE(pages, MAP_FAILED);
  ASSERT_EQ(mprotect(pages + page, page, PROT_NONE), 0);
  const int n = nproc(), sum = n * (n + 1) / 2, big = n * 10;  // contributions me+1, -(me+1)*10
  const struct {
    const char* op;
    int mine;
    int expect;
  } cases[] = {{"+", me() + 1, sum},           {"*", 2, 1 << n},
               {"max", me() + 1, n},           {"min", me() + 1, 1},
               {"absmax", -(me() + 1) * 10, big}, {"absmin", -(me() + 1) * 10, 10},
               {"or", 1 << me(), (1 << n) - 1}};
  for (const auto& c : cases) {
    const std::size_t len = std::strlen(c.op);
    char* at_page_end = pages + page - len;
    std::memcpy(at_page_end, c.op, len);  // no NUL: the next byte is in the PROT_NONE page
    int x = c.mine;
    armci_msg_igop(&x, 1, at_page_end);
    EXPECT_EQ(x, c.expect) << c.op << " at the end of a page";
    std::string followed = std::string(c.op) + "Binning: failed to allocate";
    long lx = c.mine;
    armci_msg_lgop(&lx, 1, followed.data());
    EXPECT_EQ(lx, c.expect) << followed;
  }
  double d = -(me() + 1) * 0.5;
  std::string absmax = "absmaxGA_Dgop";
  armci_msg_dgop(&d, 1, absmax.data());
  EXPECT_EQ(d, n * 0.5);
  munmap(pages, 2 * page);
}

TEST(Gop, GroupClusAndReduce) {
  ARMCI_Group world;
  ARMCI_Group_get_world(&world);
  int i = 1;
  long l = 2;
  long long ll = 3;
  float f = 0.5f;
  double d = -1.5;
  armci_msg_group_igop(&i, 1, op("+"), &world);
  armci_msg_group_lgop(&l, 1, op("+"), &world);
  armci_msg_group_llgop(&ll, 1, op("+"), &world);
  armci_msg_group_fgop(&f, 1, op("+"), &world);
  armci_msg_group_dgop(&d, 1, op("absmax"), &world);
  EXPECT_EQ(i, nproc());
  EXPECT_EQ(l, 2L * nproc());
  EXPECT_EQ(ll, 3LL * nproc());
  EXPECT_EQ(f, 0.5f * static_cast<float>(nproc()));
  EXPECT_EQ(d, 1.5);
  double g = me();
  armci_msg_group_gop_scope(SCOPE_ALL, &g, 1, op("max"), ARMCI_DOUBLE, &world);
  EXPECT_EQ(g, nproc() - 1);
  // clus_*: within the caller's SMP domain (itself).
  int ci = -4;
  long cl = -5;
  long long cll = 6;
  float cf = -7;
  double cd = 8;
  armci_msg_clus_igop(&ci, 1, op("absmax"));
  armci_msg_clus_lgop(&cl, 1, op("+"));
  armci_msg_clus_llgop(&cll, 1, op("*"));
  armci_msg_clus_fgop(&cf, 1, op("absmin"));
  armci_msg_clus_dgop(&cd, 1, op("min"));
  EXPECT_EQ(ci, 4);
  EXPECT_EQ(cl, -5);
  EXPECT_EQ(cll, 6);
  EXPECT_EQ(cf, 7);
  EXPECT_EQ(cd, 8);
  // reduce: the result lands on rank 0 only.
  int r = me() + 1;
  armci_msg_reduce(&r, 1, op("+"), ARMCI_INT);
  EXPECT_EQ(r, me() == 0 ? nproc() * (nproc() + 1) / 2 : me() + 1);
  double rs = me();
  armci_msg_reduce_scope(SCOPE_ALL, &rs, 1, op("max"), ARMCI_DOUBLE);
  EXPECT_EQ(rs, me() == 0 ? nproc() - 1 : me());
}

// sel: the record of the contributing process with the least/greatest value, ties to the
// lowest rank; non-contributors take no part in the choice.
TEST(Sel, MinAndMaxWithPayload) {
  struct Record {
    double value;
    long index[2];
  };
  Record rec{static_cast<double>((me() * 7) % 5) - 2, {me(), 100L + me()}};
  Record lo = rec, hi = rec;
  armci_msg_sel(&lo, sizeof lo, op("min"), ARMCI_DOUBLE, 1);
  armci_msg_sel_scope(SCOPE_ALL, &hi, sizeof hi, op("max"), ARMCI_DOUBLE, 1);
  int min_rank = 0, max_rank = 0;
  for (int p = 1; p < nproc(); ++p) {
    if ((p * 7) % 5 < (min_rank * 7) % 5) min_rank = p;
    if ((p * 7) % 5 > (max_rank * 7) % 5) max_rank = p;
  }
  EXPECT_EQ(lo.index[0], min_rank);
  EXPECT_EQ(lo.index[1], 100L + min_rank);
  EXPECT_EQ(hi.index[0], max_rank);
  // Only the last rank contributes an int.
  int v[2] = {me() == nproc() - 1 ? -50 : 1000, me()};
  armci_msg_sel(v, sizeof v, op("min"), ARMCI_INT, me() == nproc() - 1);
  EXPECT_EQ(v[0], -50);
  EXPECT_EQ(v[1], nproc() - 1);
  // SCOPE_NODE: the caller's own record.
  long lv[1] = {me()};
  armci_msg_sel_scope(SCOPE_NODE, lv, sizeof lv, op("max"), ARMCI_LONG, 1);
  EXPECT_EQ(lv[0], me());
}

TEST(Exchange, Addresses) {
  std::vector<void*> ptrs(static_cast<std::size_t>(nproc()), nullptr);
  ptrs[static_cast<std::size_t>(me())] = reinterpret_cast<void*>(0x1000 * (me() + 1));
  armci_exchange_address(ptrs.data(), nproc());
  for (int p = 0; p < nproc(); ++p) EXPECT_EQ(ptrs[static_cast<std::size_t>(p)], reinterpret_cast<void*>(0x1000 * (p + 1)));
  ARMCI_Group world;
  ARMCI_Group_get_world(&world);
  std::vector<void*> more(static_cast<std::size_t>(nproc()), nullptr);
  more[static_cast<std::size_t>(me())] = &more;
  armci_exchange_address_grp(more.data(), nproc(), &world);
  EXPECT_EQ(more[static_cast<std::size_t>(me())], static_cast<void*>(&more));
  for (void* p : more) EXPECT_NE(p, nullptr);
}

}  // namespace
}  // namespace armada::armci::test
