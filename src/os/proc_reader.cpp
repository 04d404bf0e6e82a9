#include "os/proc_reader.hpp"

#include <charconv>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <unistd.h>

namespace gpupack {

namespace {

std::optional<std::string> slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

// Shapes seen in kubelet-managed cgroups:
//   systemd driver: .../kubepods-burstable-pod<uid with _>.slice/cri-containerd-<id>.scope
//   cgroupfs driver: /kubepods/burstable/pod<uid>/<id>
std::optional<PodRef> pod_from_cgroup(const std::string& text) {
  static const std::regex systemd(R"(kubepods[^/\n]*-pod([0-9a-f_]{36})\.slice(?:/[a-z-]*-([0-9a-f]{64})\.scope)?)");
  static const std::regex cgroupfs(R"(/kubepods(?:/[a-z]+)?/pod([0-9a-f-]{36})(?:/([0-9a-f]{64}))?)");
  std::smatch m;
  if (std::regex_search(text, m, systemd)) {
    std::string uid = m[1];
    for (char& c : uid) {
      if (c == '_') c = '-';
    }
    return PodRef{uid, m[2]};
  }
  if (std::regex_search(text, m, cgroupfs)) return PodRef{m[1], m[2]};
  return std::nullopt;
}

std::optional<unsigned> LinuxProcReader::uid(int pid) const {
  const auto status = slurp(root_ + "/" + std::to_string(pid) + "/status");
  if (!status) return std::nullopt;
  std::istringstream in(*status);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("Uid:", 0) == 0) {
      std::istringstream fields(line.substr(4));
      unsigned real = 0;
      if (fields >> real) return real;
    }
  }
  return std::nullopt;
}

std::optional<std::string> LinuxProcReader::cgroup(int pid) const { return slurp(root_ + "/" + std::to_string(pid) + "/cgroup"); }

std::optional<std::string> LinuxProcReader::environment_variable(int pid, const std::string& name) const {
  const auto env = slurp(root_ + "/" + std::to_string(pid) + "/environ");
  if (!env) return std::nullopt;
  const std::string prefix = name + "=";
  std::size_t start = 0;
  while (start < env->size()) {
    std::size_t end = env->find('\0', start);
    if (end == std::string::npos) end = env->size();
    if (env->compare(start, prefix.size(), prefix) == 0) return env->substr(start + prefix.size(), end - start - prefix.size());
    start = end + 1;
  }
  return std::nullopt;
}

std::optional<double> cpu_seconds_from_stat(const std::string& text, long ticks_per_second) {
  const auto close = text.rfind(')');
  if (close == std::string::npos || ticks_per_second <= 0) return std::nullopt;
  std::istringstream fields(text.substr(close + 1));
  std::string field;
  unsigned long utime = 0, stime = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i) {  // field 3 is the state, right after the ')'
    if (i == 14 || i == 15) {
      auto& out = i == 14 ? utime : stime;
      const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), out);
      if (error != std::errc() || end != field.data() + field.size()) return std::nullopt;
    }
  }
  if (!fields) return std::nullopt;
  return static_cast<double>(utime + stime) / static_cast<double>(ticks_per_second);
}

std::optional<HostCpuTimes> host_cpu_times_from_stat(const std::string& text, long ticks_per_second) {
  if (ticks_per_second <= 0 || text.rfind("cpu ", 0) != 0) return std::nullopt;
  std::istringstream fields(text.substr(4, text.find('\n') == std::string::npos ? std::string::npos : text.find('\n') - 4));
  std::vector<unsigned long long> ticks;
  for (std::string field; fields >> field && ticks.size() < 8;) {
    unsigned long long v = 0;
    const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), v);
    if (error != std::errc() || end != field.data() + field.size()) return std::nullopt;
    ticks.push_back(v);
  }
  if (ticks.size() < 4) return std::nullopt;  // user nice system idle at least
  ticks.resize(8, 0);
  const double t = static_cast<double>(ticks_per_second);
  // user nice system idle iowait irq softirq steal
  return HostCpuTimes{static_cast<double>(ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6]) / t,
                      static_cast<double>(ticks[3] + ticks[4]) / t, static_cast<double>(ticks[7]) / t};
}

std::optional<HostCpuTimes> LinuxProcReader::host_cpu_times() const {
  const auto stat = slurp(root_ + "/stat");
  if (!stat) return std::nullopt;
  return host_cpu_times_from_stat(*stat, ::sysconf(_SC_CLK_TCK));
}

std::optional<double> LinuxProcReader::cpu_seconds(int pid) const {
  const auto stat = slurp(root_ + "/" + std::to_string(pid) + "/stat");
  if (!stat) return std::nullopt;
  return cpu_seconds_from_stat(*stat, ::sysconf(_SC_CLK_TCK));
}

std::vector<int> LinuxProcReader::children(int pid) const {
  std::vector<int> out;
  std::error_code ec;
  for (const auto& task : std::filesystem::directory_iterator(root_ + "/" + std::to_string(pid) + "/task", ec)) {
    const auto text = slurp(task.path().string() + "/children");
    if (!text) continue;
    std::istringstream in(*text);
    for (int child = 0; in >> child;) out.push_back(child);
  }
  return out;
}

std::vector<int> process_tree(const ProcReader& proc, int pid) {
  std::vector<int> tree{pid};
  for (std::size_t i = 0; i < tree.size() && tree.size() < 4096; ++i) {
    for (int c : proc.children(tree[i])) tree.push_back(c);
  }
  return tree;
}

}  // namespace gpupack
