// Helpers shared by the C API tests.
#pragma once

#include <gtest/gtest.h>

#include <armci.h>
#include <armcix.h>

#include <initializer_list>
#include <string>
#include <vector>

namespace armada::armci::test {

inline int me() { return armci_msg_me(); }
inline int nproc() { return armci_msg_nproc(); }
inline int right() { return (me() + 1) % nproc(); }
inline int left() { return (me() + nproc() - 1) % nproc(); }

/// Collects failures through the error hook instead of aborting, while in scope.
class ErrorCapture {
 public:
  ErrorCapture() { previous_ = armada_armci_set_error_hook(&ErrorCapture::hook, this); }
  ~ErrorCapture() { armada_armci_set_error_hook(previous_, nullptr); }
  ErrorCapture(const ErrorCapture&) = delete;
  ErrorCapture& operator=(const ErrorCapture&) = delete;

  int count() const { return count_; }
  int code() const { return code_; }
  const std::string& function() const { return function_; }
  const std::string& message() const { return message_; }
  void clear() { count_ = 0, code_ = 0, function_.clear(), message_.clear(); }

  /// Expects exactly one error since the last clear(), reported by `function` with `code`, and
  /// a message containing every piece; then clears.
  void expect(const char* function, int code, std::initializer_list<const char*> pieces,
              const char* where = "") {
    EXPECT_EQ(count_, 1) << where << ": errors reported: " << count_ << " (last: " << message_ << ")";
    EXPECT_EQ(function_, function) << where;
    EXPECT_EQ(code_, code) << where << ": " << message_;
    for (const char* p : pieces)
      EXPECT_NE(message_.find(p), std::string::npos) << where << ": message lacks '" << p << "': " << message_;
    clear();
  }

 private:
  static void hook(const char* function, int code, const char* message, void* context) {
    auto* self = static_cast<ErrorCapture*>(context);
    ++self->count_;
    self->code_ = code;
    self->function_ = function;
    self->message_ = message;
  }
  armada_armci_error_hook_t previous_ = nullptr;
  int count_ = 0, code_ = 0;
  std::string function_, message_;
};

/// ARMCI_Malloc'd memory of `bytes` per process (may differ per process), freed on destruction.
/// Collective both times.
class Segment {
 public:
  explicit Segment(long bytes, ARMCI_Group* group = nullptr) : group_(group) {
    int n = nproc();
    if (group) ARMCI_Group_size(group, &n);
    bases_.resize(static_cast<std::size_t>(n));
    const int rc = group ? ARMCI_Malloc_group(bases_.data(), bytes, group) : ARMCI_Malloc(bases_.data(), bytes);
    EXPECT_EQ(rc, 0);
    int r = me();
    if (group) ARMCI_Group_rank(group, &r);
    mine_ = bases_[static_cast<std::size_t>(r)];
  }
  ~Segment() { EXPECT_EQ(group_ ? ARMCI_Free_group(mine_, group_) : ARMCI_Free(mine_), 0); }
  Segment(const Segment&) = delete;
  Segment& operator=(const Segment&) = delete;

  template <class T = char>
  T* at(int rank, std::size_t index = 0) const {
    return static_cast<T*>(bases_[static_cast<std::size_t>(rank)]) + index;
  }
  template <class T = char>
  T* local(std::size_t index = 0) const {
    return static_cast<T*>(mine_) + index;
  }
  void** bases() { return bases_.data(); }

 private:
  ARMCI_Group* group_;
  std::vector<void*> bases_;
  void* mine_ = nullptr;
};

}  // namespace armada::armci::test
