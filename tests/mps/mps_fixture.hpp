#pragma once
// Shared setup for tests of the MPS layer against tests/fakes/fake-mps-control: private pipe and log
// directories, a real process runner, and polling helpers with generous deadlines (CI is slow).
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <thread>

#include "fakes/fake_filesystem.hpp"
#include "fakes/temp_dir.hpp"
#include "mps/mps_daemon.hpp"
#include "os/clock.hpp"
#include "os/process_runner.hpp"

namespace gpupack::testing {

class MpsFixture : public ::testing::Test {
 protected:
  TempDir tmp;
  PosixProcessRunner runner;
  OverridingFilesystem fs;
  SystemClock clock;

  MpsPaths paths() const { return {tmp / "pipe", tmp / "log"}; }
  MpsDaemonOptions options() const {
    MpsDaemonOptions o;
    o.paths = paths();
    o.binary = FAKE_MPS_CONTROL;
    o.start_timeout = std::chrono::seconds(20);
    o.quit_timeout = std::chrono::seconds(20);
    return o;
  }
  MpsControl control() { return MpsControl(runner, paths(), FAKE_MPS_CONTROL, std::chrono::seconds(20)); }

  // Polls `done` every 50 ms for up to 30 s.
  static bool eventually(const std::function<bool()>& done) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < deadline) {
      if (done()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return done();
  }

  // Quits whatever daemon a test left behind, so no fake process outlives the test.
  void TearDown() override {
    const auto c = control();
    if (c.send("get_server_list").ok) c.send("quit");
  }
};

}  // namespace gpupack::testing
