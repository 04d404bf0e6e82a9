#include "contract/json_text_writer.hpp"

#include <charconv>
#include <cmath>

#include <nlohmann/json.hpp>

namespace gpupack {

void JsonTextWriter::newline_and_indent(size_t depth) {
  out_ += '\n';
  out_.append(depth * static_cast<size_t>(indent_), ' ');
}

void JsonTextWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (empty_.empty()) return;  // the document's top value
  if (!empty_.back()) out_ += ',';
  empty_.back() = false;
  newline_and_indent(empty_.size());
}

JsonTextWriter& JsonTextWriter::begin_object() {
  before_value();
  out_ += '{';
  empty_.push_back(true);
  return *this;
}

JsonTextWriter& JsonTextWriter::begin_array() {
  before_value();
  out_ += '[';
  empty_.push_back(true);
  return *this;
}

void JsonTextWriter::close(char bracket) {
  const bool was_empty = empty_.back();
  empty_.pop_back();
  if (!was_empty) newline_and_indent(empty_.size());
  out_ += bracket;
}

JsonTextWriter& JsonTextWriter::end_object() {
  close('}');
  return *this;
}

JsonTextWriter& JsonTextWriter::end_array() {
  close(']');
  return *this;
}

JsonTextWriter& JsonTextWriter::key(std::string_view name) {
  string(name);
  out_ += ": ";
  after_key_ = true;
  return *this;
}

JsonTextWriter& JsonTextWriter::string(std::string_view text) {
  before_value();
  for (const char ch : text) {
    if (static_cast<unsigned char>(ch) >= 0x80) {
      // Non-ASCII: nlohmann checks the UTF-8 and throws on invalid bytes; let it, to keep its behaviour.
      out_ += nlohmann::json(std::string(text)).dump();
      return *this;
    }
  }
  out_ += '"';
  for (const char ch : text) {
    switch (ch) {
      case '"': out_ += "\\\""; break;
      case '\\': out_ += "\\\\"; break;
      case '\b': out_ += "\\b"; break;
      case '\f': out_ += "\\f"; break;
      case '\n': out_ += "\\n"; break;
      case '\r': out_ += "\\r"; break;
      case '\t': out_ += "\\t"; break;
      default:
        if (static_cast<unsigned char>(ch) < 0x20) {
          static constexpr char kHex[] = "0123456789abcdef";
          out_ += "\\u00";
          out_ += kHex[(ch >> 4) & 0xf];
          out_ += kHex[ch & 0xf];
        } else {
          out_ += ch;
        }
    }
  }
  out_ += '"';
  return *this;
}

JsonTextWriter& JsonTextWriter::integer(long long value) {
  before_value();
  char buffer[24];
  const char* end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
  out_.append(buffer, static_cast<size_t>(end - buffer));
  return *this;
}

JsonTextWriter& JsonTextWriter::unsigned_integer(std::uint64_t value) {
  before_value();
  char buffer[24];
  const char* end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
  out_.append(buffer, static_cast<size_t>(end - buffer));
  return *this;
}

JsonTextWriter& JsonTextWriter::number(double value) {
  if (!std::isfinite(value)) return null();
  before_value();
  // nlohmann's own shortest round-trip formatting (Grisu2, "1.0" for integral values, "1e-05" style
  // exponents), so the text is the same as dump() writes.
  char buffer[64];
  const char* end = nlohmann::detail::to_chars(buffer, buffer + sizeof buffer, value);
  out_.append(buffer, static_cast<size_t>(end - buffer));
  return *this;
}

JsonTextWriter& JsonTextWriter::boolean(bool value) {
  before_value();
  out_ += value ? "true" : "false";
  return *this;
}

JsonTextWriter& JsonTextWriter::null() {
  before_value();
  out_ += "null";
  return *this;
}

}  // namespace gpupack
