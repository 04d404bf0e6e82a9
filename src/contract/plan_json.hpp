#pragma once
// The plan JSON (docs/plan-schema.md), read into and written from the typed plan (contract/plan_document.hpp).
// Field names are stable: only ever added, never renamed.
#include <string>

#include <nlohmann/json.hpp>

#include "contract/plan_document.hpp"
#include "contract/sharing.hpp"
#include "core/gpu_catalog.hpp"

namespace gpupack {

// Reads the output of `gpupack plan --format json`, or a hand-written plan with at least what the render
// needs ($.gpus[] id, model, mode, slices[] id, sharing, memory_bytes; $.placements[] workload, replica,
// memory_limit_bytes, gpu, slice); the other fields take their defaults when absent or null. Then checks
// the plan as check_plan_document does. Throws InputError naming the JSON path and what was expected.
PlanDocument read_plan_json(const nlohmann::json& plan, const GpuCatalog& catalog);

// Every string that reaches a rendered file is checked against what it can be: a catalog model (replaced
// by its canonical name), a MIG profile of that model (likewise), DNS-1123 node and workload names, a
// label-value tenant, plain GPU and slice ids. Errors name the JSON path of the value (placements are
// counted in the order of their GPUs and slices, the order gpupack writes them) and quote it back
// through quote_input. For plans the plan side built (`gpupack plan --render`) as for plans read.
void check_plan_document(PlanDocument& plan, const GpuCatalog& catalog);

// The plan JSON's text, formatted as nlohmann's dump(2) formats it (two-space indent, keys in schema
// order), without a final newline. Formats only: every value is computed before (cli/plan_document.cpp).
std::string plan_json_text(const PlanDocument& plan);

}  // namespace gpupack
