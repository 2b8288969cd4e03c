#include "cg_comm.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include "armada/rma/memory.hpp"
#include "armada/rma/runtime.hpp"
#include "armada/rma/sync.hpp"
#include "armada/rma/transfer.hpp"

namespace armada::apps::cg {
namespace {

namespace aa = armada::arrays;

/// A rank this rank sends x entries to at every product.
struct Peer {
  int rank;
  std::vector<std::int32_t> entries;  // local indices of the x entries it needs
  std::vector<double> buffer;
  aa::Index at = 0;                   // its first ghost slot for them (ghost_sources' first)
};

/// Each rank sends every owner the global columns it needs from it, and where they go in its
/// ghost slots (once); the owner keeps them as local indices to pack at every product.
std::vector<Peer> tell_owners(const aa::SparseMatrix<double>& A, MPI_Comm comm);

/// What both exchanges below share: the five CG vectors over this rank's rows, x distributed like
/// the rows (the matrix is planned for that).
class RowVectorsComm : public CgComm {
 public:
  explicit RowVectorsComm(aa::SparseMatrix<double>& A) {
    const auto [r0, r1] = A.local_rows();
    vectors_.n = static_cast<std::size_t>(r1 - r0);
    for (std::size_t k = 0; k < storage_.size(); ++k) {
      storage_[k].assign(vectors_.n, 0.0);
      vectors_.block[k] = storage_[k].data();
    }
    A.plan_for(A.row_distribution());  // x distributed like the rows
  }
  CgVectors vectors() override { return vectors_; }

 protected:
  CgVectors vectors_;

 private:
  std::array<std::vector<double>, 5> storage_;
};

// One-sided: every rank's counters and ghost slots after them are an rma segment. At each
// product every owner packs the entries a peer needs and puts them into the peer's slots with
// one rma::put_notify (data, then +1 on the peer's arrival counter, one message where the
// transport allows), computes its local part, and waits until its own arrival counter shows
// every source's message. No barrier and no get.
//
// When every rank sends to exactly the ranks it receives from (NAS CG's matrix is symmetric),
// the slots are doubled, products alternating between the halves, with an arrival counter per
// half, and no other message: a peer's product k reaching us means it finished product k-1,
// whose ghost part read the half we write product k+1 into (it needed our product k-1 first),
// and it cannot send product k+2 into that half before it has our k+1, which we send after
// reading product k-1's. Otherwise (one half) a rank gives each source a credit (a 0-byte
// notify) after the ghost part, and an owner waits for its peers' credits of product k-1
// before putting product k. Counters only grow; each rank keeps the running sums it waits for.
class RmaComm final : public RowVectorsComm {
 public:
  RmaComm(aa::SparseMatrix<double>& A, RmaSlots slots_use) : RowVectorsComm(A), A_(A) {
    const MPI_Comm world = rma::world_comm();
    peers_ = tell_owners(A, world);
    int both_ways = slots_use == RmaSlots::Auto && sends_where_it_receives(A, peers_) ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, &both_ways, 1, MPI_INT, MPI_LAND, world);
    halves_ = both_ways ? 2 : 1;
    long slots = static_cast<long>(A.ghost_columns().size());
    MPI_Allreduce(MPI_IN_PLACE, &slots, 1, MPI_LONG, MPI_MAX, world);  // a half's size: the same on every rank
    half_bytes_ = static_cast<std::size_t>(slots) * sizeof(double);
    const std::size_t bytes = slots_at + static_cast<std::size_t>(halves_) * half_bytes_;
    bases_ = rma::allocate(bytes);
    mine_ = static_cast<std::byte*>(bases_[static_cast<std::size_t>(rma::rank())]);
    std::fill_n(mine_, bytes, std::byte{0});
    rma::barrier();  // every rank's counters are zero before anyone adds to them
  }
  ~RmaComm() override {
    rma::barrier();  // the last messages have arrived before the segment goes
    rma::free(mine_);
  }
  void multiply(Vec in, Vec out) override {
    const double* x = vectors_[in];
    double* y = vectors_[out];
    const int half = static_cast<int>(products_ % static_cast<unsigned long>(halves_));
    if (halves_ == 1) rma::wait_flag(counter(mine_, kCredits), credits_, true);  // peers are done with the slots
    const std::size_t half_at = slots_at + static_cast<std::size_t>(half) * half_bytes_;
    for (auto& peer : peers_) {
      for (std::size_t k = 0; k < peer.entries.size(); ++k) peer.buffer[k] = x[peer.entries[k]];
      auto* base = static_cast<std::byte*>(bases_[static_cast<std::size_t>(peer.rank)]);
      rma::put_notify(peer.buffer.data(), base + half_at + peer.at * static_cast<aa::Index>(sizeof(double)),
                      peer.buffer.size() * sizeof(double), counter(base, half), 1L, peer.rank, rma::Notify::Add);
    }
    A_.multiply_local(x, y, 1.0, 0.0);  // while the messages travel
    arrivals_[half] += static_cast<long>(A_.ghost_sources().size());
    rma::wait_flag(counter(mine_, half), arrivals_[half], true);
    A_.multiply_ghost(reinterpret_cast<const double*>(mine_ + half_at), y, 1.0);
    if (halves_ == 1) {
      for (const auto& s : A_.ghost_sources())
        rma::put_notify(nullptr, nullptr, 0, counter(static_cast<std::byte*>(bases_[static_cast<std::size_t>(s.rank)]), kCredits),
                        1L, s.rank, rma::Notify::Add);
      credits_ += static_cast<long>(peers_.size());
    }
    ++products_;
  }

 private:
  // The counters first (arrivals in each half, credits): their place is the same on every rank.
  static constexpr int kCredits = 2;
  static constexpr std::size_t slots_at = 4 * sizeof(long);
  static long* counter(std::byte* base, int which) { return reinterpret_cast<long*>(base) + which; }
  static bool sends_where_it_receives(const aa::SparseMatrix<double>& A, const std::vector<Peer>& peers) {
    std::vector<int> to, from;
    for (const auto& p : peers) to.push_back(p.rank);
    for (const auto& s : A.ghost_sources()) from.push_back(s.rank);
    std::ranges::sort(to);
    std::ranges::sort(from);
    return to == from;
  }

  aa::SparseMatrix<double>& A_;
  std::vector<Peer> peers_;          // ranks this rank sends to
  int halves_ = 1;
  std::size_t half_bytes_ = 0;
  std::vector<void*> bases_;         // every rank's ghost slots
  std::byte* mine_ = nullptr;
  unsigned long products_ = 0;
  long arrivals_[2] = {0, 0}, credits_ = 0;  // running sums this rank waits for
};

class MpiComm final : public RowVectorsComm {
 public:
  MpiComm(aa::SparseMatrix<double>& A, MPI_Comm comm) : RowVectorsComm(A), A_(A) {
    MPI_Comm_dup(comm, &comm_);
    ghosts_.assign(A.ghost_columns().size(), 0.0);
    peers_ = tell_owners(A, comm_);
  }
  ~MpiComm() override { MPI_Comm_free(&comm_); }
  void multiply(Vec in, Vec out) override;

 private:
  aa::SparseMatrix<double>& A_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  std::vector<double> ghosts_;
  std::vector<Peer> peers_;               // ranks this rank sends to
  std::vector<MPI_Request> requests_;
};

std::vector<Peer> tell_owners(const aa::SparseMatrix<double>& A, MPI_Comm comm) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  const auto ghosts = A.ghost_columns();
  const auto n = static_cast<std::size_t>(size);
  std::vector<int> need(n, 0), give(n, 0), need_at(n, 0), give_at(n + 1, 0);
  std::vector<long> slot(n, 0), slot_at_peer(n, 0);
  for (const auto& s : A.ghost_sources()) {
    need[static_cast<std::size_t>(s.rank)] = static_cast<int>(s.count);
    need_at[static_cast<std::size_t>(s.rank)] = static_cast<int>(s.first);
    slot[static_cast<std::size_t>(s.rank)] = s.first;
  }
  MPI_Alltoall(need.data(), 1, MPI_INT, give.data(), 1, MPI_INT, comm);
  MPI_Alltoall(slot.data(), 1, MPI_LONG, slot_at_peer.data(), 1, MPI_LONG, comm);
  for (std::size_t p = 0; p < n; ++p) give_at[p + 1] = give_at[p] + give[p];
  std::vector<long> asked(static_cast<std::size_t>(give_at[n]));
  static_assert(sizeof(long) == sizeof(aa::Index));
  MPI_Alltoallv(ghosts.data(), need.data(), need_at.data(), MPI_LONG, asked.data(), give.data(), give_at.data(), MPI_LONG, comm);
  const aa::Index xlo = A.local_rows().first;
  std::vector<Peer> peers;
  for (std::size_t p = 0; p < n; ++p) {
    if (give[p] == 0) continue;
    Peer peer{static_cast<int>(p), {}, std::vector<double>(static_cast<std::size_t>(give[p])), slot_at_peer[p]};
    for (int k = give_at[p]; k < give_at[p + 1]; ++k)
      peer.entries.push_back(static_cast<std::int32_t>(asked[static_cast<std::size_t>(k)] - xlo));
    peers.push_back(std::move(peer));
  }
  return peers;
}

void MpiComm::multiply(Vec in, Vec out) {
  const double* x = vectors_[in];
  double* y = vectors_[out];
  constexpr int tag = 77;
  requests_.clear();
  for (const auto& s : A_.ghost_sources()) {
    requests_.emplace_back();
    MPI_Irecv(ghosts_.data() + s.first, static_cast<int>(s.count), MPI_DOUBLE, s.rank, tag, comm_, &requests_.back());
  }
  const std::size_t receives = requests_.size();
  for (auto& peer : peers_) {
    for (std::size_t k = 0; k < peer.entries.size(); ++k) peer.buffer[k] = x[peer.entries[k]];
    requests_.emplace_back();
    MPI_Isend(peer.buffer.data(), static_cast<int>(peer.buffer.size()), MPI_DOUBLE, peer.rank, tag, comm_, &requests_.back());
  }
  A_.multiply_local(x, y, 1.0, 0.0);  // while the messages travel
  MPI_Waitall(static_cast<int>(receives), requests_.data(), MPI_STATUSES_IGNORE);
  A_.multiply_ghost(ghosts_.data(), y, 1.0);
  MPI_Waitall(static_cast<int>(requests_.size() - receives), requests_.data() + receives, MPI_STATUSES_IGNORE);
}

}  // namespace

std::unique_ptr<CgComm> make_rma_comm(aa::SparseMatrix<double>& A, RmaSlots slots) {
  return std::make_unique<RmaComm>(A, slots);
}
std::unique_ptr<CgComm> make_mpi_comm(aa::SparseMatrix<double>& A, MPI_Comm comm) {
  return std::make_unique<MpiComm>(A, comm);
}

}  // namespace armada::apps::cg
