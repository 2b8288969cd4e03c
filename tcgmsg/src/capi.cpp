// TCGMSG's C API (tcgmsg.h, GA's tcg_* names): long arguments, straight onto the shared code.
#include "tcgmsg.h"

#include <cstring>

#include "tcgmsg.hpp"

using namespace armada::tcgmsg;

namespace {
std::string_view op_text(const char* call, const char* op) {
  if (!op) bad(call, "op", "NULL", "an operator is required");
  return op;
}
}  // namespace

extern "C" {

void tcg_alt_pbegin(int* argc, char** argv[]) { guard("tcg_alt_pbegin", [&] { begin("tcg_alt_pbegin", argc, argv); }); }
void tcg_pbegin(int argc, char** argv) {
  guard("tcg_pbegin", [&] { begin("tcg_pbegin", &argc, &argv); });
}
void tcg_pbeginf(void) { guard("tcg_pbeginf", [] { begin("tcg_pbeginf", nullptr, nullptr); }); }
void tcg_pbginf(void) { guard("tcg_pbginf", [] { begin("tcg_pbginf", nullptr, nullptr); }); }
void tcg_pend(void) { guard("tcg_pend", [] { end("tcg_pend"); }); }
long tcg_ready(void) { return ready() ? 1 : 0; }

long tcg_nnodes(void) { return guard("tcg_nnodes", [] { return nnodes("tcg_nnodes"); }); }
long tcg_nodeid(void) { return guard("tcg_nodeid", [] { return nodeid("tcg_nodeid"); }); }

void tcg_snd(long type, void* buf, long lenbuf, long node, long sync) {
  guard("tcg_snd", [&] { snd("tcg_snd", type, buf, lenbuf, node, sync); });
}
void tcg_rcv(long type, void* buf, long lenbuf, long* lenmes, long nodeselect, long* nodefrom, long sync) {
  guard("tcg_rcv", [&] { rcv("tcg_rcv", type, buf, lenbuf, lenmes, nodeselect, nodefrom, sync); });
}
long tcg_probe(long type, long node) { return guard("tcg_probe", [&] { return probe("tcg_probe", type, node); }); }
void tcg_waitcom(long node) { guard("tcg_waitcom", [&] { waitcom("tcg_waitcom", node); }); }

void tcg_brdcst(long type, void* buf, long lenbuf, long originator) {
  guard("tcg_brdcst", [&] { brdcst("tcg_brdcst", type, buf, lenbuf, originator); });
}
void tcg_dgop(long /*type*/, double* x, long n, char* op) {
  guard("tcg_dgop", [&] { dgop("tcg_dgop", x, n, op_text("tcg_dgop", op)); });
}
void tcg_igop(long /*type*/, long* x, long n, char* op) {
  guard("tcg_igop", [&] { igop("tcg_igop", x, n, op_text("tcg_igop", op)); });
}
void tcg_synch(long /*type*/) { guard("tcg_synch", [] { synch("tcg_synch"); }); }
long tcg_nxtval(long mproc) { return guard("tcg_nxtval", [&] { return nxtval("tcg_nxtval", mproc); }); }

// C's long is TCGMSG's C integer: mitob counts longs.
long tcg_mdtob(long n) { return guard("tcg_mdtob", [&] { return convert("tcg_mdtob", n, sizeof(double), 1); }); }
long tcg_mdtoi(long n) {
  return guard("tcg_mdtoi", [&] { return convert("tcg_mdtoi", n, sizeof(double), sizeof(long)); });
}
long tcg_mitob(long n) { return guard("tcg_mitob", [&] { return convert("tcg_mitob", n, sizeof(long), 1); }); }
long tcg_mitod(long n) {
  return guard("tcg_mitod", [&] { return convert("tcg_mitod", n, sizeof(long), sizeof(double)); });
}
long tcg_mtime(void) { return centiseconds(); }
double tcg_time(void) { return seconds(); }
double tcg_drand48(void) { return random_number(); }
void tcg_srand48(long seed) { seed_random(seed); }
void tcg_setdbg(long value) { setdbg(value); }
void tcg_llog(void) { guard("tcg_llog", [] { llog("tcg_llog"); }); }
void tcg_stats(void) { guard("tcg_stats", [] { stats("tcg_stats"); }); }
long tcg_niceftn(long ival) { return niceftn(ival); }
void tcg_error(char* msg, long code) {
  fail("tcg_error", std::string(msg ? msg : "(no message)") + " (code " + std::to_string(code) + ")", code);
}
void tcg_parerr(long code) { parerr("tcg_parerr", code); }

}  // extern "C"
