#include <map>

#include "cli/command.hpp"

namespace gpupack {

void add_format_option(CLI::App& cmd, OutputFormat& format, const std::vector<std::string>& accepted) {
  static const std::map<std::string, OutputFormat> kAll{
      {"table", OutputFormat::table}, {"json", OutputFormat::json}, {"mig-parted", OutputFormat::mig_parted}, {"yaml", OutputFormat::yaml}};
  std::map<std::string, OutputFormat> allowed;
  for (const auto& name : accepted) allowed.emplace(name, kAll.at(name));
  std::string names;
  for (const auto& name : accepted) names += (names.empty() ? "" : "|") + name;
  // option_text: the help shows the accepted names, not the transformer's "ENUM:value in {json->1,...}".
  cmd.add_option("--format", format, "Output format (default " + accepted.front() + ")")
      ->transform(CLI::CheckedTransformer(allowed, CLI::ignore_case))
      ->default_str(accepted.front())
      ->option_text(names);
}

}  // namespace gpupack
