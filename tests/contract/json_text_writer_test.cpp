#include "contract/json_text_writer.hpp"

#include <functional>
#include <limits>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace gpupack {

namespace {
std::string written(const std::function<void(JsonTextWriter&)>& write) {
  std::string out;
  JsonTextWriter w(out);
  write(w);
  return out;
}
}  // namespace

// The writer's promise is nlohmann's dump(2), byte for byte: the plan JSON kept its exact text when it
// stopped being built as an ordered_json tree.
TEST(JsonTextWriter, NumbersAsNlohmannWritesThem) {
  for (double v : {0.0, -0.0, 1.0, 0.1, 1.0 / 3, 1e-05, 1.5e-7, 123456789012345.0, 1e16, 1e300, 2.5, 0.7000000000000001,
                   std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    EXPECT_EQ(written([&](JsonTextWriter& w) { w.number(v); }), nlohmann::json(v).dump()) << v;
  }
  EXPECT_EQ(written([](JsonTextWriter& w) { w.integer(-42); }), "-42");
  EXPECT_EQ(written([](JsonTextWriter& w) { w.unsigned_integer(85899345920ULL); }), "85899345920");
}

TEST(JsonTextWriter, StringsEscapedAsNlohmannEscapesThem) {
  for (const std::string& s : {std::string("plain"), std::string("quote \" backslash \\ slash /"),
                              std::string("\b\f\n\r\t"), std::string("\x01\x1f\x7f", 3), std::string("nul\0x", 5),
                              std::string("utf-8: \xc3\xa9\xe2\x82\xac")}) {
    EXPECT_EQ(written([&](JsonTextWriter& w) { w.string(s); }), nlohmann::json(s).dump()) << s;
  }
  // Invalid UTF-8 is refused as nlohmann refuses it, not written.
  EXPECT_THROW(written([](JsonTextWriter& w) { w.string("\xff"); }), nlohmann::json::type_error);
}

TEST(JsonTextWriter, LayoutAsDumpWithIndentTwo) {
  const nlohmann::ordered_json expected = nlohmann::ordered_json::parse(
      R"({"a": [], "b": {}, "c": [1, {"d": null, "e": [true, false]}], "f": {"g": "h"}})");
  const std::string text = written([](JsonTextWriter& w) {
    w.begin_object();
    w.key("a").begin_array().end_array();
    w.key("b").begin_object().end_object();
    w.key("c").begin_array().integer(1).begin_object().key("d").null().key("e").begin_array();
    w.boolean(true).boolean(false).end_array().end_object().end_array();
    w.key("f").begin_object().key("g").string("h").end_object();
    w.end_object();
  });
  EXPECT_EQ(text, expected.dump(2));
}

}  // namespace gpupack
