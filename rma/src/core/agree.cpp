#include "core/agree.hpp"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "armada/rma/assert.hpp"
#include "armada/rma/error.hpp"
#include "common/check.hpp"
#include "core/arrival.hpp"
#include "core/state.hpp"

namespace armada::rma::detail {

namespace {

// What the first failing rank tells the others: the kind and the parts of its error.
struct Report {
  ErrorKind kind = ErrorKind::internal;
  std::string argument, value, message;
};

Report describe(std::exception_ptr error) {
  Report r;
  try {
    std::rethrow_exception(error);
  } catch (const InvalidArgument& e) {
    r = {e.kind(), e.argument(), e.value(), e.what()};
  } catch (const std::exception& e) {
    r = {current_error_kind(), {}, {}, e.what()};
  } catch (...) {
    r = {ErrorKind::internal, {}, {}, "an unknown exception"};
  }
  return r;
}

// Strings travel as one buffer: kind, then each string's length and bytes.
std::vector<char> pack(const Report& r) {
  std::vector<char> out(sizeof(ErrorKind));
  std::memcpy(out.data(), &r.kind, sizeof(ErrorKind));
  for (const std::string* s : {&r.argument, &r.value, &r.message}) {
    const std::uint64_t n = s->size();
    out.insert(out.end(), reinterpret_cast<const char*>(&n), reinterpret_cast<const char*>(&n) + sizeof n);
    out.insert(out.end(), s->begin(), s->end());
  }
  return out;
}

Report unpack(const std::vector<char>& in) {
  Report r;
  std::size_t at = sizeof(ErrorKind);
  std::memcpy(&r.kind, in.data(), sizeof(ErrorKind));
  for (std::string* s : {&r.argument, &r.value, &r.message}) {
    std::uint64_t n = 0;
    std::memcpy(&n, in.data() + at, sizeof n);
    at += sizeof n;
    s->assign(in.data() + at, n);
    at += n;
  }
  return r;
}

// FNV-1a over the operation, then the names and values, each followed by a separator no text
// contains: members in different calls differ here too.
std::uint64_t digest(const char* op, const MustMatch& same) {
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&h](std::string_view s) {
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    h = (h ^ 0x100u) * 1099511628211ull;
  };
  mix(op);
  for (const auto& [name, value] : same) {
    mix(name);
    mix(value);
  }
  return h;
}

// The call a member is in, as a mismatch names it: "GA_Zero (arrays::fill)", or the collective
// alone outside any named entry point.
std::string call_name(const char* op) {
  const char* entry = EntryPoint::current();
  if (!entry || std::strcmp(entry, op) == 0) return op;
  return std::string(entry) + " (" + op + ")";
}

// One member's call and `same` arguments as text: its world rank, its operation, the call's
// name, then each name and value, every field ended by a NUL (which no name or value contains).
std::string encode(int world_rank, const char* op, const MustMatch& same) {
  std::string out = std::to_string(world_rank) + '\0' + op + '\0' + call_name(op) + '\0';
  for (const auto& [name, value] : same) out += name + '\0' + value + '\0';
  return out;
}

struct Arguments {
  int world_rank = 0;
  std::string op, call;
  MustMatch same;
};

Arguments decode(const char* p, std::size_t n) {
  std::vector<std::string> fields;
  for (std::size_t at = 0; at < n;) {
    const std::size_t len = std::strlen(p + at);
    fields.emplace_back(p + at, len);
    at += len + 1;
  }
  Arguments a;
  a.world_rank = std::stoi(fields.at(0));
  a.op = fields.at(1);
  a.call = fields.at(2);
  for (std::size_t i = 3; i + 1 < fields.size(); i += 2) a.same.emplace_back(fields[i], fields[i + 1]);
  return a;
}

// Every member's `same` arguments, in comm rank order (the error path only).
std::vector<Arguments> gather_arguments(MPI_Comm comm, const char* op, const MustMatch& same) {
  const std::string mine = encode(g_state ? g_state->rank : 0, op, same);
  const Gathered<char> g = allgather_varying(op, comm, std::span<const char>(mine.data(), mine.size()));
  std::vector<Arguments> out;
  for (std::size_t r = 0; r < g.counts.size(); ++r)
    out.push_back(decode(g.all.data() + g.displs[r], static_cast<std::size_t>(g.counts[r])));
  return out;
}

template <class T>
Gathered<T> allgather_of(const char* op, MPI_Comm comm, std::span<const T> mine, MPI_Datatype type) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  Gathered<T> g;
  g.counts.resize(static_cast<std::size_t>(size));
  g.displs.resize(static_cast<std::size_t>(size));
  const int n = static_cast<int>(mine.size());
  allgather_polling(op, &n, 1, MPI_INT, g.counts.data(), comm);
  int total = 0;
  for (std::size_t r = 0; r < g.counts.size(); ++r) {
    g.displs[r] = total;
    total += g.counts[r];
  }
  g.all.resize(static_cast<std::size_t>(total));
  MPI_Request request;
  MPI_Iallgatherv(mine.data(), n, type, g.all.data(), g.counts.data(), g.displs.data(), type, comm, &request);
  wait_polling(request, op);
  return g;
}

// "ranks 0, 2 in GA_Sync (rma::barrier); rank 1 in GA_Zero (arrays::fill)": which member is in
// which call, calls in the order of their lowest rank.
std::string who_is_where(const std::vector<Arguments>& all) {
  std::vector<std::pair<std::string, std::vector<int>>> calls;
  for (const Arguments& a : all) {
    auto it = std::find_if(calls.begin(), calls.end(), [&](const auto& c) { return c.first == a.call; });
    if (it == calls.end()) it = calls.insert(calls.end(), {a.call, {}});
    it->second.push_back(a.world_rank);
  }
  std::string out;
  for (const auto& [call, ranks] : calls) {
    if (!out.empty()) out += "; ";
    out += ranks.size() == 1 ? "rank " : "ranks ";
    for (std::size_t i = 0; i < ranks.size(); ++i) out += (i ? ", " : "") + std::to_string(ranks[i]);
    out += " in " + call;
  }
  return out;
}

// Members whose operations differ are in different collective calls: the same error on each,
// naming every member's call (its arguments cannot be compared).
void throw_if_different_calls(const char* op, const std::vector<Arguments>& all) {
  for (const Arguments& a : all) {
    if (a.op == all[0].op) continue;
    throw_invalid(op, "call", call_name(op),
                  "the members of the group are in different collective calls (" + who_is_where(all) +
                      "): every member must make the same collective calls in the same order");
  }
}

// The first argument (in argument order) whose value differs between two members, named with
// both members' values: the same message on every member.
[[noreturn]] void throw_mismatch(const char* op, MPI_Comm comm, const MustMatch& same) {
  const std::vector<Arguments> all = gather_arguments(comm, op, same);
  throw_if_different_calls(op, all);
  const MustMatch& first = all[0].same;
  static const std::pair<std::string, std::string> nothing{"arguments", "(nothing)"};
  for (std::size_t r = 1; r < all.size(); ++r) {
    const MustMatch& other = all[r].same;
    for (std::size_t k = 0; k < std::max(first.size(), other.size()); ++k) {
      const auto& a = k < first.size() ? first[k] : nothing;
      const auto& b = k < other.size() ? other[k] : nothing;
      if (a == b) continue;
      const std::string mine = k < same.size() ? same[k].second : nothing.second;
      throw_invalid(op, (k < first.size() ? a : b).first.c_str(), mine,
                    "must be the same on every member of the group, but rank " + std::to_string(all[0].world_rank) +
                        " passed " + a.second + " and rank " + std::to_string(all[r].world_rank) + " passed " +
                        b.second);
    }
  }
  // Equal texts with different digests cannot happen; say so rather than pass silently.
  ARMADA_ASSERT(!"the members' arguments differ in a way the comparison could not locate");
  std::abort();  // not reached (ARMADA_NO_ASSERT)
}

// The others' error keeps the failed rank's kind (and its class: the kinds of InvalidArgument
// and the three other classes; any other kind is an Error of that kind).
[[noreturn]] void throw_on_behalf(const char* op, int failed_rank, const Report& r) {
  const std::string who = "rank " + std::to_string(failed_rank) + " failed, so the call failed on every member: ";
  switch (r.kind) {
    case ErrorKind::argument:
    case ErrorKind::handle:
    case ErrorKind::type: throw InvalidArgument(op, r.argument, r.value, who + r.message, r.kind);
    case ErrorKind::state: throw_state(op, who + r.message);
    case ErrorKind::unsupported: throw_unsupported(op, who + r.message);
    case ErrorKind::system: throw SystemError(op, error_message(op, who + r.message));
    case ErrorKind::internal:
    case ErrorKind::singular:
    case ErrorKind::not_positive_definite:
    case ErrorKind::no_convergence: break;
  }
  throw Error(r.kind, op, error_message(op, who + r.message));
}

}  // namespace

namespace {
thread_local std::uint64_t t_agreements = 0;
thread_local const char* t_entry = nullptr;  // the outermost EntryPoint's name
}  // namespace

Gathered<char> allgather_varying(const char* op, MPI_Comm comm, std::span<const char> mine) {
  return allgather_of(op, comm, mine, MPI_CHAR);
}
Gathered<int> allgather_varying(const char* op, MPI_Comm comm, std::span<const int> mine) {
  return allgather_of(op, comm, mine, MPI_INT);
}

void agree_on(const char* op, MPI_Comm comm, std::exception_ptr error, const MustMatch& same) {
  ++t_agreements;
  int me = 0;
  MPI_Comm_rank(comm, &me);
  // One reduction: the lowest failing rank of comm (it speaks for all), and the smallest digest
  // of the `same` arguments and the smallest of its negation (equal only if every digest is).
  // Signed and non-negative on purpose: MPICH 4.0 reduces MPI_UINT64_T with MPI_MIN as if it
  // were signed, so values with the top bit set would compare wrongly.
  const std::int64_t d = static_cast<std::int64_t>(digest(op, same) >> 1);
  std::int64_t v[3] = {error ? me : INT64_MAX, d, -d};
  // Where this rank waits, for a member whose wait outlasts ARMADA_STALL_WARN (core/arrival.hpp).
  struct Waiting {
    MPI_Comm comm;
    Ticket ticket;
    const char* op;
  } const waiting{comm, arrive(comm, op), op};
  MPI_Request request;
  MPI_Iallreduce(MPI_IN_PLACE, v, 3, MPI_INT64_T, MPI_MIN, comm, &request);
  wait_polling(request, op, [](const void* context, int seconds) {
    const auto& w = *static_cast<const Waiting*>(context);
    warn_not_arrived(w.comm, w.ticket, w.op, seconds);
  }, &waiting);
  depart();
  if (v[0] == INT64_MAX) {
    if (v[1] != -v[2]) throw_mismatch(op, comm, same);
    return;
  }
  const int first = static_cast<int>(v[0]);

  std::vector<char> buffer;
  int world_rank = g_state ? g_state->rank : me;
  if (me == first) buffer = pack(describe(error));
  std::uint64_t bytes = buffer.size();
  int header[2] = {world_rank, 0};
  bcast_polling(op, header, 2, MPI_INT, first, comm);
  bcast_polling(op, &bytes, 1, MPI_UINT64_T, first, comm);
  buffer.resize(bytes);
  bcast_polling(op, buffer.data(), static_cast<int>(bytes), MPI_CHAR, first, comm);
  if (error) std::rethrow_exception(error);  // a failing rank keeps its own error
  throw_on_behalf(op, header[0], unpack(buffer));
}

}  // namespace armada::rma::detail

namespace armada::rma {

std::uint64_t agreements_entered() noexcept { return detail::t_agreements; }

EntryPoint::EntryPoint(const char* name) noexcept : outer_(detail::t_entry) {
  if (!outer_) detail::t_entry = name;
}
EntryPoint::~EntryPoint() { detail::t_entry = outer_; }
const char* EntryPoint::current() noexcept { return detail::t_entry; }

void agree_on(const char* operation, std::exception_ptr error, const Group& group, const MustMatch& same) {
  detail::agree_on(operation, group.comm(), error, same);
}

}  // namespace armada::rma
