// The tcp transport's frames. Each rank listens on one TCP socket; the first of two processes
// to address the other opens the connection (on first contact) and both use it both ways from
// then on (link.hpp): each sends its requests on it and answers the other's, in order.
//
//   opener --Hello--> ; <--Answer       first frame: the job's key and the opener's rank; the
//                                       answer says whether the pair uses this connection (1) or
//                                       the one the other opened (0: both opened one at once, and
//                                       the lower rank's wins)
//   origin --Put/Acc[V] + payload-->    no answer: TCP's order is the completion protocol; a
//                                       later Ack's answer proves every earlier write ran
//   origin --Get[V]--> ; <--Answer + data
//   origin --Rmw--> ; <--Answer (old value)
//   origin --Lock--> ; <--Answer          a mutex's ticket, taken at the owner, and whether it was
//                                       served at once (kLockHeld: then held; else the origin waits
//                                       for `serving` to reach the ticket): one round trip uncontended
//   origin --TryLock--> ; <--Answer       1 if the mutex was free and is now held, 0 (no change)
//   origin --Unlock--> ; <--Answer        a mutex's release, run by the owner (it wakes local sleepers)
//   origin --Ack--> ; <--Answer           fence: the target ran everything sent before it
//
// A frame is a Header, then `desc_bytes` of descriptor (strided: the remote side's counts and
// strides; vector: per set a SetHead and its remote addresses), then `payload` bytes (the data
// of a put or an accumulate, or of a get's answer). A put with notify carries the flag update in
// its own header, so the flag is written after the data by the same thread: one message, never
// overtaken. Answers come in the order of their requests, on the connection the request came by.
#pragma once

#include <cstddef>
#include <cstdint>

namespace armada::rma::detail::tcp {

enum class Kind : std::uint8_t { Hello, Put, Get, Acc, PutV, GetV, AccV, Rmw, Lock, TryLock, Unlock, Ack, Answer };
inline constexpr int kKinds = 13;

/// A Lock's answer: the ticket in the low 32 bits, and this bit when it was served at once.
inline constexpr std::uint64_t kLockHeld = std::uint64_t{1} << 32;

/// A put's flag update (Header::notify_how).
enum NotifyHow : std::uint8_t { kNoNotify = 0, kNotifySet = 1, kNotifyAdd = 2 };

/// What a request tells its target's service (Header::hints). kNextSoon: the origin sends its
/// requests back to back (this one went within the spin window of the last answer), so the
/// service polls for the next after answering, however busy the CPUs (service.cpp).
enum Hints : std::uint8_t { kNoHints = 0, kNextSoon = 1 };

struct Header {
  Kind kind;
  std::uint8_t acc_type;      // Acc, AccV: AccType
  std::uint8_t rmw_op;        // Rmw: RmwOp
  std::uint8_t width;         // Rmw: 4 or 8; a notify's flag width
  std::uint8_t notify_how;    // NotifyHow (Put, PutV)
  std::uint8_t levels;        // strided: levels of the remote side's shape
  std::uint8_t hints;         // Hints (a request that has an answer)
  std::uint8_t reserved;
  std::uint32_t desc_bytes;   // descriptor bytes after the header
  std::uint64_t remote;       // target-space address: a strided base, an RMW or mutex word; Hello: the job key;
                              // Answer: the value (Rmw: the old value; Unlock: 1, or 0 if the origin did not
                              // hold it; Ack: frames run on this connection, itself included)
  std::uint64_t payload;      // data bytes after the descriptor (Put, Acc, Answer); Get: bytes asked;
                              // Hello, Unlock: the origin's world rank
  std::uint64_t notify;       // the flag's target-space address (notify_how != 0)
  std::uint64_t notify_value;
  unsigned char scale[16];    // Acc: one element of acc_type
  unsigned char operand[8];   // Rmw
  unsigned char compare[8];   // Rmw: CompareSwap
};
static_assert(sizeof(Header) == 80);

/// Vector descriptor: per set a SetHead, then `count` target-space addresses.
struct SetHead {
  std::uint64_t bytes;
  std::uint64_t count;
};

}  // namespace armada::rma::detail::tcp
