// TCGMSG over MPI on the rma runtime's world: messages and collectives on a duplicate of the
// world communicator of its own (its tags never meet rma's or GA's traffic), nxtval on an rma
// atomic counter held by rank 0.
#include "tcgmsg.hpp"

#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <vector>

#include "armada/rma/atomic.hpp"
#include "armada/rma/collectives.hpp"
#include "armada/rma/error.hpp"
#include "armada/rma/memory.hpp"
#include "armada/rma/runtime.hpp"
#include "ga.h"

namespace armada::tcgmsg {
namespace {

struct Pending {
  MPI_Request request;
  bool send;
  long type;
  long node;
  long lenbuf;
};

struct State {
  bool began = false;
  MPI_Comm comm = MPI_COMM_NULL;
  void* counter_base = nullptr;  // rank 0's long; null elsewhere
  rma::GlobalPtr<long> counter;
  std::vector<Pending> pending;  // snd/rcv with sync = 0, until waitcom
  long debug = 0;
  long max_type = 32767;  // MPI_TAG_UB: MPI guarantees at least 32767
};
State g;

void require(const char* call) {
  if (!g.began) fail(call, "TCGMSG is not started: call pbeginf (Fortran) or tcg_pbegin (C) first");
}

void mpi_check(const char* call, int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(rc, text, &length);
  fail(call, std::string(what) + " failed: " + std::string(text, length));
}

long size() {
  int n = 0;
  MPI_Comm_size(g.comm, &n);
  return n;
}
long rank() {
  int r = 0;
  MPI_Comm_rank(g.comm, &r);
  return r;
}

void check_node(const char* call, const char* argument, long node, bool any) {
  if (node >= 0 && node < size()) return;
  if (any && node == -1) return;
  bad(call, argument, std::to_string(node),
      std::string("must be ") + (any ? "-1 (any node) or " : "") + "a node, 0 .. " + std::to_string(size() - 1));
}
void check_type(const char* call, long type) {
  if (type < 0 || type > g.max_type)
    bad(call, "type", std::to_string(type), "must be in 0 .. " + std::to_string(g.max_type) + " (MPI's largest tag)");
}
/// A byte count MPI takes in one call.
int check_length(const char* call, const char* argument, long bytes, const void* buf) {
  if (bytes < 0) bad(call, argument, std::to_string(bytes), "must be >= 0");
  if (bytes > INT_MAX)
    bad(call, argument, std::to_string(bytes), "exceeds " + std::to_string(INT_MAX) + " bytes, the most one message holds");
  if (bytes > 0 && !buf) bad(call, "buf", "NULL", "a buffer is required for " + std::to_string(bytes) + " bytes");
  return static_cast<int>(bytes);
}

void trace(const char* call, const char* what, long node, long len, long type, long sync) {
  if (!g.debug) return;
  std::printf("%s: node %ld %s %ld, len=%ld, type=%ld, sync=%ld\n", call, rank(), what, node, len, type, sync);
  std::fflush(stdout);
}

/// A gop operator (rma::reduce_op_named: the names ARMCI and GA take): "abs" ones take absolute
/// values first, as GA's; logical ones give 0 or 1.
struct Op {
  MPI_Op op;
  bool abs;
  bool logical;
};
Op gop_op(const char* call, std::string_view op, bool integer) {
  const rma::ReduceOp* r = rma::reduce_op_named(std::string(op).c_str());
  if (!r || (rma::integer_only(*r) && !integer))
    bad(call, "op", "\"" + std::string(op) + "\"",
        integer ? "not one of +, *, max, min, absmax, absmin, or, and, xor, |, &, ^, ||, &&, bor, band, lor, land"
                : "not one of +, *, max, min, absmax, absmin");
  switch (*r) {
    case rma::ReduceOp::Sum: return {MPI_SUM, false, false};
    case rma::ReduceOp::Prod: return {MPI_PROD, false, false};
    case rma::ReduceOp::Min: return {MPI_MIN, false, false};
    case rma::ReduceOp::Max: return {MPI_MAX, false, false};
    case rma::ReduceOp::AbsMax: return {MPI_MAX, true, false};
    case rma::ReduceOp::AbsMin: return {MPI_MIN, true, false};
    case rma::ReduceOp::BitOr: return {MPI_BOR, false, false};
    case rma::ReduceOp::BitAnd: return {MPI_BAND, false, false};
    case rma::ReduceOp::BitXor: return {MPI_BXOR, false, false};
    case rma::ReduceOp::LogicalOr: return {MPI_LOR, false, true};
    case rma::ReduceOp::LogicalAnd: return {MPI_LAND, false, true};
  }
  bad(call, "op", "\"" + std::string(op) + "\"", "not a reduction");
}

template <class T>
void gop(const char* call, T* x, long n, std::string_view op_name, MPI_Datatype type, bool integer) {
  require(call);
  const Op op = gop_op(call, op_name, integer);
  if (n < 0) bad(call, "n", std::to_string(n), "must be >= 0");
  if (n > 0 && !x) bad(call, "x", "NULL", "an array is required for " + std::to_string(n) + " elements");
  if (op.abs)
    for (long i = 0; i < n; ++i) x[i] = x[i] < 0 ? -x[i] : x[i];
  for (long done = 0; done < n;) {  // MPI counts are int
    const int count = static_cast<int>(std::min<long>(n - done, INT_MAX));
    mpi_check(call, MPI_Allreduce(MPI_IN_PLACE, x + done, count, type, op.op, g.comm), "MPI_Allreduce");
    done += count;
  }
  // MPI reduces nothing on one process: there "||" of 5 would stay 5.
  if (op.logical)
    for (long i = 0; i < n; ++i) x[i] = x[i] != 0 ? 1 : 0;
}

}  // namespace

void fail(const char* call, const std::string& text, long code) {
  std::fflush(stdout);
  std::fprintf(stderr, "TCGMSG: %s\n", rma::error_message(call, text).c_str());
  std::fflush(stderr);
  const int status = code >= 1 && code <= 255 ? static_cast<int>(code) : 1;
  int up = 0, down = 0;
  MPI_Initialized(&up);
  MPI_Finalized(&down);
  if (up && !down) MPI_Abort(MPI_COMM_WORLD, status);
  std::_Exit(status);
}

void bad(const char* call, const char* argument, const std::string& value, const std::string& reason) {
  fail(call, "argument '" + std::string(argument) + "' = " + value + ": " + reason);
}

bool ready() noexcept { return g.began; }

void begin(const char* call, int* argc, char*** argv) {
  if (g.began) fail(call, "TCGMSG is started already (pbegin called twice)");
  if (!rma::initialized()) rma::init_or_exit(call, argc, argv);
  mpi_check(call, MPI_Comm_dup(rma::world_comm(), &g.comm), "MPI_Comm_dup");
  // Errors come back to the call, which names itself (a too-long message, a bad count).
  MPI_Comm_set_errhandler(g.comm, MPI_ERRORS_RETURN);
  int* ub = nullptr;
  int flag = 0;
  MPI_Comm_get_attr(g.comm, MPI_TAG_UB, &ub, &flag);
  if (flag) g.max_type = *ub;
  const auto bases = rma::allocate(rma::rank() == 0 ? sizeof(long) : 0);
  g.counter_base = bases[static_cast<std::size_t>(rma::rank())];
  g.counter = rma::GlobalPtr<long>(0, static_cast<long*>(bases[0]));
  if (rma::rank() == 0) rma::swap(g.counter, 0L);
  g.began = true;
  mpi_check(call, MPI_Barrier(g.comm), "MPI_Barrier");
}

void end(const char* call) {
  require(call);
  // As GA's pend: the process ends here. GA's arrays go first (GA_Terminate would find no
  // runtime after this), then the counter, the runtime and MPI, whoever started them.
  if (GA_Initialized()) GA_Terminate();
  if (rma::initialized()) {
    rma::free(g.counter_base);
    MPI_Comm_free(&g.comm);
    rma::finalize();
  }
  int up = 0, down = 0;
  MPI_Initialized(&up);
  MPI_Finalized(&down);
  if (up && !down) MPI_Finalize();
  g = State{};
  std::exit(0);
}

long nnodes(const char* call) {
  if (!g.began && rma::initialized()) return rma::size();
  require(call);
  return size();
}
long nodeid(const char* call) {
  if (!g.began && rma::initialized()) return rma::rank();
  require(call);
  return rank();
}

void snd(const char* call, long type, const void* buf, long lenbuf, long node, long sync) {
  require(call);
  check_type(call, type);
  const int count = check_length(call, "lenbuf", lenbuf, buf);
  check_node(call, "node", node, false);
  trace(call, "sending to", node, lenbuf, type, sync);
  if (sync) {
    mpi_check(call, MPI_Send(buf, count, MPI_BYTE, static_cast<int>(node), static_cast<int>(type), g.comm), "MPI_Send");
    return;
  }
  Pending p{MPI_REQUEST_NULL, true, type, node, lenbuf};
  mpi_check(call, MPI_Isend(buf, count, MPI_BYTE, static_cast<int>(node), static_cast<int>(type), g.comm, &p.request),
            "MPI_Isend");
  g.pending.push_back(p);
}

void rcv(const char* call, long type, void* buf, long lenbuf, long* lenmes, long nodeselect, long* nodefrom,
         long sync) {
  require(call);
  check_type(call, type);
  const int count = check_length(call, "lenbuf", lenbuf, buf);
  check_node(call, "nodeselect", nodeselect, true);
  if (!lenmes) bad(call, "lenmes", "NULL", "a place for the message's length is required");
  if (!nodefrom) bad(call, "nodefrom", "NULL", "a place for the sender is required");
  trace(call, "receiving from", nodeselect, lenbuf, type, sync);
  const int source = nodeselect == -1 ? MPI_ANY_SOURCE : static_cast<int>(nodeselect);
  // The message is matched first where it can be, so that one longer than the buffer is refused
  // before a byte of it lands: always with sync = 1; with sync = 0 when it has arrived already
  // (MPI has no check of a receive posted before its message; Open MPI's MPI_Wait does not even
  // report the truncation, docs/tcgmsg.md).
  MPI_Message message = MPI_MESSAGE_NULL;
  MPI_Status status;
  int matched = 0;
  if (sync)
    mpi_check(call, MPI_Mprobe(source, static_cast<int>(type), g.comm, &message, &status), "MPI_Mprobe");
  else
    mpi_check(call, MPI_Improbe(source, static_cast<int>(type), g.comm, &matched, &message, &status), "MPI_Improbe");
  int length = count;
  if (sync || matched) {
    MPI_Get_count(&status, MPI_BYTE, &length);
    if (length > count)
      bad(call, "lenbuf", std::to_string(lenbuf),
          "smaller than the message of type " + std::to_string(type) + " from node " +
              std::to_string(status.MPI_SOURCE) + " (" + std::to_string(length) + " bytes)");
  }
  if (sync) {
    mpi_check(call, MPI_Mrecv(buf, length, MPI_BYTE, &message, &status), "MPI_Mrecv");
    *lenmes = length;
    *nodefrom = status.MPI_SOURCE;
    return;
  }
  // As GA's: the length and the sender are not known until waitcom.
  Pending p{MPI_REQUEST_NULL, false, type, nodeselect, lenbuf};
  if (matched)
    mpi_check(call, MPI_Imrecv(buf, length, MPI_BYTE, &message, &p.request), "MPI_Imrecv");
  else
    mpi_check(call, MPI_Irecv(buf, count, MPI_BYTE, source, static_cast<int>(type), g.comm, &p.request), "MPI_Irecv");
  g.pending.push_back(p);
  *lenmes = -1;
  *nodefrom = nodeselect;
}

long probe(const char* call, long type, long node) {
  require(call);
  check_type(call, type);
  check_node(call, "node", node, true);
  int flag = 0;
  MPI_Status status;
  const int source = node == -1 ? MPI_ANY_SOURCE : static_cast<int>(node);
  mpi_check(call, MPI_Iprobe(source, static_cast<int>(type), g.comm, &flag, &status), "MPI_Iprobe");
  return flag ? 1 : 0;
}

void waitcom(const char* call, long node) {
  require(call);
  check_node(call, "node", node, true);
  // Every queued operation completes, whatever `node` says (as GA's).
  std::vector<Pending> pending;
  pending.swap(g.pending);
  for (Pending& p : pending) {
    MPI_Status status;
    const int rc = MPI_Wait(&p.request, &status);
    if (rc == MPI_SUCCESS) continue;
    int cls = 0;
    MPI_Error_class(rc, &cls);
    if (!p.send && cls == MPI_ERR_TRUNCATE)
      fail(call, "the message of type " + std::to_string(p.type) + " for rcv(nodeselect = " + std::to_string(p.node) +
                     ", sync = 0) was longer than its lenbuf = " + std::to_string(p.lenbuf));
    mpi_check(call, rc, p.send ? "MPI_Wait (snd)" : "MPI_Wait (rcv)");
  }
}

void brdcst(const char* call, long type, void* buf, long lenbuf, long originator) {
  require(call);
  check_type(call, type);
  const int count = check_length(call, "lenbuf", lenbuf, buf);
  check_node(call, "originator", originator, false);
  mpi_check(call, MPI_Bcast(buf, count, MPI_BYTE, static_cast<int>(originator), g.comm), "MPI_Bcast");
}

void dgop(const char* call, double* x, long n, std::string_view op) { gop(call, x, n, op, MPI_DOUBLE, false); }
void igop(const char* call, int* x, long n, std::string_view op) { gop(call, x, n, op, MPI_INT, true); }
void igop(const char* call, long* x, long n, std::string_view op) { gop(call, x, n, op, MPI_LONG, true); }

void synch(const char* call) {
  require(call);
  mpi_check(call, MPI_Barrier(g.comm), "MPI_Barrier");
}

long nxtval(const char* call, long mproc) {
  require(call);
  if (g.debug) {
    std::printf("%s: node %ld mproc=%ld\n", call, rank(), mproc);
    std::fflush(stdout);
  }
  if (mproc > 0) return rma::fetch_add(g.counter, 1L);
  if (mproc < 0) {  // collective: every process has stopped counting before the reset
    synch(call);
    if (rank() == 0) rma::swap(g.counter, 0L);
    synch(call);
  }
  return 0;  // mproc = 0: GA's "about to terminate" note to its counter server; nothing to do
}

long convert(const char* call, long n, long from, long to) {
  if (n < 0) bad(call, "n", std::to_string(n), "must be >= 0");
  if (n > LONG_MAX / from) bad(call, "n", std::to_string(n), "its size in bytes overflows a 64-bit integer");
  return (n * from + to - 1) / to;
}

double seconds() {
  // Seconds since the first call, never the same twice (GA's tcgtime).
  using clock = std::chrono::steady_clock;
  static const clock::time_point first = clock::now();
  static double last = -1.0;
  double t = std::chrono::duration<double>(clock::now() - first).count();
  if (t <= last) t = last + 1e-9;
  last = t;
  return t;
}
long centiseconds() { return static_cast<long>(seconds() * 100.0); }

double random_number() { return static_cast<double>(random()) / 2147483648.0; }  // [0, 1), as GA's
void seed_random(long seed) { srandom(static_cast<unsigned>(seed)); }
void setdbg(long value) { g.debug = value; }

void llog(const char* call) {
  const long me = g.began ? rank() : (rma::initialized() ? rma::rank() : 0);
  char name[32];
  std::snprintf(name, sizeof name, "log.%03ld", me);
  std::fflush(stdout);
  std::fflush(stderr);
  if (!std::freopen(name, "a", stdout)) fail(call, std::string("cannot open ") + name + " for stdout");
  if (!std::freopen(name, "a", stderr)) fail(call, std::string("cannot open ") + name + " for stderr");
  const std::time_t now = std::time(nullptr);
  std::printf("\n\nLog file opened : %s\n", std::ctime(&now));
  std::fflush(stdout);
}

void stats(const char* call) {
  require(call);
  std::printf("TCGMSG stats for node %ld: %zu operations queued (sync = 0)\n", rank(), g.pending.size());
  std::fflush(stdout);
}

long niceftn(long ival) { return nice(static_cast<int>(ival)); }

void parerr(const char* call, long code) {
  fail(call, "the program reported an error (code " + std::to_string(code) + ")", code);
}

}  // namespace armada::tcgmsg
