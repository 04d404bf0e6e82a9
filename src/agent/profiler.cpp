#include "agent/profiler.hpp"

#include <signal.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

#include "core/gpu_catalog.hpp"
#include "core/units.hpp"

namespace gpupack {

namespace {

std::string base_name(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string format_ratio(double v) {
  std::ostringstream s;
  s.precision(3);
  s << v;
  return s.str();
}

}  // namespace

ProfileResult profile_program(const ProfileOptions& o, ProcessRunner& runner, GpuBackend& gpu, ProcReader& proc, Clock& clock) {
  ProfileResult r;
  r.name = o.name.empty() ? base_name(o.command.front()) : o.name;
  // Baseline: what other processes already hold, for the device-delta fallback.
  std::vector<std::uint64_t> baseline;
  for (const auto& d : gpu.devices()) baseline.push_back(d.memory_used_bytes.value_or(0));
  ProcessSpec spec;
  spec.argv = o.command;
  const auto started = clock.now();
  auto child = runner.spawn(spec);
  std::optional<int> status;
  double util_sum = 0;
  int util_count = 0;
  while (!status) {
    clock.sleep_for(o.interval);
    status = child->poll();
    const double seconds = std::chrono::duration<double>(clock.now() - started).count();
    if (!status && o.duration && clock.now() - started >= *o.duration) {
      child->signal(SIGTERM);
      r.stopped_at_duration = true;
    }
    const auto tree_vec = process_tree(proc, child->pid());
    const std::set<unsigned> tree(tree_vec.begin(), tree_vec.end());
    const auto devices = gpu.devices();
    ProfileSample s;
    s.seconds = seconds;
    std::uint64_t own = 0, delta = 0;
    bool own_seen = false;
    for (std::size_t i = 0; i < devices.size(); ++i) {
      const auto& d = devices[i];
      bool used_here = false;
      for (const auto& p : d.processes) {
        if (!tree.count(p.pid)) continue;
        own_seen = used_here = true;
        own += p.used_memory_bytes.value_or(0);
      }
      const std::uint64_t base = i < baseline.size() ? baseline[i] : 0;
      const std::uint64_t used = d.memory_used_bytes.value_or(0);
      const std::uint64_t dev_delta = used > base ? used - base : 0;
      delta += dev_delta;
      // Utilisation of the GPUs the program used (by process, or by a memory increase).
      if ((used_here || dev_delta > 0) && d.utilization_gpu) s.utilization = std::max(s.utilization.value_or(0), *d.utilization_gpu);
      if ((used_here || dev_delta > 0) && r.gpu_name.empty()) r.gpu_name = d.name;
    }
    r.per_process = r.per_process || own_seen;
    s.memory_bytes = own_seen ? own : delta;
    if (s.utilization) {
      util_sum += *s.utilization;
      ++util_count;
    }
    r.samples.push_back(s);
    if (r.stopped_at_duration) status = child->wait();
  }
  r.exit_code = *status;
  for (const auto& s : r.samples) r.peak_memory_bytes = std::max(r.peak_memory_bytes, s.memory_bytes);
  const double with = std::ceil(static_cast<double>(r.peak_memory_bytes) * (1 + o.headroom) / static_cast<double>(kMiB));
  r.memory_with_headroom_bytes = static_cast<std::uint64_t>(with) * kMiB;
  if (util_count > 0) r.mean_utilization = util_sum / util_count;
  if (r.gpu_name.empty()) {
    const auto devices = gpu.devices();
    if (!devices.empty()) r.gpu_name = devices.front().name;
  }
  return r;
}

std::string workload_yaml(const ProfileResult& r) {
  static const GpuCatalog catalog = builtin_catalog();
  const GpuModel* model = catalog.find(r.gpu_name);
  std::ostringstream y;
  y << "# gpupack profile: " << r.samples.size() << " samples, exit code " << r.exit_code
    << (r.stopped_at_duration ? " (stopped at --duration)" : "") << "\n"
    << "# peak GPU memory " << format_size(r.peak_memory_bytes) << " ("
    << (r.per_process ? "its processes, CUDA context included" : "device memory increase") << ")"
    << ", on " << (model ? model->name : (r.gpu_name.empty() ? "no GPU seen" : r.gpu_name)) << "\n"
    << (r.peak_memory_bytes == 0 ? "# no GPU memory seen: did the program use the GPU? (memory below is 0)\n" : "")
    << "workloads:\n"
    << "  - name: " << r.name << "\n"
    << "    memory: " << format_size(r.memory_with_headroom_bytes) << "\n";
  // Mean utilisation is the share of time a kernel ran: an upper bound of the SM share it needs.
  const double compute = r.mean_utilization ? std::clamp(*r.mean_utilization, 0.01, 1.0) : 1.0;
  y << "    compute: " << format_ratio(compute)
    << (r.mean_utilization ? "" : "  # utilisation not reported: assume a whole GPU") << "\n";
  return y.str();
}

}  // namespace gpupack
