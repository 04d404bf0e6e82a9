#include "contract/resource_names.hpp"

#include <cctype>

namespace gpupack {

namespace {
constexpr std::string_view kGpupackPrefix = "gpupack.io/";
constexpr std::string_view kNvidiaPrefix = "nvidia.com/";
constexpr std::size_t kMaxNamePart = 63;  // Kubernetes' qualified-name limit for the part after the prefix
}  // namespace

std::string mig_resource_part(std::string_view profile) {
  std::string part(profile);
  for (char& c : part) {
    if (c == '+') c = '.';
  }
  return part;
}

std::string mig_resource_name(std::string_view profile) {
  return std::string(kNvidiaPrefix) + "mig-" + mig_resource_part(profile);
}

std::string whole_resource_name(const std::optional<std::string>& mig_profile) {
  return mig_profile ? mig_resource_name(*mig_profile) : std::string(kNvidiaPrefix) + "gpu";
}

bool is_gpu_resource_name(std::string_view name) {
  return name.substr(0, kGpupackPrefix.size()) == kGpupackPrefix || name.substr(0, kNvidiaPrefix.size()) == kNvidiaPrefix;
}

std::string_view resource_name_part(std::string_view name) {
  const std::size_t slash = name.find('/');
  return slash == std::string_view::npos ? name : name.substr(slash + 1);
}

std::string mps_resource_name(const std::optional<std::string>& mig_profile, int sm_percent, std::string_view qualifier) {
  std::string name(kGpupackPrefix);
  if (mig_profile) name += "mig-" + mig_resource_part(*mig_profile) + "-";
  name += "mps-" + std::to_string(sm_percent);
  if (!qualifier.empty()) name += "-" + std::string(qualifier);
  return name;
}

std::string gpupack_resource_name_problem(std::string_view name) {
  if (name.substr(0, kGpupackPrefix.size()) != kGpupackPrefix) return "must start with gpupack.io/";
  const std::string_view part = name.substr(kGpupackPrefix.size());
  if (part.empty() || part.size() > kMaxNamePart) return "the part after gpupack.io/ must have 1 to 63 characters";
  auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  if (!alnum(part.front()) || !alnum(part.back())) return "the part after gpupack.io/ must start and end with a letter or digit";
  for (char c : part) {
    if (!alnum(c) && c != '-' && c != '_' && c != '.') {
      return "the part after gpupack.io/ may hold only letters, digits, '-', '_' and '.'";
    }
  }
  return "";
}

}  // namespace gpupack
