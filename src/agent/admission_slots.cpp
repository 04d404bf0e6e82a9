#include "agent/admission_slots.hpp"

#include <sstream>
#include <stdexcept>

#include "agent/mps_targets.hpp"

namespace gpupack {

std::string AdmissionSlots::dir_for(const NodeConfig& config, const std::string& target_uuid) {
  return config.mps_root + "/" + target_uuid + "/clients";
}

void AdmissionSlots::prepare() {
  FileInfo dir = fs_.link_stat(dir_);
  if (!dir.exists) {
    fs_.make_dirs(dir_, 0755);
    dir = fs_.link_stat(dir_);
  }
  if (dir.is_symlink || !dir.is_dir) {
    throw std::runtime_error(dir_ + " is " + (dir.is_symlink ? "a symbolic link" : "not a directory") +
                             "; remove it (the agent lays out the admission slots anew)");
  }
  if (dir.mode != 0755) fs_.set_mode(dir_, 0755);  // through a descriptor: never a link's target
  for (int i = 0; i < slots_; ++i) {
    const std::string path = slot_path(i);
    const FileInfo info = fs_.link_stat(path);
    if (info.exists && !info.is_regular) {
      throw std::runtime_error(path + " is " + (info.is_symlink ? "a symbolic link" : "not a regular file") +
                               "; remove it (the agent creates the slot files itself)");
    }
    if (!info.exists) {
      fs_.try_lock(path);  // creates it (never through a link); a client may hold it at once, which is fine
    }
    if (!info.exists || info.mode != 0644) fs_.set_mode(path, 0644);
  }
}

std::unique_ptr<FileLock> AdmissionSlots::take() {
  // Without an agent (gpupack mps up only), the first client lays out the slots.
  if (!fs_.link_stat(slot_path(slots_ - 1)).exists) {
    try {
      prepare();
    } catch (const std::runtime_error& e) {
      throw std::runtime_error("cannot lay out the admission slots in " + dir_ + " (" + e.what() +
                               "); start gpupack agent, which creates them for every user");
    }
  }
  // Holders above the limit can only leave (nobody takes a slot there), so taking among the first
  // `slots - above` keeps the live holders at `slots` or fewer, however many runs race here.
  const int above = held_from(fs_.read_file("/proc/locks").value_or(""), slots_);
  for (int i = 0; i < slots_ - above; ++i) {
    if (auto lock = fs_.try_lock(slot_path(i))) return lock;
  }
  return nullptr;
}

int AdmissionSlots::held_from(const std::string& proc_locks, int first) const {
  const auto locked = flocked_files(proc_locks);
  int n = 0;
  for (const auto& name : fs_.list_dir(dir_)) {
    // slot-<n> exactly: digits only, no sign, no leading zero but "0" itself.
    if (name.rfind("slot-", 0) != 0 || name.size() == 5 || name.size() > 14) continue;
    const std::string digits = name.substr(5);
    if (digits.find_first_not_of("0123456789") != std::string::npos || (digits.size() > 1 && digits[0] == '0')) continue;
    if (std::stoll(digits) < first) continue;
    const FileInfo f = fs_.link_stat(dir_ + "/" + name);
    if (f.exists && f.is_regular && locked.count({f.device_major, f.device_minor, f.inode})) ++n;
  }
  return n;
}

void prepare_admission_slots(Filesystem& fs, const NodeConfig& config, const std::vector<GpuDeviceInfo>& devices) {
  for (const auto& t : resolve_targets(config, devices)) {
    AdmissionSlots(fs, AdmissionSlots::dir_for(config, t.uuid()), t.config->clients).prepare();
  }
}

std::set<LockedFile> flocked_files(const std::string& proc_locks) {
  std::set<LockedFile> out;
  std::istringstream lines(proc_locks);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string id, type, advisory, access, pid, file;
    // Waiters ("1: -> FLOCK ...") hold nothing; POSIX and OFD locks are not ours.
    if (!(fields >> id >> type >> advisory >> access >> pid >> file) || type != "FLOCK") continue;
    const auto c1 = file.find(':'), c2 = file.rfind(':');
    if (c1 == std::string::npos || c1 == c2) continue;
    try {
      out.insert({static_cast<unsigned>(std::stoul(file.substr(0, c1), nullptr, 16)),
                  static_cast<unsigned>(std::stoul(file.substr(c1 + 1, c2 - c1 - 1), nullptr, 16)),
                  static_cast<std::uint64_t>(std::stoull(file.substr(c2 + 1)))});
    } catch (const std::exception&) {
      continue;  // a line of a format this kernel does not write
    }
  }
  return out;
}

}  // namespace gpupack
