#pragma once
// What `gpupack plan --observed verify.json` reads from verify's JSON (docs/verify.md, verify_version 1):
// per verified replica its workload, the sharing and GPU model of its slice, and measured / predicted for
// p99 and req/s. Only the fields the correction needs are read; a file that is not verify's JSON, or whose
// fields have the wrong type, is an InputError naming the file and the field.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/sharing.hpp"

namespace gpupack {

struct ObservedReplica {
  std::string workload;
  std::string slice;      // "gpu0/s0"
  Sharing sharing = Sharing::mps;
  std::string gpu_model;  // the slice's GPU model; "" in files written before verify recorded it
  // measured mean / predicted, none where either is missing. Where the plan verified was itself corrected
  // by observation (the replica's observed_correction), predicted is taken before that correction, so that
  // corrections from several rounds do not multiply.
  std::optional<double> p99_ratio, req_ratio;
};

struct ObservedFile {
  std::string file;
  std::vector<ObservedReplica> replicas;  // the replicas with a prediction and a measurement
  // Per slice, the workloads of every replica verify ran on it (with a prediction or not): what each
  // replica had beside it.
  std::map<std::string, std::set<std::string>> slice_workloads;
};

// `text`: the file's contents; `file`: its name as given, for messages.
ObservedFile parse_observed_json(std::string_view text, const std::string& file);

}  // namespace gpupack
