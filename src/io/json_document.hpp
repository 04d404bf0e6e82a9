#pragma once
// The one way gpupack parses a JSON document a user hands it (plan JSON, calibration JSON): every
// failure is an InputError (exit 2) naming the file, never nlohmann's internal exceptions (exit 70).
#include <string_view>

#include <nlohmann/json.hpp>

namespace gpupack {

// Deeper than any gpupack document (the plan nests 6 levels): refused before it costs stack or time.
inline constexpr int kMaxJsonDepth = 64;

// Parses `text`, refusing with one line "<source>: <problem>[; <hint>]": a syntax error (with its byte
// offset), a number out of range such as 1e999, a key given twice in one object (nlohmann would keep
// the last silently), nesting deeper than kMaxJsonDepth.
nlohmann::json parse_json_document(std::string_view text, std::string_view source, std::string_view hint = {});

}  // namespace gpupack
