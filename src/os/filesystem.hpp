#pragma once
// The file-system operations gpupack needs (the files part of the Env seam, os/env.hpp), behind an
// interface so that tests can run on an in-memory file system (tests/fakes/memory_filesystem.hpp) or
// provoke what is hard to provoke for real (a directory owned by someone else, a lock held elsewhere).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpupack {

struct FileInfo {
  bool exists = false;
  bool is_dir = false;
  bool is_socket = false;
  bool is_regular = false;
  bool is_symlink = false;  // only from link_stat: stat describes what a link points to
  unsigned uid = 0;
  unsigned gid = 0;
  unsigned mode = 0;  // permission bits only (e.g. 0700)
  // Identity of the file, as /proc/locks names a locked one ("<major>:<minor>:<inode>").
  unsigned device_major = 0, device_minor = 0;
  std::uint64_t inode = 0;
  // When the file's inode last changed (nanoseconds since the epoch): a socket made anew at the same
  // path and inode still differs here.
  std::int64_t change_ns = 0;
};

// Permission bits as people write them: "0755", "01777".
std::string mode_text(unsigned mode);

// A failed file operation: the message names the operation and the path; `error` is the errno value, so
// that a caller can say it in its own words (the CLI's "cannot write PATH: <reason>").
class FileError : public std::runtime_error {
 public:
  FileError(const std::string& message, int error) : std::runtime_error(message), error_(error) {}
  int error() const { return error_; }

 private:
  int error_;
};

// What a bounded read found: the text (at most max_bytes + 1 bytes: one byte past the limit says the file
// is larger), or no text and the errno value that stopped the open or the read.
struct BoundedRead {
  std::optional<std::string> text;
  int error = 0;
  bool not_regular = false;  // read_regular_bounded: the path is a FIFO, device, socket or directory
};

// An exclusive advisory lock, released when destroyed.
class FileLock {
 public:
  virtual ~FileLock() = default;
  // The open descriptor that holds the lock (close-on-exec), or -1 for a lock without one. A child given a
  // copy (ProcessSpec::inherited_fds) holds the same lock: it is released when the last copy closes, so
  // the lock lives as long as the longest-lived of its holders (gpupack run's admission slot).
  virtual int descriptor() const { return -1; }
};

class Filesystem {
 public:
  virtual ~Filesystem() = default;
  virtual FileInfo stat(const std::string& path) const = 0;
  // As stat, but a symbolic link at `path` is described itself (is_symlink), not followed.
  virtual FileInfo link_stat(const std::string& path) const = 0;
  // `path` with every symbolic link, "." and ".." resolved; nullopt when it does not exist.
  virtual std::optional<std::string> real_path(const std::string& path) const = 0;
  // Creates the directory and missing parents (0755 whatever the umask); the last component gets `mode`.
  // Throws std::runtime_error.
  virtual void make_dirs(const std::string& path, unsigned mode) = 0;
  // Change `path` itself, through a descriptor opened without following a symbolic link (fchmod,
  // fchown): a link planted at `path` is refused (FileError with ELOOP), never followed. The agent runs
  // as root: a chmod through a planted link made a 0600 secret world-readable (issue 38).
  virtual void set_mode(const std::string& path, unsigned mode) = 0;
  virtual void set_owner(const std::string& path, unsigned uid, unsigned gid) = 0;
  virtual std::optional<std::string> read_file(const std::string& path) const = 0;
  // Reads in chunks and stops one byte past `max_bytes`: a device or pipe (/dev/zero) has no size to ask.
  // io/input_file.hpp turns the result into the user's one-line error.
  virtual BoundedRead read_bounded(const std::string& path, std::size_t max_bytes) const = 0;
  // As read_bounded, for a file a daemon re-reads (the agent's node.yaml at SIGHUP): opened without
  // blocking, and anything but a regular file refused (not_regular), so that a FIFO at the path cannot
  // stop the daemon in open() or read() for good.
  virtual BoundedRead read_regular_bounded(const std::string& path, std::size_t max_bytes) const = 0;
  // Up to `max_bytes` from byte `offset` on (a file another program appends to); empty past the end,
  // nullopt when the file cannot be opened.
  virtual std::optional<std::string> read_at(const std::string& path, std::size_t offset,
                                             std::size_t max_bytes) const = 0;
  // Replaces the file atomically (a temporary file in the same directory whose name starts with a dot,
  // then rename), mode 0644 whatever the umask. Throws FileError.
  virtual void write_file(const std::string& path, const std::string& content) = 0;
  virtual bool remove(const std::string& path) = 0;
  // Removes a file or a directory with everything in it; nothing when it does not exist.
  virtual void remove_all(const std::string& path) = 0;
  // Renames a file or directory, replacing a file at `to`. Throws FileError.
  virtual void rename(const std::string& from, const std::string& to) = 0;
  // Makes a new private directory "<parent>/<prefix>-XXXXXX" (mkdtemp) and returns its path. Throws
  // FileError.
  virtual std::string make_temp_dir(const std::string& parent, const std::string& prefix) = 0;
  // The names in a directory (no "." or ".."), in no particular order; empty when it cannot be read.
  virtual std::vector<std::string> list_dir(const std::string& path) const = 0;
  // `path` made absolute against the current directory (not normalised, links not followed).
  virtual std::string absolute(const std::string& path) const = 0;
  // Takes an exclusive lock on `path` (created if missing, mode 0600) without waiting; nullptr when
  // another process holds it. A file the caller may only read is locked through a read-only descriptor.
  // Never through a symbolic link (FileError with ELOOP: a planted link would make root create or lock
  // its target) and only on a regular file (FileError with EINVAL).
  virtual std::unique_ptr<FileLock> try_lock(const std::string& path) = 0;
  virtual unsigned effective_uid() const = 0;
  virtual bool writable(const std::string& path) const = 0;
};

class PosixFilesystem : public Filesystem {
 public:
  FileInfo stat(const std::string& path) const override;
  FileInfo link_stat(const std::string& path) const override;
  std::optional<std::string> real_path(const std::string& path) const override;
  void make_dirs(const std::string& path, unsigned mode) override;
  void set_mode(const std::string& path, unsigned mode) override;
  void set_owner(const std::string& path, unsigned uid, unsigned gid) override;
  std::optional<std::string> read_file(const std::string& path) const override;
  BoundedRead read_bounded(const std::string& path, std::size_t max_bytes) const override;
  std::optional<std::string> read_at(const std::string& path, std::size_t offset,
                                     std::size_t max_bytes) const override;
  BoundedRead read_regular_bounded(const std::string& path, std::size_t max_bytes) const override;
  void write_file(const std::string& path, const std::string& content) override;
  bool remove(const std::string& path) override;
  void remove_all(const std::string& path) override;
  void rename(const std::string& from, const std::string& to) override;
  std::string make_temp_dir(const std::string& parent, const std::string& prefix) override;
  std::vector<std::string> list_dir(const std::string& path) const override;
  std::string absolute(const std::string& path) const override;
  std::unique_ptr<FileLock> try_lock(const std::string& path) override;
  unsigned effective_uid() const override;
  bool writable(const std::string& path) const override;
};

}  // namespace gpupack
