#include "render/quoting.hpp"

#include <fmt/format.h>

#include "core/text.hpp"

namespace gpupack {

std::string shell_quote(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

std::string comment_text(std::string_view s) { return escape_control(s); }

std::string hcl_string(std::string_view s) {
  std::string out = "\"";
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    const auto b = static_cast<unsigned char>(c);
    const bool template_start = (c == '$' || c == '%') && i + 1 < s.size() && s[i + 1] == '{';
    if (c == '"' || c == '\\') out += std::string("\\") + c;
    else if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (b < 0x20 || b == 0x7f) out += fmt::format("\\u{:04x}", b);
    else if (template_start) out += std::string(2, c);
    else out += c;
  }
  return out + "\"";
}

}  // namespace gpupack
