#include "tools/elf_inspect.h"

#include <elf.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>

namespace strata::tools {
namespace {

template <typename T>
bool read_at(const std::vector<uint8_t>& bytes, uint64_t offset, T* out) {
  if (offset > bytes.size() || bytes.size() - offset < sizeof(T)) return false;
  std::memcpy(out, bytes.data() + offset, sizeof(T));
  return true;
}

bool in_bounds(const std::vector<uint8_t>& bytes, uint64_t offset, uint64_t size) {
  return offset <= bytes.size() && size <= bytes.size() - offset;
}

std::string string_at(const std::vector<uint8_t>& bytes, uint64_t table, uint64_t table_size,
                      uint64_t index) {
  if (index >= table_size || !in_bounds(bytes, table, table_size)) return {};
  const char* start = reinterpret_cast<const char*>(bytes.data() + table + index);
  return std::string(start, strnlen(start, table_size - index));
}

}  // namespace

StatusOr<ElfFile> ElfFile::read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return error(Code::kFileNotFound, fmt::format("{}: cannot open", path));
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
  return parse(std::move(bytes), path);
}

StatusOr<ElfFile> ElfFile::parse(std::vector<uint8_t> bytes, std::string name) {
  ElfFile file;
  file.bytes_ = std::move(bytes);
  file.name_ = std::move(name);
  RETURN_IF_ERROR(file.load());
  return file;
}

Status ElfFile::load() {
  auto bad = [this](std::string what) {
    return error(Code::kInvalidImage, fmt::format("{}: {}", name_, what));
  };
  Elf64_Ehdr header;
  if (!read_at(bytes_, 0, &header) || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) {
    return bad("not an ELF file");
  }
  if (header.e_ident[EI_CLASS] != ELFCLASS64) return bad("not a 64-bit ELF file");
  if (header.e_shentsize != sizeof(Elf64_Shdr) && header.e_shnum != 0) {
    return bad("unexpected section header size");
  }
  std::vector<Elf64_Shdr> headers(header.e_shnum);
  for (size_t i = 0; i < headers.size(); ++i) {
    if (!read_at(bytes_, header.e_shoff + i * sizeof(Elf64_Shdr), &headers[i])) {
      return bad("section headers lie outside the file");
    }
  }
  if (header.e_shstrndx >= headers.size() && !headers.empty()) {
    return bad("bad section name table index");
  }
  for (const Elf64_Shdr& sh : headers) {
    Section s;
    const Elf64_Shdr& names = headers[header.e_shstrndx];
    s.name = string_at(bytes_, names.sh_offset, names.sh_size, sh.sh_name);
    s.address = sh.sh_addr;
    s.offset = sh.sh_offset;
    s.size = sh.sh_size;
    s.has_bits = sh.sh_type != SHT_NOBITS && in_bounds(bytes_, sh.sh_offset, sh.sh_size);
    sections_.push_back(s);
  }
  for (size_t i = 0; i < headers.size(); ++i) {
    const Elf64_Shdr& sh = headers[i];
    if (sh.sh_link >= headers.size()) continue;
    const Section& strings = sections_[sh.sh_link];
    if (sh.sh_type == SHT_DYNAMIC && sections_[i].has_bits) {
      for (uint64_t off = 0; off + sizeof(Elf64_Dyn) <= sh.sh_size; off += sizeof(Elf64_Dyn)) {
        Elf64_Dyn dyn;
        read_at(bytes_, sh.sh_offset + off, &dyn);
        if (dyn.d_tag == DT_NULL) break;
        if (dyn.d_tag == DT_NEEDED) {
          needed_.push_back(string_at(bytes_, strings.offset, strings.size, dyn.d_un.d_val));
        }
      }
    }
    if (sh.sh_type == SHT_RELA && sections_[i].has_bits) {
      for (uint64_t off = 0; off + sizeof(Elf64_Rela) <= sh.sh_size; off += sizeof(Elf64_Rela)) {
        Elf64_Rela rela;
        read_at(bytes_, sh.sh_offset + off, &rela);
        if (ELF64_R_TYPE(rela.r_info) == R_X86_64_RELATIVE) {
          relative_relocations_[rela.r_offset] = static_cast<uint64_t>(rela.r_addend);
        }
      }
    }
    if ((sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM) && sections_[i].has_bits) {
      RETURN_IF_ERROR(load_symbols(sections_[i], strings));
    }
  }
  return ok_status();
}

Status ElfFile::load_symbols(const Section& symbols, const Section& strings) {
  for (uint64_t off = 0; off + sizeof(Elf64_Sym) <= symbols.size; off += sizeof(Elf64_Sym)) {
    Elf64_Sym sym;
    read_at(bytes_, symbols.offset + off, &sym);
    if (sym.st_shndx == SHN_UNDEF || sym.st_name == 0) continue;
    defined_.push_back(string_at(bytes_, strings.offset, strings.size, sym.st_name));
  }
  return ok_status();
}

bool ElfFile::defines(std::string_view symbol) const {
  return std::find(defined_.begin(), defined_.end(), symbol) != defined_.end();
}

std::span<const uint8_t> ElfFile::section(std::string_view name) const {
  for (const Section& s : sections_) {
    if (s.name == name && s.has_bits) return {bytes_.data() + s.offset, s.size};
  }
  return {};
}

std::pair<uint64_t, uint64_t> ElfFile::section_addresses(std::string_view name) const {
  for (const Section& s : sections_) {
    if (s.name == name) return {s.address, s.address + s.size};
  }
  return {0, 0};
}

std::span<const uint8_t> ElfFile::bytes_at(uint64_t address) const {
  for (const Section& s : sections_) {
    if (!s.has_bits || s.address == 0 || address < s.address || address - s.address >= s.size) {
      continue;
    }
    uint64_t skip = address - s.address;
    return {bytes_.data() + s.offset + skip, s.size - skip};
  }
  return {};
}

StatusOr<uint64_t> ElfFile::pointer_at(uint64_t address) const {
  if (auto it = relative_relocations_.find(address); it != relative_relocations_.end()) {
    return it->second;
  }
  std::span<const uint8_t> bytes = bytes_at(address);
  if (bytes.size() < sizeof(uint64_t)) {
    return error(Code::kInvalidImage,
                 fmt::format("{}: no pointer stored at address {:#x}", name_, address));
  }
  uint64_t value;
  std::memcpy(&value, bytes.data(), sizeof(value));
  return value;
}

}  // namespace strata::tools
