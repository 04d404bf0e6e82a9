#pragma once
// The sharing vocabulary, as one type with one text form: how the clients of one slice (a whole GPU or a
// MIG instance) share it (Sharing), and how one GPU is run (GpuMode: MIG instances or not, and the
// sharing inside). The deployment contract owns this vocabulary (contract/sharing.hpp adds the node
// side's rules); it lives in core because the pure planner, below the contract, produces it. Every text
// form of a sharing is made and read in sharing.cpp only.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpupack {

// How the clients of one slice share it.
enum class Sharing { exclusive, time_slicing, mps, streams };

// "exclusive" | "time-slicing" | "mps" | "streams": the plan JSON, node.yaml, the CLI and messages.
std::string_view to_string(Sharing sharing);
// Exactly to_string's forms; none for anything else ("timeslicing" included: plans and node.yaml have
// always been written with "time-slicing", so a plan that says otherwise was not written by gpupack).
std::optional<Sharing> parse_sharing(std::string_view text);
// The accepted spellings, for error messages: "exclusive, time-slicing, mps, streams" (without streams
// where only the node side's sharings are accepted: node.yaml).
std::string sharing_names(bool with_streams = true);

// Measurement records (the bench JSON, a workload profile's co-location grid, the calibration's field
// names such as timeslicing_p99_inflation) name a sharing by its key: "timeslicing" for time-slicing,
// to_string's form otherwise. The key is part of those file formats (every recorded run and the plan
// JSON's model section use it), so it stays; it is made here only.
std::string_view measurement_key(Sharing sharing);
// A measurement's mode: its key or to_string's form ("timeslicing" or "time-slicing"); none otherwise.
std::optional<Sharing> parse_measured_sharing(std::string_view text);

// How one GPU is run: the whole GPU as one slice, or MIG instances, with a sharing inside. Not a second
// vocabulary: its text is the sharing's ("mps"), after "mig+" with MIG ("mig+mps"; "mig" alone when the
// instances are not shared).
struct GpuMode {
  bool uses_mig = false;
  // Inside the slice, or inside the MIG instances (the most shared: mps before time-slicing before
  // exclusive). Never streams: streams is one process on an otherwise exclusive slice.
  Sharing sharing = Sharing::exclusive;
  bool operator==(const GpuMode&) const = default;

  // The six modes, by name, for code that means one of them.
  static const GpuMode exclusive, time_slicing, mps, mig, mig_mps, mig_time_slicing;
};
inline constexpr GpuMode GpuMode::exclusive{false, Sharing::exclusive};
inline constexpr GpuMode GpuMode::time_slicing{false, Sharing::time_slicing};
inline constexpr GpuMode GpuMode::mps{false, Sharing::mps};
inline constexpr GpuMode GpuMode::mig{true, Sharing::exclusive};
inline constexpr GpuMode GpuMode::mig_mps{true, Sharing::mps};
inline constexpr GpuMode GpuMode::mig_time_slicing{true, Sharing::time_slicing};

// The mode of a GPU whose slices share this way (streams runs as exclusive).
inline constexpr GpuMode gpu_mode(bool uses_mig, Sharing sharing) {
  return {uses_mig, sharing == Sharing::streams ? Sharing::exclusive : sharing};
}

// "exclusive" | "time-slicing" | "mps" | "mig" | "mig+mps" | "mig+time-slicing".
std::string to_string(GpuMode mode);
// Exactly to_string's forms; none for anything else.
std::optional<GpuMode> parse_gpu_mode(std::string_view text);
// "exclusive, time-slicing, mps, mig, mig+mps, mig+time-slicing", for error messages.
std::string gpu_mode_names();
// The six modes in the order plans compare them (exclusive first, MIG last).
const std::vector<GpuMode>& all_gpu_modes();

// Whether the slice's clients are separate processes that take turns or run together on it.
inline constexpr bool is_shared_by_processes(Sharing s) { return s == Sharing::mps || s == Sharing::time_slicing; }

}  // namespace gpupack
