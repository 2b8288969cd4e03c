// The rdma transport's request messages: what an origin sends to a target's request service
// (accumulates) as UCP active messages, and what the service answers.
// Everything travels in the message's data (no UCP header), so one buffer holds a request.
#pragma once

#include <cstdint>

namespace armada::rma::detail::rdma {

/// Active message ids: requests arrive at the service worker, replies at the origin worker.
inline constexpr unsigned kRequestAm = 1;
inline constexpr unsigned kReplyAm = 2;
inline constexpr unsigned kKeyReplyAm = 3;

enum class RequestKind : std::uint32_t { Acc = 1, Key = 2 };
enum class ReplyKind : std::uint32_t { AccDone = 1 };

/// An accumulate request: `runs` RunHeader records follow, then the payload of every run, in
/// order. `scale` holds one element of `type` (at most a complex double).
struct AccRequest {
  RequestKind kind;
  std::int32_t origin;  // world rank
  std::int32_t type;    // AccType
  std::uint32_t runs;
  alignas(16) unsigned char scale[16];
};
struct RunHeader {
  std::uint64_t remote;  // in the target's address space
  std::uint64_t bytes;
};

/// A request for the packed remote key of the target's slice of `segment`: an origin asks on
/// first contact with the slice, so no rank keeps (or unpacks) the keys of every member.
struct KeyRequest {
  RequestKind kind;
  std::int32_t origin;    // world rank
  std::int64_t segment;
  std::uint64_t token;    // echoed in the reply: where the origin waits for it
};
/// The answer (kKeyReplyAm): the packed key follows the header; found == 0: no such segment.
struct KeyReply {
  std::uint64_t token;
  std::uint32_t found;
  std::uint32_t key_bytes;
};

struct Reply {
  ReplyKind kind;
  std::int32_t from;  // world rank of the service that answers
};

/// Accumulate payload per message: larger operations go as several requests (each its own
/// acknowledgement), so every request stays an eager message the service handles in place.
inline constexpr std::size_t kAccMessageBytes = 64 * 1024;

}  // namespace armada::rma::detail::rdma
