// Linking several PTX modules: resolve functions and variables by name.
#include <fmt/format.h>

#include <bit>
#include <cstring>
#include <set>
#include <map>

#include "compiler/ir/lower.h"
#include "compiler/ir/ptx_types.h"

namespace strata::compiler::ir {
namespace {

uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

Status invalid(const ptx::Module& m, const ptx::SourceLoc& loc, const std::string& msg) {
  return error(Code::kInvalidPtx, loc_string(m.source_name, loc) + ": " + msg);
}

// The address a symbol initializer element stands for: a global or const variable
// (whose global and generic addresses coincide) plus an offset.
StatusOr<InitReloc> address_reloc(const ptx::Module& m, const ptx::VarDecl& d,
                                     const std::map<std::string, ModuleVar>& vars, const ptx::SymbolOperand& s,
                                     uint64_t at) {
  auto it = vars.find(s.name);
  if (it == vars.end()) {
    return error(Code::kNotSupported, loc_string(m.source_name, d.loc) + ": initializer of '" + d.name +
                                          "' takes the address of '" + s.name +
                                          "', which is not a global or const variable (not supported yet)");
  }
  if (it->second.space != "global" && it->second.space != "const")
    return error(Code::kNotSupported, loc_string(m.source_name, d.loc) + ": initializer of '" + d.name +
                                          "' takes the address of ." + it->second.space + " variable '" + s.name +
                                          "' (not supported)");
  return InitReloc{at, s.name, s.offset};
}

// Writes the flattened initializer of `d` into `out` (little endian); address elements
// become relocations in `relocs` (their bytes stay zero), except function addresses,
// whose pointer values (`fptrs`) are constants. An address fills a 64-bit element, or
// eight consecutive byte elements 0xFF(sym), 0xFF00(sym), ... in order.
Status write_init(const ptx::Module& m, const ptx::VarDecl& d, const std::map<std::string, ModuleVar>& vars,
                  const std::map<std::string, uint64_t>& fptrs, std::vector<uint8_t>* out,
                  std::vector<InitReloc>* relocs) {
  int elem = ptx_type_bytes(d.type);
  uint64_t size = var_size(d);
  if (d.init.size() * static_cast<uint64_t>(elem) > size)
    return invalid(m, d.loc, fmt::format("too many initializers for '{}'", d.name));
  out->assign(size, 0);
  for (size_t i = 0; i < d.init.size(); ++i) {
    uint64_t bits = 0;
    if (auto* ii = std::get_if<ptx::ImmInt>(&d.init[i])) {
      bits = static_cast<uint64_t>(ii->value);
    } else if (auto* f = std::get_if<ptx::ImmFloat>(&d.init[i])) {
      bits = f->bits;
      if (d.type == "f32" && !f->is_f32) {
        double v;
        std::memcpy(&v, &f->bits, 8);
        float fv = static_cast<float>(v);
        uint32_t b32;
        std::memcpy(&b32, &fv, 4);
        bits = b32;
      }
    } else if (auto* sym = std::get_if<ptx::SymbolOperand>(&d.init[i]);
               sym && fptrs.count(sym->name) && sym->offset == 0) {
      // A function pointer: a constant. Byte-mask elements take their byte of it.
      uint64_t value = fptrs.at(sym->name);
      bits = sym->mask == 0 ? value : (value & sym->mask) >> std::countr_zero(sym->mask);
    } else if (auto* sym = std::get_if<ptx::SymbolOperand>(&d.init[i])) {
      uint64_t at = i * static_cast<uint64_t>(elem);
      if (elem == 8 && sym->mask == 0) {
        ASSIGN_OR_RETURN(InitReloc r, address_reloc(m, d, vars, *sym, at));
        relocs->push_back(std::move(r));
        continue;
      }
      // Byte-mask form: eight byte elements holding the address's bytes in order.
      bool bytes = elem == 1 && sym->mask == 0xff && i + 8 <= d.init.size();
      for (size_t k = 1; bytes && k < 8; ++k) {
        auto* next = std::get_if<ptx::SymbolOperand>(&d.init[i + k]);
        bytes = next && next->name == sym->name && next->offset == sym->offset && next->generic == sym->generic &&
                next->mask == (uint64_t{0xff} << (8 * k));
      }
      if (!bytes)
        return error(Code::kNotSupported, loc_string(m.source_name, d.loc) + ": initializer of '" + d.name +
                                              "' stores part of the address of '" + sym->name +
                                              "' (only whole 64-bit addresses are supported)");
      ASSIGN_OR_RETURN(InitReloc r, address_reloc(m, d, vars, *sym, at));
      relocs->push_back(std::move(r));
      i += 7;
      continue;
    }
    for (int k = 0; k < elem; ++k) (*out)[i * elem + k] = static_cast<uint8_t>(bits >> (8 * k));
  }
  return ok_status();
}

}  // namespace

StatusOr<LinkedProgram> link_modules(const std::vector<const ptx::Module*>& modules) {
  LinkedProgram p;
  p.modules = modules;
  for (const ptx::Module* m : modules) {
    for (const ptx::Function& f : m->functions) {
      auto it = p.functions.find(f.name);
      if (it == p.functions.end()) {
        p.functions[f.name] = &f;
        p.function_module[f.name] = m->source_name;
        continue;
      }
      const ptx::Function* old = it->second;
      if (f.has_body && old->has_body) {
        if (f.is_weak) continue;
        if (old->is_weak) {
          it->second = &f;
          p.function_module[f.name] = m->source_name;
          continue;
        }
        return invalid(*m, f.loc, fmt::format("duplicate definition of function '{}'", f.name));
      }
      if (f.has_body) {
        it->second = &f;
        p.function_module[f.name] = m->source_name;
      }
    }
  }
  for (const ptx::Module* m : modules) {
    for (const ptx::VarDecl& d : m->globals) {
      if (d.space != "global" && d.space != "const" && d.space != "shared") {
        if (d.space == "tex" || d.space == "surf")
          return error(Code::kNotSupported, loc_string(m->source_name, d.loc) +
                                                ": ." + d.space + " variables are not supported yet");
        continue;
      }
      ModuleVar v;
      v.decl = &d;
      v.module = m->source_name;
      v.space = d.space;
      v.size = var_size(d);
      v.align = var_align(d);
      v.is_extern_shared = d.space == "shared" && (d.is_extern || (!d.dims.empty() && d.dims[0] == 0));
      if (v.size > (uint64_t{1} << 40)) return invalid(*m, d.loc, "variable '" + d.name + "' is too large");
      auto it = p.vars.find(d.name);
      if (it != p.vars.end()) {
        bool old_def = !it->second.decl->is_extern, new_def = !d.is_extern;
        if (old_def && new_def && d.space != "shared") {
          if (d.is_weak) continue;
          if (!it->second.decl->is_weak)
            return invalid(*m, d.loc, fmt::format("duplicate definition of variable '{}'", d.name));
        }
        if (!new_def) continue;
      }
      p.vars[d.name] = v;
    }
  }
  // .shared variables declared in .func bodies: static, one per CTA, listed like
  // module-scope ones under shared_var_key (only the body's top level).
  for (const auto& [fname, fn] : p.functions) {
    if (!fn->has_body || fn->is_entry) continue;
    for (const auto& s : fn->body.statements) {
      auto* d = std::get_if<ptx::VarDecl>(&s);
      if (!d || d->space != "shared") continue;
      ModuleVar v;
      v.decl = d;
      v.module = p.function_module.at(fname);
      v.space = "shared";
      v.size = var_size(*d);
      v.align = var_align(*d);
      v.is_extern_shared = d->is_extern || (!d->dims.empty() && d->dims[0] == 0);
      p.vars[shared_var_key(fname, d->name)] = v;
    }
  }
  for (auto& [name, v] : p.vars) {
    if (v.decl->is_extern && v.space != "shared")
      return error(Code::kInvalidPtx, fmt::format("{}: undefined variable '{}'",
                                                  loc_string(v.module, v.decl->loc), name));
  }
  // Function pointers: the functions whose address code takes or initializers hold, in
  // name order; pointer k (from 0) is (k + 1) * 16 (docs/abi.md).
  p.calls = build_call_graph(p);
  std::set<std::string> pointed(p.calls.address_taken.begin(), p.calls.address_taken.end());
  for (const auto& [name, v] : p.vars)
    for (const ptx::Operand& e : v.decl->init)
      if (auto* sym = std::get_if<ptx::SymbolOperand>(&e)) {
        auto fn = p.functions.find(sym->name);
        if (fn != p.functions.end() && fn->second->has_body && !fn->second->is_entry) pointed.insert(sym->name);
      }
  uint64_t next = 0;
  for (const std::string& name : pointed) p.function_pointers[name] = ++next * 16;
  // Const bank layout, in name order (deterministic).
  uint64_t off = 0;
  for (auto& [name, v] : p.vars) {
    if (v.space != "const") continue;
    off = align_up(off, v.align);
    v.const_offset = off;
    off += v.size;
  }
  p.const_bank_size = align_up(off, 16);
  if (p.const_bank_size > 64 * 1024)
    return error(Code::kInvalidPtx, fmt::format("constant variables need {} bytes; the limit is 65536",
                                                p.const_bank_size));
  p.const_init.assign(p.const_bank_size, 0);
  for (auto& [name, v] : p.vars) {
    if (v.space != "const" || !v.decl->has_init) continue;
    const ptx::Module* m = nullptr;
    for (auto* mm : modules)
      if (mm->source_name == v.module) m = mm;
    std::vector<uint8_t> init;
    std::vector<InitReloc> relocs;  // applied by the loader (GlobalVar::init_relocs)
    RETURN_IF_ERROR(write_init(*m, *v.decl, p.vars, p.function_pointers, &init, &relocs));
    std::copy(init.begin(), init.end(), p.const_init.begin() + static_cast<ptrdiff_t>(v.const_offset));
  }
  while (!p.const_init.empty() && p.const_init.back() == 0) p.const_init.pop_back();
  return p;
}

Status global_init(const LinkedProgram& p, const ModuleVar& v, std::vector<uint8_t>* out,
                   std::vector<InitReloc>* relocs) {
  for (auto* m : p.modules)
    if (m->source_name == v.module) return write_init(*m, *v.decl, p.vars, p.function_pointers, out, relocs);
  return ok_status();
}

}  // namespace strata::compiler::ir
