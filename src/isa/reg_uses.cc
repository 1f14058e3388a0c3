#include "isa/reg_uses.h"

#include <algorithm>

#include "isa/operands.h"
#include "isa/tensor.h"
#include "isa/texture.h"

namespace strata::isa {
namespace {

int regs_of(DataType t) {
  return t == DataType::kNone ? 1 : type_regs(t);
}

bool is_wide_address(const Inst& i) {
  return i.space == MemSpace::GENERIC || i.space == MemSpace::GLOBAL || i.space == MemSpace::CONST;
}

// Registers of an HMMA fragment: rows x cols elements of `bits` over 32 lanes.
int fragment_regs(int rows, int cols, int bits) {
  return std::max(1, rows * cols * bits / (32 * 32));
}

// Registers of each GPR operand slot by the instruction's semantics (docs/isa.md).
struct Widths {
  int d, a, b, c;
};

Widths widths(const Inst& i) {
  const int w = regs_of(i.type);
  switch (i.op) {
    case Opcode::IMULWIDE:
      return {2, 1, 1, 1};
    case Opcode::IMADWIDE:
      return {2, 1, 1, 2};
    case Opcode::POPC:
    case Opcode::CLZ:
    case Opcode::BFIND:
      return {1, w, 1, 1};
    case Opcode::SHL:
    case Opcode::SHR:
      return {w, w, 1, 1};
    case Opcode::BFE:
      return {w, w, 1, 1};
    case Opcode::BFI:
      return {w, w, 1, w};
    case Opcode::CVT:
      return {w, regs_of(i.type2), 1, 1};
    case Opcode::PRMT:
    case Opcode::S2R:
    case Opcode::VOTE:
    case Opcode::SHFL:
    case Opcode::BAR:
    case Opcode::CALL:
    case Opcode::RET:
    case Opcode::WARPSYNC:
    case Opcode::NANOSLEEP:
      return {1, 1, 1, 1};
    case Opcode::HMMA: {
      MmaDesc desc;
      if (!MmaDesc::decode(i.imm, &desc)) return {w, w, w, w};
      const MmaDims m = mma_dims(desc.shape);
      return {fragment_regs(m.m, m.n, type_bits(i.type)),
              fragment_regs(m.m, m.k, mma_format_bits(desc.a)),
              fragment_regs(m.k, m.n, mma_format_bits(desc.b)),
              fragment_regs(m.m, m.n, type_bits(i.type2))};
    }
    case Opcode::CPASYNC:
      return {1, 1, 2, 1};
    case Opcode::CPARRIVE:
    case Opcode::MBINIT:
    case Opcode::MBINVAL:
    case Opcode::MBTEST:
      return {1, is_wide_address(i) ? 2 : 1, 1, 1};
    case Opcode::MBARRIVE:
    case Opcode::MBDROP:
      return {2, is_wide_address(i) ? 2 : 1, 1, 1};
    case Opcode::TEX: {  // isa/texture.h
      const TexGeom g = tex_geom(i.mod);
      const int c = tex_lod(i.mod) == TexLod::kLevel  ? 1
                    : tex_lod(i.mod) == TexLod::kGrad ? (tex_dims(g) == 1 ? 2 : 4)
                                                      : 1;
      return {4, 2, tex_coord_regs(g), c};
    }
    case Opcode::TLD4:
      return {4, 2, tex_coord_regs(tex_geom(i.mod)), 1};
    case Opcode::TXQ:
      return {1, 2, 1, 1};
    case Opcode::SULD:
    case Opcode::SUST:
    case Opcode::SURED: {
      const int elem = type_bits(i.type) == 64 ? 2 : 1;
      const int data = i.op == Opcode::SURED ? elem : std::min(4, elem * surf_vec(i.mod));
      return {data, 2, surf_coord_regs(tex_geom(i.mod)), data};
    }
    case Opcode::LD:
    case Opcode::ST:
    case Opcode::LDC:
    case Opcode::ATOM:
    case Opcode::LDSM: {
      const int a = i.op == Opcode::LDC ? 1 : (is_wide_address(i) ? 2 : 1);
      return {w, a, w, w};
    }
    default:
      return {w, w, w, w};
  }
}

void add_read(RegisterUses& u, int& n, uint8_t reg, int count) {
  if (reg == kRZ || n >= 4) return;
  u.reads[n++] = RegRun{reg, static_cast<uint8_t>(count)};
}

}  // namespace

RegisterUses register_uses(const Inst& i) {
  RegisterUses u;
  u.guard = i.guard;
  const Widths w = widths(i);
  int n = 0;
  for (OperandKind k : operand_kinds(i.op)) {
    switch (k) {
      case OperandKind::kD:
        if (i.rd != kRZ) u.write = RegRun{i.rd, static_cast<uint8_t>(w.d)};
        break;
      case OperandKind::kA:
        add_read(u, n, i.ra, w.a);
        break;
      case OperandKind::kB:
        if (!i.b_imm) add_read(u, n, i.rb, w.b);
        break;
      case OperandKind::kC:
        add_read(u, n, i.rc, w.c);
        break;
      case OperandKind::kMemory:
      case OperandKind::kConstBank:
        add_read(u, n, i.ra, w.a);
        break;
      case OperandKind::kPd:
        if (i.pd < kPT) u.pred_writes |= static_cast<uint8_t>(1u << i.pd);
        break;
      case OperandKind::kPs:
        if (i.ps < kPT) u.pred_reads |= static_cast<uint8_t>(1u << i.ps);
        break;
      case OperandKind::kPq:
        if ((i.rb & 7) < kPT) u.pred_reads |= static_cast<uint8_t>(1u << (i.rb & 7));
        break;
      default:
        break;
    }
  }
  return u;
}

}  // namespace strata::isa
