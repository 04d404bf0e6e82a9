#pragma once
// What the agent reads about a process from /proc: its owner, its cgroup (which names the Kubernetes
// pod and container when it runs in one), one variable of its environment, its children. Behind an
// interface so that tests can describe processes that do not exist.
#include <optional>
#include <string>
#include <vector>

namespace gpupack {

struct PodRef {
  std::string pod_uid;       // e.g. 0f6b1e0e-4f0a-4a34-9f0b-2d6c7a1e9c11
  std::string container_id;  // runtime container id (64 hex), may be empty
};

// Parses /proc/<pid>/cgroup text (cgroup v1 or v2, systemd or cgroupfs drivers) for a kubepods path.
std::optional<PodRef> pod_from_cgroup(const std::string& cgroup_text);

// The whole host's CPU time so far, summed over its CPUs (/proc/stat's "cpu" line), in seconds: busy (user,
// nice, system, irq, softirq; guests are inside user), idle (idle, iowait) and steal (the hypervisor gave
// the time to other guests: on a VM, a program's core can be slower than its profile says).
struct HostCpuTimes {
  double busy = 0, idle = 0, steal = 0;
};

class ProcReader {
 public:
  virtual ~ProcReader() = default;
  virtual std::optional<unsigned> uid(int pid) const = 0;
  virtual std::optional<std::string> cgroup(int pid) const = 0;
  // One variable of the process's environment (needs the same uid or root).
  virtual std::optional<std::string> environment_variable(int pid, const std::string& name) const = 0;
  // Direct children (from /proc/<pid>/task/*/children).
  virtual std::vector<int> children(int pid) const = 0;
  // CPU time the process has used so far, user + system, in seconds (/proc/<pid>/stat utime + stime).
  virtual std::optional<double> cpu_seconds(int pid) const { (void)pid; return std::nullopt; }
  // The host's CPU time so far (/proc/stat); none where it cannot be read.
  virtual std::optional<HostCpuTimes> host_cpu_times() const { return std::nullopt; }
};

class LinuxProcReader : public ProcReader {
 public:
  explicit LinuxProcReader(std::string proc_root = "/proc") : root_(std::move(proc_root)) {}
  std::optional<unsigned> uid(int pid) const override;
  std::optional<std::string> cgroup(int pid) const override;
  std::optional<std::string> environment_variable(int pid, const std::string& name) const override;
  std::vector<int> children(int pid) const override;
  std::optional<double> cpu_seconds(int pid) const override;
  std::optional<HostCpuTimes> host_cpu_times() const override;

 private:
  std::string root_;
};

// Fields 14 and 15 (utime, stime, in clock ticks) of /proc/<pid>/stat text; the command name (field 2)
// may hold spaces and parentheses, so fields are counted after its last ')'.
std::optional<double> cpu_seconds_from_stat(const std::string& stat_text, long ticks_per_second);

// The first line of /proc/stat text ("cpu  user nice system idle iowait irq softirq steal ..." in clock
// ticks; kernels before 2.6.11 have no steal: 0); none when it is not that line.
std::optional<HostCpuTimes> host_cpu_times_from_stat(const std::string& proc_stat_text, long ticks_per_second);

// The pid and all its descendants.
std::vector<int> process_tree(const ProcReader& proc, int pid);

}  // namespace gpupack
