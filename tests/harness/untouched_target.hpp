// The frame of the bad-input tests of a layer (rma's BadInput, ARMCI's Errors): before each test
// every rank's Segment of kBytes holds 0x3C and the source buffer 0x7F; after it, not one byte of
// the segment may have moved. sync() is the layer's barrier.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <memory>

namespace armada::test {

template <class Segment>
class UntouchedTarget : public ::testing::Test {
 protected:
  static constexpr std::size_t kBytes = 256;
  virtual void sync() = 0;
  void SetUp() override {
    seg_ = std::make_unique<Segment>(kBytes);
    std::memset(seg_->local(), 0x3C, kBytes);
    std::memset(buf_, 0x7F, sizeof buf_);
    sync();
  }
  void TearDown() override {
    sync();
    // EXPECT and stop at the first moved byte: the collective free below must still be reached.
    for (std::size_t i = 0; i < kBytes; ++i)
      if (seg_->template local<unsigned char>()[i] != 0x3C) {
        ADD_FAILURE() << "byte " << i << " of the target moved";
        break;
      }
    seg_.reset();
  }
  std::unique_ptr<Segment> seg_;
  alignas(16) unsigned char buf_[1024];
};

}  // namespace armada::test
