#include "k8s/cdi_spec.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "k8s/allocation.hpp"
#include "contract/cdi_spec.hpp"

namespace gpupack::k8s {

namespace {

[[noreturn]] void fail(const std::string& what, const std::string& path) {
  throw std::runtime_error("CDI spec: cannot " + what + " " + path + ": " + std::strerror(errno));
}

}  // namespace

std::string cdi_spec_json(const std::vector<PluginResource>& resources) {
  std::vector<CdiDevice> devices;
  for (const auto& r : resources) {
    for (const auto& d : r.devices) {
      // The device nodes only: the NVIDIA container toolkit still injects the driver libraries
      // (NVIDIA_VISIBLE_DEVICES). A MIG instance needs its parent's node and its /dev/nvidia-caps access
      // nodes, which follow from the driver's GPU and compute instance IDs.
      CdiDevice c;
      c.name = cdi_device_name(d.id);
      c.annotations = {{"gpupack.io/resource", r.name}, {"gpupack.io/uuid", d.target_uuid}};
      if (d.mig_ids) {
        c.device_nodes = mig_device_nodes({d.gpu_index, d.mig_ids->first, d.mig_ids->second});
      } else {
        c.device_nodes = {"/dev/nvidia" + std::to_string(d.gpu_index)};
      }
      devices.push_back(std::move(c));
    }
  }
  return gpupack::cdi_spec_json(devices, kCdiKind);
}

std::string write_cdi_spec(const std::string& dir, const std::vector<PluginResource>& resources) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    errno = ec.value();
    fail("create the directory", dir);
  }
  const std::string path = dir + "/gpupack.io-gpu.json";
  std::string tmp = dir + "/.gpupack.io-gpu.json.XXXXXX";
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) fail("create a temporary file in", dir);
  const std::string text = cdi_spec_json(resources);
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      ::unlink(tmp.c_str());
      fail("write", tmp);
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fchmod(fd, 0644) != 0 || ::fsync(fd) != 0) {
    ::close(fd);
    ::unlink(tmp.c_str());
    fail("sync", tmp);
  }
  ::close(fd);
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    ::unlink(tmp.c_str());
    fail("rename into place", path);
  }
  return path;
}

}  // namespace gpupack::k8s
