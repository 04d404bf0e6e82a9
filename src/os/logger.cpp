#include "os/logger.hpp"

#include <iostream>

namespace gpupack {

void StderrLogger::log(const std::string& line) { std::cerr << prefix_ << line << std::endl; }

}  // namespace gpupack
