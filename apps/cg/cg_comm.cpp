#include "cg_comm.hpp"

#include <array>
#include <vector>

namespace armada::apps::cg {
namespace {

namespace aa = armada::arrays;

class RmaComm final : public CgComm {
 public:
  explicit RmaComm(aa::SparseMatrix<double>& A) : A_(A) {
    aa::ArrayOptions o;
    o.group = A.group();
    const auto& rows = A.row_distribution();
    o.block_starts = {std::vector<aa::Index>(rows.bounds(0).begin(), rows.bounds(0).end() - 1)};
    const char* names[] = {"x", "z", "p", "q", "r"};
    for (std::size_t k = 0; k < arrays_.size(); ++k) {
      o.name = names[k];
      arrays_[k] = aa::GlobalArray<double>::create({A.rows()}, o);
      auto view = arrays_[k].access();  // the block stays put; released at destruction
      vectors_.block[k] = view.data;
    }
    const auto [r0, r1] = A.local_rows();
    vectors_.n = static_cast<std::size_t>(r1 - r0);
  }
  ~RmaComm() override {
    for (auto& a : arrays_) {
      a.release_update();
      a.destroy();
    }
  }
  CgVectors vectors() override { return vectors_; }
  void multiply(Vec in, Vec out) override {
    aa::spmv(A_, arrays_[static_cast<std::size_t>(in)], arrays_[static_cast<std::size_t>(out)]);
  }

 private:
  aa::SparseMatrix<double>& A_;
  std::array<aa::GlobalArray<double>, 5> arrays_;
  CgVectors vectors_;
};

class MpiComm final : public CgComm {
 public:
  MpiComm(aa::SparseMatrix<double>& A, MPI_Comm comm) : A_(A) {
    MPI_Comm_dup(comm, &comm_);
    const auto [r0, r1] = A.local_rows();
    vectors_.n = static_cast<std::size_t>(r1 - r0);
    for (std::size_t k = 0; k < storage_.size(); ++k) {
      storage_[k].assign(vectors_.n, 0.0);
      vectors_.block[k] = storage_[k].data();
    }
    A.plan_for(A.row_distribution());  // x distributed like the rows
    ghosts_.assign(A.ghost_columns().size(), 0.0);
    tell_owners();
  }
  ~MpiComm() override { MPI_Comm_free(&comm_); }
  CgVectors vectors() override { return vectors_; }
  void multiply(Vec in, Vec out) override;

 private:
  struct Peer {
    int rank;
    std::vector<std::int32_t> entries;  // local indices of the x entries it needs
    std::vector<double> buffer;
  };
  void tell_owners();

  aa::SparseMatrix<double>& A_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  std::array<std::vector<double>, 5> storage_;
  CgVectors vectors_;
  std::vector<double> ghosts_;
  std::vector<Peer> peers_;               // ranks this rank sends to
  std::vector<MPI_Request> requests_;
};

// Each rank sends every owner the global columns it needs from it (once); the owner keeps them
// as local indices to pack at every product.
void MpiComm::tell_owners() {
  int size = 0;
  MPI_Comm_size(comm_, &size);
  const auto ghosts = A_.ghost_columns();
  std::vector<int> need(static_cast<std::size_t>(size), 0), give(static_cast<std::size_t>(size), 0);
  std::vector<int> need_at(static_cast<std::size_t>(size), 0), give_at(static_cast<std::size_t>(size) + 1, 0);
  for (const auto& s : A_.ghost_sources()) {
    need[static_cast<std::size_t>(s.rank)] = static_cast<int>(s.count);
    need_at[static_cast<std::size_t>(s.rank)] = static_cast<int>(s.first);
  }
  MPI_Alltoall(need.data(), 1, MPI_INT, give.data(), 1, MPI_INT, comm_);
  for (int p = 0; p < size; ++p) give_at[static_cast<std::size_t>(p) + 1] = give_at[static_cast<std::size_t>(p)] + give[static_cast<std::size_t>(p)];
  std::vector<long> asked(static_cast<std::size_t>(give_at[static_cast<std::size_t>(size)]));
  static_assert(sizeof(long) == sizeof(aa::Index));
  MPI_Alltoallv(ghosts.data(), need.data(), need_at.data(), MPI_LONG, asked.data(), give.data(), give_at.data(), MPI_LONG, comm_);
  const aa::Index xlo = A_.local_rows().first;
  for (int p = 0; p < size; ++p) {
    if (give[static_cast<std::size_t>(p)] == 0) continue;
    Peer peer{p, {}, std::vector<double>(static_cast<std::size_t>(give[static_cast<std::size_t>(p)]))};
    for (int k = give_at[static_cast<std::size_t>(p)]; k < give_at[static_cast<std::size_t>(p) + 1]; ++k)
      peer.entries.push_back(static_cast<std::int32_t>(asked[static_cast<std::size_t>(k)] - xlo));
    peers_.push_back(std::move(peer));
  }
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

std::unique_ptr<CgComm> make_rma_comm(aa::SparseMatrix<double>& A) { return std::make_unique<RmaComm>(A); }
std::unique_ptr<CgComm> make_mpi_comm(aa::SparseMatrix<double>& A, MPI_Comm comm) {
  return std::make_unique<MpiComm>(A, comm);
}

}  // namespace armada::apps::cg
