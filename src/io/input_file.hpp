#pragma once
// Reading a user's input file: the whole text, or one InputError (exit 2): "cannot read <path>:
// <reason>", or "<path> is larger than 4MiB" (docs/cli.md). Every input file (scenario YAML,
// calibration JSON, plan JSON, and the node config and plugin settings of the agent) is read here, so
// that no file, /dev/zero included, is read past the limit. Its own small library (gpupack_input_file)
// so that the agent and k8s layers can use it without the planner.
#include <cstddef>
#include <string>

namespace gpupack {

class Filesystem;

// The largest input file gpupack reads: far above any honest scenario, plan or calibration (the
// largest plan the planner makes within its documented limits is well under 1 MiB).
inline constexpr std::size_t kMaxInputFileBytes = 4 * 1024 * 1024;

// Reads through the Env's file system (os/env.hpp), so that tests can read from an in-memory one.
std::string read_input_file(const Filesystem& fs, const std::string& path, std::size_t max_bytes = kMaxInputFileBytes);
// As read_input_file, for a file a daemon reads again and again (the agent's node.yaml, at each SIGHUP):
// opened without blocking and only a regular file, so that a FIFO put at the path cannot stop the agent in
// open() for good.
std::string read_regular_input_file(const Filesystem& fs, const std::string& path,
                                    std::size_t max_bytes = kMaxInputFileBytes);

// Writes one of the user's output files (-o, --json, --report) through the Env's file system, atomically
// for a regular file; a failure is one InputError (exit 2): "cannot write <path>: <reason>".
void write_output_file(Filesystem& fs, const std::string& path, const std::string& text);

// Before a long run (verify, bench): that `path`, given with `option`, can be written once the run ends: not
// a folder, and its folder exists and is writable. Else one InputError (exit 2) before anything started, so
// that the run's results are not lost at its end.
void check_output_file(const Filesystem& fs, const std::string& option, const std::string& path);

}  // namespace gpupack
