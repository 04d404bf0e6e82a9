#include "measure/report_source.hpp"

#include <fstream>

namespace gpupack::measure {

std::string FileReportSource::read_new(std::size_t max_bytes) {
  std::ifstream in(path_, std::ios::binary);
  if (!in) return {};
  in.seekg(static_cast<std::streamoff>(offset_));
  std::string data(max_bytes, '\0');
  in.read(data.data(), static_cast<std::streamsize>(max_bytes));
  data.resize(static_cast<std::size_t>(in.gcount()));
  offset_ += data.size();
  return data;
}

}  // namespace gpupack::measure
