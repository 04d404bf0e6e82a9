#pragma once
// Reading a user's input file in the commands (plan, render): the whole text, or one InputError
// "cannot read <path>: <reason>" (exit 2).
#include <string>

namespace gpupack {

std::string read_input_file(const std::string& path);

}  // namespace gpupack
