#include "hw/config/arch_config.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "hw/config/arch_fields.h"

namespace strata::hw {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string arch_dir() {
  const char* dir = std::getenv("STRATA_ARCH_DIR");
  return dir ? dir : STRATA_TEST_ARCH_DIR;
}

std::string g1_text() { return read_file(arch_dir() + "/strata-g1.toml"); }

// Replaces the first line starting with `prefix` by `replacement`.
std::string replace_line(std::string text, const std::string& prefix,
                         const std::string& replacement) {
  size_t pos = text.find("\n" + prefix);
  EXPECT_NE(pos, std::string::npos) << prefix;
  pos += 1;
  size_t end = text.find('\n', pos);
  return text.replace(pos, end - pos, replacement);
}

void expect_error(const std::string& text, const std::string& pattern) {
  auto config = parse_arch_config(text, "t.toml");
  ASSERT_FALSE(config.ok()) << "expected an error matching " << pattern;
  EXPECT_EQ(config.status().code(), Code::kInvalidValue);
  EXPECT_TRUE(std::regex_search(config.status().message(), std::regex(pattern)))
      << config.status().message() << " !~ " << pattern;
}

TEST(ArchConfig, ShippedConfigsParse) {
  for (const char* name : {"strata-g1", "a100-sxm", "h100-sxm", "h200-sxm"}) {
    auto config = load_arch_config(name);
    ASSERT_TRUE(config.ok()) << name << ": " << config.status().to_string();
    EXPECT_GT(config->sm_count, 0);
    EXPECT_EQ(config->content_hash.size(), 16u);
    EXPECT_NE(config->source_path.find(name), std::string::npos);
  }
  auto h100 = load_arch_config("h100-sxm");
  ASSERT_TRUE(h100.ok());
  EXPECT_EQ(h100->compute_major, 9);
  EXPECT_EQ(h100->sm_count, 132);
  EXPECT_EQ(h100->name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(h100->shared_bytes_per_block_optin, 232448);
}

TEST(ArchConfig, ValuesReachEveryField) {
  auto config = parse_arch_config(g1_text(), "g1.toml");
  ASSERT_TRUE(config.ok()) << config.status().to_string();
  EXPECT_EQ(config->name, "Strata G1");
  EXPECT_EQ(config->compute_major, 8);
  EXPECT_EQ(config->compute_minor, 0);
  EXPECT_EQ(config->vram_bytes, 8589934592);
  EXPECT_EQ(config->max_block_dim_z, 64);
  EXPECT_EQ(config->warp_schedulers_per_sm, 4);
  EXPECT_EQ(config->memory_transfers_per_clock, 8);
  EXPECT_EQ(config->source_path, "g1.toml");
}

TEST(ArchConfig, ContentHashFollowsBytes) {
  EXPECT_EQ(arch_content_hash(""), "cbf29ce484222325");
  EXPECT_EQ(arch_content_hash("a"), "af63dc4c8601ec8c");
  std::string text = g1_text();
  auto a = parse_arch_config(text, "a.toml");
  auto b = parse_arch_config(text + "\n# trailing comment\n", "a.toml");
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(a->content_hash, b->content_hash);
}

TEST(ArchConfig, MissingFieldIsRejected) {
  std::string text = replace_line(g1_text(), "l2_bytes", "");
  expect_error(text, "^t\\.toml:[0-9]+: missing field 'l2_bytes' in \\[device\\]");
}

TEST(ArchConfig, UnknownKeyAndSectionAreRejected) {
  std::string text = replace_line(g1_text(), "l2_bytes",
                                  "l2_bytes = 4194304 # source: x\nl3_bytes = 1 # source: y");
  expect_error(text, "^t\\.toml:[0-9]+: unknown key 'l3_bytes' in \\[device\\]");
  expect_error(g1_text() + "\n[memory]\nx = 1 # source: z\n", "unknown section 'memory'");
  expect_error("top = 1 # source: z\n" + g1_text(), "^t\\.toml:1: unknown section 'top'");
}

TEST(ArchConfig, FieldInWrongSectionIsRejected) {
  std::string text = replace_line(g1_text(), "warp_size", "");
  text = replace_line(text, "l2_bytes", "l2_bytes = 4194304 # source: x\nwarp_size = 32 # source: y");
  expect_error(text, "unknown key 'warp_size' in \\[device\\]");
}

TEST(ArchConfig, OutOfRangeAndWrongTypeAreRejected) {
  expect_error(replace_line(g1_text(), "sm_count", "sm_count = 0 # source: x"),
               "^t\\.toml:[0-9]+: 'device\\.sm_count' = 0 is out of range \\[1, 1024\\]");
  expect_error(replace_line(g1_text(), "warp_size", "warp_size = 64 # source: x"),
               "'sm\\.warp_size' = 64 is out of range");
  expect_error(replace_line(g1_text(), "sm_count", "sm_count = \"many\" # source: x"),
               "'device\\.sm_count' must be an integer");
  expect_error(replace_line(g1_text(), "sm_count", "sm_count = 2.5 # source: x"),
               "must be an integer");
  expect_error(replace_line(g1_text(), "name", "name = 3 # source: x"), "must be a string");
}

TEST(ArchConfig, ErrorNamesTheLine) {
  std::string text = g1_text();
  auto config = parse_arch_config(replace_line(text, "sm_count", "sm_count = -1 # source: x"),
                                  "t.toml");
  ASSERT_FALSE(config.ok());
  // Find the line number of sm_count in the original text.
  int line = 1;
  for (size_t i = 0; i < text.find("\nsm_count") + 1; ++i) line += text[i] == '\n';
  EXPECT_EQ(config.status().message().rfind("t.toml:" + std::to_string(line) + ":", 0), 0u)
      << config.status().message();
}

TEST(ArchConfig, SourceCommentIsRequired) {
  expect_error(replace_line(g1_text(), "sm_count", "sm_count = 24"),
               "'device\\.sm_count' needs a '# source: \\.\\.\\.'");
  expect_error(replace_line(g1_text(), "sm_count", "sm_count = 24 # just a number"),
               "needs a '# source");
  expect_error(replace_line(g1_text(), "sm_count", "sm_count = 24 # source:   "),
               "empty 'source:' comment");
  // A '#' inside a string value is not a comment.
  expect_error(replace_line(g1_text(), "name", "name = \"G1 # source: fake\""), "needs a");
  // Non-ASCII before the comment does not confuse the column arithmetic.
  auto ok = parse_arch_config(
      replace_line(g1_text(), "name", "name = \"Strätä G1\" # calibrated: none, a name"), "t");
  EXPECT_TRUE(ok.ok()) << ok.status().to_string();
  EXPECT_EQ(ok->name, "Strätä G1");
}

TEST(ArchConfig, InconsistentFieldsAreRejected) {
  expect_error(replace_line(g1_text(), "max_threads_per_block",
                            "max_threads_per_block = 4096 # source: x"),
               "'sm\\.max_threads_per_block' exceeds max_threads_per_sm");
  expect_error(replace_line(g1_text(), "shared_bytes_per_block_optin",
                            "shared_bytes_per_block_optin = 1000000 # source: x"),
               "exceeds shared_bytes_per_sm");
  expect_error(replace_line(g1_text(), "vram_bytes", "vram_bytes = 3000000 # source: x"),
               "multiple of 2 MiB");
}

TEST(ArchConfig, SyntaxErrorHasALine) {
  expect_error("[device]\nname = \n", "^t\\.toml:2: ");
  expect_error("[device\n", "^t\\.toml:1: ");
}

TEST(ArchConfig, LoaderResolvesNamesAndPaths) {
  auto by_path = load_arch_config(arch_dir() + "/a100-sxm.toml");
  ASSERT_TRUE(by_path.ok()) << by_path.status().to_string();
  EXPECT_EQ(by_path->sm_count, 108);
  auto missing = load_arch_config("no-such-gpu");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), Code::kFileNotFound);
  EXPECT_NE(missing.status().message().find("no-such-gpu.toml"), std::string::npos);
  auto bad = load_arch_config("bad name!");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), Code::kInvalidValue);
  EXPECT_FALSE(load_arch_config("").ok());
}

TEST(ArchConfig, EnvironmentSelectsTheConfig) {
  ::setenv("STRATA_ARCH", "h200-sxm", 1);
  auto h200 = load_arch_config_from_env();
  ::unsetenv("STRATA_ARCH");
  ASSERT_TRUE(h200.ok()) << h200.status().to_string();
  EXPECT_EQ(h200->name, "NVIDIA H200");
  auto def = load_arch_config_from_env();
  ASSERT_TRUE(def.ok()) << def.status().to_string();
  EXPECT_EQ(def->name, "Strata G1");
}

TEST(ArchConfig, FieldTableMatchesStruct) {
  ArchConfig config;
  int count = 0;
  for (const ArchFieldInfo& f : arch_fields()) {
    ++count;
    EXPECT_FALSE(f.description.empty()) << f.name;
    EXPECT_LE(f.min, f.max) << f.name;
    if (f.type == ArchFieldType::kInt64) {
      *f.int64_field(config) = 7;
    }
  }
  EXPECT_GT(count, 30);
  EXPECT_EQ(config.sm_count, 7);
}

}  // namespace
}  // namespace strata::hw
