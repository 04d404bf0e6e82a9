#include "mps/mps_daemon.hpp"

namespace gpupack {

namespace {

std::string join_ids(const std::vector<std::string>& ids) {
  std::string out;
  for (const auto& id : ids) out += (out.empty() ? "" : ",") + id;
  return out;
}

}  // namespace

MpsDaemon::MpsDaemon(ProcessRunner& runner, Filesystem& fs, Clock& clock, MpsDaemonOptions options)
    : runner_(runner),
      fs_(fs),
      clock_(clock),
      options_(std::move(options)),
      control_(runner, options_.paths, options_.binary) {}

// A pipe directory is a trust boundary: whoever can write it can talk to the daemon (and to its clients'
// GPU contexts), so it must be ours and private. A directory owned by someone else is an error, not
// something to chmod. A symbolic link is refused, not followed: `pipe -> /root-owned/dir` would pass the
// ownership check and the agent (root) would chmod and chown the link's target (issue 38).
void MpsDaemon::prepare_directory(const std::string& dir, const char* what) {
  if (dir.empty()) throw MpsError(std::string("the MPS ") + what + " directory is not set");
  FileInfo info = fs_.link_stat(dir);
  if (info.is_symlink) {
    throw MpsError(std::string("MPS ") + what + " directory " + dir + " is a symbolic link; remove it (it could point anywhere)");
  }
  if (info.exists && !info.is_dir) throw MpsError(std::string("MPS ") + what + " directory " + dir + " is not a directory");
  const unsigned me = fs_.effective_uid();
  if (!info.exists) {
    try {
      fs_.make_dirs(dir, 0700);
    } catch (const std::runtime_error& e) {
      throw MpsError(std::string("cannot create the MPS ") + what + " directory: " + e.what());
    }
    info = fs_.link_stat(dir);
    if (!info.is_dir) throw MpsError(std::string("MPS ") + what + " directory " + dir + " was replaced while it was created");
  }
  const unsigned wanted_owner = options_.owner_uid.value_or(me);
  if (info.uid != me && info.uid != wanted_owner) {
    throw MpsError(std::string("MPS ") + what + " directory " + dir + " is owned by uid " + std::to_string(info.uid) +
                   ", not by uid " + std::to_string(wanted_owner) + "; use a directory of your own or remove it");
  }
  if (!fs_.writable(dir)) throw MpsError(std::string("MPS ") + what + " directory " + dir + " is not writable by uid " + std::to_string(me));
  if (info.mode != 0700) {
    try {
      fs_.set_mode(dir, 0700);
    } catch (const std::runtime_error& e) {
      throw MpsError(std::string("MPS ") + what + " directory " + dir + " has mode " + mode_text(info.mode) +
                     " and cannot be made private (0700): " + e.what());
    }
  }
  if (options_.owner_uid && info.uid != *options_.owner_uid) {
    try {
      fs_.set_owner(dir, *options_.owner_uid, *options_.owner_uid);
    } catch (const std::runtime_error& e) {
      throw MpsError(std::string("cannot give the MPS ") + what + " directory to uid " +
                     std::to_string(*options_.owner_uid) + ": " + e.what());
    }
  }
}

void MpsDaemon::lock() {
  if (lock_) return;
  prepare_directory(options_.paths.pipe_dir, "pipe");  // the lock file lives there
  const std::string path = options_.paths.pipe_dir + "/" + kLockFile;
  try {
    lock_ = fs_.try_lock(path);
  } catch (const std::runtime_error& e) {
    throw MpsError(std::string("cannot lock the MPS pipe directory: ") + e.what());
  }
  if (!lock_) {
    throw MpsError("another gpupack process manages the MPS pipe directory " + options_.paths.pipe_dir + " (" + path +
                   " is locked); two supervisors must not share one pipe directory");
  }
}

std::optional<int> MpsDaemon::pid() const {
  // The pipe directory may belong to node.yaml's `uid`: a FIFO or a huge file planted as the pid file must
  // neither block the agent (root) nor be read without bound.
  const auto text = fs_.read_regular_bounded(options_.paths.pipe_dir + "/" + kPidFile, 4096).text;
  if (!text) return std::nullopt;
  const auto pids = parse_pid_list(*text);
  if (pids.empty() || !runner_.is_alive(pids.front())) return std::nullopt;
  return pids.front();
}

bool MpsDaemon::is_running() const {
  if (pid()) return true;
  // No pid file we can read (another layout, another owner): ask the daemon itself.
  return control_.send("get_server_list").ok;
}

// A daemon killed with -9 leaves its pid file behind; the next -d would refuse to start.
void MpsDaemon::clear_stale_pid_file() {
  const std::string path = options_.paths.pipe_dir + "/" + kPidFile;
  // remove() unlinks the name itself, never a link's target.
  if (fs_.read_regular_bounded(path, 4096).text && !pid()) fs_.remove(path);
}

void MpsDaemon::start() {
#ifndef __linux__
  throw MpsError("MPS needs Linux: nvidia-cuda-mps-control exists only there");
#endif
  if (!runner_.find_program(options_.binary)) {
    throw MpsError("cannot find the MPS control program '" + options_.binary +
                   "' (it comes with the NVIDIA driver/CUDA; add it to PATH or give its path)");
  }
  prepare_directory(options_.paths.pipe_dir, "pipe");
  prepare_directory(options_.paths.log_dir, "log");
  lock();
  if (const auto running = pid()) {
    throw MpsError("an MPS control daemon (pid " + std::to_string(*running) + ") already runs on pipe directory " +
                   options_.paths.pipe_dir + "; stop it first (gpupack mps down) or use another directory");
  }
  clear_stale_pid_file();
  if (options_.temporary) {
    try {
      fs_.write_file(options_.paths.pipe_dir + "/" + kTemporaryMark, "started by a gpupack command that quits it at its end\n");
    } catch (const std::runtime_error& e) {
      throw MpsError(std::string("cannot write to the MPS pipe directory: ") + e.what());
    }
  }
  ProcessSpec spec;
  spec.argv = {options_.binary, "-d"};
  spec.env = control_.environment();
  if (!options_.visible_devices.empty()) spec.env["CUDA_VISIBLE_DEVICES"] = join_ids(options_.visible_devices);
  if (options_.temporary) spec.env[kTemporaryEnv] = "1";
  spec.timeout = options_.start_timeout;
  const ProcessResult r = runner_.run(spec);
  if (r.exit_code != 0 || r.timed_out) {
    std::string detail = r.err.empty() ? r.out : r.err;
    while (!detail.empty() && (detail.back() == '\n' || detail.back() == ' ')) detail.pop_back();
    throw MpsError("'" + options_.binary + " -d' failed" + (r.timed_out ? " (timed out)" : " (exit " + std::to_string(r.exit_code) + ")") +
                   (detail.empty() ? "" : ": " + detail) + "; see " + options_.paths.log_dir + "/control.log");
  }
  // -d returns once the daemon has forked; wait until it answers on the pipe.
  const auto deadline = clock_.now() + options_.start_timeout;
  while (!control_.send("get_server_list").ok) {
    if (clock_.now() >= deadline) {
      throw MpsError("the MPS control daemon started but does not answer on " + options_.paths.pipe_dir + "; see " +
                     options_.paths.log_dir + "/control.log");
    }
    clock_.sleep_for(std::chrono::milliseconds(50));
  }
}

bool MpsDaemon::quit() {
  const std::optional<int> before = pid();
  if (!before && !control_.send("get_server_list").ok) {
    clear_stale_pid_file();
    return true;
  }
  control_.send("quit");
  const auto deadline = clock_.now() + options_.quit_timeout;
  for (;;) {
    const bool gone = before ? !runner_.is_alive(*before) : !control_.send("get_server_list").ok;
    if (gone) break;
    if (clock_.now() >= deadline) return false;
    clock_.sleep_for(std::chrono::milliseconds(50));
  }
  clear_stale_pid_file();
  return true;
}

}  // namespace gpupack
