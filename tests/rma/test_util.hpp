// Helpers shared by the rma tests.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "armada/rma/rma.hpp"

namespace armada::rma::test {

/// A segment allocated on construction and freed on destruction (collective both times).
class Segment {
 public:
  explicit Segment(std::size_t bytes, const Group& group = Group::world())
      : group_(group), bases_(allocate(bytes, group)) {}
  ~Segment() { free(bases_[static_cast<std::size_t>(group_.rank())], group_); }
  Segment(const Segment&) = delete;
  Segment& operator=(const Segment&) = delete;

  /// Base of world rank r (which must be in the group) in r's address space.
  template <class T = std::byte>
  T* base(int world_rank) const {
    return static_cast<T*>(bases_[static_cast<std::size_t>(group_.group_rank(world_rank))]);
  }
  template <class T = std::byte>
  T* local() const {
    return static_cast<T*>(bases_[static_cast<std::size_t>(group_.rank())]);
  }
  template <class T>
  GlobalPtr<T> at(int world_rank, std::size_t index = 0) const {
    return GlobalPtr<T>(world_rank, base<T>(world_rank) + index);
  }
  const std::vector<void*>& bases() const { return bases_; }

 private:
  Group group_;
  std::vector<void*> bases_;
};

/// Runs `f` and checks it throws E whose message contains every one of `fragments`.
template <class E, class F>
void expect_error(F&& f, std::initializer_list<const char*> fragments) {
  try {
    f();
    ADD_FAILURE() << "expected an exception, none was thrown";
  } catch (const E& e) {
    const std::string what = e.what();
    for (const char* frag : fragments)
      EXPECT_NE(what.find(frag), std::string::npos) << "message '" << what << "' lacks '" << frag << "'";
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type: " << e.what();
  }
}

}  // namespace armada::rma::test
