// The `strata` command line, run as a user runs it: exit statuses, messages and the
// files it writes (cc -> an .sxbin read_sxbin accepts; asm/disasm round trip).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>
#include <vector>

#include "compiler/sxbin/sxbin.h"

namespace strata::tools {
namespace {

namespace fs = std::filesystem;

struct Result {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

class StrataCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("strata_cli_test_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write(const std::string& name, const std::string& text) {
    fs::path path = dir_ / name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  // Runs `strata <args>` through the shell, capturing stdout and stderr.
  Result strata(const std::string& args) {
    const fs::path out = dir_ / "stdout.txt", err = dir_ / "stderr.txt";
    const std::string command =
        std::string(STRATA_CLI) + " " + args + " >" + out.string() + " 2>" + err.string();
    const int status = std::system(command.c_str());
    Result result;
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.out = slurp(out);
    result.err = slurp(err);
    return result;
  }

  fs::path dir_;
};

constexpr const char* kPtx = R"(.version 8.0
.target sm_80
.address_size 64

.visible .entry scale(.param .u64 p, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [p];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  setp.ge.u32 %p1, %r2, %r1;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r2, 4;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.u32 %r3, [%rd4];
  shl.b32 %r4, %r3, 1;
  st.global.u32 [%rd4], %r4;
DONE:
  ret;
}
)";

StatusOr<sxbin::Binary> read_binary(const fs::path& path) {
  std::string bytes = slurp(path);
  std::vector<uint8_t> image(bytes.begin(), bytes.end());
  return sxbin::read_sxbin(image);
}

TEST_F(StrataCli, CcCompilesPtxFile) {
  fs::path ptx = write("scale.ptx", kPtx);
  fs::path out = dir_ / "scale.sxbin";
  Result r = strata("cc " + ptx.string() + " -o " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto binary = read_binary(out);
  ASSERT_TRUE(binary.ok()) << binary.status().to_string();
  const sxbin::KernelDesc* kernel = binary->find_kernel("scale");
  ASSERT_NE(kernel, nullptr);
  EXPECT_GT(kernel->code_size, 0u);
  EXPECT_EQ(kernel->params.size(), 2u);
}

TEST_F(StrataCli, CcCompilesCudaBinary) {
  if (access(STRATA_NVCC, X_OK) != 0) GTEST_SKIP() << "nvcc not available";
  fs::path cu = write("k.cu",
                      "__global__ void twice(int* p) { p[threadIdx.x] *= 2; }\n"
                      "int main() { twice<<<1, 32>>>(nullptr); return 0; }\n");
  fs::path program = dir_ / "k";
  const std::string nvcc = std::string(STRATA_NVCC) + " -cudart shared -arch=sm_80 -o " +
                           program.string() + " " + cu.string();
  ASSERT_EQ(std::system(nvcc.c_str()), 0);
  fs::path out = dir_ / "k.sxbin";
  Result r = strata("cc " + program.string() + " -o " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto binary = read_binary(out);
  ASSERT_TRUE(binary.ok()) << binary.status().to_string();
  ASSERT_EQ(binary->kernels.size(), 1u);
  EXPECT_NE(binary->kernels[0].name.find("twice"), std::string::npos);
}

TEST_F(StrataCli, CcReportsMalformedPtxWithLocation) {
  std::string text = kPtx;
  text.replace(text.find("shl.b32"), 7, "frob.b32");
  fs::path ptx = write("bad.ptx", text);
  fs::path out = dir_ / "bad.sxbin";
  Result r = strata("cc " + ptx.string() + " -o " + out.string());
  EXPECT_NE(r.exit_code, 0);
  // "<file>:<line>:<col>: message", pointing at line 19 where frob.b32 is.
  EXPECT_TRUE(std::regex_search(r.err, std::regex(std::regex_replace(
                                           ptx.string(), std::regex(R"([.^$|()\[\]{}*+?\\])"),
                                           R"(\$&)") + R"(:19:\d+: )")))
      << r.err;
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(StrataCli, CcReportsMissingInput) {
  Result r = strata("cc " + (dir_ / "absent.ptx").string() + " -o " + (dir_ / "x").string());
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("absent.ptx"), std::string::npos) << r.err;
}

TEST_F(StrataCli, AsmDisasmRoundTrip) {
  fs::path source = write("loop.sxasm",
                          "top:  S2R R0, SR_TID.X;\n"
                          "      ISETP.GE.AND.U32 P0, R0, 0x20, PT;\n"
                          "      @P0 BRA done;\n"
                          "      IADD.U32 R0, R0, 1;\n"
                          "      ST.SHARED.U32 [R2-0x10], R0;\n"
                          "      BRA top;\n"
                          "done: EXIT;\n");
  fs::path first = dir_ / "first.bin";
  Result r = strata("asm " + source.string() + " -o " + first.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(fs::file_size(first), 7u * 16u);

  Result text = strata("disasm " + first.string());
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("S2R"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("EXIT"), std::string::npos) << text.out;

  fs::path again = write("again.sxasm", text.out);
  fs::path second = dir_ / "second.bin";
  r = strata("asm " + again.string() + " -o " + second.string());
  ASSERT_EQ(r.exit_code, 0) << r.err << "\n" << text.out;
  EXPECT_EQ(slurp(first), slurp(second)) << text.out;
}

TEST_F(StrataCli, AsmReportsBadSource) {
  fs::path source = write("bad.sxasm", "S2R R0, SR_TID.X;\nNOTANOP R1;\n");
  Result r = strata("asm " + source.string() + " -o " + (dir_ / "bad.bin").string());
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("bad.sxasm"), std::string::npos) << r.err;
}

TEST_F(StrataCli, DisasmListsEveryKernelOfABinary) {
  fs::path out = dir_ / "kernels.sxbin";
  Result r = strata("cc " + std::string(STRATA_BENCH_PTX) + " -o " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Result text = strata("disasm " + out.string());
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("// kernel alu_bound: "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("// kernel triad: "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("LDC"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("EXIT"), std::string::npos) << text.out;
}

TEST_F(StrataCli, DisasmRejectsTruncatedWords) {
  fs::path bytes = write("odd.bin", std::string(17, '\0'));
  Result r = strata("disasm " + bytes.string());
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("odd.bin"), std::string::npos) << r.err;
}

TEST_F(StrataCli, InfoListsDevices) {
  Result r = strata("info");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Device 0: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("compute capability"), std::string::npos) << r.out;
}

TEST_F(StrataCli, InfoSummaryIsOneLine) {
  Result r = strata("info --summary");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::regex_match(
      r.out, std::regex(R"([^\n]+ \(simulated\): compute \d+\.\d, \d+ SMs @ \d+ MHz, )"
                        R"([0-9.]+ GiB, STRATA_THREADS=\d+[^\n]*\n)")))
      << r.out;
}

TEST_F(StrataCli, InfoSummaryCountsDevicesAndThreads) {
  Result r = strata("info --summary");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  setenv("STRATA_DEVICES", "2", 1);
  setenv("STRATA_THREADS", "3", 1);
  Result two = strata("info --summary");
  unsetenv("STRATA_DEVICES");
  unsetenv("STRATA_THREADS");
  ASSERT_EQ(two.exit_code, 0) << two.err;
  EXPECT_NE(two.out.find(", 2 devices, STRATA_THREADS=3\n"), std::string::npos) << two.out;
  EXPECT_EQ(r.out.find("devices"), std::string::npos) << r.out;
}

TEST_F(StrataCli, InfoArchPrintsFieldsWithProvenance) {
  Result r = strata("info --arch strata-g1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Architecture config "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[device]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  sm_count "), std::string::npos) << r.out;
  // Every field line is followed by its provenance line.
  EXPECT_NE(r.out.find("    source: "), std::string::npos) << r.out;
}

TEST_F(StrataCli, InfoArchRejectsInvalidConfigNamingTheField) {
  Result good = strata("info --arch strata-g1");
  ASSERT_EQ(good.exit_code, 0) << good.err;
  const std::filesystem::path bad = dir_ / "bad.toml";
  // The shipped config with sm_count out of range.
  std::string text;
  {
    std::ifstream in(std::string(STRATA_TEST_ARCH_DIR) + "/strata-g1.toml");
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const size_t at = text.find("sm_count");
  ASSERT_NE(at, std::string::npos);
  const size_t eq = text.find('=', at);
  const size_t hash = text.find('#', eq);
  text.replace(eq + 1, hash - eq - 1, " 0 ");
  {
    std::ofstream out(bad);
    out << text;
  }
  Result r = strata("info --arch " + bad.string());
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("bad.toml:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("'device.sm_count' = 0 is out of range"), std::string::npos) << r.err;
}

TEST_F(StrataCli, RunWithoutProgramExplains) {
  Result r = strata("run");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("no program given"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("usage: strata run"), std::string::npos) << r.err;
}

TEST_F(StrataCli, RunMissingProgramNamesIt) {
  Result r = strata("run " + (dir_ / "no_such_app").string());
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("no_such_app: cannot open"), std::string::npos) << r.err;
}

TEST_F(StrataCli, RunRefusesNonElf) {
  fs::path script = write("app.txt", "not a program\n");
  Result r = strata("run " + script.string());
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("not an ELF file"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace strata::tools
