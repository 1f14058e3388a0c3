// Texture and surface instructions in unified mode: tex (plain, .base, .level, .grad),
// tld4, txq, suld.b, sust.b, sured.b and suq, lowered to TEX, TLD4, TXQ, SULD, SUST and
// SURED (isa/texture.h). The texture/surface operand is a 64-bit handle: a register,
// a kernel .param (.texref/.surfref/.u64) or a module-scope .global .texref/.surfref
// variable holding one. The residency predicate of `d|p` is always true. Independent
// mode (a sampler operand), depth compare, offsets, sust.p and other unimplemented forms
// are kNotSupported naming the instruction.
#include <fmt/format.h>

#include "compiler/ir/lowerer.h"
#include "isa/texture.h"

namespace strata::compiler::ir {
namespace {

using isa::MemSpace;
using isa::SurfClamp;
using isa::TexGeom;
using isa::TexLod;

std::string form_of(const ptx::Instruction& in) {
  std::string f = in.opcode;
  for (const auto& m : in.modifiers) f += "." + m;
  return f;
}

bool geom_of(const ptx::Instruction& in, TexGeom* g) {
  static const std::pair<const char*, TexGeom> kGeoms[] = {
      {"1d", TexGeom::k1D},       {"2d", TexGeom::k2D},   {"3d", TexGeom::k3D},
      {"a1d", TexGeom::kA1D},     {"a2d", TexGeom::kA2D}, {"cube", TexGeom::kCube},
      {"acube", TexGeom::kACube},
  };
  for (const auto& m : in.modifiers)
    for (auto& [name, geom] : kGeoms)
      if (m == name) {
        *g = geom;
        return true;
      }
  return false;
}

class TextureLowering {
 public:
  TextureLowering(Lowerer& l, const ptx::Instruction& in) : l_(l), in_(in) {}

  Status tex();
  Status tld4();
  Status txq(bool surface);
  Status surface(Opcode op);

 private:
  Status unsupported(const std::string& why) const {
    return l_.unsupported(in_.loc, "PTX instruction '" + form_of(in_) + "' is not supported" +
                                       (why.empty() ? "" : " (" + why + ")"));
  }
  // The handle of address operand `index` ([tex, {...}] or [tex]).
  StatusOr<int> handle(size_t index);
  // The elements of a vector operand (or a single operand) as slots.
  StatusOr<std::vector<ptx::OperandSlot>> elements(const ptx::OperandSlot& s);
  // Reads `slots` as 32-bit registers of `t` and packs them into 1, 2 or 4 registers,
  // padding with zeros to `regs`.
  StatusOr<int> pack32(const std::vector<ptx::OperandSlot>& slots, DataType t, int regs,
                       DataType first_type = DataType::kNone);
  // TEX/TLD4's coordinate operand by geometry (isa/texture.h).
  StatusOr<int> coordinates(TexGeom g, DataType ctype);
  int emit(Opcode op, DataType type, DataType type2, uint8_t mod, uint64_t imm,
           std::vector<Operand> srcs, DataType result);
  Status write_parts(const std::vector<ptx::OperandSlot>& slots, int value, int regs);
  // tex.grad.3d: the level of detail from the gradients (operands 2 and 3), computed here
  // since TEX's c operand holds at most 4 registers: lambda = log2(max(|dPdx * size|,
  // |dPdy * size|)), size = the level-0 extents (TXQ) for normalized coordinates, else 1,
  // as TEX computes it for 1D/2D gradients.
  StatusOr<int> grad3d_level(int handle);

  Lowerer& l_;
  const ptx::Instruction& in_;
};

StatusOr<std::vector<ptx::OperandSlot>> TextureLowering::elements(const ptx::OperandSlot& s) {
  std::vector<ptx::OperandSlot> out;
  if (auto* v = std::get_if<std::shared_ptr<ptx::VectorOperand>>(&s.value)) {
    if (!*v) return l_.invalid(in_.loc, "malformed vector operand");
    for (const auto& e : (*v)->elements) out.push_back(ptx::OperandSlot{e, false, s.loc});
  } else {
    out.push_back(s);
  }
  return out;
}

StatusOr<int> TextureLowering::handle(size_t index) {
  if (index >= in_.operands.size())
    return l_.invalid(in_.loc, form_of(in_) + " has too few operands");
  auto* a = std::get_if<ptx::AddressOperand>(&in_.operands[index].value);
  if (!a) return l_.invalid(in_.loc, form_of(in_) + " needs a [texture, ...] operand");
  if (!a->sampler.empty()) return unsupported("independent texture mode: a separate sampler");
  if (a->offset != 0) return l_.invalid(in_.loc, "a texture or surface handle takes no offset");
  if (a->base_is_reg) {
    ASSIGN_OR_RETURN(DataType rt, l_.reg_type(a->base, in_.loc));
    if (reg_class(rt) != RegClass::k64)
      return l_.invalid(in_.loc, "a texture or surface handle is a 64-bit register");
    return l_.ssa_.read(l_.var_key(a->base), l_.cur_, rt);
  }
  if (a->base.empty())
    return l_.invalid(in_.loc, "a texture or surface handle cannot be an absolute address");
  const ScopedVar* sv = l_.find_scoped(a->base);
  if (sv && sv->space == "param") {  // kernel parameter: c[0]
    Inst i;
    i.op = Op::kIsa;
    i.isa_op = Opcode::LDC;
    i.type = DataType::U64;
    i.imm = sv->offset;
    i.srcs = {Operand::immediate(0)};
    i.defs = {l_.f_.new_value(DataType::U64)};
    return l_.emit(std::move(i));
  }
  if (sv && sv->space == "fparam")
    return l_.ssa_.read(l_.var_key("param:" + a->base + "@0"), l_.cur_, DataType::U64);
  auto gv = l_.prog_.vars.find(a->base);
  if (!sv && gv != l_.prog_.vars.end() && gv->second.space == "global") {
    ASSIGN_OR_RETURN(Operand addr,
                     l_.symbol_address(ptx::SymbolOperand{a->base, 0}, DataType::U64, in_.loc));
    Inst i;
    i.op = Op::kIsa;
    i.isa_op = Opcode::LD;
    i.type = DataType::U64;
    i.space = MemSpace::GLOBAL;
    i.srcs = {addr};
    i.defs = {l_.f_.new_value(DataType::U64)};
    return l_.emit(std::move(i));
  }
  return unsupported("the handle '" + a->base +
                     "' is not a register, kernel parameter or .global variable");
}

StatusOr<int> TextureLowering::pack32(const std::vector<ptx::OperandSlot>& slots, DataType t,
                                      int regs, DataType first_type) {
  std::vector<Operand> parts;
  for (size_t k = 0; k < slots.size() && static_cast<int>(k) < regs; ++k) {
    if (std::holds_alternative<ptx::SinkOperand>(slots[k].value)) {
      parts.push_back(Operand::val(l_.constant(DataType::U32, 0)));
      continue;
    }
    const DataType et = k == 0 && first_type != DataType::kNone ? first_type : t;
    ASSIGN_OR_RETURN(int v, l_.read_value(slots[k], et));
    if (reg_class(l_.f_.type_of(v)) != RegClass::k32)
      return l_.invalid(in_.loc, form_of(in_) + ": coordinates and data are 32-bit registers");
    parts.push_back(Operand::val(v));
  }
  while (static_cast<int>(parts.size()) < regs)
    parts.push_back(Operand::val(l_.constant(DataType::U32, 0)));
  if (regs == 1) return parts[0].value;
  return l_.pack(regs == 2 ? DataType::U64 : DataType::B128, parts);
}

StatusOr<int> TextureLowering::coordinates(TexGeom g, DataType ctype) {
  auto* a = std::get_if<ptx::AddressOperand>(&in_.operands[1].value);
  if (!a || !a->coords)
    return l_.invalid(in_.loc, form_of(in_) + " needs coordinates: [texture, {...}]");
  std::vector<ptx::OperandSlot> slots;
  for (const auto& e : a->coords->elements)
    slots.push_back(ptx::OperandSlot{e, false, in_.operands[1].loc});
  const int regs = isa::tex_coord_regs(g);
  // PTX: 1d {x}; 2d {x, y}; a1d {idx, x}; 3d/cube {x, y, z, _}; a2d {idx, x, y, _}; acube {idx, x,
  // y, z}.
  const size_t need = g == TexGeom::k1D ? 1 : g == TexGeom::k2D || g == TexGeom::kA1D ? 2 : 4;
  const size_t min_need = g == TexGeom::kA2D || g == TexGeom::k3D || g == TexGeom::kCube ? 3 : need;
  if (slots.size() < min_need || slots.size() > need)
    return l_.invalid(in_.loc, fmt::format("{}: {} coordinates expected, got {}", form_of(in_),
                                           need, slots.size()));
  const bool layered = isa::tex_layered(g);
  return pack32(slots, ctype, regs, layered ? DataType::U32 : DataType::kNone);
}

int TextureLowering::emit(Opcode op, DataType type, DataType type2, uint8_t mod, uint64_t imm,
                          std::vector<Operand> srcs, DataType result) {
  Inst i;
  i.op = Op::kIsa;
  i.isa_op = op;
  i.type = type;
  i.type2 = type2;
  i.mod = mod;
  i.imm = imm;
  i.space = MemSpace::GLOBAL;
  i.srcs = std::move(srcs);
  i.defs = {result == DataType::kNone ? kNoValue : l_.f_.new_value(result)};
  return l_.emit(std::move(i));
}

Status TextureLowering::write_parts(const std::vector<ptx::OperandSlot>& slots, int value,
                                    int regs) {
  for (size_t k = 0; k < slots.size(); ++k) {
    const int part = regs == 1 ? value : l_.extract(value, static_cast<int>(k));
    RETURN_IF_ERROR(l_.write(slots[k], part));
  }
  return ok_status();
}

// The .v4 destination and coordinate types of tex/tld4 (the last two type modifiers).
Status result_types(Lowerer& l, const ptx::Instruction& in, DataType* dtype, DataType* ctype,
                    bool* f16x2) {
  std::vector<std::string> types;
  for (const auto& m : in.modifiers) {
    DataType t;
    if (ptx_type(m, &t)) types.push_back(m);
  }
  if (types.size() != 2)
    return l.invalid(in.loc, "'" + form_of(in) + "' needs a destination and a coordinate type");
  *f16x2 = types[0] == "f16x2";
  if (types[0] == "f32" || *f16x2)
    *dtype = DataType::F32;
  else if (types[0] == "s32")
    *dtype = DataType::S32;
  else if (types[0] == "u32")
    *dtype = DataType::U32;
  else
    return l.unsupported(
        in.loc, "PTX instruction '" + form_of(in) + "' is not supported (destination type)");
  if (types[1] == "f32")
    *ctype = DataType::F32;
  else if (types[1] == "s32")
    *ctype = DataType::S32;
  else
    return l.unsupported(
        in.loc, "PTX instruction '" + form_of(in) + "' is not supported (coordinate type)");
  return ok_status();
}

StatusOr<int> TextureLowering::grad3d_level(int handle) {
  auto f32 = [&](Opcode op, std::vector<Operand> srcs, uint8_t mod = 0) {
    return l_.isa_op(op, DataType::F32, DataType::F32, std::move(srcs), mod);
  };
  auto query = [&](isa::TexQuery q) {
    const int v = emit(Opcode::TXQ, DataType::B32, DataType::kNone, 0, static_cast<uint64_t>(q),
                       {Operand::val(handle), Operand::immediate(0)}, DataType::U32);
    Inst cv;
    cv.op = Op::kIsa;
    cv.isa_op = Opcode::CVT;
    cv.type = DataType::F32;
    cv.type2 = DataType::U32;
    cv.srcs = {Operand::val(v)};
    cv.defs = {l_.f_.new_value(DataType::F32)};
    return l_.emit(std::move(cv));
  };
  const uint64_t one = 0x3f800000;
  const int norm = query(isa::TexQuery::kNormalizedCoords);  // 0.0 or 1.0
  int scale[3];
  const isa::TexQuery dims[3] = {isa::TexQuery::kWidth, isa::TexQuery::kHeight,
                                 isa::TexQuery::kDepth};
  for (int k = 0; k < 3; ++k) {
    // norm ? size : 1 = norm * (size - 1) + 1
    const int size = query(dims[k]);
    const int less =
        f32(Opcode::FSUB, {Operand::val(size), Operand::val(l_.constant(DataType::F32, one))});
    scale[k] = f32(Opcode::FFMA, {Operand::val(norm), Operand::val(less),
                                  Operand::val(l_.constant(DataType::F32, one))});
  }
  int len2[2];
  for (int v = 0; v < 2; ++v) {
    ASSIGN_OR_RETURN(auto e, elements(in_.operands[2 + static_cast<size_t>(v)]));
    if (e.size() < 3) return l_.invalid(in_.loc, form_of(in_) + ": gradient vectors are too short");
    int acc = -1;
    for (int k = 0; k < 3; ++k) {
      ASSIGN_OR_RETURN(int g, l_.read_value(e[static_cast<size_t>(k)], DataType::F32));
      const int t = f32(Opcode::FMUL, {Operand::val(g), Operand::val(scale[k])});
      acc = acc < 0 ? f32(Opcode::FMUL, {Operand::val(t), Operand::val(t)})
                    : f32(Opcode::FFMA, {Operand::val(t), Operand::val(t), Operand::val(acc)});
    }
    len2[v] = acc;
  }
  const int rho2 = f32(Opcode::FMAX, {Operand::val(len2[0]), Operand::val(len2[1])});
  const int lg = f32(Opcode::MUFU, {Operand::val(rho2)}, static_cast<uint8_t>(isa::MufuOp::LG2));
  return f32(Opcode::FMUL,
             {Operand::val(lg), Operand::val(l_.constant(DataType::F32, 0x3f000000))});
}

Status TextureLowering::tex() {
  TexGeom g;
  if (!geom_of(in_, &g)) return unsupported("geometry");
  for (const auto& m : in_.modifiers)
    if (m == "2dms" || m == "a2dms") return unsupported("multisample textures");
  DataType dtype, ctype;
  bool f16x2 = false;
  RETURN_IF_ERROR(result_types(l_, in_, &dtype, &ctype, &f16x2));
  const bool v4 = Lowerer::has(in_, "v4"), v2 = Lowerer::has(in_, "v2");
  if (!(v4 && !f16x2) && !(v2 && f16x2)) return unsupported("tex returns .v4 (or .v2.f16x2)");
  const TexLod lod = Lowerer::has(in_, "level")  ? TexLod::kLevel
                     : Lowerer::has(in_, "grad") ? TexLod::kGrad
                                                 : TexLod::kBase;
  const size_t want = lod == TexLod::kLevel ? 3 : lod == TexLod::kGrad ? 4 : 2;
  if (in_.operands.size() != want)
    return in_.operands.size() > want ? unsupported("offset or depth-compare operands")
                                      : l_.invalid(in_.loc, form_of(in_) + " has too few operands");
  if (lod == TexLod::kGrad && (g == TexGeom::kCube || g == TexGeom::kACube))
    return unsupported("gradients of cubemap textures");
  if ((lod != TexLod::kBase) && (ctype != DataType::F32))
    return unsupported("level/gradient with integer coordinates");
  ASSIGN_OR_RETURN(auto dslots, elements(in_.operands[0]));
  if (dslots.size() != (f16x2 ? 2u : 4u))
    return l_.invalid(in_.loc, form_of(in_) + ": wrong destination vector size");
  ASSIGN_OR_RETURN(int h, handle(1));
  ASSIGN_OR_RETURN(int coords, coordinates(g, ctype));
  Operand extra = Operand::immediate(0);
  if (lod == TexLod::kLevel) {
    ASSIGN_OR_RETURN(int v, l_.read_value(in_.operands[2], DataType::F32));
    extra = Operand::val(v);
  } else if (lod == TexLod::kGrad && isa::tex_dims(g) == 3) {
    ASSIGN_OR_RETURN(int level, grad3d_level(h));
    extra = Operand::val(level);
  } else if (lod == TexLod::kGrad) {
    const int n = isa::tex_dims(g);  // 1 or 2 components per gradient
    std::vector<ptx::OperandSlot> all;
    for (size_t k = 2; k < 4; ++k) {
      ASSIGN_OR_RETURN(auto e, elements(in_.operands[k]));
      if (static_cast<int>(e.size()) < n)
        return l_.invalid(in_.loc, form_of(in_) + ": gradient vectors are too short");
      for (int j = 0; j < n; ++j) all.push_back(e[static_cast<size_t>(j)]);
    }
    ASSIGN_OR_RETURN(int v, pack32(all, DataType::F32, 2 * n));
    extra = Operand::val(v);
  }
  const TexLod mode = lod == TexLod::kGrad && isa::tex_dims(g) == 3 ? TexLod::kLevel : lod;
  const int d = emit(Opcode::TEX, dtype, ctype, isa::tex_mod(g, mode), 0,
                     {Operand::val(h), Operand::val(coords), extra}, DataType::B128);
  if (!f16x2) return write_parts(dslots, d, 4);
  // .f16x2: {r, g} and {b, a} rounded to half and packed.
  int halves[4];
  for (int k = 0; k < 4; ++k) {
    Inst cv;
    cv.op = Op::kIsa;
    cv.isa_op = Opcode::CVT;
    cv.type = DataType::F16;
    cv.type2 = DataType::F32;
    cv.srcs = {Operand::val(l_.extract(d, k))};
    cv.defs = {l_.f_.new_value(DataType::U32)};
    halves[k] = l_.emit(std::move(cv));
  }
  RETURN_IF_ERROR(l_.write(dslots[0], l_.pack_halves(halves[0], halves[1])));
  return l_.write(dslots[1], l_.pack_halves(halves[2], halves[3]));
}

Status TextureLowering::tld4() {
  TexGeom g;
  if (!geom_of(in_, &g)) return unsupported("geometry");
  if (g != TexGeom::k2D && g != TexGeom::kA2D && g != TexGeom::kCube && g != TexGeom::kACube)
    return unsupported("tld4 gathers from 2d, a2d, cube and acube textures");
  int comp = -1;
  static const char* kComps[] = {"r", "g", "b", "a"};
  for (int k = 0; k < 4; ++k)
    if (Lowerer::has(in_, kComps[k])) comp = k;
  if (comp < 0) return l_.invalid(in_.loc, form_of(in_) + " needs a component (.r, .g, .b, .a)");
  DataType dtype, ctype;
  bool f16x2 = false;
  RETURN_IF_ERROR(result_types(l_, in_, &dtype, &ctype, &f16x2));
  if (f16x2 || ctype != DataType::F32) return unsupported("");
  if (in_.operands.size() != 2) return unsupported("offset or depth-compare operands");
  ASSIGN_OR_RETURN(auto dslots, elements(in_.operands[0]));
  if (dslots.size() != 4) return l_.invalid(in_.loc, form_of(in_) + " writes a .v4 destination");
  ASSIGN_OR_RETURN(int h, handle(1));
  ASSIGN_OR_RETURN(int coords, coordinates(g, ctype));
  const int d =
      emit(Opcode::TLD4, dtype, ctype, isa::tex_mod(g, TexLod::kBase, static_cast<uint8_t>(comp)),
           0, {Operand::val(h), Operand::val(coords)}, DataType::B128);
  return write_parts(dslots, d, 4);
}

Status TextureLowering::txq(bool surface) {
  static const std::pair<const char*, isa::TexQuery> kQueries[] = {
      {"width", isa::TexQuery::kWidth},
      {"height", isa::TexQuery::kHeight},
      {"depth", isa::TexQuery::kDepth},
      {"channel_data_type", isa::TexQuery::kChannelDataType},
      {"channel_order", isa::TexQuery::kChannelOrder},
      {"normalized_coords", isa::TexQuery::kNormalizedCoords},
      {"filter_mode", isa::TexQuery::kFilterMode},
      {"addr_mode_0", isa::TexQuery::kAddrMode0},
      {"addr_mode_1", isa::TexQuery::kAddrMode1},
      {"addr_mode_2", isa::TexQuery::kAddrMode2},
      {"array_size", isa::TexQuery::kArraySize},
      {"num_mipmap_levels", isa::TexQuery::kNumMipmapLevels},
      {"num_samples", isa::TexQuery::kNumSamples},
      {"memory_layout", isa::TexQuery::kMemoryLayout},
      {"force_unnormalized_coords", isa::TexQuery::kForceUnnormalized},
  };
  int query = -1;
  for (const auto& m : in_.modifiers)
    for (auto& [name, q] : kQueries)
      if (m == name) query = static_cast<int>(q);
  if (query < 0) return unsupported("query");
  const auto q = static_cast<isa::TexQuery>(query);
  const bool level = Lowerer::has(in_, "level");
  if (surface && (q == isa::TexQuery::kNormalizedCoords || q == isa::TexQuery::kFilterMode ||
                  q == isa::TexQuery::kNumMipmapLevels || q == isa::TexQuery::kNumSamples || level))
    return unsupported("suq query");
  if (level && q != isa::TexQuery::kWidth && q != isa::TexQuery::kHeight &&
      q != isa::TexQuery::kDepth)
    return l_.invalid(in_.loc, "txq.level queries width, height or depth");
  if (in_.operands.size() != (level ? 3u : 2u))
    return l_.invalid(in_.loc, form_of(in_) + ": wrong operand count");
  ASSIGN_OR_RETURN(int h, handle(1));
  Operand lod = Operand::immediate(0);
  if (level) {
    ASSIGN_OR_RETURN(int v, l_.read_value(in_.operands[2], DataType::U32));
    lod = Operand::val(v);
  }
  const int d = emit(Opcode::TXQ, DataType::B32, DataType::kNone, 0, static_cast<uint64_t>(query),
                     {Operand::val(h), lod}, DataType::U32);
  return l_.write(in_.operands[0], d);
}

Status TextureLowering::surface(Opcode op) {
  if (op == Opcode::SUST && Lowerer::has(in_, "p"))
    return unsupported("formatted surface stores (sust.p)");
  if (!Lowerer::has(in_, "b")) return unsupported("only the .b (unformatted) form");
  TexGeom g;
  if (!geom_of(in_, &g)) return unsupported("geometry");
  if (g == TexGeom::kCube || g == TexGeom::kACube) return unsupported("cube surfaces");
  SurfClamp cl = SurfClamp::kTrap;
  if (Lowerer::has(in_, "clamp")) cl = SurfClamp::kClamp;
  if (Lowerer::has(in_, "zero")) cl = SurfClamp::kZero;
  const int vec = Lowerer::has(in_, "v4") ? 4 : Lowerer::has(in_, "v2") ? 2 : 1;
  DataType t = DataType::kNone;
  std::string tname;
  for (const auto& m : in_.modifiers) {
    DataType x;
    if (ptx_type(m, &x)) {
      t = x;
      tname = m;
    }
  }
  if (tname.empty()) return l_.invalid(in_.loc, form_of(in_) + " needs a type");
  const int bits = isa::type_bits(t);
  uint8_t mod;
  DataType etype;
  if (op == Opcode::SURED) {
    static const std::pair<const char*, isa::SuredOp> kOps[] = {{"add", isa::SuredOp::kAdd},
                                                                {"min", isa::SuredOp::kMin},
                                                                {"max", isa::SuredOp::kMax},
                                                                {"and", isa::SuredOp::kAnd},
                                                                {"or", isa::SuredOp::kOr}};
    int rop = -1;
    for (auto& [name, o] : kOps)
      if (Lowerer::has(in_, name)) rop = static_cast<int>(o);
    if (rop < 0) return unsupported("reduction");
    if ((bits != 32 && bits != 64) || isa::type_is_float(t)) return unsupported("type");
    etype = t;
    mod = isa::sured_mod(g, cl, static_cast<isa::SuredOp>(rop));
  } else {
    if (bits != 8 && bits != 16 && bits != 32 && bits != 64) return unsupported("type");
    if (bits == 64 && vec == 4)
      return l_.invalid(in_.loc, form_of(in_) + ": .v4 of .b64 is not allowed");
    etype = bits == 8    ? DataType::B8
            : bits == 16 ? DataType::B16
            : bits == 32 ? DataType::B32
                         : DataType::B64;
    mod = isa::surf_mod(g, cl, static_cast<uint8_t>(vec == 4 ? 2 : vec == 2 ? 1 : 0));
  }
  if (in_.operands.size() != 2) return l_.invalid(in_.loc, form_of(in_) + " needs 2 operands");
  const size_t addr_index = op == Opcode::SULD ? 1 : 0;
  const size_t data_index = op == Opcode::SULD ? 0 : 1;
  ASSIGN_OR_RETURN(int h, handle(addr_index));
  auto* a = std::get_if<ptx::AddressOperand>(&in_.operands[addr_index].value);
  if (!a->coords) return l_.invalid(in_.loc, form_of(in_) + " needs coordinates: [surface, {...}]");
  std::vector<ptx::OperandSlot> cslots;
  for (const auto& e : a->coords->elements)
    cslots.push_back(ptx::OperandSlot{e, false, in_.operands[addr_index].loc});
  const size_t need = g == TexGeom::k1D ? 1 : g == TexGeom::k2D || g == TexGeom::kA1D ? 2 : 4;
  const size_t min_need = g == TexGeom::k3D || g == TexGeom::kA2D ? 3 : need;
  if (cslots.size() < min_need || cslots.size() > need)
    return l_.invalid(in_.loc, fmt::format("{}: {} coordinates expected, got {}", form_of(in_),
                                           need, cslots.size()));
  ASSIGN_OR_RETURN(int coords, pack32(cslots, DataType::S32, isa::surf_coord_regs(g)));
  ASSIGN_OR_RETURN(auto dslots, elements(in_.operands[data_index]));
  const int per = bits == 64 ? 2 : 1;
  const int regs = op == Opcode::SURED ? per : vec * per;
  if (static_cast<int>(dslots.size()) != (op == Opcode::SURED ? 1 : vec))
    return l_.invalid(in_.loc, form_of(in_) + ": wrong data vector size");
  const DataType rclass = regs == 1 ? DataType::U32 : regs == 2 ? DataType::U64 : DataType::B128;
  if (op == Opcode::SULD) {
    const int d = emit(Opcode::SULD, etype, DataType::kNone, mod, 0,
                       {Operand::val(h), Operand::val(coords)}, rclass);
    if (per == 1) return write_parts(dslots, d, regs);
    if (vec == 1) return l_.write(dslots[0], d);
    for (int k = 0; k < vec; ++k) {
      const int v = l_.pack(DataType::U64, {Operand::val(l_.extract(d, 2 * k)),
                                            Operand::val(l_.extract(d, 2 * k + 1))});
      RETURN_IF_ERROR(l_.write(dslots[static_cast<size_t>(k)], v));
    }
    return ok_status();
  }
  int data;
  if (per == 1) {
    ASSIGN_OR_RETURN(data, pack32(dslots, DataType::U32, regs));
  } else {
    std::vector<Operand> parts;
    for (const auto& s : dslots) {
      ASSIGN_OR_RETURN(int v, l_.read_value(s, DataType::U64));
      if (reg_class(l_.f_.type_of(v)) != RegClass::k64)
        return l_.invalid(in_.loc, form_of(in_) + ": .b64 data is 64-bit");
      if (dslots.size() == 1) {
        parts.push_back(Operand::val(v));
        break;
      }
      parts.push_back(Operand::val(l_.extract(v, 0)));
      parts.push_back(Operand::val(l_.extract(v, 1)));
    }
    data = parts.size() == 1 ? parts[0].value : l_.pack(rclass, parts);
  }
  emit(op, etype, DataType::kNone, mod, 0,
       {Operand::val(h), Operand::val(coords), Operand::val(data)}, DataType::kNone);
  return ok_status();
}

}  // namespace

Status Lowerer::lower_texture(const ptx::Instruction& in, bool* handled) {
  const std::string& op = in.opcode;
  if (op != "tex" && op != "tld4" && op != "txq" && op != "suld" && op != "sust" && op != "sured" &&
      op != "suq")
    return ok_status();
  *handled = true;
  if ((op == "tex" || op == "tld4") && in.has_pred_pair) {
    // d|p: p is true when the texels are resident, which they always are (Strata has no
    // sparse textures).
    ptx::Instruction plain = in;
    plain.operands.erase(plain.operands.begin() + 1);
    plain.has_pred_pair = false;
    TextureLowering t(*this, plain);
    RETURN_IF_ERROR(op == "tex" ? t.tex() : t.tld4());
    return write(in.operands[1], constant(DataType::Pred, 1));
  }
  TextureLowering t(*this, in);
  if (op == "tex") return t.tex();
  if (op == "tld4") return t.tld4();
  if (op == "txq") return t.txq(false);
  if (op == "suq") return t.txq(true);
  if (op == "suld") return t.surface(Opcode::SULD);
  if (op == "sust") return t.surface(Opcode::SUST);
  return t.surface(Opcode::SURED);
}

}  // namespace strata::compiler::ir
