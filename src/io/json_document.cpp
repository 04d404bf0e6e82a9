#include "io/json_document.hpp"

#include <string>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "core/text.hpp"

namespace gpupack {

namespace {

using nlohmann::json;

// Builds the document from nlohmann's SAX events, refusing a duplicated key and deep nesting as they
// come. Why not json::parse with a parser callback: nlohmann's callback parser scans the parent container
// for discarded values at every object and array end, so an array of n empty objects costs n^2 (issue 38:
// a 3 MB plan kept render busy for minutes). Here every event is O(1) (a key: O(log n) in its object).
class StrictBuilder {
 public:
  StrictBuilder(json& root, const std::string& source, const std::string& suffix)
      : root_(root), source_(source), suffix_(suffix) {}

  bool null() { return put(json(nullptr)); }
  bool boolean(bool v) { return put(json(v)); }
  bool number_integer(json::number_integer_t v) { return put(json(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return put(json(v)); }
  bool number_float(json::number_float_t v, const json::string_t& /*text*/) { return put(json(v)); }
  bool string(json::string_t& v) { return put(json(std::move(v))); }
  bool binary(json::binary_t& v) { return put(json::binary(std::move(v))); }
  bool start_object(std::size_t /*size*/) { return open(json::object()); }
  bool start_array(std::size_t /*size*/) { return open(json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(json::string_t& k) {
    json& object = *open_.back();
    if (object.contains(k)) {
      throw InputError(source_ + ": key \"" + quote_input(k) + "\" given twice in one JSON object" + suffix_);
    }
    slot_ = &object[k];
    return true;
  }

  bool parse_error(std::size_t position, const std::string& /*token*/, const nlohmann::detail::exception& e) {
    // 1xx: the syntax; out_of_range 406 "number overflow parsing '1e999'" and the like: a value.
    if (e.id >= 100 && e.id < 200)
      throw InputError(source_ + ": JSON parse error at byte " + std::to_string(position) + suffix_);
    throw InputError(source_ + ": JSON value out of range (" + quote_input(e.what(), 120) + ")" + suffix_);
  }

 private:
  // Places `value` where the next value goes (the root, the end of the open array, or the slot of the last
  // key) and returns where it now lives.
  json* place(json&& value) {
    if (open_.empty()) {
      root_ = std::move(value);
      return &root_;
    }
    json& parent = *open_.back();
    if (parent.is_array()) {
      parent.push_back(std::move(value));
      return &parent.back();  // stays put: nothing is appended to `parent` while this child is open
    }
    *slot_ = std::move(value);
    return slot_;
  }
  bool put(json&& value) {
    place(std::move(value));
    return true;
  }
  bool open(json&& container) {
    if (open_.size() >= static_cast<std::size_t>(kMaxJsonDepth)) {
      throw InputError(source_ + ": JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels" +
                       suffix_);
    }
    open_.push_back(place(std::move(container)));
    return true;
  }
  bool close() {
    open_.pop_back();
    return true;
  }

  json& root_;
  const std::string& source_;
  const std::string& suffix_;
  std::vector<json*> open_;  // the containers being parsed, innermost last
  json* slot_ = nullptr;     // the value of the last key read
};

}  // namespace

nlohmann::json parse_json_document(std::string_view text, std::string_view source_view,
                                   std::string_view hint) {
  const std::string source(source_view);
  const std::string suffix = hint.empty() ? std::string() : "; " + std::string(hint);
  json doc;
  StrictBuilder builder(doc, source, suffix);
  try {
    json::sax_parse(text.begin(), text.end(), &builder);
  } catch (const json::exception& e) {  // not expected (parse_error above throws first); never exit 70
    throw InputError(source + ": not valid JSON (" + quote_input(e.what(), 120) + ")" + suffix);
  }
  return doc;
}

}  // namespace gpupack
