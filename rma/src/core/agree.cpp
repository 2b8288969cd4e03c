#include "core/agree.hpp"

#include <climits>
#include <cstring>
#include <cstdint>
#include <new>
#include <string>
#include <vector>

#include "armada/rma/error.hpp"
#include "core/check.hpp"
#include "core/state.hpp"

namespace armada::rma::detail {

namespace {

enum class Kind : std::int32_t { Invalid, State, Unsupported, System, Other };

// What the first failing rank tells the others: the kind and the parts of its error.
struct Report {
  Kind kind = Kind::Other;
  std::string argument, value, message;
};

Report describe(std::exception_ptr error) {
  Report r;
  try {
    std::rethrow_exception(error);
  } catch (const InvalidArgument& e) {
    r = {Kind::Invalid, e.argument(), e.value(), e.what()};
  } catch (const StateError& e) {
    r = {Kind::State, {}, {}, e.what()};
  } catch (const Unsupported& e) {
    r = {Kind::Unsupported, {}, {}, e.what()};
  } catch (const SystemError& e) {
    r = {Kind::System, {}, {}, e.what()};
  } catch (const std::exception& e) {
    r = {Kind::Other, {}, {}, e.what()};
  } catch (...) {
    r = {Kind::Other, {}, {}, "an unknown exception"};
  }
  return r;
}

// Strings travel as one buffer: kind, then each string's length and bytes.
std::vector<char> pack(const Report& r) {
  std::vector<char> out(sizeof(Kind));
  std::memcpy(out.data(), &r.kind, sizeof(Kind));
  for (const std::string* s : {&r.argument, &r.value, &r.message}) {
    const std::uint64_t n = s->size();
    out.insert(out.end(), reinterpret_cast<const char*>(&n), reinterpret_cast<const char*>(&n) + sizeof n);
    out.insert(out.end(), s->begin(), s->end());
  }
  return out;
}

Report unpack(const std::vector<char>& in) {
  Report r;
  std::size_t at = sizeof(Kind);
  std::memcpy(&r.kind, in.data(), sizeof(Kind));
  for (std::string* s : {&r.argument, &r.value, &r.message}) {
    std::uint64_t n = 0;
    std::memcpy(&n, in.data() + at, sizeof n);
    at += sizeof n;
    s->assign(in.data() + at, n);
    at += n;
  }
  return r;
}

[[noreturn]] void throw_on_behalf(const char* op, int failed_rank, const Report& r) {
  const std::string who = "rank " + std::to_string(failed_rank) + " failed, so the call failed on every member: ";
  switch (r.kind) {
    case Kind::Invalid: throw_invalid(op, r.argument.c_str(), r.value, who + r.message);
    case Kind::State: throw_state(op, who + r.message);
    case Kind::Unsupported: throw_unsupported(op, who + r.message);
    case Kind::System:
    case Kind::Other: break;
  }
  throw SystemError(op, rank_prefix() + op + ": " + who + r.message);
}

}  // namespace

void agree_on(const char* op, MPI_Comm comm, std::exception_ptr error) {
  int me = 0;
  MPI_Comm_rank(comm, &me);
  int first = error ? me : INT_MAX;  // the lowest failing rank of comm speaks for all
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == INT_MAX) return;

  std::vector<char> buffer;
  int world_rank = g_state ? g_state->rank : me;
  if (me == first) buffer = pack(describe(error));
  std::uint64_t bytes = buffer.size();
  int header[2] = {world_rank, 0};
  MPI_Bcast(header, 2, MPI_INT, first, comm);
  MPI_Bcast(&bytes, 1, MPI_UINT64_T, first, comm);
  buffer.resize(bytes);
  MPI_Bcast(buffer.data(), static_cast<int>(bytes), MPI_CHAR, first, comm);
  if (error) std::rethrow_exception(error);  // a failing rank keeps its own error
  throw_on_behalf(op, header[0], unpack(buffer));
}

}  // namespace armada::rma::detail

namespace armada::rma {

void agree_on(const char* operation, std::exception_ptr error, const Group& group) {
  detail::agree_on(operation, group.comm(), error);
}

}  // namespace armada::rma
