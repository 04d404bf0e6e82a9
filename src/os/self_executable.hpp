#pragma once
// The path of the running gpupack binary, for the children it starts as itself (bench's workers, the
// standard neighbour of `profile --sweep`).
#include <string>

namespace gpupack {

// /proc/self/exe resolved; throws std::runtime_error where it cannot be read.
std::string self_executable();

}  // namespace gpupack
