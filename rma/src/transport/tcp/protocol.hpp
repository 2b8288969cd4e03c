// The tcp transport's frames. Each rank listens on one TCP socket; an origin opens one
// connection to each rank it addresses (on first contact) and sends requests on it; the
// target's service thread reads them in order and answers on the same connection.
//
//   origin --Hello--> target            first frame: the job's key and the origin's rank
//   origin --Put/Acc[V] + payload-->    no answer: TCP's order is the completion protocol; a
//                                       later Ack's answer proves every earlier write ran
//   origin --Get[V]--> ; <--Reply + data
//   origin --Rmw--> ; <--Reply (old value)
//   origin --Unlock--> ; <--Reply         a mutex's release, run by the owner (it wakes local sleepers)
//   origin --Ack--> ; <--Reply          fence: the target ran everything sent before it
//
// A frame is a Header, then `desc_bytes` of descriptor (strided: the remote side's counts and
// strides; vector: per set a SetHead and its remote addresses), then `payload` bytes (the data
// of a put or an accumulate). A put with notify carries the flag update in its own header, so
// the flag is written after the data by the same thread: one message, never overtaken.
#pragma once

#include <cstddef>
#include <cstdint>

namespace armada::rma::detail::tcp {

enum class Kind : std::uint8_t { Hello, Put, Get, Acc, PutV, GetV, AccV, Rmw, Unlock, Ack };
inline constexpr int kKinds = 10;

/// A put's flag update (Header::notify_how).
enum NotifyHow : std::uint8_t { kNoNotify = 0, kNotifySet = 1, kNotifyAdd = 2 };

struct Header {
  Kind kind;
  std::uint8_t acc_type;      // Acc, AccV: AccType
  std::uint8_t rmw_op;        // Rmw: RmwOp
  std::uint8_t width;         // Rmw: 4 or 8; a notify's flag width
  std::uint8_t notify_how;    // NotifyHow (Put, PutV)
  std::uint8_t levels;        // strided: levels of the remote side's shape
  std::uint16_t reserved;
  std::uint32_t desc_bytes;   // descriptor bytes after the header
  std::uint64_t remote;       // target-space address: a strided base, an RMW or mutex word; Hello: the job key
  std::uint64_t payload;      // data bytes after the descriptor (Put, Acc); Get: bytes asked;
                              // Hello, Unlock: the origin's world rank
  std::uint64_t notify;       // the flag's target-space address (notify_how != 0)
  std::uint64_t notify_value;
  unsigned char scale[16];    // Acc: one element of acc_type
  unsigned char operand[8];   // Rmw
  unsigned char compare[8];   // Rmw: CompareSwap
};
static_assert(sizeof(Header) == 80);

/// The answer to Get, GetV, Rmw and Ack; a Get's data follows it.
struct Reply {
  std::uint64_t value;        // Rmw: the old value; Unlock: 1, or 0 if the origin did not hold it;
                              // Ack: frames received on this connection, itself included
  std::uint64_t payload;      // data bytes that follow
};

/// Vector descriptor: per set a SetHead, then `count` target-space addresses.
struct SetHead {
  std::uint64_t bytes;
  std::uint64_t count;
};

}  // namespace armada::rma::detail::tcp
