#pragma once
// The scenario YAML reader's field checks (io/scenario_yaml.cpp): every error names the file, the line and
// column, the key and what it accepts (one line, InputError -> exit 2).
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/errors.hpp"
#include "core/text.hpp"
#include "core/units.hpp"
#include "io/yaml_fields.hpp"

namespace gpupack::scenario_yaml {

class Reader {
 public:
  explicit Reader(std::string_view source) : source_(quote_input(source)) {}

  [[noreturn]] void fail(const YAML::Node& node, const std::string& message) const {
    const YAML::Mark m = node.Mark();
    if (m.line < 0) throw InputError(source_ + ": " + message);
    throw InputError(source_ + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1) + ": " + message);
  }

  // Rejects keys outside `known` (suggesting the nearest) and keys given twice.
  void check_keys(const YAML::Node& map, const std::vector<std::string>& known, const std::string& what) const {
    std::set<std::string> seen;
    for (const auto& kv : map) {
      if (!kv.first.IsScalar()) fail(kv.first, what + " keys must be plain words");
      const std::string key = kv.first.Scalar();
      if (!seen.insert(key).second) fail(kv.first, "key '" + quote_input(key) + "' given twice in " + what);
      bool ok = false;
      std::string nearest;
      size_t best = 4;  // suggest only names within 3 edits
      for (const auto& k : known) {
        ok = ok || k == key;
        const size_t d = edit_distance(to_lower(key.substr(0, 64)), k);  // keys are short; bounds the cost
        if (d < best) {
          best = d;
          nearest = k;
        }
      }
      if (!ok) {
        fail(kv.first, "unknown key '" + quote_input(key) + "' in " + what +
                           (nearest.empty() ? "" : "; did you mean '" + nearest + "'?") + " accepted: " +
                           join(known, ", "));
      }
    }
  }

  std::string scalar(const YAML::Node& n, const std::string& key) const {
    if (!n.IsScalar()) fail(n, "'" + key + "' must be a single value, not a list or map");
    return n.Scalar();
  }

  long integer(const YAML::Node& n, const std::string& key, long lo, long hi) const {
    const std::string s = scalar(n, key);
    long v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) fail(n, "'" + key + "' must be a whole number, got '" + quote_input(s) + "'");
    if (v < lo || v > hi) {
      fail(n, "'" + key + "' must be between " + std::to_string(lo) + " and " + std::to_string(hi) + ", got " + quote_input(s));
    }
    return v;
  }

  double finite_number(const YAML::Node& n, const std::string& key) const {
    const std::string s = scalar(n, key);
    const auto v = finite_yaml_number(s);
    if (!v) fail(n, "'" + key + "' must be a number, got '" + quote_input(s) + "'");
    return *v;
  }

  double number(const YAML::Node& n, const std::string& key, double lo_exclusive, double hi) const {
    const double v = finite_number(n, key);
    if (!(v > lo_exclusive) || v > hi) {
      fail(n, "'" + key + "' must be above " + format_bound(lo_exclusive) + " and at most " + format_bound(hi) +
                  ", got " + quote_input(n.Scalar()));
    }
    return v;
  }

  // A number from 0 (included) to hi.
  double fraction(const YAML::Node& n, const std::string& key, double hi) const {
    const double v = finite_number(n, key);
    if (v < 0 || v > hi) {
      fail(n, "'" + key + "' must be from 0 to " + format_bound(hi) + ", got " + quote_input(n.Scalar()));
    }
    return v;
  }

  std::uint64_t size(const YAML::Node& n, const std::string& key, std::uint64_t max) const {
    const std::string s = scalar(n, key);
    std::uint64_t bytes = 0;
    try {
      bytes = parse_size(s);
    } catch (const InputError& e) {
      fail(n, "'" + key + "': " + e.what());
    }
    if (bytes > max) fail(n, "'" + key + "' of " + quote_input(s) + " is absurd: at most " + format_size(max));
    return bytes;
  }

  // Names end up in Kubernetes objects and file names: DNS-1123 labels.
  std::string name(const YAML::Node& n, const std::string& key) const {
    const std::string s = scalar(n, key);
    bool ok = !s.empty() && s.size() <= 63 && std::isalnum(static_cast<unsigned char>(s.front())) &&
              std::isalnum(static_cast<unsigned char>(s.back()));
    for (char c : s) ok = ok && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-');
    if (!ok) {
      fail(n, "'" + key + "' must be 1-63 lower-case letters, digits or '-', starting and ending with a letter or "
                  "digit, got '" + quote_input(s) + "'");
    }
    return s;
  }

  template <typename Fn>
  auto located(const YAML::Node& n, Fn&& fn) const {
    try {
      return fn();
    } catch (const InputError& e) {
      fail(n, e.what());
    }
  }

 private:
  static std::string format_bound(double v) {
    std::string s = std::to_string(v);
    while (s.find('.') != std::string::npos && (s.back() == '0' || s.back() == '.')) {
      const bool dot = s.back() == '.';
      s.pop_back();
      if (dot) break;
    }
    return s;
  }

  std::string source_;
};

}  // namespace gpupack::scenario_yaml
