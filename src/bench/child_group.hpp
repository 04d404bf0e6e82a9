#pragma once
// A group of child processes started together and talked to over pipes: bench workers (which print
// "ready", wait for "go", and print a JSON result) and the user's --client-cmd copies. os/ProcessRunner
// covers run-to-completion and inherited stdio; the ready/go handshake needs the children's stdin and
// stdout while they run, which is what this class adds. Each child leads its own process group, so that
// stopping or killing it also ends what it started (a user's command runs through /bin/sh -c).
#include <sys/types.h>

#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace gpupack::bench {

struct ChildSpec {
  std::vector<std::string> argv;             // argv[0]: a path (no PATH search)
  std::map<std::string, std::string> env;    // set on top of the inherited environment
  std::vector<std::string> unset_env;        // removed from it (e.g. a user's CUDA_MPS_PIPE_DIRECTORY)
};

struct ChildOutcome {
  int exit_code = -1;  // 128 + signal when a signal ended it
  std::string out, err;
  double seconds = 0;  // from spawn to exit, as the parent saw it
  bool ready = false;
  bool exited = false;
  bool stopped = false;  // ended by terminate_all (asked to stop), not by itself
};

class ChildGroup {
 public:
  // Starts every child at once; throws std::runtime_error when one cannot be started.
  explicit ChildGroup(const std::vector<ChildSpec>& specs);
  // Children still running are killed (SIGKILL) and reaped: nothing outlives a failed experiment.
  ~ChildGroup();
  ChildGroup(const ChildGroup&) = delete;
  ChildGroup& operator=(const ChildGroup&) = delete;

  // Until every child has printed "ready". Throws std::runtime_error naming the child's stderr or
  // result when one exits first, or on timeout; Interrupted on Ctrl-C.
  void wait_ready(std::chrono::milliseconds timeout);
  void send_all(const std::string& line);
  void send(size_t index, const std::string& line);
  // Keeps reading the children's output for this long (they run on meanwhile).
  void wait_for(std::chrono::milliseconds duration);
  // Until every child has exited; children left at the timeout are killed and the call throws.
  void wait_exit(std::chrono::milliseconds timeout);
  // Asks every child still running to stop (SIGTERM to its process group), waits up to `grace`, then
  // kills what is left. Their outcomes say stopped.
  void terminate_all(std::chrono::milliseconds grace);

  size_t size() const { return children_.size(); }
  // The child's pid (the leader of its process group); still its pid after it exited.
  pid_t pid(size_t index) const { return children_[index].pid; }
  const ChildOutcome& outcome(size_t index) const { return children_[index].outcome; }

 private:
  struct Child {
    pid_t pid = -1;
    int in = -1, out = -1, err = -1;
    ChildOutcome outcome;
    std::chrono::steady_clock::time_point started;
  };
  // Reads what the children wrote and reaps those that ended, waiting at most `wait`.
  void pump(std::chrono::milliseconds wait);
  void kill_all();

  std::vector<Child> children_;
};

}  // namespace gpupack::bench
