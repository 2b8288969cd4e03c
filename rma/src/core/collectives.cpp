#include "armada/rma/collectives.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <type_traits>

#include "common/check.hpp"
#include "core/state.hpp"

namespace armada::rma {

namespace {

template <class T>
MPI_Datatype mpi_type() {
  if constexpr (std::is_same_v<T, int>) return MPI_INT;
  else if constexpr (std::is_same_v<T, long>) return MPI_LONG;
  else if constexpr (std::is_same_v<T, long long>) return MPI_LONG_LONG;
  else if constexpr (std::is_same_v<T, float>) return MPI_FLOAT;
  else return MPI_DOUBLE;
}

void check_group(const char* op, const Group& group) {
  detail::state(op);
  if (!group.impl() || !group.is_member())
    detail::throw_invalid(op, "group", "a group without this rank", "only members take part in a collective");
}

template <class T>
const char* type_name() {
  if constexpr (std::is_same_v<T, int>) return "int";
  else if constexpr (std::is_same_v<T, long>) return "long";
  else if constexpr (std::is_same_v<T, long long>) return "long long";
  else if constexpr (std::is_same_v<T, float>) return "float";
  else return "double";
}

}  // namespace

template <class T>
void allreduce(std::span<T> data, ReduceOp op, const Group& group) {
  constexpr const char* name = "rma::allreduce";
  check_group(name, group);
  // Members that disagree on the count, operation or type would make MPI fail the job or
  // combine unrelated bytes: every member learns it here, before the reduction.
  agree(name, [&] {
    if constexpr (std::is_floating_point_v<T>) {
      if (op >= ReduceOp::BitOr && op <= ReduceOp::LogicalAnd)
        detail::throw_invalid(name, "op", std::to_string(static_cast<int>(op)),
                              "bitwise and logical reductions need an integer type");
    }
    if (static_cast<int>(op) < 0 || op > ReduceOp::LogicalAnd)
      detail::throw_invalid(name, "op", std::to_string(static_cast<int>(op)), "not a ReduceOp");
  }, group, {{"count", std::to_string(data.size())}, {"op", std::to_string(static_cast<int>(op))}, {"type", type_name<T>()}});
  MPI_Op mpi_op = MPI_OP_NULL;
  switch (op) {
    case ReduceOp::Sum: mpi_op = MPI_SUM; break;
    case ReduceOp::Prod: mpi_op = MPI_PROD; break;
    case ReduceOp::Min: mpi_op = MPI_MIN; break;
    case ReduceOp::Max: mpi_op = MPI_MAX; break;
    case ReduceOp::AbsMax:
    case ReduceOp::AbsMin:
      // ARMCI's absmax/absmin reduce the absolute values: |x| first, then max/min. The one
      // integer without a representable |x| (the minimum) saturates to the maximum.
      for (T& x : data) {
        if constexpr (std::is_integral_v<T>)
          x = x == std::numeric_limits<T>::min() ? std::numeric_limits<T>::max() : (x < 0 ? -x : x);
        else
          x = std::abs(x);
      }
      mpi_op = op == ReduceOp::AbsMax ? MPI_MAX : MPI_MIN;
      break;
    case ReduceOp::BitOr: mpi_op = MPI_BOR; break;
    case ReduceOp::BitAnd: mpi_op = MPI_BAND; break;
    case ReduceOp::BitXor: mpi_op = MPI_BXOR; break;
    case ReduceOp::LogicalOr: mpi_op = MPI_LOR; break;
    case ReduceOp::LogicalAnd: mpi_op = MPI_LAND; break;
    default:
      detail::throw_invalid(name, "op", std::to_string(static_cast<int>(op)), "not a ReduceOp");
  }
  // MPI counts are int: reduce in pieces. Each piece waits serving this rank's node (a member
  // may be its node server's only core).
  for (std::size_t done = 0; done < data.size();) {
    const std::size_t n = std::min<std::size_t>(data.size() - done, INT_MAX);
    detail::allreduce_polling(name, data.data() + done, static_cast<int>(n), mpi_type<T>(), mpi_op, group.comm());
    done += n;
  }
  // A logical reduction gives 0 or 1, however many members (MPI leaves one member's 5 as 5).
  if constexpr (std::is_integral_v<T>) {
    if (op == ReduceOp::LogicalOr || op == ReduceOp::LogicalAnd)
      for (T& x : data) x = x != 0;
  }
}

const ReduceOp* reduce_op_named(const char* op) noexcept {
  struct Name {
    std::string_view name;
    ReduceOp op;
  };
  // No name is a prefix of a later one: "||" and "&&" before "|" and "&".
  static constexpr Name kNames[] = {
      {"+", ReduceOp::Sum},          {"*", ReduceOp::Prod},          {"max", ReduceOp::Max},
      {"min", ReduceOp::Min},        {"absmax", ReduceOp::AbsMax},   {"absmin", ReduceOp::AbsMin},
      {"or", ReduceOp::BitOr},       {"and", ReduceOp::BitAnd},      {"xor", ReduceOp::BitXor},
      {"||", ReduceOp::LogicalOr},   {"&&", ReduceOp::LogicalAnd},   {"|", ReduceOp::BitOr},
      {"&", ReduceOp::BitAnd},       {"^", ReduceOp::BitXor},        {"bor", ReduceOp::BitOr},
      {"band", ReduceOp::BitAnd},    {"lor", ReduceOp::LogicalOr},   {"land", ReduceOp::LogicalAnd},
  };
  if (!op) return nullptr;
  for (const Name& n : kNames) {
    std::size_t i = 0;
    while (i < n.name.size() && op[i] == n.name[i]) ++i;  // reads nothing past a mismatch
    if (i == n.name.size()) return &n.op;
  }
  return nullptr;
}

template void allreduce<int>(std::span<int>, ReduceOp, const Group&);
template void allreduce<long>(std::span<long>, ReduceOp, const Group&);
template void allreduce<long long>(std::span<long long>, ReduceOp, const Group&);
template void allreduce<float>(std::span<float>, ReduceOp, const Group&);
template void allreduce<double>(std::span<double>, ReduceOp, const Group&);

void wait_serving(MPI_Request& request, const char* operation) { detail::wait_polling(request, operation); }

void allgather_serving(const void* mine, std::size_t bytes, void* all, const Group& group, const char* operation) {
  check_group(operation, group);
  if (bytes && !mine) detail::throw_invalid(operation, "mine", "null", "needs " + std::to_string(bytes) + " bytes");
  if (bytes && !all)
    detail::throw_invalid(operation, "all", "null", "needs " + std::to_string(bytes) + " bytes per member");
  if (bytes > static_cast<std::size_t>(INT_MAX))
    detail::throw_invalid(operation, "bytes", std::to_string(bytes), "more than an MPI count holds (" + std::to_string(INT_MAX) + ")");
  detail::allgather_polling(operation, mine, static_cast<int>(bytes), MPI_BYTE, all, group.comm());
}

void broadcast(void* buffer, std::size_t bytes, int root, const Group& group) {
  constexpr const char* name = "rma::broadcast";
  check_group(name, group);
  agree(name, [&] {
    if (root < 0 || root >= group.size())
      detail::throw_invalid(name, "root", std::to_string(root), "not a rank of the group (size " + std::to_string(group.size()) + ")");
    if (bytes && !buffer) detail::throw_invalid(name, "buffer", "null", "needs a buffer of " + std::to_string(bytes) + " bytes");
  }, group, {{"root", std::to_string(root)}, {"bytes", std::to_string(bytes)}});
  auto* p = static_cast<char*>(buffer);
  for (std::size_t done = 0; done < bytes;) {
    const std::size_t n = std::min<std::size_t>(bytes - done, INT_MAX);
    detail::bcast_polling(name, p + done, static_cast<int>(n), MPI_BYTE, root, group.comm());
    done += n;
  }
}

}  // namespace armada::rma
