// ARMADA_TRANSPORT=auto's rule (core/auto_choice.hpp) on injected facts and loads, without MPI:
// the first candidate that suits wins; otherwise the fallback, unless it needs an idle core and
// other processes take the busiest host's last core, where the first candidate that started runs
// though it does not suit (a host full of the job's own ranks keeps the fallback).
#include <gtest/gtest.h>

#include <vector>

#include "core/auto_choice.hpp"

namespace {

using armada::rma::detail::AutoCandidate;
using armada::rma::detail::auto_needs_load;
using armada::rma::detail::choose_auto;
using armada::rma::detail::HostLoad;

AutoCandidate rdma(bool starts, bool suits) {
  return {"rdma", starts, suits, suits ? "UCX reaches every rank one-sidedly" : "UCX emulates operations with messages",
          false};
}
AutoCandidate server() { return {"server", true, false, "", true}; }
AutoCandidate tcp(bool starts, bool suits) {
  return {"tcp", starts, suits,
          !starts ? "no interface ARMADA_TCP_IF names" : suits ? "no fabric device on the hosts" : "a fabric device",
          false};
}

TEST(AutoChoice, OneSidedRdmaWinsWhateverTheLoad) {
  const std::vector<AutoCandidate> c{rdma(true, true), server()};
  EXPECT_FALSE(auto_needs_load(c));
  const auto d = choose_auto(c, HostLoad{8, 2, 5});
  EXPECT_EQ(d.index, 0u);
  EXPECT_EQ(d.why, "UCX reaches every rank one-sidedly");
}

// start_auto decides as soon as one suits, with the candidates tried so far.
TEST(AutoChoice, TheFirstThatSuitsWinsWithoutTheRest) {
  const std::vector<AutoCandidate> c{rdma(true, true)};
  const auto d = choose_auto(c, std::nullopt);
  EXPECT_EQ(d.index, 0u);
  EXPECT_EQ(d.why, "UCX reaches every rank one-sidedly");
}

TEST(AutoChoice, QuietHostKeepsTheServerWhereRdmaEmulates) {
  const std::vector<AutoCandidate> c{rdma(true, false), server()};
  ASSERT_TRUE(auto_needs_load(c));
  const auto d = choose_auto(c, HostLoad{1, 2, 0});  // one rank, two cores, nothing else running
  EXPECT_EQ(d.index, 1u);
  EXPECT_NE(d.why.find("rdma does not suit: UCX emulates"), std::string::npos) << d.why;
  EXPECT_NE(d.why.find("the fallback; every host has an idle core"), std::string::npos) << d.why;
  EXPECT_NE(d.why.find("1 rank and 0 other running threads on 2 cores"), std::string::npos) << d.why;
}

TEST(AutoChoice, HostWhereOthersTakeTheLastCoreTakesRdmaThoughItEmulates) {
  const std::vector<AutoCandidate> c{rdma(true, false), server()};
  for (const HostLoad& load : {HostLoad{1, 2, 1},    // a busy process beside the rank
                               HostLoad{2, 2, 1},    // every core runs a rank, and something else runs
                               HostLoad{4, 2, 3}}) { // oversubscribed
    ASSERT_TRUE(load.starved_by_others()) << load.describe();
    const auto d = choose_auto(c, load);
    EXPECT_EQ(d.index, 0u) << load.describe();
    EXPECT_NE(d.why.find("server needs an idle core for its polling thread and other processes take a host's last (" +
                         load.describe() + ")"),
              std::string::npos) << d.why;
    EXPECT_NE(d.why.find("rdma does not suit: UCX emulates"), std::string::npos) << d.why;
    EXPECT_TRUE(d.why.ends_with("): rdma runs though it does not suit")) << d.why;
  }
}

// The job's own ranks on every core (or more): they wait inside Armada, and a waiting rank serves.
TEST(AutoChoice, HostFullOfTheJobsOwnRanksKeepsTheServer) {
  const std::vector<AutoCandidate> c{rdma(true, false), server()};
  for (const HostLoad& load : {HostLoad{2, 2, 0}, HostLoad{4, 2, 0}}) {
    ASSERT_FALSE(load.starved_by_others()) << load.describe();
    const auto d = choose_auto(c, load);
    EXPECT_EQ(d.index, 1u) << load.describe();
    EXPECT_NE(d.why.find("rdma does not suit: UCX emulates"), std::string::npos) << d.why;
    EXPECT_NE(d.why.find("the job's own ranks fill the busiest host (" + load.describe() +
                         "): ranks that wait in Armada serve their node"),
              std::string::npos) << d.why;
  }
}

// The job's reduction keeps the host of the largest severity: one starved by others outranks
// any host the job's own ranks fill, however oversubscribed.
TEST(AutoChoice, StarvedByOthersOutranksFullOfRanks) {
  const HostLoad full_of_ranks{16, 2, 0}, busy_neighbour{1, 2, 1}, quiet{1, 2, 0};
  EXPECT_GT(busy_neighbour.severity(), full_of_ranks.severity());
  EXPECT_GT(full_of_ranks.severity(), quiet.severity());
  EXPECT_EQ(quiet.severity(), -1);
}

TEST(AutoChoice, NoLoadMeasuredIsTheFallback) {
  const std::vector<AutoCandidate> c{rdma(true, false), server()};
  EXPECT_EQ(choose_auto(c, std::nullopt).index, 1u);
}

TEST(AutoChoice, RdmaThatCannotStartLeavesTheServerWhateverTheLoad) {
  const std::vector<AutoCandidate> c{{"rdma", false, false, "built without UCX", false}, server()};
  EXPECT_FALSE(auto_needs_load(c));
  const auto d = choose_auto(c, HostLoad{4, 2, 3});
  EXPECT_EQ(d.index, 1u);
  EXPECT_EQ(d.why, "rdma cannot start: built without UCX; the fallback");
}

TEST(AutoChoice, AFallbackWithoutAPollingThreadNeedsNoLoad) {
  // Below MPI_THREAD_MULTIPLE the server gives way to mpi-rma, which needs no idle core.
  const std::vector<AutoCandidate> c{rdma(true, false), {"server", true, false, "", false}};
  EXPECT_FALSE(auto_needs_load(c));
  EXPECT_EQ(choose_auto(c, HostLoad{4, 2, 3}).index, 1u);
}

// Where UCX only emulates and no host has a fabric device: tcp, whatever the load (its service
// thread sleeps until a request arrives), without measuring it.
TEST(AutoChoice, TcpWinsWhereRdmaEmulatesAndNoHostHasAFabric) {
  const std::vector<AutoCandidate> tried{rdma(true, false), tcp(true, true)};  // start_auto stops there
  EXPECT_FALSE(auto_needs_load(tried));
  const auto d = choose_auto(tried, std::nullopt);
  EXPECT_EQ(d.index, 1u);
  EXPECT_EQ(d.why, "rdma does not suit: UCX emulates operations with messages; no fabric device on the hosts");
}

// A tcp that does not suit (a fabric device) or cannot start leaves the server and its load rule.
TEST(AutoChoice, TcpThatDoesNotSuitLeavesTheServerAndTheLoadRule) {
  for (const AutoCandidate& t : {tcp(true, false), tcp(false, false)}) {
    const std::vector<AutoCandidate> c{rdma(true, false), t, server()};
    ASSERT_TRUE(auto_needs_load(c));
    const auto quiet = choose_auto(c, HostLoad{1, 2, 0});
    EXPECT_EQ(quiet.index, 2u);
    EXPECT_NE(quiet.why.find(std::string("tcp ") + (t.starts ? "does not suit: " : "cannot start: ") + t.why),
              std::string::npos) << quiet.why;
    const auto busy = choose_auto(c, HostLoad{1, 2, 1});
    EXPECT_EQ(busy.index, 0u) << busy.why;  // the first that started: rdma, not tcp
    EXPECT_NE(busy.why.find(std::string("tcp ") + (t.starts ? "does not suit" : "cannot start")), std::string::npos)
        << busy.why;
  }
}

// Without UCX: tcp where it suits, else the server.
TEST(AutoChoice, WithoutRdmaTcpOrTheServer) {
  const AutoCandidate no_rdma{"rdma", false, false, "built without UCX", false};
  EXPECT_EQ(choose_auto(std::vector<AutoCandidate>{no_rdma, tcp(true, true)}, std::nullopt).index, 1u);
  const std::vector<AutoCandidate> c{no_rdma, tcp(true, false), server()};
  const auto d = choose_auto(c, HostLoad{4, 2, 3});
  EXPECT_EQ(d.index, 1u) << d.why;  // tcp started: on a starved host it runs rather than the server
}

TEST(AutoChoice, IdleCores) {
  EXPECT_EQ((HostLoad{1, 2, 0}).idle_cores(), 1);
  EXPECT_EQ((HostLoad{2, 2, 0}).idle_cores(), 0);
  EXPECT_EQ((HostLoad{1, 4, 1}).idle_cores(), 2);
  EXPECT_EQ((HostLoad{1, 1, 0}).describe(), "1 rank and 0 other running threads on 1 core");
}

}  // namespace
