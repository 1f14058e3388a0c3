// Tensor-core instructions of sm_80-sm_89: mma.sync, ldmatrix, movmatrix and wmma (load,
// mma, store), lowered to HMMA and LDSM (isa/tensor.h, docs/isa.md "Tensor core");
// stmatrix (sm_90) and the forms sm_8x lacks are kNotSupported errors.
//
// mma.sync and ldmatrix map one to one: their fragments are the PTX layouts, which HMMA
// and LDSM implement. Each is preceded by a WARPSYNC of the whole warp, since both need
// every lane's registers at once (.sync.aligned).
//
// wmma fragments are opaque in PTX; Strata lays them out as concatenations of HMMA
// tiles, so that wmma.mma is a few HMMAs (docs/isa.md "wmma fragments"):
//   f16/bf16 and u8/s8: m16n8k16 tiles; tf32: m16n8k8; f64 m8n8k4 and s4/u4 m8n8k32:
//   the HMMA itself.
//   A (M x K): the A fragments of the row tiles (rows 16i..16i+15) in order; M = 8
//   (m8n32k16) uses the 16-row tile with rows 8-15 equal to rows 0-7, keeping only the
//   registers of rows 0-7. B (K x N): the B fragments of the 8-column tiles in order.
//   C/D (M x N): the accumulator fragments of tile (row tile, column tile), row-major
//   tile order; M = 8 keeps the registers of rows 0-7. When PTX gives a fragment more
//   registers than this holds (f16 A/B), the registers repeat cyclically.
// wmma.load/store become ordinary loads and stores of the elements at those positions
// (one 32-bit access where a register's elements are adjacent in memory).
#include <fmt/format.h>

#include <map>
#include <optional>
#include <regex>

#include "compiler/ir/lowerer.h"
#include "isa/tensor.h"

namespace strata::compiler::ir {
namespace {

using isa::MemSpace;
using isa::MmaFormat;
using isa::MmaShape;

struct Shape {
  int m = 0, n = 0, k = 0;
};

std::optional<Shape> parse_shape(const ptx::Instruction& in) {
  static const std::regex re("m(\\d+)n(\\d+)k(\\d+)");
  for (const auto& m : in.modifiers) {
    std::smatch s;
    if (std::regex_match(m, s, re)) return Shape{std::stoi(s[1]), std::stoi(s[2]), std::stoi(s[3])};
  }
  return std::nullopt;
}

bool is_type_name(const std::string& m) {
  static const char* kTypes[] = {"f16", "f32", "f64", "bf16", "tf32", "s8",  "u8", "s4",
                                 "u4",  "b1",  "s32", "e4m3", "e5m2", "b16", "b8"};
  for (const char* t : kTypes)
    if (m == t) return true;
  return false;
}

std::vector<std::string> type_list(const ptx::Instruction& in) {
  std::vector<std::string> out;
  for (const auto& m : in.modifiers)
    if (is_type_name(m)) out.push_back(m);
  return out;
}

std::optional<MmaFormat> format_of(const std::string& t) {
  if (t == "f16") return MmaFormat::F16;
  if (t == "bf16") return MmaFormat::BF16;
  if (t == "tf32") return MmaFormat::TF32;
  if (t == "f64") return MmaFormat::F64;
  if (t == "s8") return MmaFormat::S8;
  if (t == "u8") return MmaFormat::U8;
  if (t == "s4") return MmaFormat::S4;
  if (t == "u4") return MmaFormat::U4;
  if (t == "e4m3") return MmaFormat::E4M3;
  if (t == "e5m2") return MmaFormat::E5M2;
  if (t == "b1") return MmaFormat::B1;
  return std::nullopt;
}

std::optional<DataType> accum_of(const std::string& t) {
  if (t == "f16") return DataType::F16;
  if (t == "f32") return DataType::F32;
  if (t == "s32") return DataType::S32;
  if (t == "f64") return DataType::F64;
  return std::nullopt;
}

std::optional<MmaShape> mma_shape_of(Shape s) {
  static const std::pair<Shape, MmaShape> kShapes[] = {
      {{16, 8, 8}, MmaShape::M16N8K8},    {{16, 8, 16}, MmaShape::M16N8K16},
      {{16, 8, 4}, MmaShape::M16N8K4},    {{16, 8, 32}, MmaShape::M16N8K32},
      {{16, 8, 64}, MmaShape::M16N8K64},  {{8, 8, 16}, MmaShape::M8N8K16},
      {{8, 8, 32}, MmaShape::M8N8K32},    {{8, 8, 4}, MmaShape::M8N8K4},
      {{8, 8, 128}, MmaShape::M8N8K128},  {{16, 8, 128}, MmaShape::M16N8K128},
      {{16, 8, 256}, MmaShape::M16N8K256}};
  for (auto [sh, ms] : kShapes)
    if (sh.m == s.m && sh.n == s.n && sh.k == s.k) return ms;
  return std::nullopt;
}

bool is_int(MmaFormat f) {
  return f == MmaFormat::S8 || f == MmaFormat::U8 || f == MmaFormat::S4 || f == MmaFormat::U4;
}
bool is_fp8(MmaFormat f) {
  return f == MmaFormat::E4M3 || f == MmaFormat::E5M2;
}

// Whether PTX mma.sync on sm_80-sm_89 has this shape/format combination.
// mma.sync's f16 forms need .dtype == .ctype; wmma.mma's (`mixed`) do not.
bool mma_form_ok(MmaShape s, MmaFormat a, MmaFormat b, DataType d, DataType c, bool mixed = false) {
  const bool f16ish = a == MmaFormat::F16 || a == MmaFormat::BF16;
  bool shape_ok = false;
  switch (s) {
    case MmaShape::M16N8K8:
      shape_ok = f16ish || a == MmaFormat::TF32;
      break;
    case MmaShape::M16N8K16:
      shape_ok = f16ish || a == MmaFormat::S8 || a == MmaFormat::U8;
      break;
    case MmaShape::M16N8K4:
      shape_ok = a == MmaFormat::TF32;
      break;
    case MmaShape::M16N8K32:
      shape_ok = is_int(a) || is_fp8(a);
      break;
    case MmaShape::M16N8K64:
    case MmaShape::M8N8K32:
      shape_ok = a == MmaFormat::S4 || a == MmaFormat::U4;
      break;
    case MmaShape::M8N8K16:
      shape_ok = a == MmaFormat::S8 || a == MmaFormat::U8;
      break;
    case MmaShape::M8N8K4:
      shape_ok = a == MmaFormat::F64;
      break;
    case MmaShape::M8N8K128:
    case MmaShape::M16N8K128:
    case MmaShape::M16N8K256:
      return a == MmaFormat::B1 && b == MmaFormat::B1 && d == DataType::S32 && c == DataType::S32;
    default:
      break;
  }
  if (a == MmaFormat::B1 || b == MmaFormat::B1) return false;
  if (!shape_ok) return false;
  if (is_int(a))
    return is_int(b) && isa::mma_format_bits(a) == isa::mma_format_bits(b) && d == DataType::S32 &&
           c == DataType::S32;
  if (is_fp8(a))
    return is_fp8(b) && (d == DataType::F32 || d == DataType::F16) &&
           (c == DataType::F32 || c == DataType::F16) && d == c;
  if (a != b) return false;
  if (a == MmaFormat::F64) return d == DataType::F64 && c == DataType::F64;
  if (a == MmaFormat::F16)
    return (d == DataType::F32 || d == DataType::F16) &&
           (c == DataType::F32 || c == DataType::F16) && (mixed || d == c);
  return d == DataType::F32 && c == DataType::F32;  // bf16, tf32
}

DataType class_type(int regs) {
  return regs == 1 ? DataType::U32 : regs == 2 ? DataType::U64 : DataType::B128;
}

int accum_bits(DataType t) {
  return t == DataType::F16 ? 16 : t == DataType::F64 ? 64 : 32;
}

// One element's position: row = gr*g + tr*t + R, col = gc*g + tc*t + C, where g = lane / 4
// and t = lane % 4. (gr, tr, gc, tc) are the same for every element of a fragment.
struct Elem {
  int R = 0, C = 0;
};
struct FragLayout {
  int gr = 0, tr = 0, gc = 0, tc = 0;
  int elem_bits = 16;
  int rows = 0, cols = 0;               // the matrix in memory
  std::vector<std::vector<Elem>> regs;  // per unique register (64-bit for f64), low element first
};

// Tile parameters of a wmma shape/format (see the file comment).
struct WmmaTiles {
  Shape shape;    // the wmma shape
  MmaShape tile;  // the HMMA shape
  Shape t;        // its dimensions
  MmaFormat fmt;  // A/B format
  bool f64 = false;
  bool padded = false;  // M = 8 on a 16-row tile
  int row_tiles = 1, col_tiles = 1;
};

std::optional<WmmaTiles> wmma_tiles(Shape s, MmaFormat f) {
  WmmaTiles w;
  w.shape = s;
  w.fmt = f;
  const bool shape_ok = (s.m == 16 && s.n == 16 && s.k == 16) ||
                        (s.m == 32 && s.n == 8 && s.k == 16) ||
                        (s.m == 8 && s.n == 32 && s.k == 16);
  if (f == MmaFormat::F64) {
    if (s.m != 8 || s.n != 8 || s.k != 4) return std::nullopt;
    w.tile = MmaShape::M8N8K4;
    w.f64 = true;
  } else if (f == MmaFormat::B1) {
    if (s.m != 8 || s.n != 8 || s.k != 128) return std::nullopt;
    w.tile = MmaShape::M8N8K128;
  } else if (f == MmaFormat::S4 || f == MmaFormat::U4) {
    if (s.m != 8 || s.n != 8 || s.k != 32) return std::nullopt;
    w.tile = MmaShape::M8N8K32;
  } else if (f == MmaFormat::TF32) {
    if (s.m != 16 || s.n != 16 || s.k != 8) return std::nullopt;
    w.tile = MmaShape::M16N8K8;
  } else if (f == MmaFormat::F16 || f == MmaFormat::BF16 || f == MmaFormat::S8 ||
             f == MmaFormat::U8) {
    if (!shape_ok) return std::nullopt;
    w.tile = MmaShape::M16N8K16;
  } else {
    return std::nullopt;
  }
  isa::MmaDims d = isa::mma_dims(w.tile);
  w.t = {d.m, d.n, d.k};
  w.padded = s.m < d.m;
  w.row_tiles = w.padded ? 1 : s.m / d.m;
  w.col_tiles = s.n / d.n;
  return w;
}

// Registers of one HMMA tile's A / B / C fragment.
int tile_a_regs(const WmmaTiles& w) {
  return w.t.m * w.t.k * isa::mma_format_bits(w.fmt) / 1024;
}
int tile_b_regs(const WmmaTiles& w) {
  return w.t.k * w.t.n * isa::mma_format_bits(w.fmt) / 1024;
}
int tile_c_regs(const WmmaTiles& w, DataType acc) {
  return w.t.m * w.t.n * accum_bits(acc) / 1024;
}

FragLayout wmma_layout(const WmmaTiles& w, char matrix, DataType acc) {
  FragLayout f;
  const int bits = matrix == 'c' ? accum_bits(acc) : isa::mma_format_bits(w.fmt);
  f.elem_bits = bits;
  const int e = bits >= 32 ? 1 : 32 / bits;  // elements per 32-bit register
  if (w.f64) {
    if (matrix == 'a') {
      f.gr = 1, f.tc = 1, f.rows = 8, f.cols = 4;
      f.regs = {{Elem{0, 0}}};
    } else if (matrix == 'b') {
      f.tr = 1, f.gc = 1, f.rows = 4, f.cols = 8;
      f.regs = {{Elem{0, 0}}};
    } else {
      f.gr = 1, f.tc = 2, f.rows = 8, f.cols = 8;
      f.regs = {{Elem{0, 0}}, {Elem{0, 1}}};
    }
    return f;
  }
  if (matrix == 'a') {
    f.gr = 1, f.tc = e, f.rows = w.shape.m, f.cols = w.shape.k;
    const int n = tile_a_regs(w), per = w.padded ? n / 2 : n;
    for (int rt = 0; rt < w.row_tiles; ++rt)
      for (int r = 0; r < per; ++r) {
        const int rr = w.padded ? 2 * r : r;
        std::vector<Elem> reg;
        for (int i = 0; i < e; ++i) reg.push_back({8 * (rr & 1) + 16 * rt, (rr >> 1) * 4 * e + i});
        f.regs.push_back(reg);
      }
  } else if (matrix == 'b') {
    f.tr = e, f.gc = 1, f.rows = w.shape.k, f.cols = w.shape.n;
    const int n = tile_b_regs(w);
    for (int ct = 0; ct < w.col_tiles; ++ct)
      for (int r = 0; r < n; ++r) {
        std::vector<Elem> reg;
        for (int i = 0; i < e; ++i) reg.push_back({r * 4 * e + i, 8 * ct});
        f.regs.push_back(reg);
      }
  } else {
    f.gr = 1, f.tc = 2, f.rows = w.shape.m, f.cols = w.shape.n;
    const int n = tile_c_regs(w, acc), per = w.padded ? n / 2 : n;
    for (int rt = 0; rt < w.row_tiles; ++rt)
      for (int ct = 0; ct < w.col_tiles; ++ct)
        for (int r = 0; r < per; ++r) {
          std::vector<Elem> reg;
          for (int i = 0; i < e; ++i) {
            const int j = r * e + i;
            reg.push_back({8 * (j >> 1) + 16 * rt, (j & 1) + 8 * ct});
          }
          f.regs.push_back(reg);
        }
  }
  return f;
}

class TensorLowering {
 public:
  TensorLowering(Lowerer& l, const ptx::Instruction& in) : l_(l), in_(in) {}

  Status mma();
  Status ldmatrix();
  Status movmatrix();
  Status wmma_load();
  Status wmma_store();
  Status wmma_mma();

 private:
  Status unsupported(const std::string& what) { return l_.unsupported(in_.loc, what); }
  std::string form() const {
    std::string f = in_.opcode;
    for (const auto& m : in_.modifiers) f += "." + m;
    return f;
  }
  void warpsync() {
    l_.isa_op(Opcode::WARPSYNC, DataType::kNone, DataType::kNone,
              {Operand::immediate(0xffffffffu)});
  }
  // The registers of vector operand `index` (a lone register counts as a vector of one).
  StatusOr<std::vector<ptx::OperandSlot>> vector_operand(size_t index, size_t count);
  // Reads `slots` as 32-bit (or, with wide, 64-bit) register values.
  StatusOr<std::vector<int>> read_regs(const std::vector<ptx::OperandSlot>& slots, bool wide);
  // Packs 32-bit values into one value of 1, 2 or 4 registers.
  int pack_regs(const std::vector<int>& parts);
  std::vector<int> split_regs(int value, int regs);
  int hmma(isa::MmaDesc desc, DataType dtype, DataType ctype, int a, int b, int c, int d_regs);
  MemSpace space() const;
  // The per-lane base address of a fragment access and the element address helper.
  struct Access {
    MemSpace space;
    bool wide;
    int lane_addr;    // base + lane part, in bytes (U64 when wide, else U32)
    uint64_t offset;  // constant byte offset (from the operand)
    Operand stride;   // elements
    bool row_major;
    int elem_bits;                      // 4-bit elements: byte offsets are elements / 2
    std::map<int64_t, int> major_addr;  // P -> lane_addr + P * stride * elem_bits / 8
  };
  StatusOr<Access> access(const FragLayout& f, bool row_major, size_t addr_index,
                          size_t stride_index);
  // Address value and constant offset of element `e` of `f`.
  std::pair<int, uint64_t> element_address(Access& a, const Elem& e);
  int load(Access& a, int addr, uint64_t off, DataType t);
  void store(Access& a, int addr, uint64_t off, DataType t, int value);

  Lowerer& l_;
  const ptx::Instruction& in_;
};

StatusOr<std::vector<ptx::OperandSlot>> TensorLowering::vector_operand(size_t index, size_t count) {
  if (index >= in_.operands.size()) return l_.invalid(in_.loc, form() + " has too few operands");
  const ptx::OperandSlot& s = in_.operands[index];
  std::vector<ptx::OperandSlot> out;
  if (auto* v = std::get_if<std::shared_ptr<ptx::VectorOperand>>(&s.value)) {
    if (!*v) return l_.invalid(in_.loc, "malformed vector operand");
    for (const auto& e : (*v)->elements) out.push_back(ptx::OperandSlot{e, false, s.loc});
  } else {
    out.push_back(s);
  }
  if (out.size() != count)
    return l_.invalid(in_.loc, fmt::format("{}: operand {} needs {} registers, got {}", form(),
                                           index + 1, count, out.size()));
  return out;
}

StatusOr<std::vector<int>> TensorLowering::read_regs(const std::vector<ptx::OperandSlot>& slots,
                                                     bool wide) {
  std::vector<int> out;
  for (const auto& s : slots) {
    ASSIGN_OR_RETURN(int v, l_.read_value(s, wide ? DataType::U64 : DataType::U32));
    const RegClass want = wide ? RegClass::k64 : RegClass::k32;
    if (reg_class(l_.f_.type_of(v)) != want)
      return l_.invalid(
          in_.loc, fmt::format("{}: fragment registers must be {}-bit", form(), wide ? 64 : 32));
    out.push_back(v);
  }
  return out;
}

int TensorLowering::pack_regs(const std::vector<int>& parts) {
  if (parts.size() == 1) return parts[0];
  std::vector<Operand> ops;
  for (int p : parts) ops.push_back(Operand::val(p));
  return l_.pack(class_type(static_cast<int>(parts.size())), ops);
}

std::vector<int> TensorLowering::split_regs(int value, int regs) {
  if (regs == 1) return {value};
  std::vector<int> out;
  for (int r = 0; r < regs; ++r) out.push_back(l_.extract(value, r));
  return out;
}

int TensorLowering::hmma(isa::MmaDesc desc, DataType dtype, DataType ctype, int a, int b, int c,
                         int d_regs) {
  Inst i;
  i.op = Op::kIsa;
  i.isa_op = Opcode::HMMA;
  i.type = dtype;
  i.type2 = ctype;
  i.imm = desc.encode();
  i.srcs = {Operand::val(a), Operand::val(b), Operand::val(c)};
  i.defs = {l_.f_.new_value(class_type(d_regs))};
  return l_.emit(std::move(i));
}

MemSpace TensorLowering::space() const {
  for (const auto& m : in_.modifiers) {
    if (m == "global") return MemSpace::GLOBAL;
    if (m == "shared" || m == "shared::cta") return MemSpace::SHARED;
  }
  return MemSpace::GENERIC;
}

// ---- mma.sync ----

Status TensorLowering::mma() {
  for (const auto& m : in_.modifiers)
    if (m.rfind("sp", 0) == 0 || m == "kind::f8f6f4" || m == "block_scale")
      return unsupported(
          "PTX instruction '" + form() +
          "' is not supported (sparse and block-scaled mma are sm_90+ or not implemented)");
  auto sh = parse_shape(in_);
  std::vector<std::string> types = type_list(in_);
  if (!sh || types.size() != 4)
    return unsupported("PTX instruction '" + form() + "' is not supported yet");
  auto shape = mma_shape_of(*sh);
  auto fa = format_of(types[1]), fb = format_of(types[2]);
  auto dt = accum_of(types[0]), ct = accum_of(types[3]);
  if (!shape || !fa || !fb || !dt || !ct || !mma_form_ok(*shape, *fa, *fb, *dt, *ct) ||
      !Lowerer::has(in_, "row") || !Lowerer::has(in_, "col"))
    return unsupported("PTX instruction '" + form() +
                       "' is not supported on Strata's sm_80-sm_89 tensor cores");
  isa::MmaDesc desc;
  desc.shape = *shape;
  desc.a = *fa;
  desc.b = *fb;
  desc.satfinite = Lowerer::has(in_, "satfinite");
  if (desc.a == MmaFormat::B1) {  // .xor.popc / .and.popc
    if (!Lowerer::has(in_, "popc") || Lowerer::has(in_, "and") == Lowerer::has(in_, "xor"))
      return l_.invalid(in_.loc, form() + ": b1 mma needs .and.popc or .xor.popc");
    desc.bit_and = Lowerer::has(in_, "and");
  }
  if (in_.operands.size() != 4) return l_.invalid(in_.loc, form() + " needs 4 operands");
  const bool f64 = *fa == MmaFormat::F64;
  const int a_regs = f64 ? 1 : sh->m * sh->k * isa::mma_format_bits(*fa) / 1024;
  const int b_regs = f64 ? 1 : sh->k * sh->n * isa::mma_format_bits(*fb) / 1024;
  const int c_regs = f64 ? 2 : sh->m * sh->n * accum_bits(*ct) / 1024;
  const int d_regs = f64 ? 2 : sh->m * sh->n * accum_bits(*dt) / 1024;
  ASSIGN_OR_RETURN(auto dslots, vector_operand(0, d_regs));
  ASSIGN_OR_RETURN(auto aslots, vector_operand(1, a_regs));
  ASSIGN_OR_RETURN(auto bslots, vector_operand(2, b_regs));
  ASSIGN_OR_RETURN(auto cslots, vector_operand(3, c_regs));
  ASSIGN_OR_RETURN(auto av, read_regs(aslots, f64));
  ASSIGN_OR_RETURN(auto bv, read_regs(bslots, f64));
  ASSIGN_OR_RETURN(auto cv, read_regs(cslots, f64));
  int a, b, c;
  if (f64) {
    a = av[0];
    b = bv[0];
    c = l_.pack(DataType::B128,
                {Operand::val(l_.extract(cv[0], 0)), Operand::val(l_.extract(cv[0], 1)),
                 Operand::val(l_.extract(cv[1], 0)), Operand::val(l_.extract(cv[1], 1))});
  } else {
    a = pack_regs(av);
    b = pack_regs(bv);
    c = pack_regs(cv);
  }
  warpsync();
  const int d = hmma(desc, *dt, *ct, a, b, c, f64 ? 4 : d_regs);
  if (f64) {
    auto parts = split_regs(d, 4);
    for (int j = 0; j < 2; ++j) {
      int v = l_.pack(DataType::U64, {Operand::val(parts[2 * j]), Operand::val(parts[2 * j + 1])});
      RETURN_IF_ERROR(l_.write(dslots[j], v));
    }
    return ok_status();
  }
  auto parts = split_regs(d, d_regs);
  for (int j = 0; j < d_regs; ++j) RETURN_IF_ERROR(l_.write(dslots[j], parts[j]));
  return ok_status();
}

// ---- ldmatrix ----

Status TensorLowering::ldmatrix() {
  auto sh = parse_shape(in_);
  bool m8n8 = Lowerer::has(in_, "m8n8");
  int num = Lowerer::has(in_, "x1")   ? 1
            : Lowerer::has(in_, "x2") ? 2
            : Lowerer::has(in_, "x4") ? 4
                                      : 0;
  if (!m8n8 || sh || num == 0 || !Lowerer::has(in_, "b16"))
    return unsupported("PTX instruction '" + form() +
                       "' is not supported (sm_80-sm_89 have ldmatrix .m8n8 .x1/.x2/.x4 .b16)");
  if (in_.operands.size() != 2) return l_.invalid(in_.loc, form() + " needs 2 operands");
  ASSIGN_OR_RETURN(auto dslots, vector_operand(0, num));
  const MemSpace sp = space();
  if (sp == MemSpace::GLOBAL) return l_.invalid(in_.loc, "ldmatrix reads shared memory");
  ASSIGN_OR_RETURN(MemAddr addr, mem_address(l_, in_, in_.operands[1], sp, false));
  if (addr.offset >> 63) {
    Inst c;
    c.op = Op::kConst;
    c.symbol = "dynshared";
    c.imm = (uint64_t{3} << 62) | (addr.offset & 0xffffffffu);
    c.defs = {l_.f_.new_value(DataType::U32)};
    addr.base = Operand::val(l_.emit(std::move(c)));
    addr.offset = 0;
  }
  warpsync();
  Inst i;
  i.op = Op::kIsa;
  i.isa_op = Opcode::LDSM;
  i.type = num == 1 ? DataType::B32 : num == 2 ? DataType::B64 : DataType::B128;
  i.space = sp;
  i.mod = Lowerer::has(in_, "trans") ? isa::kLdsmTrans : 0;
  i.imm = addr.offset;
  i.srcs = {addr.base};
  i.defs = {l_.f_.new_value(class_type(num))};
  const int v = l_.emit(std::move(i));
  auto parts = split_regs(v, num);
  for (int q = 0; q < num; ++q) RETURN_IF_ERROR(l_.write(dslots[q], parts[q]));
  return ok_status();
}

// ---- movmatrix ----

// movmatrix.sync.aligned.m8n8.trans.b16 d, a: lane l holds row l / 4, columns 2(l % 4)
// and 2(l % 4) + 1 of the matrix (the ldmatrix layout) and receives the same of its
// transpose, M[2(l % 4) + i][l / 4]: element (r, c) lives in lane 4r + c / 2, half c % 2.
// Two shuffles fetch the source words, a byte permute picks the halves.
Status TensorLowering::movmatrix() {
  if (!Lowerer::has(in_, "m8n8") || !Lowerer::has(in_, "trans") || !Lowerer::has(in_, "b16") ||
      in_.operands.size() != 2)
    return unsupported("PTX instruction '" + form() +
                       "' is not supported (sm_80-sm_89 have movmatrix .m8n8.trans.b16)");
  ASSIGN_OR_RETURN(int a, l_.read_value(in_.operands[1], DataType::U32));
  if (reg_class(l_.f_.type_of(a)) != RegClass::k32)
    return l_.invalid(in_.loc, form() + " moves a 32-bit register");
  const int lane = l_.special(isa::SpecialReg::LANEID);
  auto op2 = [&](Opcode op, int x, uint64_t imm) {
    return l_.isa_op(op, DataType::U32, DataType::U32, {Operand::val(x), Operand::immediate(imm)});
  };
  // s0 = 8 (lane % 4) + lane / 8: the lane holding M[2(l % 4)][l / 4]; s1 = s0 + 4.
  const int s0 = l_.isa_op(Opcode::IMAD, DataType::U32, DataType::U32,
                           {Operand::val(op2(Opcode::AND, lane, 3)), Operand::immediate(8),
                            Operand::val(op2(Opcode::SHR, lane, 3))});
  const int s1 = op2(Opcode::IADD, s0, 4);
  warpsync();
  auto shfl = [&](int src_lane) {
    Inst i;
    i.op = Op::kIsa;
    i.isa_op = Opcode::SHFL;
    i.type = DataType::U32;
    i.mod = static_cast<uint8_t>(isa::ShflOp::IDX);
    i.srcs = {Operand::val(a), Operand::val(src_lane), Operand::immediate(0x1f)};
    i.defs = {l_.f_.new_value(DataType::U32), kNoValue};
    return l_.emit(std::move(i));
  };
  const int v0 = shfl(s0), v1 = shfl(s1);
  // Half (l / 4) % 2 of each word: PRMT selector 0x5410 (low halves) or 0x7632 (high).
  const int half = op2(Opcode::AND, op2(Opcode::SHR, lane, 2), 1);
  const int sel =
      l_.isa_op(Opcode::IMAD, DataType::U32, DataType::U32,
                {Operand::val(half), Operand::immediate(0x2222), Operand::immediate(0x5410)});
  const int d = l_.isa_op(Opcode::PRMT, DataType::U32, DataType::U32,
                          {Operand::val(v0), Operand::val(v1), Operand::val(sel)});
  return l_.write(in_.operands[0], d);
}

// ---- wmma ----

StatusOr<TensorLowering::Access> TensorLowering::access(const FragLayout& f, bool row_major,
                                                        size_t addr_index, size_t stride_index) {
  Access a;
  a.space = space();
  a.wide = a.space != MemSpace::SHARED;
  a.row_major = row_major;
  a.elem_bits = f.elem_bits;
  ASSIGN_OR_RETURN(MemAddr addr, mem_address(l_, in_, in_.operands[addr_index], a.space, false));
  Operand base = addr.base;
  if (addr.offset >> 63) {
    Inst c;
    c.op = Op::kConst;
    c.symbol = "dynshared";
    c.imm = (uint64_t{3} << 62) | (addr.offset & 0xffffffffu);
    c.defs = {l_.f_.new_value(DataType::U32)};
    base = Operand::val(l_.emit(std::move(c)));
    addr.offset = 0;
  }
  a.offset = addr.offset;
  if (stride_index < in_.operands.size()) {
    ASSIGN_OR_RETURN(a.stride, l_.read(in_.operands[stride_index], DataType::U32));
    if (!a.stride.is_imm() && reg_class(l_.f_.type_of(a.stride.value)) != RegClass::k32)
      a.stride = Operand::val(l_.low32(a.stride.value));
  } else {
    a.stride = Operand::immediate(static_cast<uint64_t>(row_major ? f.cols : f.rows));
  }
  // Lane part in elements: row-major (gr g + tr t) S + gc g + tc t; column-major swaps.
  const int lane = l_.special(isa::SpecialReg::LANEID);
  const int g = l_.isa_op(Opcode::SHR, DataType::U32, DataType::U32,
                          {Operand::val(lane), Operand::immediate(2)});
  const int t = l_.isa_op(Opcode::AND, DataType::U32, DataType::U32,
                          {Operand::val(lane), Operand::immediate(3)});
  const int major_g = row_major ? f.gr : f.gc, major_t = row_major ? f.tr : f.tc;
  const int minor_g = row_major ? f.gc : f.gr, minor_t = row_major ? f.tc : f.tr;
  // major_lane = major_g g + major_t t (one of them is 0); minor likewise.
  auto lin = [&](int cg, int ct) -> int {
    if (cg != 0)
      return cg == 1 ? g
                     : l_.isa_op(Opcode::IMUL, DataType::U32, DataType::U32,
                                 {Operand::val(g), Operand::immediate(static_cast<uint64_t>(cg))});
    return ct == 1 ? t
                   : l_.isa_op(Opcode::IMUL, DataType::U32, DataType::U32,
                               {Operand::val(t), Operand::immediate(static_cast<uint64_t>(ct))});
  };
  const int major = lin(major_g, major_t), minor = lin(minor_g, minor_t);
  const int elems = l_.isa_op(Opcode::IMAD, DataType::U32, DataType::U32,
                              {Operand::val(major), a.stride, Operand::val(minor)});
  int bytes;
  if (a.elem_bits >= 8) {
    bytes = l_.isa_op(
        Opcode::IMUL, DataType::U32, DataType::U32,
        {Operand::val(elems), Operand::immediate(static_cast<uint64_t>(a.elem_bits / 8))});
  } else {  // 4-bit: elements / 2; 1-bit: elements / 8
    bytes = l_.isa_op(Opcode::SHR, DataType::U32, DataType::U32,
                      {Operand::val(elems), Operand::immediate(a.elem_bits == 4 ? 1 : 3)});
  }
  if (a.wide) {
    int off = l_.widen(bytes, false);
    if (base.is_imm())
      base = Operand::val(l_.constant(DataType::U64, base.imm));
    else if (reg_class(l_.f_.type_of(base.value)) == RegClass::k32)
      base = Operand::val(l_.widen(base.value, false));
    a.lane_addr = l_.isa_op(Opcode::IADD, DataType::U64, DataType::U64, {Operand::val(off), base});
  } else {
    if (!base.is_imm() && reg_class(l_.f_.type_of(base.value)) == RegClass::k64)
      base = Operand::val(l_.low32(base.value));
    a.lane_addr =
        l_.isa_op(Opcode::IADD, DataType::U32, DataType::U32, {Operand::val(bytes), base});
  }
  return a;
}

std::pair<int, uint64_t> TensorLowering::element_address(Access& a, const Elem& e) {
  const int64_t major = a.row_major ? e.R : e.C, minor = a.row_major ? e.C : e.R;
  uint64_t off = a.offset + static_cast<uint64_t>(minor * a.elem_bits / 8);
  if (major == 0) return {a.lane_addr, off};
  if (a.stride.is_imm())
    return {a.lane_addr, off + static_cast<uint64_t>(major) * a.stride.imm *
                                   static_cast<uint64_t>(a.elem_bits) / 8};
  auto it = a.major_addr.find(major);
  if (it != a.major_addr.end()) return {it->second, off};
  int d = l_.isa_op(Opcode::IMUL, DataType::U32, DataType::U32,
                    {a.stride, Operand::immediate(static_cast<uint64_t>(major * a.elem_bits))});
  d = l_.isa_op(Opcode::SHR, DataType::U32, DataType::U32,
                {Operand::val(d), Operand::immediate(3)});
  int addr;
  if (a.wide) {
    addr = l_.isa_op(Opcode::IADD, DataType::U64, DataType::U64,
                     {Operand::val(a.lane_addr), Operand::val(l_.widen(d, false))});
  } else {
    addr = l_.isa_op(Opcode::IADD, DataType::U32, DataType::U32,
                     {Operand::val(a.lane_addr), Operand::val(d)});
  }
  a.major_addr[major] = addr;
  return {addr, off};
}

int TensorLowering::load(Access& a, int addr, uint64_t off, DataType t) {
  Inst i;
  i.op = Op::kIsa;
  i.isa_op = Opcode::LD;
  i.space = a.space;
  i.type = t;
  i.imm = off;
  i.srcs = {Operand::val(addr)};
  i.defs = {l_.f_.new_value(t == DataType::U64 ? DataType::U64 : DataType::U32)};
  return l_.emit(std::move(i));
}

void TensorLowering::store(Access& a, int addr, uint64_t off, DataType t, int value) {
  Inst i;
  i.op = Op::kIsa;
  i.isa_op = Opcode::ST;
  i.space = a.space;
  i.type = t;
  i.imm = off;
  i.srcs = {Operand::val(addr), Operand::val(value)};
  l_.emit(std::move(i));
}

// Whether the elements of one register are adjacent in memory, in order.
bool contiguous(const std::vector<Elem>& reg, bool row_major) {
  for (size_t i = 1; i < reg.size(); ++i) {
    const Elem& p = reg[i - 1];
    const Elem& q = reg[i];
    if (row_major ? (q.R != p.R || q.C != p.C + 1) : (q.C != p.C || q.R != p.R + 1)) return false;
  }
  return true;
}

// The wmma fragment kind, shape and types of a load/store: (matrix, layout, format/accum).
struct WmmaIo {
  char matrix;
  bool row_major;
  Shape shape;
  std::string type;
};

StatusOr<WmmaIo> wmma_io(Lowerer& l, const ptx::Instruction& in, const std::string& form) {
  WmmaIo io;
  io.matrix = Lowerer::has(in, "a")                              ? 'a'
              : Lowerer::has(in, "b")                            ? 'b'
              : (Lowerer::has(in, "c") || Lowerer::has(in, "d")) ? 'c'
                                                                 : 0;
  auto sh = parse_shape(in);
  auto types = type_list(in);
  const bool row = Lowerer::has(in, "row"), col = Lowerer::has(in, "col");
  if (!io.matrix || !sh || types.size() != 1 || row == col)
    return l.unsupported(in.loc, "PTX instruction '" + form + "' is not supported yet");
  io.row_major = row;
  io.shape = *sh;
  io.type = types[0];
  return io;
}

// Resolves the tile plan of a wmma load/store from its one type.
StatusOr<std::pair<WmmaTiles, DataType>> io_tiles(Lowerer& l, const ptx::Instruction& in,
                                                  const WmmaIo& io, const std::string& form) {
  const Status bad =
      l.unsupported(in.loc, "PTX instruction '" + form +
                                "' is not supported on Strata's sm_80-sm_89 tensor cores");
  if (io.matrix == 'c') {
    auto acc = accum_of(io.type);
    if (!acc) return bad;
    // The accumulator layout depends only on the shape: pick the tile format by shape.
    MmaFormat f = *acc == DataType::F64                                       ? MmaFormat::F64
                  : (io.shape.m == 16 && io.shape.n == 16 && io.shape.k == 8) ? MmaFormat::TF32
                  : (io.shape.m == 8 && io.shape.n == 8 && io.shape.k == 32)  ? MmaFormat::S4
                  : (io.shape.m == 8 && io.shape.n == 8 && io.shape.k == 128) ? MmaFormat::B1
                  : *acc == DataType::S32                                     ? MmaFormat::S8
                                                                              : MmaFormat::F16;
    auto w = wmma_tiles(io.shape, f);
    if (!w) return bad;
    return std::make_pair(*w, *acc);
  }
  auto f = format_of(io.type);
  if (!f) return bad;
  auto w = wmma_tiles(io.shape, *f);
  if (!w) return bad;
  return std::make_pair(*w, DataType::F32);
}

// PTX register count of a wmma fragment.
int ptx_fragment_regs(const WmmaTiles& w, char matrix, DataType acc) {
  if (w.f64) return matrix == 'c' ? 2 : 1;
  const Shape s = w.shape;
  if (matrix == 'c') return s.m * s.n * accum_bits(acc) / 1024;
  const int elems = matrix == 'a' ? s.m * s.k : s.k * s.n;
  if (w.fmt == MmaFormat::F16) return 8;  // f16 a/b fragments are always eight .f16x2 registers
  return elems * isa::mma_format_bits(w.fmt) / 1024;
}

Status TensorLowering::wmma_load() {
  ASSIGN_OR_RETURN(WmmaIo io, wmma_io(l_, in_, form()));
  ASSIGN_OR_RETURN(auto wt, io_tiles(l_, in_, io, form()));
  const WmmaTiles& w = wt.first;
  const DataType acc = wt.second;
  const FragLayout f = wmma_layout(w, io.matrix, acc);
  const int nptx = ptx_fragment_regs(w, io.matrix, acc);
  const int unique = static_cast<int>(f.regs.size());
  if (nptx % unique != 0)
    return unsupported("PTX instruction '" + form() + "': fragment size mismatch");
  if (in_.operands.size() != 2 && in_.operands.size() != 3)
    return l_.invalid(in_.loc, form() + " needs 2 or 3 operands");
  ASSIGN_OR_RETURN(auto dslots, vector_operand(0, nptx));
  ASSIGN_OR_RETURN(Access a, access(f, io.row_major, 1, 2));
  std::vector<int> values;
  for (const auto& reg : f.regs) {
    if (f.elem_bits >= 32 || contiguous(reg, io.row_major)) {
      auto [addr, off] = element_address(a, reg[0]);
      values.push_back(load(a, addr, off, f.elem_bits == 64 ? DataType::U64 : DataType::U32));
      continue;
    }
    int word = kNoValue;
    for (size_t i = 0; i < reg.size(); ++i) {
      auto [addr, off] = element_address(a, reg[i]);
      int v = load(a, addr, off, f.elem_bits == 16 ? DataType::U16 : DataType::U8);
      if (i == 0) {
        word = v;
      } else {
        const uint64_t field =
            static_cast<uint64_t>(i * f.elem_bits) | (static_cast<uint64_t>(f.elem_bits) << 8);
        word = l_.isa_op(Opcode::BFI, DataType::U32, DataType::U32,
                         {Operand::val(v), Operand::immediate(0), Operand::val(word)}, 0, field);
      }
    }
    values.push_back(word);
  }
  for (int j = 0; j < nptx; ++j) RETURN_IF_ERROR(l_.write(dslots[j], values[j % unique]));
  return ok_status();
}

Status TensorLowering::wmma_store() {
  ASSIGN_OR_RETURN(WmmaIo io, wmma_io(l_, in_, form()));
  if (io.matrix != 'c') return l_.invalid(in_.loc, "wmma.store stores the d matrix");
  ASSIGN_OR_RETURN(auto wt, io_tiles(l_, in_, io, form()));
  const WmmaTiles& w = wt.first;
  const DataType acc = wt.second;
  const FragLayout f = wmma_layout(w, 'c', acc);
  const int nptx = ptx_fragment_regs(w, 'c', acc);
  if (nptx != static_cast<int>(f.regs.size()))
    return unsupported("PTX instruction '" + form() + "': fragment size mismatch");
  if (in_.operands.size() != 2 && in_.operands.size() != 3)
    return l_.invalid(in_.loc, form() + " needs 2 or 3 operands");
  ASSIGN_OR_RETURN(auto sslots, vector_operand(1, nptx));
  ASSIGN_OR_RETURN(auto vals, read_regs(sslots, w.f64));
  ASSIGN_OR_RETURN(Access a, access(f, io.row_major, 0, 2));
  for (int j = 0; j < nptx; ++j) {
    const auto& reg = f.regs[j];
    if (f.elem_bits >= 32 || contiguous(reg, io.row_major)) {
      auto [addr, off] = element_address(a, reg[0]);
      store(a, addr, off, f.elem_bits == 64 ? DataType::U64 : DataType::U32, vals[j]);
      continue;
    }
    for (size_t i = 0; i < reg.size(); ++i) {
      auto [addr, off] = element_address(a, reg[i]);
      int v = vals[j];
      if (i > 0)
        v = l_.isa_op(
            Opcode::SHR, DataType::U32, DataType::U32,
            {Operand::val(v), Operand::immediate(static_cast<uint64_t>(i * f.elem_bits))});
      store(a, addr, off, DataType::U16, v);
    }
  }
  return ok_status();
}

Status TensorLowering::wmma_mma() {
  auto sh = parse_shape(in_);
  auto types = type_list(in_);
  const Status bad = unsupported("PTX instruction '" + form() +
                                 "' is not supported on Strata's sm_80-sm_89 tensor cores");
  if (!sh) return bad;
  std::string d_t, a_t, b_t, c_t;
  if (types.size() == 2) {  // f16 multiplicands: .dtype.ctype
    d_t = types[0], c_t = types[1], a_t = b_t = "f16";
  } else if (types.size() == 4) {
    d_t = types[0], a_t = types[1], b_t = types[2], c_t = types[3];
  } else {
    return bad;
  }
  auto fa = format_of(a_t), fb = format_of(b_t);
  auto dt = accum_of(d_t), ct = accum_of(c_t);
  if (!fa || !fb || !dt || !ct) return bad;
  auto wo = wmma_tiles(*sh, *fa);
  if (!wo || !mma_form_ok(wo->tile, *fa, *fb, *dt, *ct, /*mixed=*/true)) return bad;
  const WmmaTiles& w = *wo;
  isa::MmaDesc desc;
  desc.shape = w.tile;
  desc.a = *fa;
  desc.b = *fb;
  desc.satfinite = Lowerer::has(in_, "satfinite");
  if (desc.a == MmaFormat::B1) {  // .xor.popc / .and.popc
    if (!Lowerer::has(in_, "popc") || Lowerer::has(in_, "and") == Lowerer::has(in_, "xor"))
      return l_.invalid(in_.loc, form() + ": b1 mma needs .and.popc or .xor.popc");
    desc.bit_and = Lowerer::has(in_, "and");
  }
  if (Lowerer::has(in_, "rz")) desc.round = static_cast<uint8_t>(isa::Round::RZ);
  if (Lowerer::has(in_, "rm")) desc.round = static_cast<uint8_t>(isa::Round::RM);
  if (Lowerer::has(in_, "rp")) desc.round = static_cast<uint8_t>(isa::Round::RP);
  if (in_.operands.size() != 4) return l_.invalid(in_.loc, form() + " needs 4 operands");
  ASSIGN_OR_RETURN(auto dslots, vector_operand(0, ptx_fragment_regs(w, 'c', *dt)));
  ASSIGN_OR_RETURN(auto aslots, vector_operand(1, ptx_fragment_regs(w, 'a', *dt)));
  ASSIGN_OR_RETURN(auto bslots, vector_operand(2, ptx_fragment_regs(w, 'b', *dt)));
  ASSIGN_OR_RETURN(auto cslots, vector_operand(3, ptx_fragment_regs(w, 'c', *ct)));
  ASSIGN_OR_RETURN(auto av, read_regs(aslots, w.f64));
  ASSIGN_OR_RETURN(auto bv, read_regs(bslots, w.f64));
  ASSIGN_OR_RETURN(auto cv, read_regs(cslots, w.f64));
  if (w.f64) {
    int c = l_.pack(DataType::B128,
                    {Operand::val(l_.extract(cv[0], 0)), Operand::val(l_.extract(cv[0], 1)),
                     Operand::val(l_.extract(cv[1], 0)), Operand::val(l_.extract(cv[1], 1))});
    warpsync();
    auto parts = split_regs(hmma(desc, *dt, *ct, av[0], bv[0], c, 4), 4);
    for (int j = 0; j < 2; ++j)
      RETURN_IF_ERROR(l_.write(
          dslots[j],
          l_.pack(DataType::U64, {Operand::val(parts[2 * j]), Operand::val(parts[2 * j + 1])})));
    return ok_status();
  }
  const int na = tile_a_regs(w), nb = tile_b_regs(w), ncc = tile_c_regs(w, *ct),
            ncd = tile_c_regs(w, *dt);
  const int a_per = w.padded ? na / 2 : na;
  const int c_per = w.padded ? ncc / 2 : ncc, d_per = w.padded ? ncd / 2 : ncd;
  warpsync();
  std::vector<int> dvals(static_cast<size_t>(w.row_tiles * w.col_tiles * d_per));
  for (int rt = 0; rt < w.row_tiles; ++rt) {
    std::vector<int> ap;
    for (int r = 0; r < na; ++r)
      ap.push_back(av[static_cast<size_t>(rt * a_per + (w.padded ? r >> 1 : r))]);
    const int a = pack_regs(ap);
    for (int ctile = 0; ctile < w.col_tiles; ++ctile) {
      std::vector<int> bp, cp;
      for (int r = 0; r < nb; ++r) bp.push_back(bv[static_cast<size_t>(ctile * nb + r)]);
      const int tile = rt * w.col_tiles + ctile;
      for (int r = 0; r < ncc; ++r) cp.push_back(cv[static_cast<size_t>(tile * c_per + r % c_per)]);
      auto parts = split_regs(hmma(desc, *dt, *ct, a, pack_regs(bp), pack_regs(cp), ncd), ncd);
      for (int r = 0; r < d_per; ++r)
        dvals[static_cast<size_t>(tile * d_per + r)] = parts[static_cast<size_t>(r)];
    }
  }
  for (size_t j = 0; j < dslots.size(); ++j) RETURN_IF_ERROR(l_.write(dslots[j], dvals[j]));
  return ok_status();
}

}  // namespace

Status Lowerer::lower_tensor(const ptx::Instruction& in, bool* handled) {
  *handled = true;
  TensorLowering t(*this, in);
  if (in.opcode == "mma") return t.mma();
  if (in.opcode == "ldmatrix") return t.ldmatrix();
  if (in.opcode == "movmatrix") return t.movmatrix();
  if (in.opcode == "stmatrix")
    return unsupported(
        in.loc,
        "PTX instruction 'stmatrix' requires sm_90; Strata's tensor cores implement sm_80-sm_89");
  if (in.opcode == "wmma") {
    if (has(in, "load")) return t.wmma_load();
    if (has(in, "store")) return t.wmma_store();
    if (has(in, "mma")) return t.wmma_mma();
  }
  *handled = false;
  return ok_status();
}

}  // namespace strata::compiler::ir
