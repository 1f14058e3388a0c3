// Just enough ELF64 reading for the CLI: which shared libraries a program needs, which
// symbols it defines, and the bytes of a named section (e.g. .nv_fatbin).
//
// Every offset is bounds-checked against the file; malformed files give
// Code::kInvalidImage naming what is wrong, never a crash. Not thread-safe per object.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace strata::tools {

class ElfFile {
 public:
  static StatusOr<ElfFile> read(const std::string& path);
  static StatusOr<ElfFile> parse(std::vector<uint8_t> bytes, std::string name);

  // DT_NEEDED entries, e.g. "libcudart.so.13".
  const std::vector<std::string>& needed() const { return needed_; }
  // True if .dynsym or .symtab defines `symbol` (not merely imports it).
  bool defines(std::string_view symbol) const;
  // Contents of the named section; empty when absent or without file contents.
  std::span<const uint8_t> section(std::string_view name) const;

 private:
  struct Section {
    std::string name;
    uint64_t offset = 0;
    uint64_t size = 0;
    bool has_bits = false;
  };
  Status load();
  Status load_symbols(const Section& symbols, const Section& strings);

  std::vector<uint8_t> bytes_;
  std::string name_;
  std::vector<Section> sections_;
  std::vector<std::string> needed_;
  std::vector<std::string> defined_;
};

}  // namespace strata::tools
