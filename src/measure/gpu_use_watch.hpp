#pragma once
// When each of several running programs first held GPU memory, and how much at most: what gpupack sees of
// a program that reports nothing (docs/client-report.md), so that its time on the GPU (first GPU use to
// exit) is measured without its start-up (importing PyTorch alone takes seconds). Each program is a
// process tree (a /bin/sh -c root and what it started); NVML lists a process's own memory, MPS clients
// included (nvmlDeviceGetMPSComputeRunningProcesses), so copies of one program are told apart.
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "gpu/gpu_backend.hpp"
#include "os/proc_reader.hpp"

namespace gpupack::measure {

// GPU memory a set of processes (a program's tree) holds in one snapshot of the devices: the one rule of
// `bench --client-cmd` and `gpupack profile`. NVML may list a process before it holds anything (its
// context being made), so the program uses the GPU once its listed processes hold memory, not at listing.
struct TreeGpuUse {
  bool listed = false;      // a device lists one of them
  std::uint64_t bytes = 0;  // the memory they hold (a process whose memory NVML does not give adds none)
  std::optional<std::size_t> device;  // the first device that lists one of them
  bool uses_gpu() const { return bytes > 0; }
};
TreeGpuUse tree_gpu_use(const std::vector<GpuDeviceInfo>& devices, const std::set<unsigned>& pids);
// The same for a program running alone (`gpupack profile`): where no device lists any of its processes
// (no per-process information), its memory is the devices' increase over `baseline` (their used memory
// before it started), and its device the first that lists one of its processes or whose memory grew.
TreeGpuUse tree_gpu_use(const std::vector<GpuDeviceInfo>& devices, const std::set<unsigned>& pids,
                        const std::vector<std::uint64_t>& baseline);

class GpuUseWatch {
 public:
  // Snapshots at most every `interval_s` (a device snapshot costs NVML calls per device and process).
  GpuUseWatch(GpuBackend& gpu, const ProcReader& proc, double interval_s = 0.2);

  // A new set of programs, none seen yet (one per cell of the grid).
  void reset(std::size_t programs);
  // Takes a snapshot when `interval_s` has passed since the last one. roots[i]: program i's root pid, or
  // -1 once it exited (its processes are gone; what was seen stays). A backend that fails stops the watch
  // (error() says why); the programs go on.
  void sample(double now_s, const std::vector<int>& roots);

  // Seconds (on the caller's clock) of the first snapshot in which program i held GPU memory (uses_gpu);
  // none: never.
  std::optional<double> first_use_s(std::size_t i) const;
  // Its largest GPU memory in any snapshot; none: it never held any.
  std::optional<std::uint64_t> peak_bytes(std::size_t i) const;
  const std::optional<std::string>& error() const { return error_; }

  // The device's GPM activity over a window (a grid cell's): begin_window() takes a snapshot at once
  // (GPM counts since the previous snapshot, so what came before the window is dropped), then every
  // snapshot adds the means of the device the programs use (on a machine of one GPU, that one). None
  // without GPM or before any use.
  void begin_window(double now_s, const std::vector<int>& roots);
  std::optional<double> window_sm_active() const;
  std::optional<double> window_dram_bw() const;
  // GPM's SM occupancy (resident warps over the most an SM holds, of the whole GPU): how much of each SM the
  // programs' blocks take, which sets how long another program's kernels wait for room (runs 63-65).
  std::optional<double> window_sm_occupancy() const;

 private:
  struct Program {
    std::optional<double> first_use_s;
    std::optional<std::uint64_t> peak_bytes;
  };
  GpuBackend& gpu_;
  const ProcReader& proc_;
  double interval_s_;
  std::optional<double> last_s_;
  std::vector<Program> programs_;
  std::optional<std::string> error_;
  std::optional<std::size_t> device_;  // the first device on which any of the programs held memory
  bool in_window_ = false;
  // A GPM share's mean over the window's snapshots: none before the first.
  struct WindowMean {
    double sum = 0;
    int n = 0;
    void add(const std::optional<double>& v) {
      if (v) sum += *v, ++n;
    }
    std::optional<double> value() const { return n > 0 ? std::optional(sum / n) : std::nullopt; }
  };
  WindowMean window_sm_, window_dram_, window_occupancy_;
};

}  // namespace gpupack::measure
