#pragma once
// MPS daemons left behind by a gpupack command that was killed. profile, bench and verify start private
// daemons of their own (MpsDaemonOptions::temporary) and always quit them, also on errors and Ctrl-C; only
// SIGKILL (an OOM kill, a harness that kills a session) leaves one running, and then the next command
// found "an MPS daemon not started by gpupack" owning the GPU (seen on the H100 on 2026-11-26). Such a
// daemon carries the temporary mark in its pipe directory and nobody holds that directory's lock (the
// command that started it held it until the daemon was gone), so a later command can tell it from a live
// command's daemon and from the node agent's (never temporary), and quit it.
#include <string>
#include <vector>

#include "os/clock.hpp"
#include "os/filesystem.hpp"
#include "os/process_runner.hpp"

namespace gpupack {

// Finds the processes of `control_binary` (and their servers) in /proc, read through `fs`: by the command
// name the kernel keeps (the first 15 characters of the program's file name) and their
// CUDA_MPS_PIPE_DIRECTORY. Each temporary daemon whose lock is free is quit with `control_binary` and its
// pipe and log directories removed once its processes are gone. Returns one line per daemon it quit (or
// could not), for the user; none when there was nothing left behind.
std::vector<std::string> quit_orphaned_daemons(ProcessRunner& runner, Filesystem& fs, Clock& clock,
                                               const std::string& control_binary);

}  // namespace gpupack
