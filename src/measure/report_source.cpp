#include "measure/report_source.hpp"

namespace gpupack::measure {

std::string FileReportSource::read_new(std::size_t max_bytes) {
  std::optional<std::string> data = fs_.read_at(path_, offset_, max_bytes);
  if (!data) return {};
  offset_ += data->size();
  return std::move(*data);
}

}  // namespace gpupack::measure
