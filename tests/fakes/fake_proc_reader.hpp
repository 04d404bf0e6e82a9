#pragma once
// Processes described by the test instead of read from /proc (the fake machine's pids do not exist).
#include <map>
#include <string>

#include "os/proc_reader.hpp"

namespace gpupack::testing {

class FakeProcReader : public ProcReader {
 public:
  struct Process {
    unsigned uid = 0;
    std::string cgroup;
    std::map<std::string, std::string> env;
    std::vector<int> children;
    std::optional<double> cpu_seconds;  // user + system CPU time so far
  };
  std::map<int, Process> processes;
  std::optional<HostCpuTimes> host_times;  // the host's CPU time so far: tests advance it

  std::optional<unsigned> uid(int pid) const override {
    const auto it = processes.find(pid);
    return it == processes.end() ? std::nullopt : std::optional<unsigned>(it->second.uid);
  }
  std::optional<std::string> cgroup(int pid) const override {
    const auto it = processes.find(pid);
    return it == processes.end() ? std::nullopt : std::optional<std::string>(it->second.cgroup);
  }
  std::optional<std::string> environment_variable(int pid, const std::string& name) const override {
    const auto it = processes.find(pid);
    if (it == processes.end()) return std::nullopt;
    const auto v = it->second.env.find(name);
    return v == it->second.env.end() ? std::nullopt : std::optional<std::string>(v->second);
  }
  std::vector<int> children(int pid) const override {
    const auto it = processes.find(pid);
    return it == processes.end() ? std::vector<int>{} : it->second.children;
  }
  std::optional<double> cpu_seconds(int pid) const override {
    const auto it = processes.find(pid);
    return it == processes.end() ? std::nullopt : it->second.cpu_seconds;
  }
  std::optional<HostCpuTimes> host_cpu_times() const override { return host_times; }
};

}  // namespace gpupack::testing
