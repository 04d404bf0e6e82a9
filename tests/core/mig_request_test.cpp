#include "core/mig_request.hpp"

#include <gtest/gtest.h>

#include <random>

#include "core/errors.hpp"
#include "core/gpu_catalog.hpp"

namespace gpupack {

namespace {
const GpuModel& a100() {
  static const GpuCatalog c = builtin_catalog();
  return c.get("A100-80GB");
}
std::string message_of(const std::vector<std::string>& tokens) {
  try {
    parse_mig_request(a100(), tokens);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(MigRequest, ParsesNamesAndCounts) {
  const MigCounts c = parse_mig_request(a100(), std::vector<std::string>{"3g.40gb", "2x1g.10gb", "1G.10GB", "nvidia.com/mig-2g.20gb"});
  const MigGeometry& g = *a100().mig;
  EXPECT_EQ(c[g.find_profile("3g.40gb")], 1);
  EXPECT_EQ(c[g.find_profile("1g.10gb")], 3);
  EXPECT_EQ(c[g.find_profile("2g.20gb")], 1);
  EXPECT_EQ(instance_count(c), 5);
}

TEST(MigRequest, RejectsBadTokensNamingThem) {
  EXPECT_NE(message_of({"1g.10gbx"}).find("'1g.10gbx'"), std::string::npos);
  EXPECT_NE(message_of({"1g.10gbx"}).find("accepted: 1g.10gb"), std::string::npos);
  EXPECT_NE(message_of({"0x1g.10gb"}).find("'0x1g.10gb'"), std::string::npos);
  EXPECT_NE(message_of({"65x1g.10gb"}).find("1..64"), std::string::npos);
  EXPECT_NE(message_of({"99999999999999x1g.10gb"}).find("invalid count"), std::string::npos);
  EXPECT_NE(message_of({"x1g.10gb"}).find("unknown MIG profile"), std::string::npos);
  EXPECT_NE(message_of({""}).find("unknown MIG profile"), std::string::npos);
  EXPECT_NE(message_of({}).find("no MIG profiles given"), std::string::npos);
  EXPECT_NE(message_of({"40x1g.10gb", "40x1g.10gb"}).find("too many"), std::string::npos);
}

TEST(MigRequest, NonMigModelIsAnInputError) {
  const GpuCatalog c = builtin_catalog();
  EXPECT_THROW(parse_mig_request(c.get("L4"), std::vector<std::string>{"1g.10gb"}), InputError);
}

// Fuzz: random tokens built from the characters profile names use never crash and either parse or
// raise one InputError of one line.
TEST(MigRequest, FuzzRandomTokens) {
  std::mt19937 rng(12345);
  const std::string alphabet = "0123456789gbxX.+-me/nvidia.com/mig ";
  std::uniform_int_distribution<size_t> pick(0, alphabet.size() - 1), len(0, 16), ntok(0, 4);
  for (int iter = 0; iter < 20000; ++iter) {
    std::vector<std::string> tokens(ntok(rng));
    for (auto& t : tokens) {
      const size_t n = len(rng);
      for (size_t i = 0; i < n; ++i) t += alphabet[pick(rng)];
    }
    try {
      const MigCounts c = parse_mig_request(a100(), tokens);
      EXPECT_GT(instance_count(c), 0);
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
    }
  }
}

}  // namespace gpupack
