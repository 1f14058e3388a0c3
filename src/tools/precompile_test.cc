// `strata cc --precompile` against the driver's JIT cache, end to end: CUDA programs
// built by nvcc (one plain, one -rdc=true), precompiled into an empty cache, then run by
// `strata run` with STRATA_LOG=debug. A run that finds every module precompiled logs
// "JIT cache hit" and stores nothing new (a miss would compile and store an entry).
// Also: a cold-cache and a warm-cache run of the same program print the same output.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>

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

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

class Precompile : public ::testing::Test {
 protected:
  void SetUp() override {
    if (access(STRATA_NVCC, X_OK) != 0) GTEST_SKIP() << "nvcc not available";
    dir_ = fs::temp_directory_path() /
           ("strata_precompile_test_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "cache");
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  // nvcc -cudart shared -arch=sm_80 <flags> -o dir/name <tests/cuda sources>.
  fs::path build(const std::string& name, const std::string& sources, const std::string& flags) {
    fs::path program = dir_ / name;
    std::string command = std::string(STRATA_NVCC) + " -cudart shared -arch=sm_80 " + flags +
                          " -I" STRATA_CUDA_TEST_SOURCES " -o " + program.string();
    for (size_t start = 0; start < sources.size();) {
      size_t end = sources.find(' ', start);
      if (end == std::string::npos) end = sources.size();
      command += " " STRATA_CUDA_TEST_SOURCES "/" + sources.substr(start, end - start);
      start = end + 1;
    }
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
    return program;
  }

  // Runs `strata <args>` with this test's cache directory and debug logging.
  Result strata(const std::string& args) {
    const fs::path out = dir_ / "stdout.txt", err = dir_ / "stderr.txt";
    const std::string command = "STRATA_CACHE_DIR=" + (dir_ / "cache").string() +
                                " STRATA_LOG=debug " STRATA_CLI " " + args + " >" +
                                out.string() + " 2>" + err.string();
    const int status = std::system(command.c_str());
    Result result;
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.out = slurp(out);
    result.err = slurp(err);
    return result;
  }

  std::set<std::string> cache_entries() const {
    std::set<std::string> entries;
    for (const auto& e : fs::directory_iterator(dir_ / "cache")) {
      if (e.path().extension() == ".sjc") entries.insert(e.path().filename().string());
    }
    return entries;
  }

  // Precompiles `program`, then runs it: every module must come from the cache.
  void expect_precompiled_run_hits(const fs::path& program, const std::string& pass,
                                   size_t modules) {
    Result pre = strata("cc --precompile " + program.string());
    ASSERT_EQ(pre.exit_code, 0) << pre.out << pre.err;
    EXPECT_EQ(count(pre.out, ": compiled, "), modules) << pre.out;
    const std::set<std::string> precompiled = cache_entries();
    ASSERT_EQ(precompiled.size(), modules);

    Result run = strata("run " + program.string());
    ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
    EXPECT_NE(run.out.find(pass), std::string::npos) << run.out;
    EXPECT_EQ(count(run.err, "JIT cache hit"), modules) << run.err;
    EXPECT_EQ(cache_entries(), precompiled) << "the run compiled something:\n" << run.err;

    // Precompiling again finds everything cached.
    Result again = strata("cc --precompile " + program.string());
    ASSERT_EQ(again.exit_code, 0) << again.err;
    EXPECT_EQ(count(again.out, "already cached"), modules) << again.out;
  }

  fs::path dir_;
};

TEST_F(Precompile, PlainProgramRunsFromTheCache) {
  fs::path program = build("vector_add", "vector_add.cu", "");
  expect_precompiled_run_hits(program, "PASS vector_add", 1);
}

TEST_F(Precompile, RdcProgramRunsFromTheCache) {
  fs::path program = build("rdc_extern", "rdc_extern_main.cu rdc_extern_lib.cu", "-rdc=true");
  Result pre = strata("cc --precompile " + program.string());
  ASSERT_EQ(pre.exit_code, 0) << pre.err;
  // Both objects' relocatable PTX, linked as one module, as the runtime loads it.
  EXPECT_NE(pre.out.find("-rdc link of 2 relocatable fatbins: compiled"), std::string::npos)
      << pre.out;
  fs::remove_all(dir_ / "cache");
  fs::create_directories(dir_ / "cache");
  expect_precompiled_run_hits(program, "PASS rdc_extern", 1);
}

TEST_F(Precompile, ColdAndWarmRunsAgree) {
  fs::path program = build("rdc_extern", "rdc_extern_main.cu rdc_extern_lib.cu", "-rdc=true");
  Result cold = strata("run " + program.string());
  ASSERT_EQ(cold.exit_code, 0) << cold.err;
  EXPECT_EQ(count(cold.err, "JIT cache hit"), 0u) << cold.err;
  const std::set<std::string> stored = cache_entries();
  EXPECT_FALSE(stored.empty());

  Result warm = strata("run " + program.string());
  ASSERT_EQ(warm.exit_code, 0) << warm.err;
  EXPECT_EQ(warm.out, cold.out);
  EXPECT_GE(count(warm.err, "JIT cache hit"), 1u) << warm.err;
  EXPECT_EQ(cache_entries(), stored);
}

TEST_F(Precompile, RejectsOptionsTheJitDoesNotTake) {
  fs::path program = build("vector_add", "vector_add.cu", "");
  EXPECT_EQ(strata("cc --precompile -O1 " + program.string()).exit_code, 2);
  EXPECT_EQ(strata("cc --precompile " + program.string() + " -o x.sxbin").exit_code, 2);
  EXPECT_TRUE(cache_entries().empty());
}

TEST_F(Precompile, RejectsNonCudaPrograms) {
  Result r = strata("cc --precompile /bin/sh");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("not a CUDA program"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace strata::tools
