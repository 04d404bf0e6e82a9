#include "verify/run_manifest.hpp"

#include <filesystem>
#include <set>

#include "core/errors.hpp"
#include "core/text.hpp"
#include "io/json_document.hpp"

namespace gpupack::verify {

namespace {

using nlohmann::json;

void only_keys(const json& object, std::initializer_list<std::string_view> accepted, const std::string& where) {
  for (const auto& [key, _] : object.items()) {
    bool known = false;
    std::string names;
    for (std::string_view a : accepted) {
      known = known || key == a;
      names += (names.empty() ? "" : ", ") + std::string(a);
    }
    if (!known) throw InputError(where + ": unknown key '" + quote_input(key, 40) + "'; accepted: " + names);
  }
}

std::string text_field(const json& object, const std::string& key, const std::string& where) {
  const auto it = object.find(key);
  if (it == object.end() || !it->is_string() || it->get<std::string>().empty()) {
    throw InputError(where + ": \"" + key + "\" must be a non-empty string");
  }
  return it->get<std::string>();
}

// A path below the root: relative, and no ".." that could leave it.
std::string root_path(const json& object, const std::string& key, const std::string& where) {
  const std::string path = text_field(object, key, where);
  const std::filesystem::path p(path);
  bool climbs = false;
  for (const auto& part : p) climbs = climbs || part == "..";
  if (p.is_absolute() || climbs) {
    throw InputError(where + ": \"" + key + "\" must be a path relative to the root without '..', got '" +
                     quote_input(path, 80) + "'");
  }
  return path;
}

RecordedRun run_from(const json& entry, const std::string& where) {
  if (!entry.is_object()) throw InputError(where + ": a run is an object {dir, scenario, gpu, machine, set[, profiles]}");
  only_keys(entry, {"dir", "scenario", "gpu", "machine", "set", "profiles"}, where);
  RecordedRun run;
  run.dir = root_path(entry, "dir", where);
  run.scenario = root_path(entry, "scenario", where);
  run.gpu = text_field(entry, "gpu", where);
  run.machine = text_field(entry, "machine", where);
  const std::string set = text_field(entry, "set", where);
  const auto parsed = parse_run_set(set);
  if (!parsed) {
    throw InputError(where + ": \"set\" must be in-sample, held-out or corpus, got '" + quote_input(set, 40) + "'");
  }
  run.set = *parsed;
  if (entry.contains("profiles")) run.profiles = root_path(entry, "profiles", where);
  return run;
}

}  // namespace

std::string_view run_set_name(RunSet set) {
  switch (set) {
    case RunSet::in_sample:
      return "in-sample";
    case RunSet::held_out:
      return "held-out";
    case RunSet::corpus:
      return "corpus";
  }
  return "in-sample";
}

std::optional<RunSet> parse_run_set(std::string_view name) {
  for (RunSet set : {RunSet::in_sample, RunSet::held_out, RunSet::corpus}) {
    if (name == run_set_name(set)) return set;
  }
  return std::nullopt;
}

RunManifest parse_run_manifest(std::string_view text, std::string_view source_view) {
  const std::string source(source_view);
  const json doc = parse_json_document(text, source, "a manifest of recorded runs (results/model-runs.json)");
  if (!doc.is_object()) throw InputError(source + ": a manifest of recorded runs is a JSON object");
  only_keys(doc, {"schema", "version", "about", "profiles", "sets", "runs"}, source);
  if (!doc.contains("schema") || doc.at("schema") != json(kRunManifestSchema)) {
    throw InputError(source + ": \"schema\" must be \"" + std::string(kRunManifestSchema) + "\"");
  }
  if (!doc.contains("version") || !doc.at("version").is_number_integer() || doc.at("version") != kRunManifestVersion) {
    throw InputError(source + ": \"version\" must be " + std::to_string(kRunManifestVersion));
  }
  if (doc.contains("about") && !doc.at("about").is_string()) throw InputError(source + ": \"about\" must be a string");
  if (doc.contains("sets")) {
    if (!doc.at("sets").is_object()) throw InputError(source + ": \"sets\" must be an object of text by set name");
    for (const auto& [name, meaning] : doc.at("sets").items()) {
      if (!meaning.is_string()) throw InputError(source + ": \"sets\"." + quote_input(name, 40) + " must be a string");
    }
  }
  RunManifest manifest;
  manifest.profiles = root_path(doc, "profiles", source);
  if (!doc.contains("runs") || !doc.at("runs").is_array() || doc.at("runs").empty()) {
    throw InputError(source + ": \"runs\" must be a non-empty array of {dir, scenario, gpu, machine, set}");
  }
  std::set<std::string> dirs;
  for (size_t i = 0; i < doc.at("runs").size(); ++i) {
    RecordedRun run = run_from(doc.at("runs").at(i), source + ": runs[" + std::to_string(i) + "]");
    if (!dirs.insert(run.dir).second) {
      throw InputError(source + ": runs[" + std::to_string(i) + "]: dir '" + quote_input(run.dir, 80) + "' listed twice");
    }
    manifest.runs.push_back(std::move(run));
  }
  return manifest;
}

}  // namespace gpupack::verify
