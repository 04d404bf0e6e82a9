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

// Issue 38, item 6: the reader is linear in its input (bench/json_inputs_bench.cpp measures it at 4 MiB):
// the parser callback it replaced rescanned the parent at each object end, so a 3 MB array of empty objects
// took minutes (512 KB of them: 5.9 s in Release; this is 600 KB: the sanitizer build runs it too). Here its content,
// and the checks that moved from the callback to the SAX handler.
TEST(JsonDocument, ReadsAnArrayOfEmptyObjectsAndKeepsItsChecks) {
  std::string text = "{\"gpus\": [";
  for (int i = 0; i < 200'000; ++i) text += i == 0 ? "{}" : ",{}";
  text += "], \"n\": [1, -2, 3.5, true, null, \"s\", {\"k\": {}}]}";
  const nlohmann::json doc = parse_json_document(text, "plan.json");
  ASSERT_EQ(doc.at("gpus").size(), 200'000u);
  EXPECT_TRUE(doc.at("gpus")[199'999].is_object() && doc.at("gpus")[199'999].empty());
  EXPECT_EQ(doc.at("n"), nlohmann::json::parse(R"([1, -2, 3.5, true, null, "s", {"k": {}}])"));
  // 64 levels are read, the 65th is refused; a key twice deep in an array of objects is still found.
  EXPECT_NO_THROW(parse_json_document(std::string(64, '[') + std::string(64, ']'), "x.json"));
  EXPECT_NE(error_of(std::string(65, '[') + std::string(65, ']')).find("nested deeper than 64"), std::string::npos);
  EXPECT_EQ(error_of(R"([{}, {"a": 1}, [{"b": {"c": 1, "c": 1}}]])"), "plan.json: key \"c\" given twice in one JSON object; a hint");
  EXPECT_EQ(error_of("{} {}"), "plan.json: JSON parse error at byte 4; a hint");  // one document only
}

TEST(JsonDocument, EscapesAndShortensAKeyQuotedBack) {
  const std::string key = "\\u001b[2J" + std::string(1000, 'k');  // JSON's escape for ESC
  const std::string error = error_of("{\"" + key + "\": 1, \"" + key + "\": 2}");
  EXPECT_NE(error.find("key \"\\x1b[2Jkkk"), std::string::npos) << error;
  EXPECT_LT(error.size(), 400u);
}

}  // namespace gpupack
