#pragma once
// The answer `gpupack verify` gives first (pure): did the plan hold on this machine (every SLO met, no
// crash, no memory over its limit), and apart from that, did the replicas run as predicted. A prediction
// error over the tolerance is the model's miss, not the plan's: a warning, and a failure only with
// --strict (docs/verify.md, "Verdict and exit code"). A plan whose every SLO holds is not failed because
// its replicas ran faster than predicted.
#include <string>

#include "verify/verify_result.hpp"

namespace gpupack::verify {

enum class Verdict { pass, warn, fail };

// "pass", "warn", "fail": the JSON's words.
const char* verdict_name(Verdict v);

// fail: its SLO broken in a repeat, or a failure (crash, memory over its limit, no request reported);
// warn: only prediction errors over the tolerance; else pass.
Verdict replica_verdict(const ReplicaVerdict& v);

// The worst of the replicas' verdicts.
Verdict report_verdict(const VerifyReport& r);

// The replicas whose prediction error is over the tolerance, whatever their verdict.
int replicas_off_prediction(const VerifyReport& r);

// The model's accuracy against issue 36's targets (verify/model_replay.hpp: p99 within 25% and req/s within 15%
// at once), apart from the tolerance of the verdicts: the replicas with both errors, and those within both.
struct TargetCount {
  int judged = 0, within_both = 0;
};
TargetCount replicas_within_targets(const VerifyReport& r);
// "predictions: 9 of 11 replicas within p99 25% and req/s 15% of measured"; empty with none judged.
std::string targets_text(const VerifyReport& r);

// 1 for a failed replica, or with r.strict for a warning; else 0.
int verify_exit_code(const VerifyReport& r);

// The run's verdict in words, the table's last line after "verify: " and the HTML report's: "PASSED: every
// SLO held; 14 of 16 replicas ran off the prediction beyond 25% (warnings in the verdicts)", "FAILED: 1 of 16
// replicas with an SLO broke it; ...".
std::string verdict_text(const VerifyReport& r);

}  // namespace gpupack::verify
