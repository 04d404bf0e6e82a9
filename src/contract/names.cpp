#include "contract/names.hpp"

#include <algorithm>

#include "core/errors.hpp"
#include "core/text.hpp"

namespace gpupack {

namespace {
bool lower_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
bool alnum(char c) { return lower_alnum(c) || (c >= 'A' && c <= 'Z'); }
}  // namespace

bool is_dns1123_label(std::string_view s) {
  if (s.empty() || s.size() > 63 || !lower_alnum(s.front()) || !lower_alnum(s.back())) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return lower_alnum(c) || c == '-'; });
}

bool is_label_value(std::string_view s) {
  if (s.empty()) return true;
  if (s.size() > 63 || !alnum(s.front()) || !alnum(s.back())) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return alnum(c) || c == '.' || c == '_' || c == '-'; });
}

bool is_script_safe(std::string_view s) {
  if (s.empty() || s.size() > 255 || s.front() == '-') return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return alnum(c) || c == '.' || c == '_' || c == ':' || c == '/' || c == '=' || c == '+' || c == '-';
  });
}

bool is_plain_id(std::string_view s) {
  if (s.empty() || s.size() > 63 || !alnum(s.front())) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return alnum(c) || c == '_' || c == '-'; });
}

bool is_dns1123_subdomain(std::string_view s) {
  if (s.empty() || s.size() > 253) return false;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = std::min(s.find('.', start), s.size());
    if (!is_dns1123_label(s.substr(start, dot - start))) return false;
    if (dot == s.size()) return true;
    start = dot + 1;
  }
}

void require_dns1123_subdomain(std::string_view what, std::string_view s) {
  if (!is_dns1123_subdomain(s)) {
    throw InputError(std::string(what) + " '" + quote_input(s) +
                     "' is not a DNS-1123 subdomain (lower-case letters, digits, '-' and '.', at most 253 characters)");
  }
}

void require_image_reference(std::string_view what, std::string_view s) {
  const bool ok = !s.empty() && s.size() <= 255 && alnum(s.front()) && std::all_of(s.begin(), s.end(), [](char c) {
    return alnum(c) || c == '.' || c == '_' || c == ':' || c == '/' || c == '@' || c == '-';
  });
  if (!ok) {
    throw InputError(std::string(what) + " '" + quote_input(s) +
                     "' is not an image reference (registry/name:tag or name@sha256:digest: letters, digits and . _ : / @ -)");
  }
}

void require_cron_schedule(std::string_view what, std::string_view s) {
  const bool ok = !s.empty() && s.size() <= 100 && std::all_of(s.begin(), s.end(), [](char c) {
    return alnum(c) || c == ' ' || c == '*' || c == '/' || c == ',' || c == '-' || c == '?' || c == '@';
  });
  if (!ok) {
    throw InputError(std::string(what) + " '" + quote_input(s) + "' is not a cron schedule (e.g. \"0 3 * * *\" or @daily)");
  }
}

void require_dns1123_label(std::string_view what, std::string_view s) {
  if (!is_dns1123_label(s)) {
    throw InputError(std::string(what) + " '" + quote_input(s) +
                     "' is not a valid Kubernetes name: use 1-63 lower-case letters, digits and '-', starting and "
                     "ending with a letter or digit");
  }
}

void require_label_value(std::string_view what, std::string_view s) {
  if (!is_label_value(s)) {
    throw InputError(std::string(what) + " '" + quote_input(s) +
                     "' is not a valid Kubernetes label value: use at most 63 letters, digits, '.', '_' and '-', "
                     "starting and ending with a letter or digit");
  }
}

void require_script_safe(std::string_view what, std::string_view s) {
  if (!is_script_safe(s)) {
    throw InputError(std::string(what) + " '" + quote_input(s) +
                     "' contains characters not allowed in generated scripts: use letters, digits and . _ : / = + -");
  }
}

void require_plain_id(std::string_view what, std::string_view s) {
  if (!is_plain_id(s)) {
    throw InputError(std::string(what) + " '" + quote_input(s) +
                     "' is not a valid id: use 1-63 letters, digits, '_' and '-', starting with a letter or digit");
  }
}

std::string to_dns1123_label(std::string_view s) {
  std::string out;
  for (char c : s) {
    const char l = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    out += lower_alnum(l) ? l : '-';
  }
  const auto first = out.find_first_not_of('-');
  if (first == std::string::npos) return "x";
  out = out.substr(first, out.find_last_not_of('-') - first + 1);
  if (out.size() > 63) out.resize(63);
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

}  // namespace gpupack
