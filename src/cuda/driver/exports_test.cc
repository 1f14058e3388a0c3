// libcuda.so.1 must export every entry point it implements under the name cuda.h binds
// (cuMemAlloc -> cuMemAlloc_v2, cuMemcpyHtoD -> cuMemcpyHtoD_v2 / _v2_ptds, ...), never
// only under an older unbound name, and export nothing but cu* symbols.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace {

std::set<std::string> exported_symbols() {
  std::set<std::string> out;
  std::string cmd = std::string("nm -D --defined-only ") + STRATA_LIBCUDA;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return out;
  char line[1024];
  while (fgets(line, sizeof(line), pipe) != nullptr) {
    std::istringstream ss(line);
    std::string addr, type, name;
    ss >> addr >> type >> name;
    if (!name.empty()) out.insert(name);
  }
  pclose(pipe);
  return out;
}

std::string read_cuda_h() {
  std::ifstream in(STRATA_CUDA_H);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// base name -> bound name (default stream), from "#define cuX cuX_vN" lines.
std::map<std::string, std::string> bindings(const std::string& header, bool per_thread) {
  std::map<std::string, std::string> out;
  std::regex plain(R"(#define\s+(cu[A-Za-z0-9_]+)\s+(cu[A-Za-z0-9_]+)\s*\n)");
  std::regex ptds(R"(#define\s+(cu[A-Za-z0-9_]+)\s+__CUDA_API_PT(DS|SZ)\((cu[A-Za-z0-9_]+)\))");
  size_t internal = header.find("#if defined(__CUDA_API_VERSION_INTERNAL)\n    #undef");
  std::string top = header.substr(0, internal);
  for (std::sregex_iterator it(top.begin(), top.end(), plain), e; it != e; ++it) {
    out[(*it)[1]] = (*it)[2];
  }
  for (std::sregex_iterator it(top.begin(), top.end(), ptds), e; it != e; ++it) {
    std::string bound = (*it)[3];
    if (per_thread) bound += (*it)[2] == "DS" ? "_ptds" : "_ptsz";
    out[(*it)[1]] = bound;
  }
  return out;
}

TEST(Exports, OnlyCuSymbols) {
  std::set<std::string> syms = exported_symbols();
  ASSERT_FALSE(syms.empty()) << "nm found no symbols in " << STRATA_LIBCUDA;
  for (const std::string& s : syms) EXPECT_EQ(s.rfind("cu", 0), 0u) << s;
}

TEST(Exports, EveryVersionedEntryPointUnderItsBoundName) {
  std::set<std::string> syms = exported_symbols();
  std::string header = read_cuda_h();
  auto legacy = bindings(header, false);
  auto per_thread = bindings(header, true);
  ASSERT_GT(legacy.size(), 50u);
  int checked = 0;
  for (const auto& [base, bound] : legacy) {
    bool any = syms.count(base) || syms.count(bound);
    if (!any) continue;  // not implemented
    // Implemented: the bound name must be there, the unbound one must not stand alone.
    EXPECT_TRUE(syms.count(bound)) << base << " is exported but not as " << bound;
    if (base != bound) EXPECT_FALSE(syms.count(base)) << base << " exported under an unbound name";
    ++checked;
  }
  EXPECT_GT(checked, 15);
  for (const auto& [base, bound] : per_thread) {
    if (bound == legacy[base]) continue;
    if (!syms.count(legacy[base])) continue;
    EXPECT_TRUE(syms.count(bound)) << base << " lacks its per-thread variant " << bound;
  }
}

TEST(Exports, CoreApi) {
  std::set<std::string> syms = exported_symbols();
  for (const char* name :
       {"cuInit", "cuDriverGetVersion", "cuDeviceGet", "cuDeviceGetAttribute", "cuCtxCreate_v4",
        "cuCtxDestroy_v2", "cuDevicePrimaryCtxRetain", "cuDevicePrimaryCtxRelease_v2",
        "cuModuleLoadData", "cuModuleGetFunction", "cuModuleGetGlobal_v2", "cuLinkCreate_v2",
        "cuLinkAddData_v2", "cuLinkComplete", "cuLaunchKernel", "cuLaunchKernel_ptsz",
        "cuMemAlloc_v2", "cuMemFree_v2", "cuMemcpyHtoD_v2", "cuMemcpyHtoD_v2_ptds",
        "cuMemsetD8_v2", "cuMemsetD8_v2_ptds", "cuStreamDestroy_v2", "cuEventDestroy_v2",
        "cuEventElapsedTime_v2", "cuGetProcAddress_v2", "cuGetErrorString", "cuGetExportTable",
        "cuMemcpy_ptds", "cuMemcpyAsync_ptsz", "cuStreamSynchronize_ptsz", "cuEventRecord_ptsz"}) {
    EXPECT_TRUE(syms.count(name)) << name;
  }
}

}  // namespace
