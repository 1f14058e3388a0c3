#include "tools/cuda_binary.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace strata::tools {
namespace {

// Builds a tiny CUDA program with nvcc and the given runtime flag.
std::string build(const std::string& flags, const std::string& name) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              ("strata_cuda_binary_test_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream((dir / "k.cu").string()) << "__global__ void k(int* p) { *p = 1; }\n"
                                            "int main() { k<<<1, 1>>>(nullptr); return 0; }\n";
  std::string output = (dir / name).string();
  std::string command = std::string(STRATA_NVCC) + " -arch=sm_80 " + flags + " -o " + output +
                        " " + (dir / "k.cu").string();
  if (std::system(command.c_str()) != 0) return "";
  return output;
}

class CudaBinaryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (access(STRATA_NVCC, X_OK) != 0) GTEST_SKIP() << "nvcc not available";
  }
};

TEST_F(CudaBinaryTest, SharedRuntimeIsAccepted) {
  std::string binary = build("-cudart shared", "shared");
  ASSERT_FALSE(binary.empty());
  auto elf = ElfFile::read(binary);
  ASSERT_TRUE(elf.ok());
  CudaLinkageInfo info = classify_cuda_linkage(*elf);
  EXPECT_EQ(info.linkage, CudaLinkage::kSharedCudart13);
  EXPECT_EQ(linkage_problem(info, binary), "");
  EXPECT_FALSE(elf->section(".nv_fatbin").empty());
}

TEST_F(CudaBinaryTest, StaticRuntimeIsRefusedWithRebuildAdvice) {
  std::string binary = build("", "static");
  ASSERT_FALSE(binary.empty());
  auto elf = ElfFile::read(binary);
  ASSERT_TRUE(elf.ok());
  CudaLinkageInfo info = classify_cuda_linkage(*elf);
  EXPECT_EQ(info.linkage, CudaLinkage::kStaticCudart);
  EXPECT_NE(linkage_problem(info, "app").find("nvcc -cudart shared"), std::string::npos);
}

TEST(CudaLinkageTest, PlainProgramsHaveNoCudaRuntime) {
  auto elf = ElfFile::read("/proc/self/exe");
  ASSERT_TRUE(elf.ok());
  EXPECT_EQ(classify_cuda_linkage(*elf).linkage, CudaLinkage::kNoCuda);
}

}  // namespace
}  // namespace strata::tools
