#include "measure/gpu_use_watch.hpp"

#include <algorithm>
#include <exception>

namespace gpupack::measure {

TreeGpuUse tree_gpu_use(const std::vector<GpuDeviceInfo>& devices, const std::set<unsigned>& pids) {
  TreeGpuUse use;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    for (const auto& proc : devices[i].processes) {
      if (!pids.count(proc.pid)) continue;
      use.listed = true;
      use.bytes += proc.used_memory_bytes.value_or(0);
      if (!use.device) use.device = i;
    }
  }
  return use;
}

TreeGpuUse tree_gpu_use(const std::vector<GpuDeviceInfo>& devices, const std::set<unsigned>& pids,
                        const std::vector<std::uint64_t>& baseline) {
  TreeGpuUse use = tree_gpu_use(devices, pids);
  std::uint64_t delta = 0;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const std::uint64_t base = i < baseline.size() ? baseline[i] : 0, used = devices[i].memory_used_bytes.value_or(0);
    if (used <= base) continue;
    delta += used - base;
    if (!use.device || i < *use.device) use.device = i;
  }
  if (!use.listed) use.bytes = delta;
  return use;
}

GpuUseWatch::GpuUseWatch(GpuBackend& gpu, const ProcReader& proc, double interval_s)
    : gpu_(gpu), proc_(proc), interval_s_(interval_s) {}

void GpuUseWatch::reset(std::size_t programs) {
  programs_.assign(programs, Program{});
  last_s_.reset();
  device_.reset();
  in_window_ = false;
  window_sm_ = window_dram_ = window_occupancy_ = {};
}

void GpuUseWatch::begin_window(double now_s, const std::vector<int>& roots) {
  last_s_.reset();
  in_window_ = false;
  sample(now_s, roots);  // the snapshot that starts the window's GPM interval
  in_window_ = true;
  window_sm_ = window_dram_ = window_occupancy_ = {};
}

std::optional<double> GpuUseWatch::window_sm_active() const { return window_sm_.value(); }

std::optional<double> GpuUseWatch::window_dram_bw() const { return window_dram_.value(); }

std::optional<double> GpuUseWatch::window_sm_occupancy() const { return window_occupancy_.value(); }

void GpuUseWatch::sample(double now_s, const std::vector<int>& roots) {
  if (error_ || (last_s_ && now_s - *last_s_ < interval_s_)) return;
  last_s_ = now_s;
  std::vector<GpuDeviceInfo> devices;
  try {
    devices = gpu_.devices();
  } catch (const std::exception& e) {
    error_ = e.what();
    return;
  }
  for (std::size_t i = 0; i < roots.size() && i < programs_.size(); ++i) {
    if (roots[i] <= 0) continue;
    const auto tree = process_tree(proc_, roots[i]);
    const TreeGpuUse use = tree_gpu_use(devices, std::set<unsigned>(tree.begin(), tree.end()));
    if (!use.uses_gpu()) continue;
    Program& p = programs_[i];
    if (!p.first_use_s) p.first_use_s = now_s;
    p.peak_bytes = std::max(p.peak_bytes.value_or(0), use.bytes);
    if (!device_) device_ = use.device;
  }
  // Where no device lists the programs' processes yet, a machine of one GPU has only theirs.
  const std::optional<std::size_t> device = device_ ? device_ : devices.size() == 1 ? std::optional<std::size_t>(0) : std::nullopt;
  if (in_window_ && device && *device < devices.size() && devices[*device].gpm) {
    const GpmActivity& g = *devices[*device].gpm;
    window_sm_.add(g.sm_active);
    window_dram_.add(g.dram_bw);
    window_occupancy_.add(g.sm_occupancy);
  }
}

std::optional<double> GpuUseWatch::first_use_s(std::size_t i) const {
  return i < programs_.size() ? programs_[i].first_use_s : std::nullopt;
}

std::optional<std::uint64_t> GpuUseWatch::peak_bytes(std::size_t i) const {
  return i < programs_.size() ? programs_[i].peak_bytes : std::nullopt;
}

}  // namespace gpupack::measure
