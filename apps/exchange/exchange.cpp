// armada-exchange: every rank allocates a segment, puts a block into its right neighbour's
// segment, gets a block from its left neighbour, accumulates into rank 0, takes a ticket with
// fetch-and-add, and checks all of it. It prints what it did, one line per rank, in rank order.
//
//   mpiexec -n 4 armada-exchange [block-doubles]
#include <cstdio>
#include <string>
#include <vector>

#include "armada/programs/options.hpp"
#include "armada/rma/rma.hpp"

namespace rma = armada::rma;

int main(int argc, char** argv) {
  try {
    rma::Session session("armada-exchange", &argc, &argv);
    const int me = rma::rank(), n = rma::size();
    long block_doubles = 1 << 16;
    const armada::programs::CommandLine command_line(
        {.name = "armada-exchange", .launch = "mpiexec -n 4 "},
        {{.name = "block-doubles", .kind = armada::programs::Kind::integer, .value_name = "BLOCK-DOUBLES",
          .help = "doubles each rank puts to its right neighbour and gets from its left", .default_text = "65536",
          .min = 1, .max = 1L << 28, .long_target = &block_doubles}});
    if (const auto exit_code = command_line.handle(argc, argv, me == 0)) return *exit_code;
    const auto block = static_cast<std::size_t>(block_doubles);

    // [0, block): written by the left neighbour. [block]: accumulator. [block+1]: ticket counter.
    const std::size_t doubles = block + 2;
    std::vector<void*> bases = rma::allocate(doubles * sizeof(double));
    auto* mine = static_cast<double*>(bases[static_cast<std::size_t>(me)]);
    for (std::size_t i = 0; i < doubles; ++i) mine[i] = 0;
    rma::barrier();

    const int right = (me + 1) % n, left = (me + n - 1) % n;
    std::vector<double> out(block);
    for (std::size_t i = 0; i < block; ++i) out[i] = me * 1e6 + static_cast<double>(i);
    rma::put(out.data(), rma::GlobalPtr<double>(right, static_cast<double*>(bases[right])), block);

    const double one = 1.0 + me;
    rma::acc(&one, rma::GlobalPtr<double>(0, static_cast<double*>(bases[0]) + block), 1);
    auto* counter = reinterpret_cast<long*>(static_cast<double*>(bases[0]) + block + 1);
    const long ticket = rma::fetch_add(rma::GlobalPtr<long>(0, counter), 1L);
    rma::barrier();

    // What the left neighbour put into my segment, read back through a get from the left's
    // view of the right neighbour's (= my) memory, and compared with what it must be.
    std::vector<double> in(block);
    rma::get(rma::GlobalPtr<double>(right, static_cast<double*>(bases[right])), in.data(), block);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < block; ++i) {
      wrong += mine[i] != left * 1e6 + static_cast<double>(i);
      wrong += in[i] != me * 1e6 + static_cast<double>(i);
    }
    const double expect_sum = n * (n + 1) / 2.0;
    const double sum = rma::get_value(rma::GlobalPtr<double>(0, static_cast<double*>(bases[0]) + block));
    int bad = wrong != 0 || sum != expect_sum;
    rma::allreduce(std::span<int>(&bad, 1), rma::ReduceOp::Max);

    for (int r = 0; r < n; ++r) {
      if (r == me)
        std::printf("rank %d/%d (node %d): put %zu doubles to rank %d, got them back: %s; "
                    "ticket %ld; accumulated sum on rank 0 = %g (expected %g)\n",
                    me, n, rma::node_of(me), block, right, wrong ? "MISMATCH" : "ok", ticket, sum, expect_sum);
      std::fflush(stdout);
      rma::barrier();
    }
    rma::free(bases[static_cast<std::size_t>(me)]);
    if (me == 0) std::printf("exchange: %s\n", bad ? "FAILED" : "all ranks verified their data");
    return bad ? 1 : 0;
  } catch (const rma::Error& e) {
    std::fprintf(stderr, "armada-exchange: %s\n", e.what());
    return 1;
  }
}
