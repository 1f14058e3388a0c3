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

TEST(ArchConfig, EveryShippedFieldCitesItsSource) {
  for (const char* name : {"strata-g1", "a100-sxm", "h100-sxm", "h200-sxm"}) {
    auto config = load_arch_config(name);
    ASSERT_TRUE(config.ok()) << name << ": " << config.status().to_string();
    for (const ArchFieldInfo& f : arch_fields()) {
      const std::string key = std::string(f.section) + "." + std::string(f.name);
      auto it = config->provenance.find(key);
      ASSERT_NE(it, config->provenance.end()) << name << " " << key;
      const bool cited =
          it->second.rfind("source: ", 0) == 0 || it->second.rfind("calibrated: ", 0) == 0;
      EXPECT_TRUE(cited) << name << " " << key << ": " << it->second;
      EXPECT_GT(it->second.size(), 20u) << name << " " << key << ": " << it->second;
    }
  }
}

TEST(ArchConfig, TimingFieldsReachTheStruct) {
  auto g1 = parse_arch_config(g1_text(), "g1.toml");
  ASSERT_TRUE(g1.ok()) << g1.status().to_string();
  EXPECT_EQ(g1->fp32_lanes_per_clock, 128);
  EXPECT_EQ(g1->tensor_fma_per_clock_f16, 1024);
  EXPECT_EQ(g1->shared_bank_count, 32);
  EXPECT_EQ(g1->l2_bytes_per_clock, 1536);
  EXPECT_EQ(g1->dram_latency_ns, 300);
  EXPECT_EQ(g1->host_link_bytes_per_second, 31507692307);
  EXPECT_EQ(g1->launch_api_ns, 2600);
  // Every strata-g1 throughput/latency choice is marked as a design choice.
  for (const char* key :
       {"sm.fp32_lanes_per_clock", "sm.tensor_fma_per_clock_f16", "device.l2_bytes_per_clock",
        "device.dram_latency_ns", "link.peer_link_bytes_per_second"}) {
    EXPECT_EQ(g1->provenance[key].rfind("source: design choice", 0), 0u) << key;
  }
  // Reference configs reproduce their datasheet peaks (within rounding).
  auto h100 = load_arch_config("h100-sxm");
  ASSERT_TRUE(h100.ok());
  const double h100_fp32 =
      2.0 * h100->sm_count * h100->fp32_lanes_per_clock * h100->core_clock_mhz * 1e6;
  EXPECT_NEAR(h100_fp32 / 1e12, 66.9, 0.1);  // NVIDIA H100 SXM5 datasheet
  const double h100_fp16 = 2.0 * h100->sm_count * h100->tensor_fma_per_clock_f16 * 1830e6;
  EXPECT_NEAR(h100_fp16 / 1e12, 989.4, 0.5);  // quoted at 1.83 GHz
  auto a100 = load_arch_config("a100-sxm");
  ASSERT_TRUE(a100.ok());
  EXPECT_NEAR(
      2.0 * a100->sm_count * a100->tensor_fma_per_clock_f16 * a100->core_clock_mhz * 1e6 / 1e12,
      312.0, 0.5);
  EXPECT_NEAR(2.0 * a100->sm_count * a100->fp64_lanes_per_clock * a100->core_clock_mhz * 1e6 / 1e12,
              9.7, 0.05);
}

// The strata-g1 design rule (issue 5): no richer in DRAM bytes per FP32 FLOP than H100.
TEST(ArchConfig, StrataG1IsNoRicherInBytesPerFlopThanH100) {
  auto bytes_per_flop = [](const ArchConfig& c) {
    const double dram = static_cast<double>(c.memory_clock_mhz) * 1e6 *
                        static_cast<double>(c.memory_bus_width_bits) / 8.0 *
                        static_cast<double>(c.memory_transfers_per_clock);
    const double flops = 2.0 * static_cast<double>(c.sm_count * c.fp32_lanes_per_clock) *
                         static_cast<double>(c.core_clock_mhz) * 1e6;
    return dram / flops;
  };
  auto g1 = load_arch_config("strata-g1");
  auto h100 = load_arch_config("h100-sxm");
  ASSERT_TRUE(g1.ok() && h100.ok());
  EXPECT_LE(bytes_per_flop(*g1), bytes_per_flop(*h100));
  EXPECT_NEAR(bytes_per_flop(*g1), 448e9 / 9.216e12, 1e-4);
}

TEST(ArchConfig, ImpossibleTimingInputsAreRejected) {
  expect_error(
      replace_line(g1_text(), "fp32_lanes_per_clock", "fp32_lanes_per_clock = 256 # source: x"),
      "'sm\\.fp32_lanes_per_clock' exceeds warp_schedulers_per_sm x warp_size");
  expect_error(
      replace_line(g1_text(), "sfu_lanes_per_clock", "sfu_lanes_per_clock = 0 # source: x"),
      "'sm\\.sfu_lanes_per_clock' = 0 is out of range");
  expect_error(replace_line(g1_text(), "shared_bank_count", "shared_bank_count = 16 # source: x"),
               "'sm\\.shared_bank_count' = 16 is out of range \\[32, 32\\]");
  expect_error(
      replace_line(g1_text(), "shared_bytes_per_clock", "shared_bytes_per_clock = 130 # source: x"),
      "'sm\\.shared_bytes_per_clock' is not a multiple of the 4-byte bank width");
  expect_error(
      replace_line(g1_text(), "l1_hit_latency_cycles", "l1_hit_latency_cycles = 400 # source: x"),
      "'sm\\.l1_hit_latency_cycles' is not below device\\.l2_hit_latency_cycles");
  expect_error(replace_line(g1_text(), "dram_latency_ns", "dram_latency_ns = 100 # source: x"),
               "'device\\.dram_latency_ns' is not above the L2 hit latency");
  expect_error(replace_line(g1_text(), "host_link_bytes_per_second",
                            "host_link_bytes_per_second = 0 # source: x"),
               "'link\\.host_link_bytes_per_second' = 0 is out of range");
  expect_error(replace_line(g1_text(), "launch_api_ns", ""),
               "missing field 'launch_api_ns' in \\[host\\]");
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
