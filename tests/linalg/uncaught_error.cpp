// A program whose error escapes main's body, run through rma::run_main (the test rows in
// CMakeLists.txt check its output and exit code):
//   gemm      every rank calls linalg::gemm with inner dimensions 50 vs 100: each rank prints
//             one line naming linalg::gemm and the mismatch, the job exits with rma::exit_error
//   one-rank  only rank 0 asks for a patch outside its array while the others wait in a
//             barrier: rank 0 prints its line and ends the job (MPI_Abort) instead of hanging
#include <string>

#include <armada/linalg/linalg.hpp>
#include <armada/rma/rma.hpp>

int main(int argc, char** argv) {
  namespace rma = armada::rma;
  namespace aa = armada::arrays;
  namespace la = armada::linalg;
  const std::string mode = argc > 1 ? argv[1] : "gemm";
  const auto named = [](const char* name) {
    aa::ArrayOptions options;
    options.name = name;
    return options;
  };
  return rma::run_main("uncaught_error", &argc, &argv, [&] {
    auto a = aa::GlobalArray<double>::create({100, 50}, named("A"));
    auto b = aa::GlobalArray<double>::create({100, 30}, named("B"));
    auto c = aa::GlobalArray<double>::create({100, 30}, named("C"));
    if (mode == "gemm") {
      la::gemm(la::Op::none, la::Op::none, 1.0, a, b, 0.0, c);
    } else {
      if (rma::rank() == 0) a.get({0, 0}, {101, 50});
      rma::barrier();
    }
    return 0;  // not reached: both modes throw
  });
}
