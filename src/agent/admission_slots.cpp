#include "agent/admission_slots.hpp"

#include <sstream>
#include <stdexcept>

#include "agent/mps_targets.hpp"

namespace gpupack {

std::string AdmissionSlots::dir_for(const NodeConfig& config, const std::string& target_uuid) {
  return config.mps_root + "/" + target_uuid + "/clients";
}

void AdmissionSlots::prepare() {
  if (!fs_.stat(dir_).exists) fs_.make_dirs(dir_, 0755);
  fs_.set_mode(dir_, 0755);
  for (int i = 0; i < slots_; ++i) {
    const std::string path = slot_path(i);
    const FileInfo info = fs_.stat(path);
    if (!info.exists) {
      fs_.try_lock(path);  // creates it; a client may hold it at once, which is fine
    }
    if (!info.exists || info.mode != 0644) fs_.set_mode(path, 0644);
  }
}

std::unique_ptr<FileLock> AdmissionSlots::take() {
  // Without an agent (gpupack mps up only), the first client lays out the slots.
  if (!fs_.stat(slot_path(slots_ - 1)).exists) {
    try {
      prepare();
    } catch (const std::runtime_error& e) {
      throw std::runtime_error("cannot lay out the admission slots in " + dir_ + " (" + e.what() +
                               "); start gpupack agent, which creates them for every user");
    }
  }
  for (int i = 0; i < slots_; ++i) {
    if (auto lock = fs_.try_lock(slot_path(i))) return lock;
  }
  return nullptr;
}

int AdmissionSlots::held(const std::string& proc_locks) const {
  const auto locked = flocked_files(proc_locks);
  int n = 0;
  for (int i = 0; i < slots_; ++i) {
    const FileInfo f = fs_.stat(slot_path(i));
    if (f.exists && locked.count({f.device_major, f.device_minor, f.inode})) ++n;
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
