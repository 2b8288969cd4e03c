// Puts its rank into the next rank's segment and checks what arrived from the previous one.
#include <cstdio>

#include <armada/rma/rma.hpp>

int main(int argc, char** argv) {
  namespace rma = armada::rma;
  rma::Session session(&argc, &argv);
  const int me = rma::rank(), n = rma::size();
  auto bases = rma::allocate(sizeof(long));
  const int next = (me + 1) % n;
  rma::put_value(static_cast<long>(me), rma::GlobalPtr<long>(next, static_cast<long*>(bases[next])));
  rma::barrier();
  const long got = *static_cast<long*>(bases[me]);
  const bool ok = got == (me + n - 1) % n;
  std::printf("consumer rank %d: got %ld from rank %d: %s\n", me, got, (me + n - 1) % n, ok ? "ok" : "WRONG");
  rma::free(bases[me]);
  return ok ? 0 : 1;
}
