// POSIX process running: posix_spawnp with pipes for stdin/stdout/stderr, a poll loop with a deadline.
#include "os/process_runner.hpp"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <cstdlib>

extern char** environ;

namespace gpupack {

namespace {

int decode_status(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

// The inherited environment with spec.env laid over it, as owned strings and a char* array for exec.
struct Environment {
  std::vector<std::string> entries;
  std::vector<char*> pointers;
  explicit Environment(const std::map<std::string, std::string>& extra) {
    for (char** e = environ; e && *e; ++e) {
      const std::string entry = *e;
      const auto eq = entry.find('=');
      if (eq != std::string::npos && extra.count(entry.substr(0, eq))) continue;
      entries.push_back(entry);
    }
    for (const auto& [k, v] : extra) entries.push_back(k + "=" + v);
    for (auto& s : entries) pointers.push_back(s.data());
    pointers.push_back(nullptr);
  }
};

struct Argv {
  std::vector<std::string> args;
  std::vector<char*> pointers;
  explicit Argv(const std::vector<std::string>& a) : args(a) {
    for (auto& s : args) pointers.push_back(s.data());
    pointers.push_back(nullptr);
  }
};

class Pipe {
 public:
  Pipe() {
    if (::pipe2(fds_, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  }
  ~Pipe() {
    close_read();
    close_write();
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  int read_end() const { return fds_[0]; }
  int write_end() const { return fds_[1]; }
  void close_read() { close_fd(fds_[0]); }
  void close_write() { close_fd(fds_[1]); }

 private:
  static void close_fd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
  int fds_[2] = {-1, -1};
};

// Reads what is available without blocking; returns false at end of file.
bool drain(int fd, std::string& into) {
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) {
      into.append(buf, static_cast<size_t>(n));
      continue;
    }
    if (n == 0) return false;
    return errno == EAGAIN || errno == EINTR;
  }
}

class PosixChild : public ChildProcess {
 public:
  explicit PosixChild(pid_t pid) : pid_(pid) {}
  ~PosixChild() override {
    // A child we never waited for would stay a zombie; reap it if it has ended.
    if (!status_) poll();
  }
  int pid() const override { return pid_; }
  std::optional<int> poll() override {
    if (status_) return status_;
    int status = 0;
    const pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_) status_ = decode_status(status);
    return status_;
  }
  int wait() override {
    while (!status_) {
      int status = 0;
      const pid_t r = ::waitpid(pid_, &status, 0);
      if (r == pid_) status_ = decode_status(status);
      else if (r < 0 && errno != EINTR) status_ = -1;
    }
    return *status_;
  }
  void signal(int sig) override {
    if (!status_) ::kill(pid_, sig);
  }

 private:
  pid_t pid_;
  std::optional<int> status_;
};

// Writing to the stdin of a child that exited without reading it raises SIGPIPE, which would kill
// gpupack. Block it in this thread while run() writes, and consume one raised meanwhile (the write
// itself then fails with EPIPE, which run() handles).
class SigpipeBlock {
 public:
  SigpipeBlock() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    sigset_t pending;
    sigpending(&pending);
    was_pending_ = sigismember(&pending, SIGPIPE) == 1;
    pthread_sigmask(SIG_BLOCK, &pipe_, &old_);
  }
  ~SigpipeBlock() {
    sigset_t pending;
    sigpending(&pending);
    if (!was_pending_ && sigismember(&pending, SIGPIPE) == 1) {
      const timespec zero{0, 0};
      sigtimedwait(&pipe_, nullptr, &zero);
    }
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  SigpipeBlock(const SigpipeBlock&) = delete;
  SigpipeBlock& operator=(const SigpipeBlock&) = delete;

 private:
  sigset_t pipe_, old_;
  bool was_pending_ = false;
};

pid_t spawn_with(const ProcessSpec& spec, posix_spawn_file_actions_t* actions) {
  if (spec.argv.empty()) throw std::invalid_argument("ProcessSpec with an empty argv");
  Environment env(spec.env);
  Argv argv(spec.argv);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // The child starts with default signal dispositions and no blocked signals, whatever gpupack set.
  sigset_t all, none;
  sigfillset(&all);
  sigemptyset(&none);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  pid_t pid = -1;
  const int rc = ::posix_spawnp(&pid, argv.pointers[0], actions, &attr, argv.pointers.data(), env.pointers.data());
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    throw std::runtime_error("cannot start '" + spec.argv[0] + "': " + std::strerror(rc));
  }
  return pid;
}

}  // namespace

ProcessResult PosixProcessRunner::run(const ProcessSpec& spec) {
  const SigpipeBlock no_sigpipe;
  Pipe in, out, err;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in.read_end(), 0);
  posix_spawn_file_actions_adddup2(&actions, out.write_end(), 1);
  posix_spawn_file_actions_adddup2(&actions, err.write_end(), 2);
  ProcessResult result;
  pid_t pid = -1;
  try {
    pid = spawn_with(spec, &actions);
  } catch (const std::runtime_error& e) {
    posix_spawn_file_actions_destroy(&actions);
    result.exit_code = 127;
    result.err = e.what();
    return result;
  }
  posix_spawn_file_actions_destroy(&actions);
  in.close_read();
  out.close_write();
  err.close_write();
  for (int fd : {in.write_end(), out.read_end(), err.read_end()}) ::fcntl(fd, F_SETFL, O_NONBLOCK);

  // Feed stdin, collect output, and watch the child until it exits or the deadline passes.
  const auto deadline = std::chrono::steady_clock::now() + spec.timeout;
  size_t written = 0;
  if (spec.stdin_text.empty()) in.close_write();
  bool out_open = true, err_open = true;
  std::optional<int> status;
  while (!status) {
    std::vector<pollfd> fds;
    if (in.write_end() >= 0) fds.push_back({in.write_end(), POLLOUT, 0});
    if (out_open) fds.push_back({out.read_end(), POLLIN, 0});
    if (err_open) fds.push_back({err.read_end(), POLLIN, 0});
    // Short waits: the child's exit is noticed by waitpid, not by the pipes (a daemon may hold them).
    ::poll(fds.data(), fds.size(), 10);
    if (in.write_end() >= 0) {
      const ssize_t n = ::write(in.write_end(), spec.stdin_text.data() + written, spec.stdin_text.size() - written);
      if (n > 0) written += static_cast<size_t>(n);
      if (written >= spec.stdin_text.size() || (n < 0 && errno == EPIPE)) in.close_write();
    }
    if (out_open) out_open = drain(out.read_end(), result.out);
    if (err_open) err_open = drain(err.read_end(), result.err);
    int st = 0;
    if (::waitpid(pid, &st, WNOHANG) == pid) {
      status = decode_status(st);
    } else if (std::chrono::steady_clock::now() >= deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &st, 0);
      result.timed_out = true;
      status = decode_status(st);
    }
  }
  if (out_open) drain(out.read_end(), result.out);
  if (err_open) drain(err.read_end(), result.err);
  result.exit_code = *status;
  return result;
}

std::unique_ptr<ChildProcess> PosixProcessRunner::spawn(const ProcessSpec& spec) {
  if (spec.inherited_fds.empty()) return std::make_unique<PosixChild>(spawn_with(spec, nullptr));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  // dup2 of a descriptor onto itself clears its close-on-exec flag in the child only (POSIX 2024; glibc
  // since 2.29): gpupack's copy stays close-on-exec for every other child.
  for (const int fd : spec.inherited_fds) posix_spawn_file_actions_adddup2(&actions, fd, fd);
  try {
    auto child = std::make_unique<PosixChild>(spawn_with(spec, &actions));
    posix_spawn_file_actions_destroy(&actions);
    return child;
  } catch (...) {
    posix_spawn_file_actions_destroy(&actions);
    throw;
  }
}

bool PosixProcessRunner::is_alive(int pid) const {
  if (pid <= 0) return false;
  if (::kill(pid, 0) != 0 && errno != EPERM) return false;
  // A zombie (ended, not yet reaped, e.g. under a container init that never reaps) counts as gone.
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return true;
  return !is_zombie_stat(line);
}

bool is_zombie_stat(const std::string& stat_line) {
  const auto paren = stat_line.rfind(')');
  return paren != std::string::npos && paren + 2 < stat_line.size() && stat_line[paren + 2] == 'Z';
}

bool PosixProcessRunner::send_signal(int pid, int sig) { return pid > 0 && ::kill(pid, sig) == 0; }

std::optional<std::string> PosixProcessRunner::find_program(const std::string& name) const {
  auto executable = [](const std::string& p) {
    struct stat st {};
    return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
  };
  if (name.find('/') != std::string::npos) return executable(name) ? std::optional<std::string>(name) : std::nullopt;
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    const size_t colon = dirs.find(':', start);
    const std::string dir = dirs.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (executable(candidate)) return candidate;
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return std::nullopt;
}

}  // namespace gpupack
