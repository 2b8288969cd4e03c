#include "transport/transport.hpp"

namespace armada::rma::detail {

// Out of line: the 200-byte Shape it builds would otherwise enlarge the frame of every
// override that falls back to it.
std::uint64_t Transport::transfer_contiguous(OpKind kind, AccType type, const void* scale, std::byte* local,
                                             std::byte* remote, std::size_t bytes, const Slice& slice, int target,
                                             bool blocking) {
  const StridedOp op{kind, type, scale, local, remote, &slice, target, Shape::single_run(bytes)};
  return strided(op, blocking);
}

void Transport::put_notify(const StridedOp& data, const NotifyFlag& n) {
  strided(data, true);
  fence(data.target);  // remote completion: only then may the flag say the data is there
  notify(*this, n, data.target);
}

void Transport::put_then_notify(const StridedOp& data, const NotifyFlag& n) {
  if (data.shape.levels == 0)
    transfer_contiguous(OpKind::Put, AccType::Int, nullptr, data.local, data.remote, data.shape.count[0], *data.slice,
                        data.target, true);
  else
    strided(data, true);
  notify(*this, n, data.target);
}

void Transport::put_flag(const NotifyFlag& n, int target) { notify(*this, n, target); }

void notify(Transport& t, const NotifyFlag& n, int target) {
  std::uint64_t old = 0;
  t.rmw(n.how == Notify::Add ? RmwOp::FetchAdd : RmwOp::Swap, n.width, n.flag, *n.slice, target, &n.value, nullptr,
        &old);
}

}  // namespace armada::rma::detail
