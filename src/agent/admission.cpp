#include "agent/admission.hpp"

#include "core/units.hpp"

namespace gpupack {

namespace {

struct Candidate {
  const ResolvedTarget* target;
  int free_clients;
  std::uint64_t free_memory;
};

std::optional<std::uint64_t> free_memory(const ResolvedTarget& t) {
  const auto total = t.mig ? t.mig->memory_total_bytes : t.device->memory_total_bytes;
  const auto used = t.mig ? t.mig->memory_used_bytes : t.device->memory_used_bytes;
  if (!total) return std::nullopt;
  const std::uint64_t u = used.value_or(0);
  return u >= *total ? 0 : *total - u;
}

std::string name_of(const ResolvedTarget& t) {
  return t.mig ? "MIG instance " + t.mig->uuid : "GPU " + std::to_string(t.device->index) + " (" + t.device->uuid + ")";
}

bool matches(const ResolvedTarget& t, const std::string& ref) {
  if (t.mig) return t.mig->uuid == ref;
  return t.device->uuid == ref || std::to_string(t.device->index) == ref;
}

}  // namespace

Admission admit(const NodeConfig& config, const std::vector<GpuDeviceInfo>& devices, const RunRequest& request,
                const std::function<bool(const std::string&)>& mps_running,
                const std::function<int(const ResolvedTarget&)>& clients_held) {
  Admission a;
  if (request.sm_percent && (*request.sm_percent < 1 || *request.sm_percent > 100)) {
    a.reason = "--sm " + std::to_string(*request.sm_percent) + " is out of range 1..100";
    return a;
  }
  const auto targets = resolve_targets(config, devices);
  std::vector<Candidate> fits;
  std::string why;
  bool any = false;
  for (const auto& t : targets) {
    if (request.gpu && !matches(t, *request.gpu)) continue;
    any = true;
    const SharingTarget& c = *t.config;
    auto refuse = [&](const std::string& r) { why += name_of(t) + ": " + r + "\n"; };
    if (c.tenant && request.tenant != c.tenant) {
      refuse("reserved for tenant '" + *c.tenant + "'" + (request.tenant ? ", not '" + *request.tenant + "'" : " (give --tenant)"));
      continue;
    }
    if (request.sm_percent && c.mode != Sharing::mps) {
      refuse("--sm needs MPS; this target is in mode " + std::string(to_string(c.mode)));
      continue;
    }
    if (request.sm_percent && c.limits.sm_percent && *request.sm_percent > *c.limits.sm_percent) {
      refuse("--sm " + std::to_string(*request.sm_percent) + " exceeds the configured limit " + std::to_string(*c.limits.sm_percent));
      continue;
    }
    // The configured per-client memory is a ceiling, as sm_percent is: a client asking for more would take
    // what the other `clients` were promised (clients x limits.memory fits the GPU, no more).
    if (request.memory_bytes && c.limits.memory_bytes && *request.memory_bytes > *c.limits.memory_bytes) {
      refuse("--mem " + format_size(*request.memory_bytes) + " exceeds the configured limit " + format_size(*c.limits.memory_bytes));
      continue;
    }
    const int used = clients_held(t);
    if (used >= c.clients) {
      refuse("full (" + std::to_string(used) + " of " + std::to_string(c.clients) + " clients)");
      continue;
    }
    const std::optional<std::uint64_t> mem = request.memory_bytes ? request.memory_bytes : c.limits.memory_bytes;
    const auto free = free_memory(t);
    if (mem && free && *mem > *free) {
      refuse("needs " + format_size(*mem) + " but " + format_size(*free) + " is free");
      continue;
    }
    if (c.mode == Sharing::mps && !mps_running(t.uuid())) {
      refuse("its MPS daemon is not running (start it with gpupack mps up or gpupack agent)");
      continue;
    }
    fits.push_back({&t, c.clients - used, free.value_or(0)});
  }
  if (!any) {
    a.reason = request.gpu ? "'" + *request.gpu + "' is not a GPU or MIG instance of the node config"
                           : "the node config lists no GPU that is on this machine";
    return a;
  }
  if (fits.empty()) {
    a.reason = "nothing fits:\n" + why;
    if (!a.reason.empty() && a.reason.back() == '\n') a.reason.pop_back();
    return a;
  }
  // The most headroom: free client slots first, then free memory.
  const Candidate* best = &fits.front();
  for (const auto& f : fits) {
    if (f.free_clients > best->free_clients || (f.free_clients == best->free_clients && f.free_memory > best->free_memory)) {
      best = &f;
    }
  }
  const ResolvedTarget& t = *best->target;
  a.admitted = true;
  a.target_uuid = t.uuid();
  a.clients = t.config->clients;
  a.reason = "runs on " + name_of(t) + " (" + std::string(to_string(t.config->mode)) + ")";
  if (t.config->mode == Sharing::mps) {
    // The daemon was started with CUDA_VISIBLE_DEVICES=<target>; clients must not set it themselves.
    const MpsPaths p = mps_paths_for(config, a.target_uuid);
    a.env["CUDA_MPS_PIPE_DIRECTORY"] = p.pipe_dir;
    a.env["CUDA_MPS_LOG_DIRECTORY"] = p.log_dir;
    if (const auto sm = request.sm_percent ? request.sm_percent : t.config->limits.sm_percent) {
      a.env["CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"] = std::to_string(*sm);
    }
    const auto mem = request.memory_bytes ? request.memory_bytes : t.config->limits.memory_bytes;
    if (mem) a.env["CUDA_MPS_PINNED_DEVICE_MEM_LIMIT"] = pinned_limit_env(*mem);
  } else {
    a.env["CUDA_VISIBLE_DEVICES"] = a.target_uuid;
  }
  return a;
}

}  // namespace gpupack
