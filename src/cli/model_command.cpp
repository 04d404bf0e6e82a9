// `gpupack model show [--format table|json]`: the performance model's built-in parameters, each with what it
// was fitted or measured on; `gpupack model replay` (cli/model_replay.hpp): them against recorded runs. The JSON is a model parameters file (docs/model-parameters.md): `gpupack model
// show --format json > my.json` is a starting point for `gpupack plan --model my.json`.
#include <ostream>

#include "cli/command.hpp"
#include "cli/model_replay.hpp"
#include "cli/table.hpp"
#include "core/exit_codes.hpp"
#include <fmt/format.h>

#include "core/text.hpp"
#include "io/model_parameters_json.hpp"
#include "model/model_parameters.hpp"

namespace gpupack {

namespace {

std::string parameter_value_text(const ModelParameters& m, const ParameterSpec& spec) {
  std::string out;
  for (size_t i = 0; i < spec.size; ++i) {
    if (i > 0) out += ", ";
    out += spec.integer ? std::to_string(static_cast<long long>(spec.get(m, i))) : fmt::format("{}", spec.get(m, i));
  }
  return spec.size > 1 ? "[" + out + "]" : out;
}

int show_parameters(std::ostream& out, OutputFormat format) {
  const ModelParameters built_in;
  if (format == OutputFormat::json) {
    out << model_parameters_json_text(built_in, "built-in") << '\n';
    return exit_code::ok;
  }
  Table t({"PARAMETER", "VALUE", "SOURCE"});
  for (const ParameterSpec& spec : parameter_specs()) {
    t.add({std::string(spec.name), parameter_value_text(built_in, spec), std::string(source_of(built_in, spec))});
  }
  t.print(out);
  return exit_code::ok;
}

}  // namespace

void register_model_command(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("model", "The performance model's parameters (gpupack plan --model FILE replaces them)");
  cmd->require_subcommand(1);
  auto* show = cmd->add_subcommand("show", "Print the built-in parameters: name, value and what each was fitted or measured on");
  auto format = std::make_shared<OutputFormat>(OutputFormat::table);
  add_format_option(*show, *format, {"table", "json"});
  show->callback([&ctx, format] { ctx.action = [&ctx, format] { return show_parameters(ctx.out, *format); }; });
  add_model_replay_command(*cmd, ctx);
}

}  // namespace gpupack
