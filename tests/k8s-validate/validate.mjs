// Validates Kubernetes objects in YAML/JSON files offline against the official OpenAPI schemas, using
// the kubernetes-models package: each object is built from its apiVersion/kind and validate() is called.
// Usage: node validate.mjs [--parse-only] [--skip-kind KIND]... FILE...   Exit 0 when every object validates
// (with --parse-only: every YAML/JSON document parses), 1 otherwise (errors on stderr). --skip-kind: objects
// of a kind kubernetes-models has no schema for (a CRD's, e.g. ServiceMonitor) are counted as skipped.
import { readFileSync } from "node:fs";
import { parseAllDocuments } from "yaml";

async function modelFor(apiVersion, kind) {
  // "apps/v1" -> kubernetes-models/apps/v1, "v1" -> kubernetes-models/v1
  const mod = await import(`kubernetes-models/${apiVersion}/${kind}`);
  return mod[kind];
}

let args = process.argv.slice(2);
const parseOnly = args[0] === "--parse-only";
if (parseOnly) args = args.slice(1);
const skipKinds = new Set();
while (args[0] === "--skip-kind") {
  skipKinds.add(args[1]);
  args = args.slice(2);
}
let failures = 0;
let checked = 0;
let skipped = 0;
for (const file of args) {
  const docs = parseAllDocuments(readFileSync(file, "utf8"));
  for (const doc of docs) {
    if (doc.errors.length) {
      console.error(`${file}: YAML error: ${doc.errors[0].message}`);
      failures++;
      continue;
    }
    const obj = doc.toJS();
    if (obj === null || obj === undefined) continue;
    if (parseOnly) {
      checked++;
      continue;
    }
    const items = obj.kind === "List" ? obj.items : [obj];
    for (const item of items) {
      if (skipKinds.has(item.kind)) {
        skipped++;
        continue;
      }
      try {
        const Model = await modelFor(item.apiVersion, item.kind);
        new Model(item).validate();
        checked++;
      } catch (e) {
        console.error(`${file}: ${item.kind}/${item.metadata?.name}: ${e.message}`);
        failures++;
      }
    }
  }
}
console.log(`${checked} ${parseOnly ? "documents parsed" : "objects valid"}, ${failures} invalid` +
            (skipped ? `, ${skipped} skipped (${[...skipKinds].join(", ")})` : ""));
process.exit(failures ? 1 : 0);
