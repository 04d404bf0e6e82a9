#include "core/architecture.hpp"

namespace gpupack {

std::string_view to_string(Architecture arch) {
  switch (arch) {
    case Architecture::pascal: return "Pascal";
    case Architecture::volta: return "Volta";
    case Architecture::turing: return "Turing";
    case Architecture::ampere: return "Ampere";
    case Architecture::ada: return "Ada Lovelace";
    case Architecture::hopper: return "Hopper";
    case Architecture::blackwell: return "Blackwell";
  }
  return "unknown";
}

}  // namespace gpupack
