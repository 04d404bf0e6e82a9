#pragma once
// What gpupack's exit codes mean (documented in docs/cli.md), and the one map from an error kind
// (core/errors.hpp) to its code. Below cli so that the bench worker, which is a gpupack process of its
// own, exits with the same codes without including the CLI.
#include "core/errors.hpp"

namespace gpupack::exit_code {
inline constexpr int ok = 0;
inline constexpr int negative = 1;     // the command ran and the answer is "no" (e.g. a layout that does not fit)
inline constexpr int usage = 2;        // bad arguments or input: unknown name, malformed token, stray argument
inline constexpr int unavailable = 3;  // what the command needs is not here (no GPU, no CUDA support built in)
inline constexpr int unplaced = 4;     // `plan`: a plan was made, but some replicas could not be placed
inline constexpr int internal = 70;    // a bug: please report it
}  // namespace gpupack::exit_code

namespace gpupack {

constexpr int exit_code_for(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::negative: return exit_code::negative;
    case ErrorKind::input: return exit_code::usage;
    case ErrorKind::unavailable: return exit_code::unavailable;
    case ErrorKind::internal: return exit_code::internal;
  }
  return exit_code::internal;
}

}  // namespace gpupack
