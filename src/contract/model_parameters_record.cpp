#include "contract/model_parameters_record.hpp"

#include <algorithm>

#include "core/errors.hpp"
#include "core/text.hpp"

namespace gpupack {

void write_model_parameters(JsonTextWriter& w, const std::vector<DocModelParameter>& parameters) {
  w.begin_object();
  for (const DocModelParameter& p : parameters) {
    w.key(p.name).begin_object().key("value");
    const auto value = [&](double v) {
      if (p.integer) {
        w.integer(static_cast<long long>(v));
      } else {
        w.number(v);
      }
    };
    if (p.curve) {
      w.begin_array();
      for (double v : p.value) value(v);
      w.end_array();
    } else {
      value(p.value.empty() ? 0.0 : p.value.front());
    }
    w.key("source").string(p.source);
    w.end_object();
  }
  w.end_object();
}

std::vector<DocModelParameter> read_model_parameters_shape(const nlohmann::json& parameters, const std::string& what,
                                                           const std::string& path) {
  const auto bad = [&](const std::string& at, const std::string& expected) {
    throw InputError(what + ": " + at + ": expected " + expected);
  };
  if (!parameters.is_object()) bad(path, "an object of parameters, each {\"value\": ..., \"source\": \"...\"}");
  std::vector<DocModelParameter> out;
  for (const auto& [name, entry] : parameters.items()) {
    const std::string at = path + "." + quote_input(name, 60);
    if (!entry.is_object() || !entry.contains("value")) bad(at, "an object with a \"value\"");
    for (const auto& [key, _] : entry.items()) {
      if (key != "value" && key != "source") bad(at + "." + quote_input(key, 40), "only \"value\" and \"source\"");
    }
    DocModelParameter p;
    p.name = name;
    const nlohmann::json& v = entry.at("value");
    const auto number = [&](const nlohmann::json& x, const std::string& where) {
      if (!x.is_number()) bad(where, "a number");
      return x.get<double>();
    };
    if (v.is_array()) {
      if (v.empty()) bad(at + ".value", "a number or a non-empty array of numbers");
      p.curve = true;
      for (size_t i = 0; i < v.size(); ++i) p.value.push_back(number(v[i], at + ".value[" + std::to_string(i) + "]"));
      p.integer = std::all_of(v.begin(), v.end(), [](const nlohmann::json& x) { return x.is_number_integer(); });
    } else {
      p.value.push_back(number(v, at + ".value"));
      p.integer = v.is_number_integer();
    }
    if (const auto s = entry.find("source"); s != entry.end()) {
      if (!s->is_string()) bad(at + ".source", "a string");
      p.source = s->get<std::string>();
    }
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace gpupack
