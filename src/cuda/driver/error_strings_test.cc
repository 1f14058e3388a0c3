#include "cuda/driver/error_strings.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>

namespace strata::cuda::driver {
namespace {

// Every enumerator of CUresult in the toolkit's cuda.h has its own name and a text.
TEST(ErrorStrings, CoverEveryCuresultInCudaH) {
  std::ifstream in(STRATA_CUDA_H);
  ASSERT_TRUE(in) << STRATA_CUDA_H;
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  size_t begin = text.find("typedef enum cudaError_enum");
  size_t end = text.find("} CUresult;", begin);
  ASSERT_NE(begin, std::string::npos);
  std::string body = text.substr(begin, end - begin);
  std::regex line(R"((CUDA_(?:SUCCESS|ERROR_[A-Z0-9_]+))\s*=\s*(\d+))");
  int count = 0;
  for (std::sregex_iterator it(body.begin(), body.end(), line), stop; it != stop; ++it) {
    auto value = static_cast<CUresult>(std::stoi((*it)[2]));
    ASSERT_NE(error_name(value), nullptr) << (*it)[1];
    EXPECT_EQ(std::string(error_name(value)), (*it)[1].str());
    ASSERT_NE(error_description(value), nullptr);
    EXPECT_GT(std::string(error_description(value)).size(), 3u);
    ++count;
  }
  EXPECT_GT(count, 90);
}

TEST(ErrorStrings, CudaWording) {
  EXPECT_STREQ(error_description(CUDA_ERROR_INVALID_VALUE), "invalid argument");
  EXPECT_STREQ(error_description(CUDA_ERROR_ILLEGAL_ADDRESS),
               "an illegal memory access was encountered");
  EXPECT_STREQ(error_description(CUDA_ERROR_NO_BINARY_FOR_GPU),
               "no kernel image is available for execution on the device");
}

TEST(ErrorStrings, UnknownValue) {
  EXPECT_EQ(error_name(static_cast<CUresult>(12345)), nullptr);
  EXPECT_EQ(error_description(static_cast<CUresult>(-1)), nullptr);
}

}  // namespace
}  // namespace strata::cuda::driver
