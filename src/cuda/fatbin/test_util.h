// Test helper: reads checked-in fatbins from testdata/.
#pragma once

#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace strata::cuda::fatbin::testing {

inline std::vector<uint8_t> read_testdata(const std::string& name) {
  std::ifstream in(std::string(STRATA_FATBIN_TESTDATA) + "/" + name, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

}  // namespace strata::cuda::fatbin::testing
