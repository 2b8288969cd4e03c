// The server protocol's messages. Everything travels on the transport's private duplicate of
// the world communicator, so user MPI traffic can never match it.
//
//   origin --REQ--> first server (the target's node server, or with clustering the origin's
//                   assigned server in the target's cluster, which forwards --FWD--> the target's
//                   server and gets --FWD_ACK-- back)
//   origin --TO_SERVER(id)--> target server payload beyond the inline part, in pieces (piece())
//   target server --TO_ORIGIN(id)--> origin get data, in pieces
// How data travels is the request's `delivery`: as TO_SERVER / TO_ORIGIN messages; copied by
// the target's server itself between the target's memory and the origin's buffer (direct.hpp);
// or, for a small get, inside the REPLY message after the Reply.
// The two data directions have separate tag ranges: between two processes that are each other's
// origin and server at once, a chunk for one's server thread must never match the other's
// origin-side receive (their request ids run in step).
//   target server --REPLY(id)--> origin     a request's reply: status, and a value for RMW;
//                                           fences wait for these
// Writes (put, accumulate, a put's separate flag) are acknowledged lazily (ReplyMode): the server
// counts those it ran per origin and answers only the requests that ask for the count (every
// half of an origin's credits, and a fence's Ack), so a stream of puts costs one message each
// and a put_notify ping-pong two per round trip, not four.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

#include "desc/strided.hpp"

namespace armada::rma::detail::server {

enum Tag : int {
  kTagRequest = 1,
  kTagForward = 2,
  kTagForwardAck = 3,
  kTagControl = 4,
  kTagAdopt = 5,             // an Adopt's member table, then the server's Reply
  kTagReplyBase = 1000,      // + id % kTagSpan
  kTagToServerBase = 10000,  // + id % kTagSpan
  kTagToOriginBase = 20000,  // + id % kTagSpan (below the MPI_TAG_UB minimum of 32767)
};
inline constexpr std::uint32_t kTagSpan = 8192;
/// The longest sleep between the polls of a long wait, on either side (PollPause's cap): a reply
/// or a piece of a transfer that takes that long costs at most about one poll per millisecond.
inline constexpr long kWaitSleepMaxNs = 1000000;
inline int reply_tag(std::uint32_t id) { return kTagReplyBase + static_cast<int>(id % kTagSpan); }
inline int to_server_tag(std::uint32_t id) { return kTagToServerBase + static_cast<int>(id % kTagSpan); }
inline int to_origin_tag(std::uint32_t id) { return kTagToOriginBase + static_cast<int>(id % kTagSpan); }

enum class Kind : std::uint16_t {
  Put, Get, Acc,              // strided (contiguous is levels == 0)
  PutV, GetV, AccV,           // vector: a descriptor of (bytes, count, addresses...) per set
  Rmw, Lock, TryLock, Unlock,
  Quit,                       // control: stop the server
  Adopt,                      // control: map a segment whose group leaves this server out (AdoptHead, AdoptMember)
  Forget,                     // control: drop the mapping of a freed segment (see `segment`)
  Ack,                        // no data: reply with the count of the origin's lazy writes run
};

/// How the server answers a request (Header::reply_mode).
enum ReplyMode : std::uint8_t {
  kReplyEach = 0,   // its own reply (gets, atomics, mutexes, direct copies)
  kReplyNone = 1,   // a lazy write: counted for its origin (and a failure kept), no reply
  kReplyCount = 2,  // counted if a write, then a reply whose value is the origin's count so far
                    // and whose status is the first failure since the last such reply
};

enum Status : std::int32_t {
  kOk = 0,
  kUnreachable = 1,  // the server has no mapping of the target memory
  kNotHolder = 2,    // unlock of a mutex the origin does not hold
  kBusy = 3,         // try_lock: held
  kDirectFailed = 4, // the direct copy failed; Reply::value holds the errno
};

/// Fixed part of every request; the inline payload follows it in the same message.
struct Header {
  Kind kind;
  std::uint8_t acc_type;
  std::uint8_t rmw_op;
  std::uint8_t reply_mode;       // ReplyMode
  std::int32_t origin;
  std::int32_t target;
  std::uint32_t id;
  std::int32_t rmw_width;
  std::uint64_t remote;          // target-space address (strided base, RMW/mutex location)
  std::uint64_t bytes;           // data bytes of the transfer
  std::uint64_t inline_bytes;    // payload bytes following this header in the message
  std::uint64_t desc_bytes;      // vector: descriptor bytes (inline, or the first DATA message)
  std::int32_t levels;           // strided: the remote side's shape
  std::int32_t delivery;         // Delivery
  std::uint64_t origin_buffer;   // kDirect: the origin's contiguous buffer (in its address space)
  std::uint64_t count[kMaxLevels + 1];
  std::uint64_t stride[kMaxLevels];
  unsigned char scale[16];
  unsigned char operand[8];
  unsigned char compare[8];
  // A put with notify (Put, PutV): after the data is in place the server applies rmw_op with
  // `operand` (rmw_width bytes) to this target-space address, in the same slice as `remote`
  // (0: none). One request, so the flag can never overtake the data.
  std::uint64_t notify;
  // The target slice's segment (-1: none): a server outside the segment's group finds the
  // segment's node object by it (Kind::Adopt told it where the object lies).
  std::int64_t segment;
};

/// Kind::Adopt's table (its own message, `kTagAdopt`, after the header): a segment's node object
/// on this node, which the server maps since it is not in the segment's group and so has no
/// slice of it in its registry, and where each of the node's members maps it (the same address
/// on every member where the symmetric arena placed it). The creator waits for the Reply, so the
/// object is known before any request for it can arrive (allocation ends with a barrier).
struct AdoptHead {
  std::int32_t pid;              // the object's creator, holding it open as `fd`
  std::int32_t fd;
  std::uint64_t size;
  std::uint64_t members;         // AdoptMember entries that follow
};
struct AdoptMember {
  std::int64_t owner;            // world rank
  std::uint64_t object_start;    // where the owner maps the object (its slice base - its offset)
};

enum Delivery : std::int32_t {
  kMessages = 0,
  kDirect = 1,
  kInReply = 2,  // get only
};

struct Reply {
  std::int32_t status;
  std::int32_t pad;
  std::uint64_t value;  // RMW: the old value
};

/// Size of a request's data messages. A contiguous put or get (one run on both sides: the
/// origin sends from, or receives into, the user's buffer and the server the target's memory)
/// travels as one message, as there is no packing to pipeline; everything else in `chunk`-byte
/// pieces. Both sides compute it from the header.
inline std::size_t piece(const Header& h, std::size_t chunk) {
  const bool whole = (h.kind == Kind::Put || h.kind == Kind::Get) && h.levels == 0 && h.bytes > 0 &&
                     h.bytes <= static_cast<std::uint64_t>(std::numeric_limits<int>::max());
  return whole ? static_cast<std::size_t>(h.bytes) : chunk;
}

/// Vector descriptor: per set a SetHead, then `count` target-space addresses.
struct SetHead {
  std::uint64_t bytes;
  std::uint64_t count;
};

}  // namespace armada::rma::detail::server
