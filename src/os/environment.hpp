#pragma once
// Environment variables behind an interface: read once at the edge (the CLI) and passed down as values,
// so that no lower layer calls getenv and tests set variables without touching the process.
#include <optional>
#include <string>

namespace gpupack {

class Environment {
 public:
  virtual ~Environment() = default;
  // The variable's value; nullopt when unset.
  virtual std::optional<std::string> get(const std::string& name) const = 0;
};

class ProcessEnvironment : public Environment {
 public:
  std::optional<std::string> get(const std::string& name) const override;
};

// $TMPDIR when set and not empty, /tmp otherwise: where scratch directories and private MPS pipes go.
std::string temp_root(const Environment& vars);

}  // namespace gpupack
