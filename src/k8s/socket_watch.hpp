#pragma once
// Watching the plugin directory with inotify: kubelet announces a restart by deleting every socket
// there and creating kubelet.sock anew, and the plugins must then serve again and re-register.
#include <chrono>
#include <string>
#include <vector>

namespace gpupack::k8s {

class DirectoryWatch {
 public:
  struct Event {
    std::string name;  // file name in the directory
    bool created = false;  // created or moved in; otherwise deleted or moved out
  };

  // Throws std::runtime_error naming the directory when it cannot be watched.
  explicit DirectoryWatch(const std::string& dir);
  ~DirectoryWatch();
  DirectoryWatch(const DirectoryWatch&) = delete;
  DirectoryWatch& operator=(const DirectoryWatch&) = delete;

  // The events that arrive within `timeout` (empty on timeout or after interrupt()).
  std::vector<Event> wait(std::chrono::milliseconds timeout);
  // Wakes a wait() in another thread; safe to call from any thread.
  void interrupt();

 private:
  int inotify_ = -1, wake_ = -1;
};

}  // namespace gpupack::k8s
