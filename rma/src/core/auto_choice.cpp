#include "core/auto_choice.hpp"

namespace armada::rma::detail {

std::string HostLoad::describe() const {
  return std::to_string(ranks) + (ranks == 1 ? " rank" : " ranks") + " and " + std::to_string(others_running) +
         " other running " + (others_running == 1 ? "thread" : "threads") + " on " + std::to_string(cores) +
         (cores == 1 ? " core" : " cores");
}

namespace {

// The first candidate before the fallback that starts (though it does not suit), or the size.
std::size_t first_starting(std::span<const AutoCandidate> c) {
  for (std::size_t i = 0; i + 1 < c.size(); ++i)
    if (c[i].starts) return i;
  return c.size();
}

// What was left behind, and why: "rdma does not suit: ...; ".
std::string passed(std::span<const AutoCandidate> c, std::size_t upto) {
  std::string text;
  for (std::size_t i = 0; i < upto; ++i)
    text += c[i].name + (c[i].starts ? " does not suit: " : " cannot start: ") + c[i].why + "; ";
  return text;
}

}  // namespace

bool auto_needs_load(std::span<const AutoCandidate> c) {
  if (c.empty() || !c.back().needs_idle_core) return false;
  for (std::size_t i = 0; i + 1 < c.size(); ++i)
    if (c[i].suits) return false;
  return first_starting(c) < c.size();
}

AutoDecision choose_auto(std::span<const AutoCandidate> c, const std::optional<HostLoad>& busiest) {
  for (std::size_t i = 0; i < c.size(); ++i)  // start_auto asks with the candidates tried so far
    if (c[i].suits) return {i, passed(c, i) + c[i].why};
  const std::size_t last = c.empty() ? 0 : c.size() - 1;
  if (!auto_needs_load(c) || !busiest) return {last, passed(c, last) + "the fallback"};
  if (busiest->starved_by_others()) {
    const std::size_t i = first_starting(c);
    return {i, passed(c, last) + c[last].name + " needs an idle core for its polling thread and other processes take a host's last (" +
                   busiest->describe() + "): " + c[i].name + " runs though it does not suit"};
  }
  if (busiest->idle_cores() < 1)
    return {last, passed(c, last) + "the fallback; the job's own ranks fill the busiest host (" + busiest->describe() +
                      "): ranks that wait in Armada serve their node"};
  return {last, passed(c, last) + "the fallback; every host has an idle core for its thread (the busiest: " +
                    busiest->describe() + ")"};
}

}  // namespace armada::rma::detail
