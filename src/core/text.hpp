#pragma once
// Small text helpers shared by lookups and error messages.
#include <string>
#include <string_view>
#include <vector>

namespace gpupack {

bool iequals(std::string_view a, std::string_view b);
std::string to_lower(std::string_view s);
// Lower-case letters and digits only: "NVIDIA H100 80GB HBM3" -> "nvidiah10080gbhbm3". Used to match
// model names however users space or punctuate them.
std::string fold_name(std::string_view s);
// Levenshtein distance, for "did you mean" suggestions.
size_t edit_distance(std::string_view a, std::string_view b);
std::string join(const std::vector<std::string>& parts, std::string_view sep);

}  // namespace gpupack
