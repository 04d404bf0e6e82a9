#include "core/gpu_catalog.hpp"

#include <algorithm>
#include <utility>

#include "core/errors.hpp"
#include "core/text.hpp"

namespace gpupack {

namespace {
template <typename F>
void for_each_name(const GpuModel& m, F&& f) {
  f(m.name);
  for (const auto& a : m.aliases) f(a);
  for (const auto& a : m.nvml_names) f(a);
}
}  // namespace

GpuCatalog::GpuCatalog(std::vector<GpuModel> models) : models_(std::move(models)) {}

const GpuModel* GpuCatalog::find(std::string_view name) const {
  const std::string key = fold_name(name);
  if (key.empty()) return nullptr;
  for (const auto& m : models_) {
    bool hit = false;
    for_each_name(m, [&](const std::string& n) { hit = hit || fold_name(n) == key; });
    if (hit) return &m;
  }
  return nullptr;
}

std::string GpuCatalog::model_name(std::string_view product) const {
  const GpuModel* m = find(product);
  return m ? m->name : "";
}

const GpuModel& GpuCatalog::get(std::string_view name) const {
  if (const GpuModel* m = find(name)) return *m;
  if (fold_name(name).empty()) {
    throw InputError("empty GPU model name: give a model such as A100-80GB or H100-80GB (see `gpupack catalog`)");
  }
  throw InputError("unknown GPU model '" + quote_input(name) + "'; closest: " + join(closest(name, 4), ", ") +
                   " (see `gpupack catalog` for all)");
}

std::vector<std::string> GpuCatalog::closest(std::string_view name, size_t n) const {
  // Model names are short: 64 characters are enough to rank them, and keep a huge input cheap.
  const std::string key = fold_name(name.substr(0, 64));
  std::vector<std::pair<size_t, std::string>> scored;
  for (const auto& m : models_) {
    // A model scores by its nearest name; the canonical or short name is what we suggest.
    size_t best = SIZE_MAX;
    std::string shown = m.aliases.empty() ? m.name : m.aliases.front();
    for_each_name(m, [&](const std::string& candidate) {
      const std::string folded = fold_name(candidate);
      size_t d = edit_distance(key, folded);
      // A name that contains the input (or the reverse) is a strong hint: "h100" -> H100 models.
      if (!key.empty() && (folded.find(key) != std::string::npos || key.find(folded) != std::string::npos)) {
        d = std::min(d, static_cast<size_t>(1));
      }
      best = std::min(best, d);
    });
    scored.emplace_back(best, shown);
  }
  std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (size_t i = 0; i < scored.size() && out.size() < n; ++i) out.push_back(scored[i].second);
  return out;
}

}  // namespace gpupack
