#pragma once
// What gpupack's exit codes mean (documented in docs/cli.md).
namespace gpupack::exit_code {
inline constexpr int ok = 0;
inline constexpr int negative = 1;     // the command ran and the answer is "no" (e.g. a layout that does not fit)
inline constexpr int usage = 2;        // bad arguments or input: unknown name, malformed token, stray argument
inline constexpr int unavailable = 3;  // what the command needs is not here (no GPU, no CUDA support built in)
inline constexpr int internal = 70;    // a bug: please report it
}  // namespace gpupack::exit_code
