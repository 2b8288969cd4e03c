/* TCGMSG's C API (tcgmsg.h) on Armada: messages, collectives, the shared counter, timers and
 * sizes, on the same world as GA. The first argument chooses how the program starts and ends:
 *   tcg-first  tcg_pbegin, GA_Initialize ... GA_Terminate, tcg_pend (NWChem's order)
 *   ga-first   GA_Initialize, tcg_pbegin ... GA_Terminate, tcg_pend
 *   pend-first tcg_pbegin, GA_Initialize ... tcg_pend (which ends GA too)
 *   mpi-first  MPI_Init, tcg_pbegin ... tcg_pend (no GA)
 *   debug      as mpi-first without MPI_Init, with setdbg's trace on for one exchange
 * or names a bad call, whose error ends the job (tests/tcgmsg/CMakeLists.txt). tcg_pend ends the
 * process with status 0, as GA's does: the verdict is printed before it, and a failed check
 * aborts the job instead. */
#include <ga.h>
#include <mpi.h>
#include <msgtypesc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tcgmsg.h>
#include <time.h>

static int failures = 0;
#define CHECK(cond)                                                                                       \
  do {                                                                                                    \
    if (!(cond)) {                                                                                        \
      if (failures < 20) fprintf(stderr, "[node %ld] %s:%d: check failed: %s\n", tcg_nodeid(), __FILE__, __LINE__, #cond); \
      ++failures;                                                                                         \
    }                                                                                                     \
  } while (0)

static long me, n;
static int debug = 0; /* setdbg's trace on for one exchange */

static void pause_ms(long ms) {
  struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&t, NULL);
}

/* A ring of typed messages, each of its own length; sent with sync = 0 so that one rank (which
 * sends to itself) does not wait for its own receive. */
static void check_ring(void) {
  long out[64], in[64], lenmes = -2, from = -2;
  const long right = (me + 1) % n, left = (me + n - 1) % n;
  for (long i = 0; i < me + 1; ++i) out[i] = 100 * me + i;
  tcg_snd(7 | MSGINT, out, (me + 1) * (long)sizeof(long), right, 0);
  memset(in, 0xff, sizeof in);
  tcg_rcv(7 | MSGINT, in, sizeof in, &lenmes, left, &from, 1);
  tcg_waitcom(-1);
  CHECK(lenmes == (left + 1) * (long)sizeof(long));
  CHECK(from == left);
  for (long i = 0; i < left + 1; ++i) CHECK(in[i] == 100 * left + i);
  CHECK(in[left + 1] == -1); /* nothing past the message's length */
}

/* Node 0 receives one message from every other node with nodeselect = -1; messages of two
 * types arrive, and each rcv takes only its own type. */
static void check_any_source_and_types(void) {
  if (n < 2) return;
  if (me != 0) {
    double d = 0.5 + (double)me;
    tcg_snd(31 | MSGDBL, &d, sizeof d, 0, 0); /* the later type first */
    tcg_snd(30 | MSGINT, &me, sizeof me, 0, 1);
    tcg_waitcom(0);
  } else {
    long seen[64] = {0};
    for (long k = 1; k < n; ++k) {
      long v = -1, lenmes = 0, from = -5;
      tcg_rcv(30 | MSGINT, &v, sizeof v, &lenmes, -1, &from, 1);
      CHECK(lenmes == (long)sizeof v);
      CHECK(from == v && v >= 1 && v < n);
      if (v >= 1 && v < n) ++seen[v];
    }
    for (long k = 1; k < n; ++k) {
      double d = 0;
      long lenmes = 0, from = -5;
      tcg_rcv(31 | MSGDBL, &d, sizeof d, &lenmes, k, &from, 1);
      CHECK(from == k && d == 0.5 + (double)k && lenmes == (long)sizeof d);
      CHECK(seen[k] == 1);
    }
  }
  tcg_synch(1);
}

/* probe: false for a type nobody sent, true once the message has arrived; an asynchronous rcv
 * learns its length only at waitcom (lenmes = -1, as GA's). */
static void check_probe_and_async(void) {
  long v = 0, lenmes = 0, from = 0;
  CHECK(tcg_probe(41, -1) == 0);
  tcg_synch(2);
  if (n >= 2 && me == 1) tcg_snd(40, &me, sizeof me, 0, 1);
  if (n >= 2 && me == 0) {
    int tries = 0;
    while (!tcg_probe(40, 1) && tries++ < 5000) pause_ms(1);
    CHECK(tcg_probe(40, 1) == 1);
    CHECK(tcg_probe(40, -1) == 1);
    CHECK(tcg_probe(41, 1) == 0);
    tcg_rcv(40, &v, sizeof v, &lenmes, 1, &from, 1);
    CHECK(v == 1 && from == 1);
    CHECK(tcg_probe(40, -1) == 0);
  }
  v = -1;
  if (debug) tcg_setdbg(1); /* the "debug" row expects the trace of these two */
  tcg_rcv(42, &v, sizeof v, &lenmes, me, &from, 0);
  CHECK(lenmes == -1 && from == me);
  tcg_snd(42, &me, sizeof me, me, 0);
  tcg_setdbg(0);
  tcg_waitcom(-1);
  CHECK(v == me);
  tcg_synch(3);
}

static void check_brdcst(void) {
  double buf[100];
  for (int i = 0; i < 100; ++i) buf[i] = me == n - 1 ? 3.0 * i : -1.0;
  tcg_brdcst(50 | MSGDBL, buf, sizeof buf, n - 1);
  for (int i = 0; i < 100; ++i) CHECK(buf[i] == 3.0 * i);
}

static double product(double first_factor_offset) {
  double p = 1;
  for (long k = 1; k <= n; ++k) p *= -((double)k + first_factor_offset);
  return p;
}

static void check_dgop(void) {
  const char* ops[] = {"+", "*", "max", "min", "absmax", "absmin"};
  const double sum = n * (n + 1) / 2.0;
  double fact = 1;
  for (long k = 1; k <= n; ++k) fact *= (double)k;
  /* x = {me+1, -(me+1.5)}: the expected value of each op from n alone */
  const double want[6][2] = {{sum, -(sum + 0.5 * n)}, {fact, product(0.5)}, {(double)n, -1.5},
                             {1, -(n + 0.5)},         {(double)n, n + 0.5},  {1, 1.5}};
  for (int o = 0; o < 6; ++o) {
    double x[2] = {me + 1.0, -(me + 1.5)};
    tcg_dgop(60 | MSGDBL, x, 2, (char*)ops[o]);
    CHECK(x[0] == want[o][0]);
    CHECK(x[1] == want[o][1]);
    if (x[0] != want[o][0] || x[1] != want[o][1])
      fprintf(stderr, "dgop %s: %g %g, want %g %g\n", ops[o], x[0], x[1], want[o][0], want[o][1]);
  }
}

static void igop_case(const char* op, int column, long want0, long want1) {
  long x[4] = {me + 1, -(me + 2), 1L << me, ~(1L << me)};
  tcg_igop(61 | MSGINT, x, 4, (char*)op);
  CHECK(x[column] == want0);
  CHECK(x[column + 1] == want1);
  if (x[column] != want0 || x[column + 1] != want1)
    fprintf(stderr, "igop %s: %ld %ld, want %ld %ld\n", op, x[column], x[column + 1], want0, want1);
}

/* x = {me+1, -(me+2), 1 << me, ~(1 << me)}: arithmetic ops checked on the first two, bitwise and
 * logical ones on the last two, each against its value from n alone. */
static void check_igop(void) {
  long fact = 1, neg = 1;
  for (long k = 1; k <= n; ++k) {
    fact *= k;
    neg *= -(k + 1);
  }
  const long all = (1L << n) - 1;
  igop_case("+", 0, n * (n + 1) / 2, -(n * (n + 1) / 2 + n));
  igop_case("*", 0, fact, neg);
  igop_case("max", 0, n, -2);
  igop_case("min", 0, 1, -(n + 1));
  igop_case("absmax", 0, n, n + 1);
  igop_case("absmin", 0, 1, 2);
  const char* ors[] = {"or", "|", "bor"};
  const char* ands[] = {"and", "&", "band"};
  for (int i = 0; i < 3; ++i) {
    igop_case(ors[i], 2, all, n == 1 ? ~1L : ~0L);
    igop_case(ands[i], 2, n == 1 ? 1 : 0, ~all);
  }
  igop_case("||", 2, 1, 1);
  igop_case("lor", 2, 1, 1);
  igop_case("&&", 2, 1, 1);
  igop_case("land", 2, 1, 1);
  long zero = me == 0 ? 0 : 5;
  tcg_igop(62, &zero, 1, "&&");
  CHECK(zero == 0);
}

/* nxtval: every value 0 .. total-1 handed out exactly once across the nodes; the counter runs
 * on past them; the collective reset starts it at 0 again; synch waits for every node. */
static void check_nxtval(void) {
  enum { total = 200 };
  long marks[total] = {0};
  for (;;) {
    const long v = tcg_nxtval(n);
    if (v >= total) break;
    CHECK(v >= 0);
    if (v >= 0) ++marks[v];
  }
  tcg_igop(70 | MSGINT, marks, total, "+");
  for (int i = 0; i < total; ++i) CHECK(marks[i] == 1);
  tcg_synch(4);
  if (me == 0) CHECK(tcg_nxtval(n) == total + n); /* each node's last call went past total */
  tcg_synch(5);
  CHECK(tcg_nxtval(-n) == 0);
  long mine = tcg_nxtval(n);
  tcg_synch(6);
  if (me == 0) CHECK(tcg_nxtval(n) == n); /* every node took one value before the synch */
  long sum = mine, max = mine;
  tcg_igop(71, &sum, 1, "+");
  tcg_igop(72, &max, 1, "max");
  CHECK(sum == n * (n - 1) / 2);
  CHECK(max == n - 1);
  CHECK(tcg_nxtval(0) == 0);
  tcg_synch(7);
}

static void check_times_and_sizes(void) {
  const double t0 = tcg_time(), t1 = tcg_time();
  const long m0 = tcg_mtime();
  CHECK(t0 >= 0 && t1 > t0);
  pause_ms(40);
  const double t2 = tcg_time();
  const long m1 = tcg_mtime();
  CHECK(t2 - t1 >= 0.035 && t2 - t1 < 5);
  CHECK(m1 - m0 >= 3 && m1 - m0 < 500);
  CHECK(tcg_mdtob(3) == 3 * (long)sizeof(double));
  CHECK(tcg_mitob(3) == 3 * (long)sizeof(long));
  CHECK(tcg_mdtoi(3) == (3 * (long)sizeof(double) + (long)sizeof(long) - 1) / (long)sizeof(long));
  CHECK(tcg_mitod(5) == (5 * (long)sizeof(long) + 7) / 8);
  CHECK(tcg_mdtob(0) == 0);
  tcg_srand48(7);
  const double r = tcg_drand48();
  CHECK(r >= 0 && r < 1);
  tcg_srand48(7);
  CHECK(tcg_drand48() == r);
}

static void check_world(int with_ga) {
  me = tcg_nodeid();
  n = tcg_nnodes();
  CHECK(tcg_ready() == 1);
  CHECK(n >= 1 && me >= 0 && me < n);
  if (with_ga) {
    CHECK(GA_Nnodes() == n);
    CHECK(GA_Nodeid() == me);
  }
}

static void run_checks(int with_ga) {
  check_world(with_ga);
  check_ring();
  check_any_source_and_types();
  check_probe_and_async();
  check_brdcst();
  check_dgop();
  check_igop();
  check_nxtval();
  check_times_and_sizes();
  long total = failures;
  tcg_igop(80, &total, 1, "+");
  if (total) {
    if (me == 0) fprintf(stderr, "tcgmsg_c: %ld failed checks\n", total);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

static void verdict(const char* how) {
  if (me == 0) printf("tcgmsg_c (%s): %ld nodes, passed\n", how, n);
  fflush(stdout);
}

/* A bad call: its error ends the job. */
static void bad_call(const char* which) {
  long buf[4] = {1, 2, 3, 4}, lenmes, from;
  double d = 1;
  me = tcg_nodeid();
  n = tcg_nnodes();
  if (!strcmp(which, "node")) tcg_snd(1, buf, sizeof buf, n, 1);
  if (!strcmp(which, "nodeselect")) tcg_rcv(1, buf, sizeof buf, &lenmes, -2, &from, 1);
  if (!strcmp(which, "type")) tcg_snd(-3, buf, sizeof buf, 0, 1);
  if (!strcmp(which, "lenbuf")) tcg_brdcst(1, buf, -8, 0);
  if (!strcmp(which, "small")) { /* each node sends itself 32 bytes and offers 16 */
    tcg_snd(5, buf, sizeof buf, me, 0);
    tcg_rcv(5, buf, 2 * sizeof(long), &lenmes, me, &from, 1);
  }
  if (!strcmp(which, "small_async")) { /* the same with sync = 0, the message there already */
    tcg_snd(5, buf, sizeof buf, me, 0);
    tcg_rcv(5, buf, 2 * sizeof(long), &lenmes, me, &from, 0);
    tcg_waitcom(-1);
  }
  if (!strcmp(which, "dop")) tcg_dgop(1, &d, 1, "or");
  if (!strcmp(which, "iop")) tcg_igop(1, buf, 1, "avg");
  if (!strcmp(which, "parerr")) tcg_parerr(42);
  if (!strcmp(which, "mitob")) tcg_mitob(-1);
  fprintf(stderr, "tcgmsg_c: the bad call '%s' returned\n", which);
}

int main(int argc, char** argv) {
  const char* how = argc > 1 ? argv[1] : "tcg-first";
  if (!strcmp(how, "not-started")) { /* before pbegin: refused by name */
    CHECK(tcg_ready() == 0);
    long v = 1;
    tcg_snd(1, &v, sizeof v, 0, 1);
    return 1;
  }
  if (!strcmp(how, "ga-first")) {
    GA_Initialize();
    tcg_pbegin(argc, argv);
  } else if (!strcmp(how, "mpi-first")) {
    MPI_Init(&argc, &argv);
    tcg_pbegin(argc, argv);
  } else {
    tcg_pbegin(argc, argv);
    if (!strcmp(how, "tcg-first") || !strcmp(how, "pend-first")) GA_Initialize();
    debug = !strcmp(how, "debug");
  }
  if (argc > 2 && !strcmp(how, "bad")) {
    bad_call(argv[2]);
    return 1;
  }
  run_checks(GA_Initialized());
  verdict(how);
  if (!strcmp(how, "tcg-first") || !strcmp(how, "ga-first")) GA_Terminate();
  tcg_pend();
  fprintf(stderr, "tcgmsg_c: tcg_pend returned\n");
  return 1;
}
