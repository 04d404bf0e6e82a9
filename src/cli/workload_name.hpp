#pragma once
// The workload name `gpupack profile` prints in its plan entry: one that `gpupack plan` accepts (a
// Kubernetes name), given with --name or derived from the program it measured.
#include <string>
#include <vector>

namespace gpupack {

// `--name` checked as plan checks a workload name (InputError naming --name and the accepted form).
void require_workload_name(const std::string& name);

// A name from the command: the script of an interpreter (`python3 examples/clients/resnet18_b1.py` ->
// "resnet18-b1", `python3 -m pkg.serve` -> "pkg-serve"), else the program (`./my_app` -> "my-app"),
// without directory and extension, lower-cased, other characters as '-'.
std::string workload_name_from_command(const std::vector<std::string>& command);

}  // namespace gpupack
