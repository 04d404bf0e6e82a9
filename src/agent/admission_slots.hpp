#pragma once
// The book of `gpupack run` admissions on one GPU or MIG instance: `clients` slot files,
// <mps_root>/<target>/clients/slot-<i>. A client holds a slot by holding an exclusive flock on its file
// for as long as it runs; the kernel drops the lock when the holder dies, SIGKILL included, so a dead
// holder's slot is free again without any cleanup. Taking a slot is atomic (flock LOCK_NB), so N
// concurrent runs against `clients` slots admit exactly `clients`, whatever NVML already lists.
// The agent counts held slots from /proc/locks without locking anything, so counting never takes a
// slot away from a client: /metrics and admission read one book.
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "agent/node_config.hpp"
#include "os/filesystem.hpp"

namespace gpupack {

class AdmissionSlots {
 public:
  AdmissionSlots(Filesystem& fs, std::string dir, int slots) : fs_(fs), dir_(std::move(dir)), slots_(slots) {}
  static std::string dir_for(const NodeConfig& config, const std::string& target_uuid);

  // Creates the directory (0755) and the slot files (0644) so that every user can lock them; removes
  // nothing (slots above `slots` are ignored). Throws std::runtime_error when it cannot.
  void prepare();
  // Takes a free slot; nullptr when all are held. Throws std::runtime_error when the files cannot be
  // opened (the directory missing and not creatable by this user).
  std::unique_ptr<FileLock> take();
  // Slots held now, from `proc_locks` (the text of /proc/locks).
  int held(const std::string& proc_locks) const;
  int slots() const { return slots_; }

 private:
  std::string slot_path(int i) const { return dir_ + "/slot-" + std::to_string(i); }

  Filesystem& fs_;
  std::string dir_;
  int slots_;
};

// Lays out the slots of every target of `config` (the agent, at start and at each reload, so that users
// who cannot create directories under mps_root can still take slots). Throws std::runtime_error.
void prepare_admission_slots(Filesystem& fs, const NodeConfig& config, const std::vector<GpuDeviceInfo>& devices);

// (major, minor, inode) of every file with a FLOCK lock in the text of /proc/locks, e.g.
// "1: FLOCK  ADVISORY  WRITE 4242 fd:01:1234 0 EOF" (major and minor in hex, inode in decimal).
using LockedFile = std::tuple<unsigned, unsigned, std::uint64_t>;
std::set<LockedFile> flocked_files(const std::string& proc_locks);

}  // namespace gpupack
