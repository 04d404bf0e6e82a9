#include "verify/shared_stalls.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <random>

#include "stall_traces.hpp"

namespace gpupack::verify {
namespace {

using gpupack::testing::stall_trace;

const StalledClient& client(const SharedStalls& s, const std::string& name) {
  for (const auto& c : s.clients) {
    if (c.name == name) return c;
  }
  throw std::runtime_error("no client " + name);
}

TEST(SharedStalls, StallsInStepWithTheGemmAreFoundAndNamed) {
  const auto trace = stall_trace(10, 16);  // ~104 stalls, ~10 a second, as measured beside the GEMM at 25%
  const SharedStalls s = find_shared_stalls(trace.clients);
  EXPECT_NEAR(s.events, trace.stalls, 2);
  ASSERT_TRUE(s.aligned_with.has_value());
  EXPECT_EQ(*s.aligned_with, "gemm-0");
  EXPECT_GE(s.aligned_share, kAlignedShare);
  EXPECT_NEAR(s.mean_ms, 6.0, 0.5);
  const auto& cnn = client(s, "resnet18-b1-0");
  EXPECT_GT(cnn.hit_fraction, 0.02);  // ~3% of its requests: the p99 is set by the stalls
  EXPECT_GT(*cnn.p99_ms, 8.5);
  EXPECT_LT(*cnn.p99_without_ms, 3.3);  // its own latency without them
  // The GEMM's own requests are the stalls, not requests that waited in them: it is not hit, and its
  // p99 is its own.
  const auto& gemm = client(s, "gemm-0");
  EXPECT_EQ(gemm.hit_fraction, 0);
  EXPECT_DOUBLE_EQ(*gemm.p99_ms, *gemm.p99_without_ms);
}

TEST(SharedStalls, StallsOffTheGemmsBoundariesAreFoundButNamedForNobody) {
  const SharedStalls s = find_shared_stalls(stall_trace(10, 16, 0.003).clients);
  EXPECT_GT(s.events, 80);
  EXPECT_FALSE(s.aligned_with.has_value());
}

TEST(SharedStalls, NoStallNoEventAndTheP99Unchanged) {
  const SharedStalls s = find_shared_stalls(stall_trace(5, 0).clients);
  EXPECT_EQ(s.events, 0);
  EXPECT_FALSE(s.aligned_with.has_value());
  ASSERT_EQ(s.clients.size(), 4u);
  for (const auto& c : s.clients) {
    EXPECT_EQ(c.hit_fraction, 0);
    EXPECT_DOUBLE_EQ(*c.p99_ms, *c.p99_without_ms);
  }
}

TEST(SharedStalls, OneClientsOwnSlowRequestsAreNotShared) {
  auto trace = stall_trace(5, 0);
  auto& cnn = trace.clients[2].requests;
  for (size_t i = 50; i < cnn.size(); i += 100) cnn[i].end_s += 0.008;  // slow alone: nobody else is
  const SharedStalls s = find_shared_stalls(trace.clients);
  EXPECT_EQ(s.events, 0);
}

TEST(SharedStalls, ClientsWithTooFewRequestsAreLeftOut) {
  std::vector<ClientSpans> clients = {{"a", {{0, 1}, {1, 2}}}, {"b", {}}};
  const SharedStalls s = find_shared_stalls(clients);
  EXPECT_EQ(s.events, 0);
  EXPECT_TRUE(s.clients.empty());
  EXPECT_EQ(find_shared_stalls({}).events, 0);
}

// Whatever the spans (overlapping, empty, reversed, not finite, in any order), the search ends with
// fractions in [0, 1] and a p99 without stalls wherever some request met none.
TEST(SharedStalls, AnySpansGiveSaneFigures) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> t(0, 2), len(0, 0.05), pick(0, 1);
  for (int round = 0; round < 200; ++round) {
    std::vector<ClientSpans> clients(1 + rng() % 5);
    for (size_t c = 0; c < clients.size(); ++c) {
      clients[c].name = "c" + std::to_string(c);
      const int n = static_cast<int>(rng() % 80);
      for (int i = 0; i < n; ++i) {
        const double start = t(rng);
        double end = start + len(rng);
        if (pick(rng) < 0.05) end = start - 0.01;
        if (pick(rng) < 0.02) end = std::numeric_limits<double>::infinity();
        clients[c].requests.push_back({start, end});
      }
    }
    const SharedStalls s = find_shared_stalls(clients);
    EXPECT_GE(s.events, 0);
    EXPECT_GE(s.mean_ms, 0);
    EXPECT_LE(s.mean_ms, s.max_ms + 1e-9);
    for (const auto& c : s.clients) {
      EXPECT_GE(c.hit_fraction, 0);
      EXPECT_LE(c.hit_fraction, 1);
      EXPECT_EQ(c.p99_without_ms.has_value(), c.hit_fraction < 1);
    }
  }
}

}  // namespace
}  // namespace gpupack::verify
