// Just enough ELF64 reading for the CLI: which shared libraries a program needs, which
// symbols it defines, the bytes of a named section (e.g. .nv_fatbin), and the values of
// initialised pointers in the program's data (e.g. the fatbin wrappers' pointers).
//
// Every offset is bounds-checked against the file; malformed files give
// Code::kInvalidImage naming what is wrong, never a crash. Not thread-safe per object.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
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

  // Virtual address range [first, second) of the named section; {0, 0} when absent.
  std::pair<uint64_t, uint64_t> section_addresses(std::string_view name) const;
  // The file's bytes from virtual address `address` to the end of the section holding
  // it; empty when no section with file contents holds it (e.g. .bss).
  std::span<const uint8_t> bytes_at(uint64_t address) const;
  // The 64-bit pointer stored at `address` as the dynamic loader leaves it for a load
  // base of 0: the addend of an R_X86_64_RELATIVE relocation of that address (how a
  // position-independent executable initialises pointers), else the stored value.
  // kInvalidImage when `address` has no file contents.
  StatusOr<uint64_t> pointer_at(uint64_t address) const;

 private:
  struct Section {
    std::string name;
    uint64_t address = 0;
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
  std::map<uint64_t, uint64_t> relative_relocations_;  // address -> addend
};

}  // namespace strata::tools
