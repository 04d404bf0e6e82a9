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
  // nothing (slots above `slots` are ignored). Refuses (std::runtime_error) a directory or slot file that
  // is a symbolic link or not what it should be: the agent runs as root, and a planted
  // `slot-N -> /some/secret` must not be chmod'ed or created. Throws std::runtime_error when it cannot.
  void prepare();
  // Takes a free slot; nullptr when all are held. Slots numbered `slots` or above that are still held
  // (clients admitted before a reload lowered `clients`) count against the limit: no new client is
  // admitted until fewer than `slots` hold one. Throws std::runtime_error when the files cannot be opened
  // (the directory missing and not creatable by this user, a planted link).
  std::unique_ptr<FileLock> take();
  // Slot files held now, from `proc_locks` (the text of /proc/locks): every slot-<n> in the directory,
  // those above `slots` included, so that /metrics shows the real number of live holders.
  int held(const std::string& proc_locks) const { return held_from(proc_locks, 0); }
  int slots() const { return slots_; }

 private:
  std::string slot_path(int i) const { return dir_ + "/slot-" + std::to_string(i); }
  // Held slot files numbered `first` or above (link_stat: a planted link is never counted).
  int held_from(const std::string& proc_locks, int first) const;

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
