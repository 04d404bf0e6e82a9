#include "cli/workload_name.hpp"

#include <filesystem>
#include <string_view>

#include "contract/names.hpp"

namespace gpupack {

namespace {

// Programs whose first non-option argument is the program people mean (a script or, after -m, a module).
bool is_interpreter(std::string_view program) {
  for (std::string_view prefix : {"python", "pypy"}) {  // python3, python3.12, pypy3
    if (program.substr(0, prefix.size()) == prefix) return true;
  }
  for (std::string_view name : {"bash", "sh", "zsh", "node", "ruby", "perl", "julia", "Rscript", "uv", "env"}) {
    if (program == name) return true;
  }
  return false;
}

std::string stem_of(const std::string& path) { return std::filesystem::path(path).stem().string(); }

}  // namespace

void require_workload_name(const std::string& name) { require_dns1123_label("--name", name); }

std::string workload_name_from_command(const std::vector<std::string>& command) {
  if (command.empty()) return "workload";
  std::string chosen = stem_of(command.front());
  if (is_interpreter(chosen)) {
    for (size_t i = 1; i < command.size(); ++i) {
      const std::string& arg = command[i];
      if (arg == "-m" && i + 1 < command.size()) {
        chosen = command[i + 1];  // a module: keep its dots as '-'
        break;
      }
      if (arg.empty() || arg.front() == '-') continue;
      if (arg == "run" || arg.find('=') != std::string::npos) continue;  // `uv run x.py`, `env A=1 x.py`
      chosen = stem_of(arg);
      break;
    }
  }
  const std::string name = to_dns1123_label(chosen);
  return name == "x" ? "workload" : name;
}

}  // namespace gpupack
