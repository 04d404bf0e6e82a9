#include "metrics/exposition.hpp"

#include <charconv>
#include <cmath>

namespace gpupack {

void append_escaped(std::string& out, std::string_view value) {
  for (char c : value) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '"': out += "\\\""; break;
      case '\n': out += "\\n"; break;
      default: out += c;
    }
  }
}

void append_number(std::string& out, double value) {
  if (std::isnan(value)) {
    out += "NaN";
    return;
  }
  if (std::isinf(value)) {
    out += value > 0 ? "+Inf" : "-Inf";
    return;
  }
  char buf[32];
  // Whole numbers (byte counts) print as integers, exactly, up to 2^53.
  if (std::fabs(value) < 9.007199254740992e15 && value == std::floor(value)) {
    const auto r = std::to_chars(buf, buf + sizeof buf, static_cast<long long>(value));
    out.append(buf, r.ptr);
    return;
  }
  const auto r = std::to_chars(buf, buf + sizeof buf, value);
  out.append(buf, r.ptr);
}

void Exposition::family(std::string_view name, std::string_view type, std::string_view help) {
  name_ = name;
  text_ += "# HELP ";
  text_ += name;
  text_ += ' ';
  text_ += help;  // help text is ours: no backslashes or newlines
  text_ += "\n# TYPE ";
  text_ += name;
  text_ += ' ';
  text_ += type;
  text_ += '\n';
}

void Exposition::sample(const Labels& labels, double value) {
  text_ += name_;
  if (!labels.empty()) {
    text_ += '{';
    bool first = true;
    for (const auto& [k, v] : labels) {
      if (!first) text_ += ',';
      first = false;
      text_ += k;
      text_ += "=\"";
      append_escaped(text_, v);
      text_ += '"';
    }
    text_ += '}';
  }
  text_ += ' ';
  append_number(text_, value);
  text_ += '\n';
}

}  // namespace gpupack
