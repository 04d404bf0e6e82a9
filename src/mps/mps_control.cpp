#include "mps/mps_control.hpp"

#include <sstream>

namespace gpupack {

namespace {

std::string trim_right(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ' || s.back() == '\t')) s.pop_back();
  return s;
}

}  // namespace

const char* to_string(MpsServerState state) {
  switch (state) {
    case MpsServerState::initializing: return "INITIALIZING";
    case MpsServerState::active: return "ACTIVE";
    case MpsServerState::fault: return "FAULT";
    case MpsServerState::unknown: break;
  }
  return "UNKNOWN";
}

// The reply's exact layout is not documented; look for the state words (FAULT wins: it needs action).
MpsServerState parse_server_state(const std::string& reply) {
  if (reply.find("FAULT") != std::string::npos) return MpsServerState::fault;
  if (reply.find("INITIALIZING") != std::string::npos) return MpsServerState::initializing;
  if (reply.find("ACTIVE") != std::string::npos) return MpsServerState::active;
  return MpsServerState::unknown;
}

std::vector<int> parse_pid_list(const std::string& text) {
  std::vector<int> pids;
  std::istringstream in(text);
  std::string word;
  while (in >> word) {
    if (word.empty() || word.find_first_not_of("0123456789") != std::string::npos || word.size() > 9) continue;
    pids.push_back(std::stoi(word));
  }
  return pids;
}

MpsControl::MpsControl(ProcessRunner& runner, MpsPaths paths, std::string binary, std::chrono::milliseconds timeout)
    : runner_(runner), paths_(std::move(paths)), binary_(std::move(binary)), timeout_(timeout) {}

std::map<std::string, std::string> MpsControl::environment() const {
  return {{"CUDA_MPS_PIPE_DIRECTORY", paths_.pipe_dir}, {"CUDA_MPS_LOG_DIRECTORY", paths_.log_dir}};
}

MpsReply MpsControl::send(const std::string& command) const {
  ProcessSpec spec;
  spec.argv = {binary_};
  spec.env = environment();
  spec.stdin_text = command + "\n";
  spec.timeout = timeout_;
  const ProcessResult r = runner_.run(spec);
  MpsReply reply;
  reply.text = trim_right(r.out);
  reply.ok = r.exit_code == 0 && !r.timed_out;
  if (r.timed_out) {
    reply.error = "'" + command + "' got no answer from " + binary_ + " within " + std::to_string(timeout_.count()) +
                  " ms (pipe directory " + paths_.pipe_dir + ")";
  } else if (!reply.ok) {
    std::string detail = trim_right(r.err.empty() ? r.out : r.err);
    reply.error = "'" + command + "' failed (" + binary_ + " exit " + std::to_string(r.exit_code) +
                  (detail.empty() ? "" : ": " + detail) + ")";
  }
  return reply;
}

MpsReply MpsControl::checked(const std::string& command) const {
  MpsReply reply = send(command);
  if (!reply.ok) throw MpsError(reply.error);
  return reply;
}

std::vector<int> MpsControl::server_list() const { return parse_pid_list(checked("get_server_list").text); }

MpsServerState MpsControl::server_status(int server_pid) const {
  return parse_server_state(checked("get_server_status " + std::to_string(server_pid)).text);
}

std::vector<int> MpsControl::client_list(int server_pid) const {
  return parse_pid_list(checked("get_client_list " + std::to_string(server_pid)).text);
}

// `ps` prints a header (PID ID SERVER DEVICE NAMESPACE COMMAND) and one row per client.
std::vector<MpsProcess> MpsControl::ps() const {
  std::vector<MpsProcess> rows;
  std::istringstream in(checked("ps").text);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string pid, id, server, device, ns;
    if (!(fields >> pid >> id >> server >> device >> ns)) continue;
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;  // the header
    if (server.find_first_not_of("0123456789") != std::string::npos) continue;
    MpsProcess p;
    p.pid = std::stoi(pid);
    p.server_pid = std::stoi(server);
    p.device = device;
    std::getline(fields >> std::ws, p.command);
    rows.push_back(p);
  }
  return rows;
}

void MpsControl::start_server(unsigned uid) const { checked("start_server -uid " + std::to_string(uid)); }

void MpsControl::set_default_active_thread_percentage(int percent) const {
  checked("set_default_active_thread_percentage " + std::to_string(percent));
}

void MpsControl::set_default_device_pinned_mem_limit(int device, const std::string& value) const {
  checked("set_default_device_pinned_mem_limit " + std::to_string(device) + " " + value);
}

}  // namespace gpupack
