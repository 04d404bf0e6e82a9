#include "verify/host_speed_note.hpp"

#include <gtest/gtest.h>

#include <deque>

namespace gpupack::verify {
namespace {

// Times from a list; none once it is empty.
class ListedProbe : public CpuWorkProbe {
 public:
  explicit ListedProbe(std::deque<double> ms) : ms_(std::move(ms)) {}
  std::optional<double> time_next_core() override {
    ++calls;
    if (ms_.empty()) return std::nullopt;
    const double t = ms_.front();
    ms_.pop_front();
    return t;
  }
  int calls = 0;

 private:
  std::deque<double> ms_;
};

AloneFigures profiled(const std::string& workload, std::optional<double> host_ms) {
  AloneFigures a;
  a.workload = workload;
  a.profile_host_core_work_ms = host_ms;
  return a;
}

TEST(HostSpeedNote, TheNodeIsTimedOverItsSamplesAsAProfileTimesItsHost) {
  ListedProbe probe({3.0, 2.9, 3.1, 6.0});
  const auto host = time_host_speed(probe);
  EXPECT_EQ(probe.calls, kHostWorkSamples);  // it asks for every sample, whatever the probe could time
  ASSERT_TRUE(host);
  EXPECT_EQ(host->samples, 4);
  EXPECT_DOUBLE_EQ(host->low_ms, 2.9);
  EXPECT_DOUBLE_EQ(host->median_ms, 3.05);
  EXPECT_DOUBLE_EQ(host->high_ms, 6.0);
  ListedProbe none({});
  EXPECT_FALSE(time_host_speed(none));
}

TEST(HostSpeedNote, EachProfilesHostIsSetBesideThisNodesAsARatio) {
  VerifyReport r;
  r.host_core_work = measure::HostCoreWork{2.9, 3.0, 3.2, 32};
  r.alone = {profiled("bert-base-b4", 1.5), profiled("dlrm-b4096", 2.0), profiled("old", std::nullopt)};
  add_host_speed_note(r);
  ASSERT_EQ(r.notes.size(), 1u);
  const std::string& n = r.notes[0];
  EXPECT_NE(n.find("a median of 3.00 ms"), std::string::npos) << n;
  EXPECT_NE(n.find("bert-base-b4 1.50 ms (x2.00), dlrm-b4096 2.00 ms (x1.50)"), std::string::npos) << n;
  EXPECT_EQ(n.find("old"), std::string::npos) << n;  // a profile that timed nothing is not named
  EXPECT_NE(n.find("this host is slower than its profiles' hosts"), std::string::npos) << n;
}

TEST(HostSpeedNote, TheDirectionSaysFasterAboutAsFastOrBoth) {
  const auto direction = [](double here, std::vector<double> theirs) {
    VerifyReport r;
    r.host_core_work = measure::HostCoreWork{here, here, here, 32};
    for (size_t i = 0; i < theirs.size(); ++i) r.alone.push_back(profiled("w" + std::to_string(i), theirs[i]));
    add_host_speed_note(r);
    return r.notes.at(0);
  };
  EXPECT_NE(direction(1.5, {3.0}).find("faster than its profiles' hosts"), std::string::npos);
  EXPECT_NE(direction(1.5, {1.6, 1.4}).find("about as fast as its profiles' hosts"), std::string::npos);
  EXPECT_NE(direction(2.0, {1.0, 4.0}).find("slower than some of its profiles' hosts and faster than others"), std::string::npos);
}

TEST(HostSpeedNote, NoNoteWithoutBothTimes) {
  VerifyReport untimed;
  untimed.alone = {profiled("bert-base-b4", 1.5)};
  add_host_speed_note(untimed);
  EXPECT_TRUE(untimed.notes.empty());
  VerifyReport unprofiled;
  unprofiled.host_core_work = measure::HostCoreWork{3, 3, 3, 32};
  unprofiled.alone = {profiled("old", std::nullopt)};
  add_host_speed_note(unprofiled);
  EXPECT_TRUE(unprofiled.notes.empty());
}

}  // namespace
}  // namespace gpupack::verify
