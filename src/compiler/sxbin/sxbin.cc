#include "compiler/sxbin/sxbin.h"

#include <algorithm>
#include <unordered_set>

#include "base/check.h"
#include "compiler/sxbin/byte_io.h"
#include "compiler/sxbin/elf_image.h"

namespace strata::sxbin {
namespace {

constexpr uint64_t kShfAlloc = 2, kShfExec = 4;
// Sanity bounds for counts read from an image (anything larger is malformed).
constexpr uint32_t kMaxCount = 1u << 20;
constexpr uint64_t kMaxVarSize = 1ull << 40;
constexpr size_t kMaxName = 4096;

Status bad(const std::string& what) { return error(Code::kInvalidImage, "sxbin: " + what); }

bool is_pow2(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

// ---- writing ----

std::vector<uint8_t> write_kernels(const Binary& b) {
  ByteWriter w;
  w.u32(kFormatVersion);
  w.u32(static_cast<uint32_t>(b.kernels.size()));
  for (const auto& k : b.kernels) {
    w.str(k.name);
    w.u64(k.code_offset);
    w.u32(k.code_size);
    w.u32(k.regs_per_thread);
    w.u32(k.shared_bytes);
    w.u32(k.local_bytes);
    w.u32(k.param_bytes);
    w.u32(k.max_threads_per_block);
    for (uint32_t r : k.reqntid) w.u32(r);
    w.u32(k.num_barriers);
    w.u32(k.stack_bytes);
    w.u32((k.recursion ? 1u : 0u) | (k.uses_device_heap ? 2u : 0u));
    w.str(k.ptx_source);
    w.u32(static_cast<uint32_t>(k.params.size()));
    for (const auto& p : k.params) {
      w.u32(p.offset);
      w.u32(p.size);
      w.u32(p.align);
    }
  }
  return std::move(w.data());
}

std::vector<uint8_t> write_symbols(const Binary& b) {
  ByteWriter w;
  w.u32(static_cast<uint32_t>(b.symbol_table.size()));
  for (const auto& s : b.symbol_table) w.str(s);
  return std::move(w.data());
}

std::vector<uint8_t> write_const(const Binary& b) {
  ByteWriter w;
  w.u64(b.const_bank_size);
  w.u64(b.const_init.size());
  w.bytes(b.const_init);
  return std::move(w.data());
}

std::vector<uint8_t> write_globals(const Binary& b) {
  ByteWriter w;
  w.u32(static_cast<uint32_t>(b.globals.size()));
  for (const auto& g : b.globals) {
    w.str(g.name);
    w.u8(static_cast<uint8_t>(g.space));
    w.u64(g.size);
    w.u64(g.align);
    w.u64(g.const_offset);
    w.u64(g.init.size());
    w.bytes(g.init);
    w.u32(static_cast<uint32_t>(g.init_relocs.size()));
    for (const auto& r : g.init_relocs) {
      w.u64(r.offset);
      w.str(r.symbol);
      w.i64(r.addend);
    }
  }
  return std::move(w.data());
}

std::vector<uint8_t> write_lines(const Binary& b) {
  ByteWriter w;
  w.u32(static_cast<uint32_t>(b.source_files.size()));
  for (const auto& f : b.source_files) {
    w.u32(f.index);
    w.str(f.path);
  }
  w.u32(static_cast<uint32_t>(b.kernels.size()));
  for (const auto& k : b.kernels) {
    w.u32(static_cast<uint32_t>(k.lines.size()));
    for (const auto& l : k.lines) {
      w.u32(l.inst_index);
      w.u32(l.ptx_line);
      w.u32(l.file);
      w.u32(l.line);
      w.u32(l.col);
    }
  }
  return std::move(w.data());
}

// ---- reading ----

const ElfSection* find_section(const std::vector<ElfSection>& s, std::string_view name) {
  for (const auto& e : s)
    if (e.name == name) return &e;
  return nullptr;
}

Status read_kernels(std::span<const uint8_t> data, Binary* b) {
  ByteReader r(data);
  uint32_t version = r.u32();
  if (r.ok() && version != kFormatVersion)
    return bad("unsupported .strata.kernels version " + std::to_string(version));
  uint32_t n = r.u32();
  if (!r.ok() || n > kMaxCount) return bad("truncated or oversized .strata.kernels");
  for (uint32_t i = 0; i < n && r.ok(); ++i) {
    KernelDesc k;
    k.name = r.str(kMaxName);
    k.code_offset = r.u64();
    k.code_size = r.u32();
    k.regs_per_thread = r.u32();
    k.shared_bytes = r.u32();
    k.local_bytes = r.u32();
    k.param_bytes = r.u32();
    k.max_threads_per_block = r.u32();
    for (uint32_t& v : k.reqntid) v = r.u32();
    k.num_barriers = r.u32();
    k.stack_bytes = r.u32();
    uint32_t flags = r.u32();
    k.recursion = (flags & 1u) != 0;
    k.uses_device_heap = (flags & 2u) != 0;
    k.ptx_source = r.str(kMaxName);
    uint32_t np = r.u32();
    if (!r.ok() || np > kMaxCount || np > r.remaining() / 12)
      return bad("truncated parameter list of kernel " + std::to_string(i));
    for (uint32_t j = 0; j < np; ++j) {
      ParamDesc p;
      p.offset = r.u32();
      p.size = r.u32();
      p.align = r.u32();
      k.params.push_back(p);
    }
    b->kernels.push_back(std::move(k));
  }
  if (!r.ok()) return bad("truncated .strata.kernels");
  if (!r.at_end()) return bad("trailing bytes in .strata.kernels");
  return ok_status();
}

Status read_symbols(std::span<const uint8_t> data, Binary* b) {
  ByteReader r(data);
  uint32_t n = r.u32();
  if (!r.ok() || n > kMaxCount || n > r.remaining() / 4) return bad("truncated .strata.symbols");
  for (uint32_t i = 0; i < n && r.ok(); ++i) b->symbol_table.push_back(r.str(kMaxName));
  if (!r.ok()) return bad("truncated .strata.symbols");
  if (!r.at_end()) return bad("trailing bytes in .strata.symbols");
  return ok_status();
}

Status read_const(std::span<const uint8_t> data, Binary* b) {
  ByteReader r(data);
  b->const_bank_size = r.u64();
  uint64_t n = r.u64();
  b->const_init = r.bytes(n);
  if (!r.ok()) return bad("truncated .strata.const");
  if (!r.at_end()) return bad("trailing bytes in .strata.const");
  return ok_status();
}

Status read_globals(std::span<const uint8_t> data, Binary* b) {
  ByteReader r(data);
  uint32_t n = r.u32();
  if (!r.ok() || n > kMaxCount || n > r.remaining() / 8) return bad("truncated .strata.globals");
  for (uint32_t i = 0; i < n && r.ok(); ++i) {
    GlobalVar g;
    g.name = r.str(kMaxName);
    uint8_t space = r.u8();
    if (r.ok() && space > 2) return bad("variable '" + g.name + "' has unknown space " + std::to_string(space));
    g.space = static_cast<VarSpace>(space);
    g.size = r.u64();
    g.align = r.u64();
    g.const_offset = r.u64();
    g.init = r.bytes(r.u64());
    uint32_t nr = r.u32();
    if (!r.ok() || nr > kMaxCount || nr > r.remaining() / 20)
      return bad("truncated relocations of variable '" + g.name + "'");
    for (uint32_t j = 0; j < nr && r.ok(); ++j) {
      Reloc rel;
      rel.offset = r.u64();
      rel.symbol = r.str(kMaxName);
      rel.addend = r.i64();
      g.init_relocs.push_back(std::move(rel));
    }
    b->globals.push_back(std::move(g));
  }
  if (!r.ok()) return bad("truncated .strata.globals");
  if (!r.at_end()) return bad("trailing bytes in .strata.globals");
  return ok_status();
}

Status read_lines(std::span<const uint8_t> data, Binary* b) {
  ByteReader r(data);
  uint32_t nf = r.u32();
  if (!r.ok() || nf > kMaxCount || nf > r.remaining() / 8) return bad("truncated .strata.lines");
  for (uint32_t i = 0; i < nf && r.ok(); ++i) {
    SourceFile f;
    f.index = r.u32();
    f.path = r.str(kMaxName);
    b->source_files.push_back(std::move(f));
  }
  uint32_t nk = r.u32();
  if (r.ok() && nk != b->kernels.size())
    return bad(".strata.lines has " + std::to_string(nk) + " tables for " +
               std::to_string(b->kernels.size()) + " kernels");
  for (uint32_t i = 0; i < nk && r.ok(); ++i) {
    uint32_t nl = r.u32();
    if (!r.ok() || nl > r.remaining() / 20) return bad("truncated line table of kernel '" + b->kernels[i].name + "'");
    auto& lines = b->kernels[i].lines;
    for (uint32_t j = 0; j < nl; ++j) {
      LineEntry l;
      l.inst_index = r.u32();
      l.ptx_line = r.u32();
      l.file = r.u32();
      l.line = r.u32();
      l.col = r.u32();
      lines.push_back(l);
    }
  }
  if (!r.ok()) return bad("truncated .strata.lines");
  if (!r.at_end()) return bad("trailing bytes in .strata.lines");
  return ok_status();
}

}  // namespace

const KernelDesc* Binary::find_kernel(std::string_view name) const {
  for (const auto& k : kernels)
    if (k.name == name) return &k;
  return nullptr;
}

const GlobalVar* Binary::find_global(std::string_view name) const {
  for (const auto& g : globals)
    if (g.name == name) return &g;
  return nullptr;
}

Status validate_binary(const Binary& b) {
  if (b.code.size() % 16) return bad(".text size " + std::to_string(b.code.size()) + " is not a multiple of 16");
  std::unordered_set<std::string> names;
  for (const auto& k : b.kernels) {
    std::string what = "kernel '" + k.name + "': ";
    if (k.name.empty()) return bad("kernel with an empty name");
    if (!names.insert(k.name).second) return bad("duplicate kernel '" + k.name + "'");
    if (k.code_offset % 16 || k.code_size % 16 || k.code_size == 0)
      return bad(what + "code range is empty or not 16-byte aligned");
    if (k.code_offset > b.code.size() || k.code_size > b.code.size() - k.code_offset)
      return bad(what + "code range [" + std::to_string(k.code_offset) + ", " +
                 std::to_string(k.code_offset + k.code_size) + ") outside .text (" +
                 std::to_string(b.code.size()) + " bytes)");
    if (k.regs_per_thread > 255) return bad(what + "regs_per_thread " + std::to_string(k.regs_per_thread) + " > 255");
    if (k.num_barriers > 16) return bad(what + "num_barriers " + std::to_string(k.num_barriers) + " > 16");
    if (k.stack_bytes > k.local_bytes) return bad(what + "stack_bytes exceed local_bytes");
    uint64_t end = 0;
    for (const auto& p : k.params) {
      if (!is_pow2(p.align) || p.offset % p.align)
        return bad(what + "parameter at offset " + std::to_string(p.offset) + " has bad alignment");
      if (p.offset < end) return bad(what + "parameters overlap or are out of order");
      end = static_cast<uint64_t>(p.offset) + p.size;
    }
    if (end > k.param_bytes) return bad(what + "parameters exceed param_bytes");
    uint32_t prev = 0;
    for (size_t i = 0; i < k.lines.size(); ++i) {
      if (i && k.lines[i].inst_index < prev) return bad(what + "line table not sorted");
      if (k.lines[i].inst_index >= k.code_size / 16) return bad(what + "line table entry past the code");
      prev = k.lines[i].inst_index;
    }
  }
  if (b.const_init.size() > b.const_bank_size) return bad("const init image larger than the const bank");
  std::unordered_set<std::string> symbols;
  for (const auto& g : b.globals) {
    if (g.name.empty()) return bad("variable with an empty name");
    if (!symbols.insert(g.name).second) return bad("duplicate variable '" + g.name + "'");
  }
  for (const auto& g : b.globals) {
    std::string what = "variable '" + g.name + "': ";
    if (g.size > kMaxVarSize) return bad(what + "size too large");
    if (!is_pow2(g.align)) return bad(what + "alignment " + std::to_string(g.align) + " is not a power of two");
    if (g.init.size() > g.size) return bad(what + "init data larger than the variable");
    if (g.space == VarSpace::kConst &&
        (g.const_offset > b.const_bank_size || g.size > b.const_bank_size - g.const_offset))
      return bad(what + "outside the const bank");
    for (const auto& r : g.init_relocs) {
      if (g.size < 8 || r.offset > g.size - 8) return bad(what + "relocation offset out of range");
      if (!symbols.count(r.symbol) && !b.find_kernel(r.symbol) &&
          std::find(b.symbol_table.begin(), b.symbol_table.end(), r.symbol) == b.symbol_table.end())
        return bad(what + "relocation against unknown symbol '" + r.symbol + "'");
    }
  }
  for (const auto& s : b.symbol_table)
    if (s.empty()) return bad("empty name in the symbol table");
  return ok_status();
}

std::vector<uint8_t> write_sxbin(const Binary& b) {
  Status s = validate_binary(b);
  CHECK_MSG(s.ok(), s.message().c_str());
  std::vector<ElfSection> sections;
  sections.push_back({".text", 1, kShfAlloc | kShfExec, 16, b.code});
  sections.push_back({".strata.kernels", 1, 0, 8, write_kernels(b)});
  sections.push_back({".strata.symbols", 1, 0, 8, write_symbols(b)});
  sections.push_back({".strata.const", 1, 0, 8, write_const(b)});
  sections.push_back({".strata.globals", 1, 0, 8, write_globals(b)});
  sections.push_back({".strata.lines", 1, 0, 8, write_lines(b)});
  return write_elf(kElfMachineStrata, sections);
}

StatusOr<Binary> read_sxbin(std::span<const uint8_t> image) {
  ASSIGN_OR_RETURN(auto sections, read_elf(image, kElfMachineStrata));
  Binary b;
  const char* required[] = {".text", ".strata.kernels", ".strata.symbols", ".strata.const",
                            ".strata.globals", ".strata.lines"};
  for (const char* name : required)
    if (!find_section(sections, name)) return bad(std::string("missing section ") + name);
  b.code = find_section(sections, ".text")->data;
  RETURN_IF_ERROR(read_kernels(find_section(sections, ".strata.kernels")->data, &b));
  RETURN_IF_ERROR(read_symbols(find_section(sections, ".strata.symbols")->data, &b));
  RETURN_IF_ERROR(read_const(find_section(sections, ".strata.const")->data, &b));
  RETURN_IF_ERROR(read_globals(find_section(sections, ".strata.globals")->data, &b));
  RETURN_IF_ERROR(read_lines(find_section(sections, ".strata.lines")->data, &b));
  RETURN_IF_ERROR(validate_binary(b));
  return b;
}

bool is_sxbin(std::span<const uint8_t> image) { return has_elf_header(image, kElfMachineStrata); }

}  // namespace strata::sxbin
