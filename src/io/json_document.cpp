#include "io/json_document.hpp"

#include <set>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/text.hpp"

namespace gpupack {

nlohmann::json parse_json_document(std::string_view text, std::string_view source_view, std::string_view hint) {
  using nlohmann::json;
  const std::string source(source_view);
  const std::string suffix = hint.empty() ? std::string() : "; " + std::string(hint);
  // The keys seen so far in each object being parsed, innermost last.
  std::vector<std::set<std::string>> open_objects;
  const json::parser_callback_t check = [&](int depth, json::parse_event_t event, json& parsed) {
    if (depth > kMaxJsonDepth) {
      throw InputError(source + ": JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels" + suffix);
    }
    switch (event) {
      case json::parse_event_t::object_start: open_objects.emplace_back(); break;
      case json::parse_event_t::object_end:
        if (!open_objects.empty()) open_objects.pop_back();
        break;
      case json::parse_event_t::key:
        if (!open_objects.empty() && !open_objects.back().insert(parsed.get<std::string>()).second) {
          throw InputError(source + ": key \"" + quote_input(parsed.get<std::string>()) +
                           "\" given twice in one JSON object" + suffix);
        }
        break;
      default: break;
    }
    return true;
  };
  try {
    return json::parse(text.begin(), text.end(), check);
  } catch (const json::parse_error& e) {
    throw InputError(source + ": JSON parse error at byte " + std::to_string(e.byte) + suffix);
  } catch (const json::exception& e) {
    // out_of_range 406 "number overflow parsing '1e999'" and the like: a value, not the syntax.
    throw InputError(source + ": JSON value out of range (" + quote_input(e.what(), 120) + ")" + suffix);
  }
}

}  // namespace gpupack
