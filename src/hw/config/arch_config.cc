// The arch config parser: TOML (toml++) -> ArchConfig, validated against
// arch_fields.def and the raw text (every field line cites its source).
#include "hw/config/arch_config.h"

#include <fmt/format.h>

#include <toml++/toml.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "hw/config/arch_fields.h"

namespace strata::hw {
namespace {

class Parser {
 public:
  Parser(std::string_view text, std::string_view path) : text_(text), path_(path) {
    split_lines();
  }

  StatusOr<ArchConfig> parse() {
    toml::table root;
    try {
      root = toml::parse(text_, path_);
    } catch (const toml::parse_error& e) {
      return fail(static_cast<int>(e.source().begin.line), std::string(e.description()));
    }
    ArchConfig config;
    std::set<std::string> seen;
    for (auto&& [section_key, section_node] : root) {
      const int line = static_cast<int>(section_node.source().begin.line);
      if (!is_section(section_key.str())) {
        return fail(line, fmt::format("unknown section '{}'", section_key.str()));
      }
      const toml::table* section = section_node.as_table();
      if (section == nullptr) {
        return fail(line, fmt::format("'{}' must be a [section] table", section_key.str()));
      }
      for (auto&& [key, node] : *section) {
        const ArchFieldInfo* field = find(section_key.str(), key.str());
        const int key_line = static_cast<int>(node.source().begin.line);
        if (field == nullptr) {
          return fail(key_line, fmt::format("unknown key '{}' in [{}]", key.str(),
                                            section_key.str()));
        }
        RETURN_IF_ERROR(set_field(*field, node, config));
        ASSIGN_OR_RETURN(std::string provenance, check_source_comment(*field, node));
        config.provenance[fmt::format("{}.{}", field->section, field->name)] = std::move(provenance);
        seen.insert(fmt::format("{}.{}", field->section, field->name));
      }
    }
    for (const ArchFieldInfo& field : arch_fields()) {
      if (seen.count(fmt::format("{}.{}", field.section, field.name)) == 0) {
        const toml::node* section = root.get(field.section);
        const int line = section ? static_cast<int>(section->source().begin.line) : 1;
        return fail(line, fmt::format("missing field '{}' in [{}] ({})", field.name,
                                      field.section, field.description));
      }
    }
    RETURN_IF_ERROR(check_consistency(config, root));
    config.source_path = std::string(path_);
    config.content_hash = arch_content_hash(text_);
    return config;
  }

 private:
  Status fail(int line, std::string message) const {
    return error(Code::kInvalidValue, fmt::format("{}:{}: {}", path_, line, message));
  }

  static bool is_section(std::string_view name) {
    for (const ArchFieldInfo& f : arch_fields()) {
      if (f.section == name) return true;
    }
    return false;
  }

  static const ArchFieldInfo* find(std::string_view section, std::string_view name) {
    for (const ArchFieldInfo& f : arch_fields()) {
      if (f.section == section && f.name == name) return &f;
    }
    return nullptr;
  }

  Status set_field(const ArchFieldInfo& field, const toml::node& node, ArchConfig& config) {
    const int line = static_cast<int>(node.source().begin.line);
    const std::string name = fmt::format("{}.{}", field.section, field.name);
    switch (field.type) {
      case ArchFieldType::kString: {
        const auto* v = node.as_string();
        if (v == nullptr) return fail(line, fmt::format("'{}' must be a string", name));
        if (v->get().empty()) return fail(line, fmt::format("'{}' must not be empty", name));
        *field.string_field(config) = v->get();
        return ok_status();
      }
      case ArchFieldType::kInt64: {
        const auto* v = node.as_integer();
        if (v == nullptr) return fail(line, fmt::format("'{}' must be an integer", name));
        const int64_t value = v->get();
        if (static_cast<double>(value) < field.min || static_cast<double>(value) > field.max) {
          return fail(line, fmt::format("'{}' = {} is out of range [{}, {}]", name, value,
                                        static_cast<int64_t>(field.min),
                                        static_cast<int64_t>(field.max)));
        }
        *field.int64_field(config) = value;
        return ok_status();
      }
      case ArchFieldType::kDouble: {
        double value;
        if (const auto* i = node.as_integer()) {
          value = static_cast<double>(i->get());
        } else if (const auto* f = node.as_floating_point()) {
          value = f->get();
        } else {
          return fail(line, fmt::format("'{}' must be a number", name));
        }
        if (!std::isfinite(value) || value < field.min || value > field.max) {
          return fail(line, fmt::format("'{}' = {} is out of range [{}, {}]", name, value,
                                        field.min, field.max));
        }
        *field.double_field(config) = value;
        return ok_status();
      }
    }
    return fail(line, "unhandled field type");
  }

  // The text after the value on its last line must be `# source: <text>` or
  // `# calibrated: <text>`; returns that comment (without the '#').
  StatusOr<std::string> check_source_comment(const ArchFieldInfo& field,
                                             const toml::node& node) const {
    const auto& region = node.source();
    const size_t line_index = region.end.line;  // 1-based
    const int line = static_cast<int>(region.begin.line);
    const std::string missing = fmt::format(
        "'{}.{}' needs a '# source: ...' or '# calibrated: ...' comment on its line",
        field.section, field.name);
    if (line_index == 0 || line_index > lines_.size()) return fail(line, missing);
    std::string_view rest = lines_[line_index - 1];
    rest.remove_prefix(byte_offset(rest, region.end.column));
    const size_t hash = rest.find('#');
    if (hash == std::string_view::npos) return fail(line, missing);
    std::string_view comment = trim(rest.substr(hash + 1));
    for (std::string_view tag : {std::string_view("source:"), std::string_view("calibrated:")}) {
      if (comment.substr(0, tag.size()) == tag) {
        if (trim(comment.substr(tag.size())).empty()) {
          return fail(line, fmt::format("'{}.{}': empty '{}' comment", field.section,
                                        field.name, tag));
        }
        return std::string(comment);
      }
    }
    return fail(line, missing);
  }

  // toml++ columns count code points from 1; the value ends just before `column`.
  static size_t byte_offset(std::string_view line, size_t column) {
    size_t offset = 0;
    for (size_t cp = 1; cp < column && offset < line.size(); ++cp) {
      const auto lead = static_cast<unsigned char>(line[offset]);
      size_t len = lead < 0x80 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
      offset += len;
    }
    return offset < line.size() ? offset : line.size();
  }

  static std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
      s.remove_suffix(1);
    }
    return s;
  }

  void split_lines() {
    size_t start = 0;
    while (start <= text_.size()) {
      size_t end = text_.find('\n', start);
      if (end == std::string_view::npos) end = text_.size();
      lines_.push_back(text_.substr(start, end - start));
      start = end + 1;
    }
  }

  int line_of(const toml::table& root, std::string_view section, std::string_view name) const {
    const toml::node* node = root.at_path(fmt::format("{}.{}", section, name)).node();
    return node ? static_cast<int>(node->source().begin.line) : 1;
  }

  // Relations between fields that no single range can express.
  Status check_consistency(const ArchConfig& c, const toml::table& root) const {
    struct Rule {
      bool ok;
      std::string_view section, name, message;
    };
    const int64_t issue_lanes = c.warp_schedulers_per_sm * c.warp_size;
    constexpr std::string_view kAboveIssue =
        "exceeds warp_schedulers_per_sm x warp_size (more lanes per clock than the SM issues)";
    const Rule rules[] = {
        {c.max_threads_per_block <= c.max_threads_per_sm, "sm", "max_threads_per_block",
         "exceeds max_threads_per_sm"},
        {c.max_threads_per_block % c.warp_size == 0, "sm", "max_threads_per_block",
         "is not a multiple of warp_size"},
        {c.max_block_dim_x <= c.max_threads_per_block &&
             c.max_block_dim_y <= c.max_threads_per_block &&
             c.max_block_dim_z <= c.max_threads_per_block,
         "sm", "max_block_dim_x", "a block dimension exceeds max_threads_per_block"},
        {c.registers_per_block <= c.registers_per_sm, "sm", "registers_per_block",
         "exceeds registers_per_sm"},
        {c.shared_bytes_per_block <= c.shared_bytes_per_block_optin, "sm", "shared_bytes_per_block",
         "exceeds shared_bytes_per_block_optin"},
        {c.shared_bytes_per_block_optin <= c.shared_bytes_per_sm, "sm",
         "shared_bytes_per_block_optin", "exceeds shared_bytes_per_sm"},
        {c.shared_bytes_per_sm <= c.l1_bytes, "sm", "shared_bytes_per_sm",
         "exceeds l1_bytes (shared memory is carved out of L1)"},
        {c.vram_bytes % (2 << 20) == 0, "device", "vram_bytes",
         "must be a multiple of 2 MiB (the huge-page size)"},
        // Timing-model inputs: no pipe accepts more lanes per clock than the
        // schedulers can issue, and each memory level is slower than the one above.
        {c.fp32_lanes_per_clock <= issue_lanes, "sm", "fp32_lanes_per_clock", kAboveIssue},
        {c.fp64_lanes_per_clock <= issue_lanes, "sm", "fp64_lanes_per_clock", kAboveIssue},
        {c.int_lanes_per_clock <= issue_lanes, "sm", "int_lanes_per_clock", kAboveIssue},
        {c.sfu_lanes_per_clock <= issue_lanes, "sm", "sfu_lanes_per_clock", kAboveIssue},
        {c.ldst_lanes_per_clock <= issue_lanes, "sm", "ldst_lanes_per_clock", kAboveIssue},
        {c.texture_lanes_per_clock <= issue_lanes, "sm", "texture_lanes_per_clock", kAboveIssue},
        {c.shared_bytes_per_clock % 4 == 0, "sm", "shared_bytes_per_clock",
         "is not a multiple of the 4-byte bank width"},
        {c.shared_latency_cycles < c.l2_hit_latency_cycles, "sm", "shared_latency_cycles",
         "is not below device.l2_hit_latency_cycles (shared memory is on the SM)"},
        {c.l1_hit_latency_cycles < c.l2_hit_latency_cycles, "sm", "l1_hit_latency_cycles",
         "is not below device.l2_hit_latency_cycles (an L1 hit cannot be slower than an L2 hit)"},
        {static_cast<double>(c.l2_hit_latency_cycles) * 1000.0 /
                 static_cast<double>(c.core_clock_mhz) <
             static_cast<double>(c.dram_latency_ns),
         "device", "dram_latency_ns",
         "is not above the L2 hit latency (l2_hit_latency_cycles at core_clock_mhz): a DRAM access "
         "includes the L2 lookup"},
    };
    for (const Rule& r : rules) {
      if (!r.ok) {
        return fail(line_of(root, r.section, r.name),
                    fmt::format("'{}.{}' {}", r.section, r.name, r.message));
      }
    }
    return ok_status();
  }

  std::string_view text_;
  std::string_view path_;
  std::vector<std::string_view> lines_;
};

}  // namespace

StatusOr<ArchConfig> parse_arch_config(std::string_view toml_text, std::string_view path) {
  return Parser(toml_text, path).parse();
}

std::string arch_content_hash(std::string_view bytes) {
  uint64_t hash = 0xcbf29ce484222325ull;  // FNV-1a 64 offset basis
  for (char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ull;  // FNV 64 prime
  }
  return fmt::format("{:016x}", hash);
}

}  // namespace strata::hw
