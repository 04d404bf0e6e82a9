#pragma once
// Validation of names that flow from user input into generated files. Anything that reaches a
// Kubernetes object must be a DNS-1123 name; anything that reaches a shell script must be from a strict
// character set (and is quoted besides), so no input string can change what a script does.
#include <string>
#include <string_view>

namespace gpupack {

// RFC 1123 label: 1-63 chars of [a-z0-9-], alphanumeric at both ends (Kubernetes object names of most kinds).
bool is_dns1123_label(std::string_view s);
// A Kubernetes label value: empty, or <= 63 chars of [A-Za-z0-9._-] with alphanumerics at both ends.
bool is_label_value(std::string_view s);
// Safe in a generated script even before quoting: [A-Za-z0-9._:/=+-], 1-255 chars, not starting with '-'.
bool is_script_safe(std::string_view s);

// An id that becomes part of a file or directory name (GPU and slice ids of a plan): 1-63 characters of
// [A-Za-z0-9_-] starting with a letter or digit, so never "..", "/" or an option.
bool is_plain_id(std::string_view s);

// Throw InputError naming `what` and the value (escaped and shortened by quote_input) when the check fails.
void require_dns1123_label(std::string_view what, std::string_view s);
void require_label_value(std::string_view what, std::string_view s);
void require_script_safe(std::string_view what, std::string_view s);
void require_plain_id(std::string_view what, std::string_view s);

// A Kubernetes node name: a DNS-1123 subdomain (labels of [a-z0-9-] joined by '.', at most 253 characters).
bool is_dns1123_subdomain(std::string_view s);
void require_dns1123_subdomain(std::string_view what, std::string_view s);

// A container image reference (registry/path:tag or @sha256:digest): 1-255 characters of
// [A-Za-z0-9._:/@-] starting with a letter or digit.
void require_image_reference(std::string_view what, std::string_view s);
// A CronJob schedule: 1-100 characters of digits, letters, spaces and * / , - ? @.
void require_cron_schedule(std::string_view what, std::string_view s);

// Lower-cases and replaces every character outside [a-z0-9-] by '-', trims '-' at the ends and cuts to
// 63 characters: "3g.40gb" -> "3g-40gb". For names gpupack derives (not for user names, which are checked).
std::string to_dns1123_label(std::string_view s);

}  // namespace gpupack
