// POSIX file system: stat, mkdir, chmod/chown through descriptors, atomic writes, flock.
#include "os/filesystem.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace gpupack {

namespace {

[[noreturn]] void fail(const std::string& what, const std::string& path) {
  const int error = errno;
  throw FileError(what + " " + path + ": " + std::strerror(error), error);
}

// Closes and removes a temporary file that could not be written, then fails naming it (errno kept).
[[noreturn]] void discard_and_fail(int fd, const std::string& tmp, const char* what) {
  const int error = errno;
  ::close(fd);
  ::unlink(tmp.c_str());
  errno = error;
  fail(what, tmp);
}

class FlockLock : public FileLock {
 public:
  explicit FlockLock(int fd) : fd_(fd) {}
  ~FlockLock() override { ::close(fd_); }  // closing releases the flock (once every copy is closed)
  int descriptor() const override { return fd_; }

 private:
  int fd_;
};

// A temporary file's suffix: the process id, a per-process counter and 64 random bits, so that neither
// another thread nor a user who can write the directory knows the name before the file exists.
std::string unique_suffix() {
  static std::atomic<std::uint64_t> counter{0};
  thread_local std::mt19937_64 bits{std::random_device{}()};
  char buf[64];
  std::snprintf(buf, sizeof buf, "%d.%llu.%016llx", static_cast<int>(::getpid()),
                static_cast<unsigned long long>(counter.fetch_add(1)), static_cast<unsigned long long>(bits()));
  return buf;
}

FileInfo info_of(const struct stat& st) {
  FileInfo info;
  info.exists = true;
  info.is_dir = S_ISDIR(st.st_mode);
  info.is_socket = S_ISSOCK(st.st_mode);
  info.is_regular = S_ISREG(st.st_mode);
  info.is_symlink = S_ISLNK(st.st_mode);
  info.uid = st.st_uid;
  info.gid = st.st_gid;
  info.mode = st.st_mode & 07777;
  info.device_major = major(st.st_dev);
  info.device_minor = minor(st.st_dev);
  info.inode = st.st_ino;
  info.change_ns = static_cast<std::int64_t>(st.st_ctim.tv_sec) * 1000000000 + st.st_ctim.tv_nsec;
  return info;
}

[[noreturn]] void refuse_link(const std::string& what, const std::string& path) {
  throw FileError(what + " " + path + ": it is a symbolic link (refused: it could point anywhere; remove it)", ELOOP);
}

// A descriptor of `path` itself, never of what a symbolic link there points to. O_PATH where the file
// cannot be opened for reading (a socket, a file without read permission): fstat and fchownat take it.
int open_no_follow(const std::string& what, const std::string& path, bool& o_path) {
  o_path = false;
  int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0 && errno == ELOOP) refuse_link(what, path);
  if (fd < 0 && (errno == ENXIO || errno == EACCES || errno == EOPNOTSUPP)) {
    fd = ::open(path.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC);
    o_path = true;
  }
  if (fd < 0) fail(what, path);
  struct stat st {};
  if (::fstat(fd, &st) != 0 || S_ISLNK(st.st_mode)) {  // O_PATH | O_NOFOLLOW opens a link itself
    ::close(fd);
    refuse_link(what, path);
  }
  return fd;
}

}  // namespace

std::string mode_text(unsigned mode) {
  std::ostringstream s;
  s << '0' << std::oct << mode;
  return s.str();
}

FileInfo PosixFilesystem::stat(const std::string& path) const {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return {};
  return info_of(st);
}

FileInfo PosixFilesystem::link_stat(const std::string& path) const {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return {};
  return info_of(st);
}

std::optional<std::string> PosixFilesystem::real_path(const std::string& path) const {
  char* resolved = ::realpath(path.c_str(), nullptr);
  if (!resolved) return std::nullopt;
  std::string out = resolved;
  std::free(resolved);
  return out;
}

void PosixFilesystem::make_dirs(const std::string& path, unsigned mode) {
  // Missing parents get 0755, not the umask's choice: under umask 000 a world-writable parent (e.g. of
  // an MPS pipe directory) would let anyone swap the private directory for their own.
  for (auto slash = path.find('/', 1); slash != std::string::npos; slash = path.find('/', slash + 1)) {
    const std::string parent = path.substr(0, slash);
    if (::mkdir(parent.c_str(), 0755) == 0) set_mode(parent, 0755);
  }
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec) throw std::runtime_error("cannot create directory " + path + ": " + ec.message());
  set_mode(path, mode);
}

void PosixFilesystem::set_mode(const std::string& path, unsigned mode) {
  bool o_path = false;
  const int fd = open_no_follow("cannot chmod", path, o_path);
  // fchmod refuses an O_PATH descriptor; /proc/self/fd/N names the very file the descriptor holds.
  const int rc = o_path ? ::chmod(("/proc/self/fd/" + std::to_string(fd)).c_str(), static_cast<mode_t>(mode))
                        : ::fchmod(fd, static_cast<mode_t>(mode));
  const int error = errno;
  ::close(fd);
  errno = error;
  if (rc != 0) fail("cannot chmod", path);
}

void PosixFilesystem::set_owner(const std::string& path, unsigned uid, unsigned gid) {
  bool o_path = false;
  const int fd = open_no_follow("cannot chown", path, o_path);
  const int rc = ::fchownat(fd, "", uid, gid, AT_EMPTY_PATH);
  const int error = errno;
  ::close(fd);
  errno = error;
  if (rc != 0) fail("cannot chown", path);
}

std::optional<std::string> PosixFilesystem::read_file(const std::string& path) const {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

BoundedRead PosixFilesystem::read_bounded(const std::string& path, std::size_t max_bytes) const {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {std::nullopt, errno};
  std::string text;
  char chunk[64 * 1024];
  while (in && text.size() <= max_bytes) {
    in.read(chunk, sizeof chunk);
    text.append(chunk, static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) return {std::nullopt, errno};
  if (text.size() > max_bytes + 1) text.resize(max_bytes + 1);
  return {std::move(text), 0};
}

BoundedRead PosixFilesystem::read_regular_bounded(const std::string& path, std::size_t max_bytes) const {
  // O_NONBLOCK: opening a FIFO for reading waits for a writer; a regular file ignores the flag.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return {std::nullopt, errno};
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return {std::nullopt, 0, true};
  }
  std::string text;
  char chunk[64 * 1024];
  while (text.size() <= max_bytes) {
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      ::close(fd);
      return {std::nullopt, error};
    }
    if (n == 0) break;
    text.append(chunk, static_cast<std::size_t>(n));
  }
  ::close(fd);
  if (text.size() > max_bytes + 1) text.resize(max_bytes + 1);
  return {std::move(text), 0};
}

std::optional<std::string> PosixFilesystem::read_at(const std::string& path, std::size_t offset,
                                                    std::size_t max_bytes) const {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  in.seekg(static_cast<std::streamoff>(offset));
  std::string data(max_bytes, '\0');
  in.read(data.data(), static_cast<std::streamsize>(max_bytes));
  data.resize(static_cast<std::size_t>(in.gcount()));
  return data;
}

void PosixFilesystem::write_file(const std::string& path, const std::string& content) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
    // A device or pipe (-o /dev/stdout, /dev/null) is written in place: renaming over it would replace it.
    std::ofstream out(path, std::ios::binary);
    if (!(out << content) || !out.flush()) fail("cannot write", path);
    return;
  }
  // The temporary name starts with a dot: a reader of the whole directory (NFD's features.d) skips it.
  const auto slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  // O_EXCL | O_NOFOLLOW under a name nobody can guess: a link or file planted in the directory is never
  // written through or truncated, and two writers of one path (threads of one process) never share a file.
  int fd = -1;
  std::string tmp;
  for (int attempt = 0; fd < 0; ++attempt) {
    tmp = dir + "." + name + ".tmp." + unique_suffix();
    fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0 && (errno != EEXIST || attempt >= 16)) fail("cannot create", tmp);
  }
  for (std::size_t done = 0; done < content.size();) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) discard_and_fail(fd, tmp, "cannot write");  // ENOSPC, EDQUOT, EIO
    done += static_cast<std::size_t>(n);
  }
  // On disk before the rename: after a crash the path holds the old text or the new, never an empty file
  // (the CDI spec a container runtime reads, node labels, node.yaml). A failed fsync (a delayed ENOSPC or
  // EIO) fails the write: the text may never reach the disk. EINVAL: a file system that cannot sync.
  if (::fsync(fd) != 0 && errno != EINVAL) discard_and_fail(fd, tmp, "cannot write");
  // Not the umask's choice: under umask 000 node labels (the NFD feature file) became world-writable.
  if (::fchmod(fd, 0644) != 0) discard_and_fail(fd, tmp, "cannot set the mode of");
  if (::close(fd) != 0) {
    const int error = errno;
    ::unlink(tmp.c_str());
    errno = error;
    fail("cannot write", tmp);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int error = errno;
    ::unlink(tmp.c_str());
    errno = error;
    fail("cannot rename to", path);
  }
}

bool PosixFilesystem::remove(const std::string& path) { return ::unlink(path.c_str()) == 0; }

void PosixFilesystem::remove_all(const std::string& path) {
  std::error_code ignored;
  std::filesystem::remove_all(path, ignored);
}

void PosixFilesystem::rename(const std::string& from, const std::string& to) {
  if (::rename(from.c_str(), to.c_str()) != 0) fail("cannot rename " + from + " to", to);
}

std::string PosixFilesystem::make_temp_dir(const std::string& parent, const std::string& prefix) {
  std::string tmpl = parent + "/" + prefix + "-XXXXXX";
  if (!::mkdtemp(tmpl.data())) fail("cannot create a temporary directory under", parent);
  return tmpl;
}

std::vector<std::string> PosixFilesystem::list_dir(const std::string& path) const {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(path, ec)) {
    names.push_back(entry.path().filename().string());
  }
  return names;
}

std::string PosixFilesystem::absolute(const std::string& path) const {
  std::error_code ec;
  const auto p = std::filesystem::absolute(path, ec);
  return ec ? path : p.string();
}

std::unique_ptr<FileLock> PosixFilesystem::try_lock(const std::string& path) {
  // O_NOFOLLOW: a link planted at the path (pipe/gpupack.lock -> /etc/nologin) would make root create or
  // lock its target. O_NONBLOCK: a FIFO planted there must not hang the open.
  constexpr int kFlags = O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | kFlags, 0600);
  // flock needs no write access: a user locks the agent's admission slots (mode 0644) read-only.
  if (fd < 0 && errno == EACCES) fd = ::open(path.c_str(), O_RDONLY | kFlags);
  if (fd < 0 && errno == ELOOP) refuse_link("cannot open lock file", path);
  if (fd < 0) fail("cannot open lock file", path);
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw FileError("cannot open lock file " + path + ": not a regular file", EINVAL);
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    ::close(fd);
    if (error == EWOULDBLOCK) return nullptr;
    errno = error;
    fail("cannot lock", path);
  }
  return std::make_unique<FlockLock>(fd);
}

unsigned PosixFilesystem::effective_uid() const { return ::geteuid(); }

bool PosixFilesystem::writable(const std::string& path) const { return ::access(path.c_str(), W_OK) == 0; }

}  // namespace gpupack
