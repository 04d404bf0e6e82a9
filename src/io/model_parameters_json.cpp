#include "io/model_parameters_json.hpp"

#include <nlohmann/json.hpp>

#include <cmath>

#include "contract/json_text_writer.hpp"
#include "contract/model_parameters_record.hpp"
#include "core/errors.hpp"
#include "core/text.hpp"
#include "io/calibration_json.hpp"
#include "io/json_document.hpp"

namespace gpupack {

namespace {

using nlohmann::json;

std::string accepted_names() {
  std::string out;
  for (const ParameterSpec& s : parameter_specs()) out += (out.empty() ? "" : ", ") + std::string(s.name);
  return out;
}

const ParameterSpec& known_parameter(const std::string& name, const std::string& source) {
  const ParameterSpec* spec = find_parameter(name);
  if (!spec) {
    throw InputError(source + ": unknown parameter '" + quote_input(name, 60) + "'; accepted: " + accepted_names());
  }
  return *spec;
}

[[noreturn]] void bad_value(const std::string& source, const ParameterSpec& spec, const std::string& got) {
  const std::string shape = spec.size > 1 ? "an array of " + std::to_string(spec.size) + " values, each " : "";
  throw InputError(source + ": parameter " + std::string(spec.name) + " must be " + shape + std::string(spec.accepted) +
                   ", got " + quote_input(got, 40));
}

// Sets `spec`'s values from `values` (already numbers), checking count and range.
void set_values(ModelParameters& m, const ParameterSpec& spec, const std::vector<double>& values, bool curve,
                const std::string& source, const std::string& as_text) {
  if (curve != (spec.size > 1) || values.size() != spec.size) bad_value(source, spec, as_text);
  for (double v : values) {
    if (!spec.accepts(v)) bad_value(source, spec, as_text);
  }
  for (size_t i = 0; i < values.size(); ++i) spec.set(m, i, values[i]);
}

void read_parameter(ModelParameters& m, const std::string& name, const json& entry, const std::string& source) {
  const ParameterSpec& spec = known_parameter(name, source);
  if (!entry.is_object() || !entry.contains("value")) {
    throw InputError(source + ": parameter " + name + " must be an object {\"value\": ..., \"source\": \"...\"}");
  }
  for (const auto& [key, _] : entry.items()) {
    if (key != "value" && key != "source") {
      throw InputError(source + ": parameter " + name + " has unknown key '" + quote_input(key, 40) +
                       "'; accepted: value, source");
    }
  }
  const json& v = entry.at("value");
  std::vector<double> values;
  // nlohmann reads 1e999 as infinity only through parse_json_document's refusal; any non-number is refused.
  const auto number = [&](const json& x) {
    if (!x.is_number()) bad_value(source, spec, v.dump());
    return x.get<double>();
  };
  if (v.is_array()) {
    for (const json& x : v) values.push_back(number(x));
  } else {
    values.push_back(number(v));
  }
  set_values(m, spec, values, v.is_array(), source, v.dump());
  std::string from = source;
  if (const auto s = entry.find("source"); s != entry.end()) {
    if (!s->is_string()) throw InputError(source + ": parameter " + name + "'s source must be a string");
    if (!s->get<std::string>().empty()) from = s->get<std::string>();
  }
  m.sources[std::string(spec.name)] = from;
}

ModelParameters parameters_from(const json& doc, const std::string& source, ModelParameters m) {
  if (!doc.is_object()) throw InputError(source + ": a model parameters file is a JSON object");
  for (const auto& [key, _] : doc.items()) {
    if (key != "schema" && key != "version" && key != "name" && key != "parameters") {
      throw InputError(source + ": unknown key '" + quote_input(key, 40) + "'; accepted: schema, version, name, parameters");
    }
  }
  if (!doc.contains("schema") || doc.at("schema") != json(kModelSchema)) {
    throw InputError(source + ": \"schema\" must be \"" + std::string(kModelSchema) +
                     "\" (write a starting point with gpupack model show --format json)");
  }
  if (!doc.contains("version") || !doc.at("version").is_number_integer() || doc.at("version") != kModelSchemaVersion) {
    throw InputError(source + ": \"version\" must be " + std::to_string(kModelSchemaVersion) +
                     " (this gpupack reads model parameters version " + std::to_string(kModelSchemaVersion) + ")");
  }
  if (doc.contains("name") && !doc.at("name").is_string()) throw InputError(source + ": \"name\" must be a string");
  if (!doc.contains("parameters")) return m;
  const json& parameters = doc.at("parameters");
  if (!parameters.is_object()) {
    throw InputError(source + ": \"parameters\" must be an object of {\"value\": ..., \"source\": \"...\"} by name");
  }
  for (const auto& [name, entry] : parameters.items()) read_parameter(m, name, entry, source);
  return m;
}

}  // namespace

ModelParameters parse_model_parameters_json(std::string_view text, std::string_view source_view,
                                            ModelParameters defaults) {
  const std::string source(source_view);
  const json doc = parse_json_document(text, source, "write one with gpupack model show --format json");
  return parameters_from(doc, source, std::move(defaults));
}

ModelParameters parse_model_input(std::string_view text, std::string_view source_view) {
  const std::string source(source_view);
  const json doc = parse_json_document(
      text, source, "give a model parameters file (gpupack model show --format json) or a gpupack bench --json report");
  if (doc.is_object() && doc.contains("schema")) return parameters_from(doc, source, {});
  if (doc.is_object() && doc.contains("calibration")) {
    ModelParameters m;
    m.calibration = parse_calibration_json(text, source, m.calibration);
    if (doc.at("calibration").is_object()) {
      for (const auto& [key, _] : doc.at("calibration").items()) m.sources[key] = "gpupack bench report " + source;
    }
    return m;
  }
  throw InputError(source + ": no \"calibration\" object (a gpupack bench --json report) and no \"schema\": \"" +
                   std::string(kModelSchema) + "\" (a model parameters file: gpupack model show --format json)");
}

std::vector<DocModelParameter> model_parameters_record(const ModelParameters& m) {
  std::vector<DocModelParameter> out;
  for (const ParameterSpec& spec : parameter_specs()) {
    DocModelParameter p;
    p.name = spec.name;
    for (size_t i = 0; i < spec.size; ++i) p.value.push_back(spec.get(m, i));
    p.curve = spec.size > 1;
    p.integer = spec.integer;
    p.source = source_of(m, spec);
    out.push_back(std::move(p));
  }
  return out;
}

ModelParameters model_parameters_from_record(const std::vector<DocModelParameter>& record, std::string_view source_view) {
  const std::string source(source_view);
  ModelParameters m;
  for (const DocModelParameter& p : record) {
    const ParameterSpec& spec = known_parameter(p.name, source);
    std::string as_text;
    for (double v : p.value) as_text += (as_text.empty() ? "" : ", ") + std::to_string(v);
    set_values(m, spec, p.value, p.curve, source, p.curve ? "[" + as_text + "]" : as_text);
    if (p.source != spec.source) m.sources[p.name] = p.source;
  }
  return m;
}

std::string model_parameters_json_text(const ModelParameters& m, std::string_view name) {
  std::string out;
  JsonTextWriter w(out);
  w.begin_object();
  w.key("schema").string(kModelSchema);
  w.key("version").integer(kModelSchemaVersion);
  if (!name.empty()) w.key("name").string(name);
  w.key("parameters");
  write_model_parameters(w, model_parameters_record(m));
  w.end_object();
  return out;
}

}  // namespace gpupack
