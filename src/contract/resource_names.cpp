#include "contract/resource_names.hpp"

namespace gpupack {

std::string mig_resource_part(std::string_view profile) {
  std::string part(profile);
  for (char& c : part) {
    if (c == '+') c = '.';
  }
  return part;
}

std::string mig_resource_name(std::string_view profile) { return "nvidia.com/mig-" + mig_resource_part(profile); }

}  // namespace gpupack
