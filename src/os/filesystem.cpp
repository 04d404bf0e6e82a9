// POSIX file system: stat, mkdir, chmod/chown, atomic writes, flock.
#include "os/filesystem.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace gpupack {

namespace {

[[noreturn]] void fail(const std::string& what, const std::string& path) {
  throw std::runtime_error(what + " " + path + ": " + std::strerror(errno));
}

class FlockLock : public FileLock {
 public:
  explicit FlockLock(int fd) : fd_(fd) {}
  ~FlockLock() override { ::close(fd_); }  // closing releases the flock

 private:
  int fd_;
};

}  // namespace

FileInfo PosixFilesystem::stat(const std::string& path) const {
  struct stat st {};
  FileInfo info;
  if (::stat(path.c_str(), &st) != 0) return info;
  info.exists = true;
  info.is_dir = S_ISDIR(st.st_mode);
  info.uid = st.st_uid;
  info.mode = st.st_mode & 07777;
  info.device_major = major(st.st_dev);
  info.device_minor = minor(st.st_dev);
  info.inode = st.st_ino;
  return info;
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
  if (::chmod(path.c_str(), static_cast<mode_t>(mode)) != 0) fail("cannot chmod", path);
}

void PosixFilesystem::set_owner(const std::string& path, unsigned uid, unsigned gid) {
  if (::chown(path.c_str(), uid, gid) != 0) fail("cannot chown", path);
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

void PosixFilesystem::write_file(const std::string& path, const std::string& content) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) fail("cannot write", tmp);
    out << content;
    if (!out.flush()) fail("cannot write", tmp);
  }
  // Not the umask's choice: under umask 000 node labels (the NFD feature file) became world-writable.
  if (::chmod(tmp.c_str(), 0644) != 0) fail("cannot set the mode of", tmp);
  if (::rename(tmp.c_str(), path.c_str()) != 0) fail("cannot rename to", path);
}

bool PosixFilesystem::remove(const std::string& path) { return ::unlink(path.c_str()) == 0; }

std::unique_ptr<FileLock> PosixFilesystem::try_lock(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  // flock needs no write access: a user locks the agent's admission slots (mode 0644) read-only.
  if (fd < 0 && errno == EACCES) fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail("cannot open lock file", path);
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
