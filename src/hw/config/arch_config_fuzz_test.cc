// Mutation fuzzing of the arch config parser: random byte edits, line deletions and
// duplications, and splices of a valid config must yield a config or an error, never a
// crash or a hang (run under ASan/UBSan builds for memory errors).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "hw/config/arch_config.h"

namespace strata::hw {
namespace {

std::string seed_text() {
  const char* dir = std::getenv("STRATA_ARCH_DIR");
  std::ifstream in(std::string(dir ? dir : STRATA_TEST_ARCH_DIR) + "/strata-g1.toml");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string mutate(std::string text, std::mt19937_64& rng) {
  static const char kAlphabet[] = "[]=#\"'\n .-+0123456789eE_xabsource:\\{}\t\xc3\xa4\x00\xff";
  const int edits = 1 + static_cast<int>(rng() % 8);
  for (int i = 0; i < edits && !text.empty(); ++i) {
    const size_t pos = rng() % text.size();
    switch (rng() % 6) {
      case 0: text[pos] = kAlphabet[rng() % (sizeof(kAlphabet) - 1)]; break;
      case 1: text.insert(pos, 1, kAlphabet[rng() % (sizeof(kAlphabet) - 1)]); break;
      case 2: text.erase(pos, 1 + rng() % 16); break;
      case 3: {  // duplicate a chunk
        const size_t len = 1 + rng() % 64;
        text.insert(rng() % text.size(), text.substr(pos, len));
        break;
      }
      case 4: text.resize(pos); break;
      case 5: {  // swap two digits' worth of a number
        text[pos] = static_cast<char>('0' + rng() % 10);
        break;
      }
    }
  }
  return text;
}

TEST(ArchConfigFuzz, MutationsNeverCrash) {
  const std::string seed = seed_text();
  ASSERT_FALSE(seed.empty());
  ASSERT_TRUE(parse_arch_config(seed, "seed").ok());
  std::mt19937_64 rng(0x5742a7a);
  int accepted = 0;
  constexpr int kIterations = 3000;
  for (int i = 0; i < kIterations; ++i) {
    const std::string text = mutate(seed, rng);
    auto config = parse_arch_config(text, "fuzz.toml");
    if (config.ok()) {
      ++accepted;
      EXPECT_GE(config->sm_count, 1);
    } else {
      EXPECT_EQ(config.status().code(), Code::kInvalidValue);
      EXPECT_EQ(config.status().message().rfind("fuzz.toml:", 0), 0u)
          << config.status().message();
    }
  }
  // Most mutations break something; a few (edits inside comments) must still parse.
  EXPECT_LT(accepted, kIterations);
  EXPECT_GT(accepted, 0);
}

}  // namespace
}  // namespace strata::hw
