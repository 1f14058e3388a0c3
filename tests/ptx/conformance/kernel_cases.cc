#include "kernel_cases.h"

#include <cinttypes>
#include <cstdio>

namespace strata::ptx_conformance {

const std::vector<KernelCase>& all_kernel_cases() {
  static const std::vector<KernelCase> cases = [] {
    std::vector<KernelCase> all;
    for (auto* area : {&alu_cases, &memory_cases, &warp_cases, &control_cases, &tensor_cases, &async_cases, &misc_cases, &texture_cases})
      for (KernelCase& c : (*area)()) all.push_back(std::move(c));
    return all;
  }();
  return cases;
}

namespace {
template <typename T>
std::string compare(const std::string& what, const std::vector<T>& expected, const std::vector<T>& got) {
  if (expected.size() != got.size())
    return what + ": expected " + std::to_string(expected.size()) + " elements, got " + std::to_string(got.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    if (expected[i] == got[i]) continue;
    char s[160];
    std::snprintf(s, sizeof s, "%s[%zu]: expected 0x%" PRIx64 " got 0x%" PRIx64, what.c_str(), i,
                  static_cast<uint64_t>(expected[i]), static_cast<uint64_t>(got[i]));
    return s;
  }
  return "";
}
bool mnemonic_char(char c) { return !(c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '\r'); }
}  // namespace

std::string compare_u32(const std::string& what, const std::vector<uint32_t>& e, const std::vector<uint32_t>& g) {
  return compare(what, e, g);
}
std::string compare_u64(const std::string& what, const std::vector<uint64_t>& e, const std::vector<uint64_t>& g) {
  return compare(what, e, g);
}

bool ptx_uses_form(const std::string& ptx, const std::string& form) {
  for (size_t at = ptx.find(form); at != std::string::npos; at = ptx.find(form, at + 1)) {
    size_t end = at + form.size();
    bool starts = at == 0 || ptx[at - 1] == ' ' || ptx[at - 1] == '\t' || ptx[at - 1] == '\n';
    bool ends = end == ptx.size() || !mnemonic_char(ptx[end]);
    if (!starts || !ends) continue;
    // Skip comments: the line before `at` must not contain "//".
    size_t line = ptx.rfind('\n', at);
    std::string prefix = ptx.substr(line == std::string::npos ? 0 : line + 1, at - (line == std::string::npos ? 0 : line + 1));
    if (prefix.find("//") == std::string::npos) return true;
  }
  return false;
}

}  // namespace strata::ptx_conformance
