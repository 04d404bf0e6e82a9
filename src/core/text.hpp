#pragma once
// Small text helpers shared by lookups and error messages.
#include <string>
#include <string_view>
#include <vector>

namespace gpupack {

bool iequals(std::string_view a, std::string_view b);
std::string to_lower(std::string_view s);
// Lower-case letters and digits only: "NVIDIA H100 80GB HBM3" -> "nvidiah10080gbhbm3". Used to match
// model names however users space or punctuate them.
std::string fold_name(std::string_view s);
// Levenshtein distance, for "did you mean" suggestions.
size_t edit_distance(std::string_view a, std::string_view b);
std::string join(const std::vector<std::string>& parts, std::string_view sep);

// Input text made safe to print on one line: every byte outside printable ASCII (control characters,
// NUL, ESC, DEL, bytes >= 0x80) and the backslash itself as \xNN, so nothing a user wrote can move the
// cursor, recolour a terminal or add a line to a log or a generated file's comment.
std::string escape_control(std::string_view s);
// What an error line quotes back of the user's input: escape_control of at most the first `max_bytes`
// bytes, with "... (N bytes)" when the input was longer. Every error that echoes input goes through it.
inline constexpr size_t kMaxQuotedInput = 200;
std::string quote_input(std::string_view s, size_t max_bytes = kMaxQuotedInput);

}  // namespace gpupack
