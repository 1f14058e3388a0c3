// A minimal ELF64 little-endian container: named sections of bytes, no segments, no
// symbols. Enough for the sxbin (sxbin.h); private to it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/status.h"

namespace strata::sxbin {

struct ElfSection {
  std::string name;
  uint32_t type = 1;         // SHT_PROGBITS
  uint64_t flags = 0;
  uint64_t align = 1;
  std::vector<uint8_t> data;
};

// Builds an ET_REL image with the given e_machine; adds .shstrtab itself.
std::vector<uint8_t> write_elf(uint16_t machine, const std::vector<ElfSection>& sections);

// Parses an image written by write_elf (or any ELF64 LE with section headers).
// Validates the header, every section header's range and every name. Errors are
// Code::kInvalidImage "sxbin: ...". SHT_NOBITS/SHT_NULL sections come back empty.
StatusOr<std::vector<ElfSection>> read_elf(std::span<const uint8_t> image,
                                           uint16_t expected_machine);

bool has_elf_header(std::span<const uint8_t> image, uint16_t machine);

}  // namespace strata::sxbin
