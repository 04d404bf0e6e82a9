#pragma once
// Shared by the render tests: the sample plan and lookups into rendered files.
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "render/file_tree.hpp"
#include "contract/plan_json.hpp"

namespace gpupack::testing {

inline nlohmann::json load_json(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return nlohmann::json::parse(s.str());
}

// tests/render/data/plan-mixed.json: every mode (MPS with unequal slices, MIG with MPS, exclusive and
// time-slicing instances, time-slicing on a whole GPU, MPS on a pre-Volta P100).
inline PlanDocument mixed_plan() { return read_plan_json(load_json(GPUPACK_TEST_DATA "/plan-mixed.json"), builtin_catalog()); }

inline const RenderedFile* find_file(const FileTree& tree, const std::string& path) {
  for (const auto& f : tree) {
    if (f.path == path) return &f;
  }
  return nullptr;
}

}  // namespace gpupack::testing
