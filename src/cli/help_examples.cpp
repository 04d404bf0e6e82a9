// One example per subcommand, shown at the end of its --help (issue 32). In one table so that a new
// subcommand without an example fails tests/e2e/first_hour.sh, which checks every visible --help.
#include <map>
#include <string>

#include "cli/command.hpp"

namespace gpupack {

namespace {

// Keyed by the command path ("mig validate"); each example runs as written from the repository root.
const std::map<std::string, std::string>& examples() {
  static const std::map<std::string, std::string> kExamples{
      {"catalog", "gpupack catalog --format json"},
      {"catalog show", "gpupack catalog show H100-80GB"},
      {"mig", "gpupack mig validate A100-80GB 3g.40gb 2g.20gb 2x1g.10gb"},
      {"mig profiles", "gpupack mig profiles H200"},
      {"mig validate", "gpupack mig validate A100-80GB 3g.40gb 2g.20gb 2x1g.10gb"},
      {"mig layouts", "gpupack mig layouts H100-80GB --maximal --format mig-parted > mig-parted.yaml"},
      {"mig capacity", "gpupack mig capacity A100-80GB 7x1g.10gb --time-slicing 4"},
      {"plan", "gpupack plan examples/mixed-fleet.yaml --explain\n  gpupack plan examples/mixed-fleet.yaml -o plan.json --render out/\n"
               "  gpupack plan examples/mixed-fleet.yaml --deploy-with nvidia-device-plugin"},
      {"model", "gpupack model show --format json > my-model.json"},
      {"model show", "gpupack model show --format json > my-model.json"},
      {"model replay", "gpupack model replay results/model-runs.json --set held-out --model my-model.json"},
      {"render", "gpupack render plan.json --target mps,k8s-workloads -o out/ --force"},
      {"verify", "gpupack verify plan.json --scenario my.yaml --run resnet=\"python3 examples/clients/resnet18_b1.py\""},
      {"bench", "gpupack bench --json bench.json --report bench.html"},
      {"gpus", "gpupack gpus --interval 2"},
      {"profile", "gpupack profile --sweep -o resnet.json -- python3 examples/clients/resnet18_b1.py"},
      {"mps", "gpupack mps status --config node.yaml"},
      {"mps up", "gpupack mps up --config node.yaml"},
      {"mps down", "gpupack mps down --config node.yaml"},
      {"mps status", "gpupack mps status --config node.yaml --format json"},
      {"run", "gpupack run --sm 50 --mem 8GiB -- ./my_cuda_app"},
      {"agent", "gpupack agent --config /etc/gpupack --node-name \"$NODE_NAME\""},
      {"labels", "gpupack labels --config node.yaml"},
      {"check", "gpupack check out/gpupack-agent/node-0/node.yaml --gpu A100-80GB"},
  };
  return kExamples;
}

void add_examples(CLI::App& app, const std::string& path) {
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    if (sub->get_group().empty()) continue;  // hidden (bench-worker)
    const std::string name = path.empty() ? sub->get_name() : path + " " + sub->get_name();
    if (const auto it = examples().find(name); it != examples().end()) sub->footer("Example:\n  " + it->second);
    add_examples(*sub, name);
  }
}

}  // namespace

void add_help_examples(CLI::App& app) { add_examples(app, ""); }

}  // namespace gpupack
