// Writes the HTML report of the recorded run to argv[1], for the headless-browser test.
#include <fstream>
#include <iostream>

#include "bench/recorded_results.hpp"
#include "bench/report_html.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: write_report_fixture OUT.html\n";
    return 2;
  }
  std::ofstream(argv[1]) << gpupack::bench::render_report(gpupack::bench::testing::recorded_results());
  return 0;
}
