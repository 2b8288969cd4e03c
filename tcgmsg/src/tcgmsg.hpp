// TCGMSG on Armada, shared by the C API (capi.cpp) and the Fortran entry points (fortran.cpp):
// each entry point passes its own name (tcg_snd, snd) so that an error names the call the
// program made.
#pragma once

#include <cstdio>
#include <exception>
#include <string>
#include <string_view>

namespace armada::tcgmsg {

/// Ends the job TCGMSG's way (parerr, GA's Error): "TCGMSG: [rank r] <call>: <text>" on stderr,
/// then MPI_Abort with `code` (1 when it is not a usable exit status).
[[noreturn]] void fail(const char* call, const std::string& text, long code = 1);
/// fail() for a bad argument: "argument '<argument>' = <value>: <reason>".
[[noreturn]] void bad(const char* call, const char* argument, const std::string& value, const std::string& reason);

/// Runs one entry point: an Armada error (or any exception) under it ends the job as fail().
template <class F>
auto guard(const char* call, F&& body) noexcept -> decltype(body()) {
  try {
    return body();
  } catch (const std::exception& e) {
    fail(call, e.what());
  } catch (...) {
    fail(call, "an unknown exception");
  }
}

void begin(const char* call, int* argc, char*** argv);
[[noreturn]] void end(const char* call);
bool ready() noexcept;

long nnodes(const char* call);
long nodeid(const char* call);

void snd(const char* call, long type, const void* buf, long lenbuf, long node, long sync);
void rcv(const char* call, long type, void* buf, long lenbuf, long* lenmes, long nodeselect, long* nodefrom,
         long sync);
long probe(const char* call, long type, long node);
void waitcom(const char* call, long node);

void brdcst(const char* call, long type, void* buf, long lenbuf, long originator);
void dgop(const char* call, double* x, long n, std::string_view op);
void igop(const char* call, int* x, long n, std::string_view op);
void igop(const char* call, long* x, long n, std::string_view op);
void synch(const char* call);
long nxtval(const char* call, long mproc);

/// The number of `to`-byte units that hold n `from`-byte units (n >= 0, checked): mdtob, mitod, ...
long convert(const char* call, long n, long from, long to);
double seconds();
long centiseconds();
double random_number();
void seed_random(long seed);
void setdbg(long value);
void llog(const char* call);
void stats(const char* call);
long niceftn(long ival);
[[noreturn]] void parerr(const char* call, long code);

}  // namespace armada::tcgmsg
