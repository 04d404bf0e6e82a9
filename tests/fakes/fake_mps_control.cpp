// fake-mps-control: a stand-in for nvidia-cuda-mps-control that speaks the same stdin protocol, so the
// MPS layer, the supervisor and the agent can be tested without a GPU. State lives in files in
// $CUDA_MPS_PIPE_DIRECTORY:
//   nvidia-cuda-mps-control.pid  the daemon's pid (as the real daemon writes it)
//   control                      stands in for the control socket
//   fake-servers                 one line per server: "<pid> <uid> <STATE>"
//   fake-clients                 one line per client: "<server pid> <client pid>"
//   fake-defaults                "key value" lines set by set_default_*
//   fake-quit                    written by quit; the daemon sees it and exits
//   fake-fail                    commands (one per line, "-d" for daemon start) that must fail
// FAKE_MPS_FAIL (comma-separated commands) scripts failures too. Every command is appended to
// $CUDA_MPS_LOG_DIRECTORY/control.log. Servers are forked processes that exit when the daemon goes.
// Extra commands for tests: fake_add_client <server pid> <client pid>, fake_set_state <server pid> <STATE>.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

std::string g_pipe, g_log;

std::string path(const char* name) { return g_pipe + "/" + name; }

std::vector<std::string> read_lines(const std::string& file) {
  std::vector<std::string> lines;
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

void write_lines(const std::string& file, const std::vector<std::string>& lines) {
  const std::string tmp = file + ".tmp" + std::to_string(getpid());
  {
    std::ofstream out(tmp);
    for (const auto& l : lines) out << l << '\n';
  }
  std::rename(tmp.c_str(), file.c_str());
}

bool alive(int pid) {
  if (pid <= 0 || (kill(pid, 0) != 0 && errno != EPERM)) return false;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return true;
  const auto paren = line.rfind(')');
  return paren == std::string::npos || paren + 2 >= line.size() || line[paren + 2] != 'Z';
}

int daemon_pid() {
  std::ifstream in(path("nvidia-cuda-mps-control.pid"));
  int pid = 0;
  in >> pid;
  return alive(pid) ? pid : 0;
}

bool scripted_failure(const std::string& command) {
  std::vector<std::string> fails = read_lines(path("fake-fail"));
  if (const char* env = std::getenv("FAKE_MPS_FAIL")) {
    std::stringstream s(env);
    std::string item;
    while (std::getline(s, item, ',')) fails.push_back(item);
  }
  for (const auto& f : fails) {
    if (f == command) return true;
  }
  return false;
}

void log_line(const std::string& text) {
  if (g_log.empty()) return;
  std::ofstream out(g_log + "/control.log", std::ios::app);
  out << "[fake] " << text << '\n';
}

void sleep_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

// Servers that are still alive, as "<pid> <uid> <STATE>" lines; dead ones are dropped.
std::vector<std::string> live_servers() {
  std::vector<std::string> live;
  for (const auto& l : read_lines(path("fake-servers"))) {
    if (alive(std::atoi(l.c_str()))) live.push_back(l);
  }
  return live;
}

void detach_stdio() {
  const int null = open("/dev/null", O_RDWR);
  dup2(null, 0);
  dup2(null, 1);
  dup2(null, 2);
  if (null > 2) close(null);
}

[[noreturn]] void server_loop(int daemon) {
  for (;;) {
    if (!alive(daemon) || access(path("fake-quit").c_str(), F_OK) == 0) _exit(0);
    sleep_ms(20);
  }
}

[[noreturn]] void daemon_loop() {
  const std::string me = std::to_string(getpid());
  write_lines(path("nvidia-cuda-mps-control.pid"), {me});
  write_lines(path("control"), {});
  log_line("daemon started " + me);
  // A real daemon whose pipe directory is removed keeps running, unreachable (what orphaned_daemons.cpp
  // stops by signal), so this one does too, but only for 10 s: a test's temporary directory removed under it
  // must not leave it running for ever.
  int gone_ms = 0;
  for (;;) {
    while (waitpid(-1, nullptr, WNOHANG) > 0) {
    }
    if (access(path("fake-quit").c_str(), F_OK) == 0) break;
    struct stat dir {};
    if (stat(g_pipe.c_str(), &dir) != 0) {
      if ((gone_ms += 20) > 10000) break;
      sleep_ms(20);
      continue;
    }
    gone_ms = 0;
    std::ifstream in(path("nvidia-cuda-mps-control.pid"));
    std::string owner;
    in >> owner;
    if (owner != me) break;  // someone else took the directory over
    sleep_ms(20);
  }
  for (const auto& l : live_servers()) kill(std::atoi(l.c_str()), SIGTERM);
  for (const char* f : {"nvidia-cuda-mps-control.pid", "control", "fake-quit", "fake-servers", "fake-clients", "fake-defaults"}) {
    unlink(path(f).c_str());
  }
  log_line("daemon exited " + me);
  _exit(0);
}

int start_daemon() {
  if (scripted_failure("-d")) {
    std::cerr << "fake-mps-control: scripted failure of -d\n";
    return 1;
  }
  if (daemon_pid()) {
    std::cout << "An instance of this daemon is already running\n";
    return 1;
  }
  unlink(path("fake-quit").c_str());
  const pid_t child = fork();
  if (child < 0) return 1;
  if (child == 0) {
    setsid();
    if (fork() != 0) _exit(0);
    detach_stdio();
    daemon_loop();
  }
  waitpid(child, nullptr, 0);
  for (int i = 0; i < 500 && !daemon_pid(); ++i) sleep_ms(10);
  return daemon_pid() ? 0 : 1;
}

int start_server(int uid) {
  const int daemon = daemon_pid();
  int ready[2];
  if (pipe(ready) != 0) return 1;
  const pid_t child = fork();
  if (child < 0) return 1;
  if (child == 0) {
    setsid();
    const pid_t server = fork();
    if (server != 0) {
      if (write(ready[1], &server, sizeof server) < 0) _exit(1);
      _exit(0);
    }
    close(ready[0]);
    close(ready[1]);
    detach_stdio();
    server_loop(daemon);
  }
  close(ready[1]);
  pid_t server = 0;
  if (read(ready[0], &server, sizeof server) != static_cast<ssize_t>(sizeof server)) return 1;
  close(ready[0]);
  waitpid(child, nullptr, 0);
  auto servers = live_servers();
  servers.push_back(std::to_string(server) + " " + std::to_string(uid) + " ACTIVE");
  write_lines(path("fake-servers"), servers);
  return 0;
}

std::vector<std::string> clients_of(const std::string& server) {
  std::vector<std::string> out;
  for (const auto& l : read_lines(path("fake-clients"))) {
    std::istringstream s(l);
    std::string srv, client;
    s >> srv >> client;
    if (srv == server && alive(std::atoi(client.c_str()))) out.push_back(client);
  }
  return out;
}

int command(const std::string& line) {
  std::istringstream in(line);
  std::string cmd;
  in >> cmd;
  std::vector<std::string> args;
  for (std::string a; in >> a;) args.push_back(a);
  log_line("command " + line);
  if (cmd.empty()) return 0;
  if (!daemon_pid()) {
    std::cout << "Cannot find MPS control daemon process\n";
    return 1;
  }
  if (scripted_failure(cmd)) {
    std::cout << "fake-mps-control: scripted failure of " << cmd << '\n';
    return 1;
  }
  if (cmd == "quit") {
    write_lines(path("fake-quit"), {"quit"});
    return 0;
  }
  if (cmd == "get_server_list") {
    for (const auto& l : live_servers()) std::cout << l.substr(0, l.find(' ')) << '\n';
    return 0;
  }
  if (cmd == "start_server") {
    if (args.size() != 2 || args[0] != "-uid") {
      std::cout << "Usage: start_server -uid <uid>\n";
      return 1;
    }
    return start_server(std::atoi(args[1].c_str()));
  }
  if (cmd == "get_server_status" || cmd == "fake_set_state") {
    if (args.empty()) return 1;
    auto servers = live_servers();
    for (auto& l : servers) {
      std::istringstream s(l);
      std::string pid, uid, state;
      s >> pid >> uid >> state;
      if (pid != args[0]) continue;
      if (cmd == "get_server_status") {
        std::cout << state << '\n';
        return 0;
      }
      if (args.size() < 2) return 1;
      l = pid + " " + uid + " " + args[1];
      write_lines(path("fake-servers"), servers);
      return 0;
    }
    std::cout << "Server " << args[0] << " not found\n";
    return 1;
  }
  if (cmd == "get_client_list") {
    if (args.empty()) return 1;
    for (const auto& c : clients_of(args[0])) std::cout << c << '\n';
    return 0;
  }
  if (cmd == "fake_add_client") {
    if (args.size() != 2) return 1;
    auto clients = read_lines(path("fake-clients"));
    clients.push_back(args[0] + " " + args[1]);
    write_lines(path("fake-clients"), clients);
    return 0;
  }
  if (cmd == "ps") {
    std::cout << "PID\tID\tSERVER\tDEVICE\tNAMESPACE\tCOMMAND\n";
    int id = 0;
    for (const auto& l : live_servers()) {
      const std::string server = l.substr(0, l.find(' '));
      for (const auto& c : clients_of(server)) {
        std::cout << c << '\t' << ++id << '\t' << server << "\tGPU-fake\t4026531836\tclient\n";
      }
    }
    return 0;
  }
  if (cmd.rfind("set_default_", 0) == 0 || cmd.rfind("get_default_", 0) == 0) {
    auto defaults = read_lines(path("fake-defaults"));
    const std::string key = cmd.substr(4);
    if (cmd[0] == 'g') {
      for (const auto& d : defaults) {
        if (d.rfind(key + " ", 0) == 0) std::cout << d.substr(key.size() + 1) << '\n';
      }
      return 0;
    }
    if (args.empty()) return 1;
    std::string value;
    for (const auto& a : args) value += (value.empty() ? "" : " ") + a;
    std::vector<std::string> kept;
    for (const auto& d : defaults) {
      if (d.rfind(key + " ", 0) != 0) kept.push_back(d);
    }
    kept.push_back(key + " " + value);
    write_lines(path("fake-defaults"), kept);
    return 0;
  }
  std::cout << "Unrecognized command: " << cmd << '\n';
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  const char* pipe = std::getenv("CUDA_MPS_PIPE_DIRECTORY");
  const char* log = std::getenv("CUDA_MPS_LOG_DIRECTORY");
  g_pipe = pipe ? pipe : "/tmp/nvidia-mps";
  g_log = log ? log : "";
  struct stat st {};
  if (stat(g_pipe.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    std::cerr << "fake-mps-control: pipe directory " << g_pipe << " does not exist\n";
    return 1;
  }
  const std::string flag = argc > 1 ? argv[1] : "";
  if (flag == "-d") return start_daemon();
  if (flag == "-v") {
    std::cout << "Binary version: 13000 (fake)\n";
    return 0;
  }
  int rc = 0;
  for (std::string line; std::getline(std::cin, line);) rc = command(line);
  return rc;
}
