// Issue 16: the plugin sockets and the NFD feature file followed the umask (0777 and 0666 under umask
// 000: anyone could allocate devices or rewrite node labels). Their modes are now set explicitly.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include "fakes/temp_dir.hpp"
#include "k8s/device_plugins.hpp"
#include "k8s/node_labels.hpp"
#include "k8s/sample_node.hpp"

namespace gpupack::k8s {
namespace {

unsigned mode_of(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 ? st.st_mode & 07777 : 01000000;
}

class UmaskZero : public ::testing::Test {
 protected:
  void SetUp() override { old_ = ::umask(0); }
  void TearDown() override { ::umask(old_); }
  mode_t old_ = 0;
  gpupack::PosixFilesystem files_;
};

TEST_F(UmaskZero, PluginSocketsAre0700AndTheFeatureFile0644) {
  gpupack::testing::TempDir dir;
  DevicePluginSettings s;
  s.plugin_dir = dir.path();
  DevicePlugins plugins(plan_resources(gpupack::testing::sample_targets()), s, files_);
  plugins.start();
  for (const auto& r : plugins.resources()) {
    const std::string socket = dir.path() + "/" + socket_name(r.name);
    EXPECT_EQ(mode_of(socket) & 0777, 0700u) << socket;
  }
  plugins.stop();
  const std::string features = dir / "features.d/gpupack";
  write_features_file(files_, features, {{"gpupack.io/gpu.count", "4"}});
  EXPECT_EQ(mode_of(features), 0644u);
  EXPECT_EQ(mode_of(dir / "features.d"), 0755u);
}

}  // namespace
}  // namespace gpupack::k8s
