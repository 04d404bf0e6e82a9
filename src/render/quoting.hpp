#pragma once
// The second line of defence against injection into rendered files: every string that comes from a
// plan is validated by the plan reader (contract/plan_json_reader.cpp), and every renderer still writes it through
// the one helper for its format below, so that a value the reader let through can only ever be data.
#include <string>
#include <string_view>

namespace gpupack {

// A single shell word that is exactly `s`: 'text', with each ' written as '\''. Safe in bash and sh
// anywhere a word is (assignments, arguments, awk -v values).
std::string shell_quote(std::string_view s);

// A line of text safe after a comment marker in any format we write (#, //, systemd, YAML, HCL): one
// line, printable ASCII only (escape_control of core/text.hpp).
std::string comment_text(std::string_view s);

// An HCL (Terraform) quoted string literal: "text" with \ " and control characters escaped, and the
// template sequences ${ and %{ doubled so Terraform never interpolates them.
std::string hcl_string(std::string_view s);

}  // namespace gpupack
