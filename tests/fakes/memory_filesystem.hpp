#pragma once
// A file system that lives in memory: files, directories with their modes, owners and locks, so that a
// test of a reader or writer needs no temporary directory and can provoke a missing or unreadable file.
#include <cerrno>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "os/filesystem.hpp"

namespace gpupack::testing {

class MemoryFilesystem : public Filesystem {
 public:
  std::map<std::string, std::string> files;  // path -> content
  std::map<std::string, unsigned> dirs;      // path -> mode
  std::map<std::string, unsigned> owner_of;  // path -> uid (0 unless set)
  std::set<std::string> unreadable;          // reads fail with EACCES
  std::set<std::string> read_only;           // writes fail, writable() is false
  std::set<std::string> sockets;             // stat says is_socket
  std::map<std::string, std::string> symlinks;  // path -> target (absolute): stat follows, link_stat not
  std::string cwd = "/work";                  // what absolute() resolves a relative path against
  unsigned uid = 1000;

  FileInfo stat(const std::string& path) const override {
    const auto link = symlinks.find(path);
    return link != symlinks.end() ? stat(link->second) : link_stat(path);
  }
  FileInfo link_stat(const std::string& path) const override {
    FileInfo info;
    if (symlinks.count(path)) {
      info.exists = info.is_symlink = true;
      info.mode = 0777;
      info.uid = owner(path);
      return info;
    }
    if (path == "/" && !dirs.count(path)) {  // the root is always there, root's and 0755
      info.exists = info.is_dir = true;
      info.mode = 0755;
      return info;
    }
    const auto dir = dirs.find(path);
    info.exists = dir != dirs.end() || files.count(path) || sockets.count(path);
    if (!info.exists) return info;
    info.is_dir = dir != dirs.end();
    info.is_socket = sockets.count(path) > 0;
    info.is_regular = !info.is_dir && !info.is_socket;
    info.mode = info.is_dir ? dir->second : 0644;
    info.uid = owner(path);
    return info;
  }
  std::optional<std::string> real_path(const std::string& path) const override {
    const auto link = symlinks.find(path);
    if (link != symlinks.end()) return real_path(link->second);
    if (!link_stat(path).exists) return std::nullopt;
    return path;
  }
  void make_dirs(const std::string& path, unsigned mode) override {
    for (auto slash = path.find('/', 1); slash != std::string::npos; slash = path.find('/', slash + 1)) {
      dirs.emplace(path.substr(0, slash), 0755);
    }
    dirs[path] = mode;
  }
  // As the real one: never through a symbolic link.
  void set_mode(const std::string& path, unsigned mode) override {
    refuse_link("cannot chmod", path);
    if (dirs.count(path)) dirs[path] = mode;
  }
  void set_owner(const std::string& path, unsigned uid_to, unsigned /*gid*/) override {
    refuse_link("cannot chown", path);
    owner_of[path] = uid_to;
  }
  std::optional<std::string> read_file(const std::string& path) const override {
    const auto it = files.find(path);
    if (it == files.end() || unreadable.count(path)) return std::nullopt;
    return it->second;
  }
  BoundedRead read_bounded(const std::string& path, std::size_t max_bytes) const override {
    if (unreadable.count(path)) return {std::nullopt, EACCES};
    if (dirs.count(path)) return {std::nullopt, EISDIR};
    const auto it = files.find(path);
    if (it == files.end()) return {std::nullopt, ENOENT};
    return {it->second.substr(0, max_bytes + 1), 0};
  }
  BoundedRead read_regular_bounded(const std::string& path, std::size_t max_bytes) const override {
    const FileInfo info = stat(path);
    if (info.exists && !info.is_regular) return {std::nullopt, 0, true};
    return read_bounded(path, max_bytes);
  }
  std::optional<std::string> read_at(const std::string& path, std::size_t offset,
                                     std::size_t max_bytes) const override {
    const auto text = read_file(path);
    if (!text) return std::nullopt;
    return offset >= text->size() ? std::string() : text->substr(offset, max_bytes);
  }
  void write_file(const std::string& path, const std::string& content) override {
    if (read_only.count(path)) throw FileError("cannot write " + path + ": Permission denied", EACCES);
    files[path] = content;
  }
  bool remove(const std::string& path) override { return files.erase(path) > 0; }
  void remove_all(const std::string& path) override {
    erase_under(files, path);
    erase_under(dirs, path);
    sockets.erase(path);
  }
  void rename(const std::string& from, const std::string& to) override {
    if (!stat(from).exists) throw FileError("cannot rename " + from + " to " + to + ": No such file or directory", ENOENT);
    move_under(files, from, to);
    move_under(dirs, from, to);
  }
  std::string make_temp_dir(const std::string& parent, const std::string& prefix) override {
    const std::string path = parent + "/" + prefix + "-" + std::to_string(++temp_dirs_made_);
    dirs[path] = 0700;
    return path;
  }
  std::vector<std::string> list_dir(const std::string& path) const override {
    std::set<std::string> names;
    const std::string head = path + "/";
    auto add = [&](const std::string& p) {
      if (p.rfind(head, 0) == 0 && p.size() > head.size()) names.insert(p.substr(head.size(), p.find('/', head.size()) - head.size()));
    };
    for (const auto& [p, content] : files) add(p);
    for (const auto& [p, mode] : dirs) add(p);
    return {names.begin(), names.end()};
  }
  std::string absolute(const std::string& path) const override {
    return !path.empty() && path[0] == '/' ? path : cwd + "/" + path;
  }
  std::unique_ptr<FileLock> try_lock(const std::string& path) override {
    refuse_link("cannot open lock file", path);
    if (dirs.count(path) || sockets.count(path)) throw FileError("cannot open lock file " + path + ": not a regular file", EINVAL);
    if (locked_->count(path)) return nullptr;
    files.emplace(path, "");
    return std::make_unique<Lock>(locked_, path);
  }
  unsigned effective_uid() const override { return uid; }
  bool writable(const std::string& path) const override { return !read_only.count(path); }

 private:
  unsigned owner(const std::string& path) const {
    const auto it = owner_of.find(path);
    return it != owner_of.end() ? it->second : uid;
  }
  void refuse_link(const std::string& what, const std::string& path) const {
    if (symlinks.count(path)) throw FileError(what + " " + path + ": it is a symbolic link", ELOOP);
  }
  static bool under(const std::string& p, const std::string& root) {
    return p == root || p.rfind(root + "/", 0) == 0;
  }
  template <typename Map>
  static void erase_under(Map& m, const std::string& root) {
    for (auto it = m.begin(); it != m.end();) it = under(it->first, root) ? m.erase(it) : std::next(it);
  }
  template <typename Map>
  static void move_under(Map& m, const std::string& from, const std::string& to) {
    Map moved;
    for (auto it = m.begin(); it != m.end();) {
      if (!under(it->first, from)) {
        ++it;
        continue;
      }
      moved[to + it->first.substr(from.size())] = it->second;
      it = m.erase(it);
    }
    for (auto& [p, v] : moved) m[p] = v;
  }
  int temp_dirs_made_ = 0;
  // Shared with the locks, so that a lock released after the file system is gone touches nothing freed.
  class Lock : public FileLock {
   public:
    Lock(std::shared_ptr<std::set<std::string>> locked, std::string path)
        : locked_(std::move(locked)), path_(std::move(path)) {
      locked_->insert(path_);
    }
    ~Lock() override { locked_->erase(path_); }

   private:
    std::shared_ptr<std::set<std::string>> locked_;
    std::string path_;
  };
  std::shared_ptr<std::set<std::string>> locked_ = std::make_shared<std::set<std::string>>();
};

}  // namespace gpupack::testing
