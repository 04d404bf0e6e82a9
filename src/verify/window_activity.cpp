#include "verify/window_activity.hpp"

namespace gpupack::verify {

void WindowActivityMeter::Mean::add(const std::optional<double>& v, double s) {
  if (!v) return;
  if (!first) first = *v;
  weighted += (*v - *first) * s;
  seconds += s;
}

std::optional<double> WindowActivityMeter::Mean::value() const {
  return seconds > 0 ? std::optional<double>(*first + weighted / seconds) : std::nullopt;
}

void WindowActivityMeter::add(const GpmActivity& a, double from_s, double to_s) {
  constexpr double kSlack = 1e-6;  // session times are sums of doubles
  const double s = to_s - from_s;
  if (s <= 0 || from_s < from_ - kSlack || to_s > to_ + kSlack) return;
  sm_.add(a.sm_active, s);
  dram_.add(a.dram_bw, s);
  tensor_.add(a.tensor_active, s);
  seconds_ += s;
  ++samples_;
}

std::optional<WindowActivity> WindowActivityMeter::result() const {
  if (samples_ == 0) return std::nullopt;
  WindowActivity w{sm_.value(), dram_.value(), tensor_.value(), seconds_, samples_};
  if (!w.sm_active && !w.dram_bw && !w.tensor_active) return std::nullopt;
  return w;
}

std::optional<GpmActivity> gpm_of(const std::vector<GpuDeviceInfo>& devices, const std::string& uuid) {
  for (const auto& d : devices) {
    if (d.uuid == uuid) return d.gpm;
    for (const auto& m : d.mig_instances) {
      if (m.uuid == uuid) return m.gpm;
    }
  }
  return std::nullopt;
}

}  // namespace gpupack::verify
