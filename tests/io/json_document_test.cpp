#include "io/json_document.hpp"

#include <gtest/gtest.h>

#include "core/errors.hpp"

namespace gpupack {

namespace {
std::string error_of(const std::string& text) {
  try {
    parse_json_document(text, "plan.json", "a hint");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}
}  // namespace

TEST(JsonDocument, ParsesAndKeepsOrdinaryDocuments) {
  const nlohmann::json doc = parse_json_document(R"({"a": [1, {"b": 2}], "c": {"a": 3}})", "x.json");
  EXPECT_EQ(doc["c"]["a"], 3);  // the same key in different objects is fine
}

// Issue 12, reproducers: nlohmann's number overflow was an internal error (exit 70).
TEST(JsonDocument, EveryFailureIsAnInputErrorNamingTheSource) {
  EXPECT_EQ(error_of("{\"gpus\": ["), "plan.json: JSON parse error at byte 11; a hint");
  EXPECT_NE(error_of(R"({"schema_version": 1e999})").find("plan.json: JSON value out of range"), std::string::npos);
  EXPECT_NE(error_of("[-1e999]").find("out of range"), std::string::npos);
  EXPECT_EQ(error_of(R"({"a": 1, "b": {"x": 1, "x": 2}})"), "plan.json: key \"x\" given twice in one JSON object; a hint");
  EXPECT_NE(error_of(std::string(100, '[') + std::string(100, ']')).find("nested deeper than 64"), std::string::npos);
  EXPECT_NE(error_of(std::string(1'000'000, '[')).find("plan.json: "), std::string::npos);
}

TEST(JsonDocument, EscapesAndShortensAKeyQuotedBack) {
  const std::string key = "\\u001b[2J" + std::string(1000, 'k');  // JSON's escape for ESC
  const std::string error = error_of("{\"" + key + "\": 1, \"" + key + "\": 2}");
  EXPECT_NE(error.find("key \"\\x1b[2Jkkk"), std::string::npos) << error;
  EXPECT_LT(error.size(), 400u);
}

}  // namespace gpupack
