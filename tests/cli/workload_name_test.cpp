#include "cli/workload_name.hpp"

#include <gtest/gtest.h>

#include "contract/names.hpp"
#include "core/errors.hpp"

namespace gpupack {

// Issue 32: `gpupack profile` printed entries plan rejects (`--name bert_b4`, or `python3` by default).
TEST(WorkloadName, DerivedFromTheScriptNotTheInterpreter) {
  EXPECT_EQ(workload_name_from_command({"python3", "examples/clients/resnet18_b1.py"}), "resnet18-b1");
  EXPECT_EQ(workload_name_from_command({"python3", "-u", "serve.py", "--port", "80"}), "serve");
  EXPECT_EQ(workload_name_from_command({"/usr/bin/python3.12", "-m", "my_pkg.Serve"}), "my-pkg-serve");
  EXPECT_EQ(workload_name_from_command({"bash", "run-bert.sh"}), "run-bert");
  EXPECT_EQ(workload_name_from_command({"env", "A=1", "./My_App"}), "my-app");
  EXPECT_EQ(workload_name_from_command({"./build/My_CUDA_App", "--batch", "8"}), "my-cuda-app");
  EXPECT_EQ(workload_name_from_command({"python3"}), "python3");
  EXPECT_EQ(workload_name_from_command({"___"}), "workload");
  EXPECT_EQ(workload_name_from_command({}), "workload");
  for (const auto& cmd : std::vector<std::vector<std::string>>{{"python3", "-c", "print(1)"}, {std::string(100, 'A')}}) {
    EXPECT_TRUE(is_dns1123_label(workload_name_from_command(cmd))) << cmd.front();
  }
}

TEST(WorkloadName, GivenNamesArePlanNames) {
  EXPECT_NO_THROW(require_workload_name("bert-b4"));
  for (const char* bad : {"bert_b4", "Bert", "-a", "a-", ""}) {
    try {
      require_workload_name(bad);
      FAIL() << bad;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("--name"), std::string::npos);
      EXPECT_NE(std::string(e.what()).find("lower-case letters, digits and '-'"), std::string::npos);
    }
  }
}

}  // namespace gpupack
