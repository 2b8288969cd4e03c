// TCGMSG's Fortran entry points (pbeginf, snd, rcv, nxtval, ...), with gfortran's calling
// convention (trailing underscore, arguments by reference, a hidden length after a CHARACTER
// argument), built once per default INTEGER width as GA's Fortran API is (ga/CMakeLists.txt).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fortran_abi.hpp"
#include "tcgmsg.hpp"

using armada::fortran_abi::Int;
using armada::fortran_abi::text;
using namespace armada::tcgmsg;

namespace {
/// A long result as the program's INTEGER (an 8-byte count in a 4-byte INTEGER is an error).
Int result(const char* call, long value) {
  if (static_cast<long>(static_cast<Int>(value)) != value)
    fail(call, "the result " + std::to_string(value) + " does not fit a " +
                   std::to_string(sizeof(Int)) + "-byte INTEGER");
  return static_cast<Int>(value);
}
}  // namespace

extern "C" {

void pbeginf_() { guard("pbeginf", [] { begin("pbeginf", nullptr, nullptr); }); }
void pbginf_() { guard("pbginf", [] { begin("pbginf", nullptr, nullptr); }); }
void pend_() { guard("pend", [] { end("pend"); }); }
Int tcgready_() { return ready() ? 1 : 0; }

Int nnodes_() { return guard("nnodes", [] { return static_cast<Int>(nnodes("nnodes")); }); }
Int nodeid_() { return guard("nodeid", [] { return static_cast<Int>(nodeid("nodeid")); }); }

void snd_(const Int* type, void* buf, const Int* lenbuf, const Int* node, const Int* sync) {
  guard("snd", [&] { snd("snd", *type, buf, *lenbuf, *node, *sync); });
}
void rcv_(const Int* type, void* buf, const Int* lenbuf, Int* lenmes, const Int* nodeselect, Int* nodefrom,
          const Int* sync) {
  guard("rcv", [&] {
    long length = 0, from = 0;
    rcv("rcv", *type, buf, *lenbuf, &length, *nodeselect, &from, *sync);
    *lenmes = static_cast<Int>(length);
    *nodefrom = static_cast<Int>(from);
  });
}
Int probe_(const Int* type, const Int* node) {
  return guard("probe", [&] { return static_cast<Int>(probe("probe", *type, *node)); });
}
void waitcom_(const Int* node) { guard("waitcom", [&] { waitcom("waitcom", *node); }); }

void brdcst_(const Int* type, void* buf, const Int* lenbuf, const Int* originator) {
  guard("brdcst", [&] { brdcst("brdcst", *type, buf, *lenbuf, *originator); });
}
void dgop_(const Int* /*type*/, double* x, const Int* n, const char* op, std::size_t op_length) {
  guard("dgop", [&] { dgop("dgop", x, *n, text(op, op_length)); });
}
void igop_(const Int* /*type*/, Int* x, const Int* n, const char* op, std::size_t op_length) {
  guard("igop", [&] { igop("igop", x, *n, text(op, op_length)); });
}
void synch_(const Int* /*type*/) { guard("synch", [] { synch("synch"); }); }
Int nxtval_(const Int* mproc) {
  return guard("nxtval", [&] { return result("nxtval", nxtval("nxtval", *mproc)); });
}

// mitob and mitod count the program's INTEGERs (GA's count C longs, 8 bytes, whatever the width).
Int mdtob_(const Int* n) { return guard("mdtob", [&] { return result("mdtob", convert("mdtob", *n, sizeof(double), 1)); }); }
Int mdtoi_(const Int* n) {
  return guard("mdtoi", [&] { return result("mdtoi", convert("mdtoi", *n, sizeof(double), sizeof(Int))); });
}
Int mitob_(const Int* n) { return guard("mitob", [&] { return result("mitob", convert("mitob", *n, sizeof(Int), 1)); }); }
Int mitod_(const Int* n) {
  return guard("mitod", [&] { return result("mitod", convert("mitod", *n, sizeof(Int), sizeof(double))); });
}
Int mtime_() { return guard("mtime", [] { return result("mtime", centiseconds()); }); }
double tcgtime_() { return seconds(); }
double drand48_() { return random_number(); }
void srand48_(const Int* seed) { seed_random(*seed); }
void setdbg_(const Int* value) { setdbg(*value); }
void llog_() { guard("llog", [] { llog("llog"); }); }
void stats_() { guard("stats", [] { stats("stats"); }); }
Int niceftn_(const Int* ival) { return static_cast<Int>(niceftn(*ival)); }
void parerr_(const Int* code) { parerr("parerr", *code); }

}  // extern "C"
