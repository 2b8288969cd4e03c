#include "desc/runs.hpp"

#include <utility>

namespace armada::rma::detail {

RunWalker::RunWalker(std::byte* base, const Shape& shape, bool dst_side)
    : base_(base), shape_(shape), dst_side_(dst_side) {
  load_run();
}

RunWalker::RunWalker(std::vector<std::pair<std::byte*, std::size_t>> runs, std::vector<std::ptrdiff_t> deltas)
    : list_(std::move(runs)), deltas_(std::move(deltas)), explicit_(true) {
  load_run();
}

void RunWalker::load_run() {
  offset_ = 0;
  if (explicit_) {
    while (list_pos_ < list_.size() && list_[list_pos_].second == 0) ++list_pos_;
    if (list_pos_ == list_.size()) {
      at_end_ = true;
      return;
    }
    run_ = list_[list_pos_].first;
    run_len_ = list_[list_pos_].second;
    return;
  }
  const std::size_t* stride = dst_side_ ? shape_.dst_stride : shape_.src_stride;
  std::byte* p = base_;
  for (int l = 0; l < shape_.levels; ++l) p += index_[l + 1] * stride[l];
  run_ = p;
  run_len_ = shape_.count[0];
}

void RunWalker::advance() {
  if (explicit_) {
    ++list_pos_;
    load_run();
    return;
  }
  // Odometer over levels 1..L (index_[l+1] counts level l's repetitions).
  int l = 0;
  for (; l < shape_.levels; ++l) {
    if (++index_[l + 1] < shape_.count[l + 1]) break;
    index_[l + 1] = 0;
  }
  if (l == shape_.levels) {
    at_end_ = true;
    return;
  }
  load_run();
}

}  // namespace armada::rma::detail
