#include "compiler/sxbin/elf_image.h"

#include <unordered_set>

#include "compiler/sxbin/byte_io.h"

namespace strata::sxbin {
namespace {

constexpr uint64_t kEhdrSize = 64;
constexpr uint64_t kShdrSize = 64;
constexpr uint32_t kShtNull = 0, kShtStrtab = 3, kShtNobits = 8;
constexpr size_t kMaxSections = 64;

Status bad(const std::string& what) { return error(Code::kInvalidImage, "sxbin: " + what); }

}  // namespace

bool has_elf_header(std::span<const uint8_t> image, uint16_t machine) {
  if (image.size() < kEhdrSize) return false;
  if (image[0] != 0x7f || image[1] != 'E' || image[2] != 'L' || image[3] != 'F') return false;
  if (image[4] != 2 /*ELFCLASS64*/ || image[5] != 1 /*LE*/) return false;
  uint16_t m = static_cast<uint16_t>(image[18] | (image[19] << 8));
  return m == machine;
}

std::vector<uint8_t> write_elf(uint16_t machine, const std::vector<ElfSection>& sections) {
  // Section name table: index 0 = "", then every name, then ".shstrtab".
  std::vector<uint8_t> shstr(1, 0);
  std::vector<uint32_t> name_off;
  auto add_name = [&](const std::string& n) {
    uint32_t off = static_cast<uint32_t>(shstr.size());
    shstr.insert(shstr.end(), n.begin(), n.end());
    shstr.push_back(0);
    return off;
  };
  for (const auto& s : sections) name_off.push_back(add_name(s.name));
  uint32_t shstr_name = add_name(".shstrtab");

  ByteWriter body;
  body.data().resize(kEhdrSize);
  std::vector<uint64_t> offsets;
  for (const auto& s : sections) {
    body.pad_to(std::max<uint64_t>(s.align, 1));
    offsets.push_back(body.size());
    body.bytes(s.data);
  }
  uint64_t shstr_off = body.size();
  body.bytes(shstr);
  body.pad_to(8);
  uint64_t shoff = body.size();
  uint16_t shnum = static_cast<uint16_t>(sections.size() + 2);

  // Section headers.
  for (int i = 0; i < 64 / 8; ++i) body.u64(0);  // SHT_NULL
  auto shdr = [&](uint32_t name, uint32_t type, uint64_t flags, uint64_t off, uint64_t size,
                  uint64_t align) {
    body.u32(name);
    body.u32(type);
    body.u64(flags);
    body.u64(0);  // addr
    body.u64(off);
    body.u64(size);
    body.u32(0);  // link
    body.u32(0);  // info
    body.u64(align);
    body.u64(0);  // entsize
  };
  for (size_t i = 0; i < sections.size(); ++i) {
    const auto& s = sections[i];
    shdr(name_off[i], s.type, s.flags, offsets[i], s.data.size(), s.align);
  }
  shdr(shstr_name, kShtStrtab, 0, shstr_off, shstr.size(), 1);

  // ELF header.
  ByteWriter h;
  const uint8_t ident[16] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  h.bytes(ident);
  h.u16(1);  // ET_REL
  h.u16(machine);
  h.u32(1);  // EV_CURRENT
  h.u64(0);  // entry
  h.u64(0);  // phoff
  h.u64(shoff);
  h.u32(0);  // flags
  h.u16(kEhdrSize);
  h.u16(0);  // phentsize
  h.u16(0);  // phnum
  h.u16(kShdrSize);
  h.u16(shnum);
  h.u16(static_cast<uint16_t>(shnum - 1));  // shstrndx
  std::vector<uint8_t> out = std::move(body.data());
  std::copy(h.data().begin(), h.data().end(), out.begin());
  return out;
}

StatusOr<std::vector<ElfSection>> read_elf(std::span<const uint8_t> image,
                                           uint16_t expected_machine) {
  if (image.size() < kEhdrSize) return bad("image too small for an ELF header");
  if (image[0] != 0x7f || image[1] != 'E' || image[2] != 'L' || image[3] != 'F')
    return bad("missing ELF magic");
  if (image[4] != 2 || image[5] != 1) return bad("not a 64-bit little-endian ELF");
  ByteReader h(image.subspan(16));
  h.u16();  // type
  uint16_t machine = h.u16();
  if (machine != expected_machine)
    return bad("ELF e_machine " + std::to_string(machine) + " is not Strata's");
  h.u32();
  h.u64();
  h.u64();
  uint64_t shoff = h.u64();
  h.u32();
  h.u16();
  h.u16();
  h.u16();
  uint16_t shentsize = h.u16();
  uint16_t shnum = h.u16();
  uint16_t shstrndx = h.u16();
  if (shentsize != kShdrSize) return bad("unexpected section header size " + std::to_string(shentsize));
  if (shnum == 0 || shnum > kMaxSections) return bad("bad section count " + std::to_string(shnum));
  if (shoff > image.size() || (image.size() - shoff) / kShdrSize < shnum)
    return bad("section headers outside the image");
  if (shstrndx >= shnum) return bad("section name table index out of range");

  struct Raw {
    uint32_t name, type;
    uint64_t flags, off, size, align;
  };
  std::vector<Raw> raw(shnum);
  for (uint16_t i = 0; i < shnum; ++i) {
    ByteReader r(image.subspan(shoff + i * kShdrSize, kShdrSize));
    Raw& s = raw[i];
    s.name = r.u32();
    s.type = r.u32();
    s.flags = r.u64();
    r.u64();
    s.off = r.u64();
    s.size = r.u64();
    r.u32();
    r.u32();
    s.align = r.u64();
    if (s.type != kShtNull && s.type != kShtNobits &&
        (s.off > image.size() || s.size > image.size() - s.off))
      return bad("section " + std::to_string(i) + " data outside the image");
  }
  const Raw& strtab = raw[shstrndx];
  if (strtab.type != kShtStrtab) return bad("section name table has the wrong type");
  auto names = image.subspan(strtab.off, strtab.size);
  auto name_at = [&](uint32_t off, std::string* out) {
    if (off >= names.size()) return false;
    size_t end = off;
    while (end < names.size() && names[end] != 0) ++end;
    if (end == names.size()) return false;
    out->assign(reinterpret_cast<const char*>(names.data() + off), end - off);
    return true;
  };
  std::vector<ElfSection> out;
  std::unordered_set<std::string> seen;
  for (uint16_t i = 1; i < shnum; ++i) {
    if (i == shstrndx) continue;
    ElfSection s;
    if (!name_at(raw[i].name, &s.name)) return bad("section " + std::to_string(i) + " has a bad name");
    if (!seen.insert(s.name).second) return bad("duplicate section '" + s.name + "'");
    s.type = raw[i].type;
    s.flags = raw[i].flags;
    s.align = raw[i].align;
    if (s.type != kShtNull && s.type != kShtNobits)
      s.data.assign(image.begin() + static_cast<ptrdiff_t>(raw[i].off),
                    image.begin() + static_cast<ptrdiff_t>(raw[i].off + raw[i].size));
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace strata::sxbin
