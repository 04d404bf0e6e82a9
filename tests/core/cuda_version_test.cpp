#include "core/cuda_version.hpp"

#include <gtest/gtest.h>

#include "core/errors.hpp"

namespace gpupack {

TEST(CudaVersion, Parses) {
  EXPECT_EQ(CudaVersion::parse("13.0"), (CudaVersion{13, 0}));
  EXPECT_EQ(CudaVersion::parse("13.1"), (CudaVersion{13, 1}));
  EXPECT_EQ(CudaVersion::parse("12"), (CudaVersion{12, 0}));
  EXPECT_EQ(CudaVersion::from_int(13010), (CudaVersion{13, 1}));
  EXPECT_EQ(CudaVersion::from_int(13000), (CudaVersion{13, 0}));
  EXPECT_LT(CudaVersion::parse("12.9"), CudaVersion::parse("13.0"));
}

TEST(CudaVersion, RejectsMalformed) {
  for (const char* bad : {"", ".", "13.", ".1", "x", "13.0.1", "-1.0", "13.a", "0.5", "1234.0", "13.100"}) {
    EXPECT_THROW(CudaVersion::parse(bad), InputError) << bad;
  }
}

}  // namespace gpupack
