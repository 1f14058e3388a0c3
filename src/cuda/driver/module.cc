#include "cuda/driver/module.h"

#include <algorithm>
#include <cstring>
#include <set>

#include "cuda/driver/context.h"
#include "fmt/format.h"

namespace strata::cuda::driver {
namespace {

void put_u64(std::vector<uint8_t>& bytes, uint64_t offset, uint64_t value) {
  std::memcpy(bytes.data() + offset, &value, sizeof(value));
}

// Identifies a module's content for binding its managed variables (managed_memory.h):
// FNV-1a over the code and the variables' names, sizes and initial data.
uint64_t content_key(const sxbin::Binary& binary) {
  uint64_t hash = 14695981039346656037ull;
  auto mix = [&](const void* data, size_t bytes) {
    const auto* p = static_cast<const uint8_t*>(data);
    for (size_t i = 0; i < bytes; ++i) hash = (hash ^ p[i]) * 1099511628211ull;
  };
  mix(binary.code.data(), binary.code.size());
  for (const sxbin::GlobalVar& g : binary.globals) {
    mix(g.name.data(), g.name.size() + 1);
    mix(&g.size, sizeof(g.size));
    mix(g.init.data(), g.init.size());
  }
  return hash;
}

}  // namespace

const sxbin::KernelDesc& Function::desc() const { return module_->binary().kernels[index_]; }

uint32_t Module::next_module_resource_id() {
  static std::atomic<uint32_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

StatusOr<std::shared_ptr<Module>> Module::load(Context& context, sxbin::Binary binary,
                                               std::string name) {
  std::shared_ptr<Module> module(new Module(context.shared_from_this(), std::move(binary)));
  RETURN_IF_ERROR(module->place(std::move(name)));
  return module;
}

Module::~Module() = default;

Status Module::place(std::string name) {
  hal::Allocator& allocator = context_->hal().allocator();

  // 1. Code.
  hal::ExecutableSpec spec;
  spec.name = name;
  spec.code = binary_.code;
  for (const sxbin::KernelDesc& k : binary_.kernels) {
    hal::KernelInfo info;
    info.name = k.name;
    info.code_offset = k.code_offset;
    info.code_size = k.code_size;
    info.regs_per_thread = std::max<uint32_t>(1, k.regs_per_thread);
    info.static_shared_bytes = k.shared_bytes;
    info.local_bytes_per_thread = k.local_bytes;
    info.num_barriers = std::clamp<uint32_t>(k.num_barriers, 1, 16);
    spec.kernels.push_back(std::move(info));
  }
  ASSIGN_OR_RETURN(executable_, context_->hal().load_executable(spec));

  // 2. Addresses: global variables get their own allocations, const variables live in
  //    the bank-2 block, functions at their code address.
  uint64_t bank2_va = 0;
  if (binary_.const_bank_size > 0) {
    ASSIGN_OR_RETURN(auto block, allocator.allocate_device(binary_.const_bank_size));
    bank2_va = block->va();
    buffers_.push_back(std::move(block));
  }
  std::map<std::string, uint64_t, std::less<>> symbol_va;
  std::set<std::string> fresh_managed;  // managed variables to initialise below
  const uint64_t key = content_key(binary_);
  for (const sxbin::GlobalVar& g : binary_.globals) {
    if (g.space == sxbin::VarSpace::kConst) {
      globals_[g.name] = {bank2_va + g.const_offset, g.size};
    } else if (g.space == sxbin::VarSpace::kManaged) {
      // Managed storage, shared with this module's loads in other contexts.
      bool fresh = false;
      ASSIGN_OR_RETURN(auto variable,
                       bind_managed_variable(*context_, key, g.name, g.size, &fresh));
      globals_[g.name] = {variable->va(), g.size};
      if (fresh) fresh_managed.insert(g.name);
      managed_.push_back(std::move(variable));
    } else {
      ASSIGN_OR_RETURN(auto buffer, allocator.allocate_device(std::max<uint64_t>(g.size, 1),
                                                              std::max<uint64_t>(g.align, 256)));
      globals_[g.name] = {buffer->va(), g.size};
      buffers_.push_back(std::move(buffer));
    }
    symbol_va[g.name] = globals_[g.name].va;
  }
  // A kernel's address is its kernel descriptor (device-side launches, device_launch.h).
  RETURN_IF_ERROR(descriptors_.allocate(allocator, binary_.kernels.size()));
  for (size_t i = 0; i < binary_.kernels.size(); ++i) {
    symbol_va[binary_.kernels[i].name] = descriptors_.descriptor_va(i);
  }
  auto resolve = [&](const std::string& symbol) -> StatusOr<uint64_t> {
    auto it = symbol_va.find(symbol);
    if (it == symbol_va.end()) {
      return error(Code::kInvalidImage,
                   fmt::format("module '{}': reference to unknown symbol '{}'", name, symbol));
    }
    return it->second;
  };

  // 3. Initial contents with relocations applied.
  std::vector<uint8_t> bank2(binary_.const_bank_size, 0);
  std::copy(binary_.const_init.begin(), binary_.const_init.end(), bank2.begin());
  for (const sxbin::GlobalVar& g : binary_.globals) {
    std::vector<uint8_t> image;
    uint64_t base = 0;
    std::vector<uint8_t>* target = &bank2;
    if (g.space == sxbin::VarSpace::kManaged && !fresh_managed.contains(g.name)) {
      continue;  // already initialised by the load that allocated it
    }
    if (g.space != sxbin::VarSpace::kConst) {
      image.assign(g.size, 0);
      std::copy(g.init.begin(), g.init.end(), image.begin());
      target = &image;
    } else {
      base = g.const_offset;
    }
    for (const sxbin::Reloc& r : g.init_relocs) {
      ASSIGN_OR_RETURN(uint64_t va, resolve(r.symbol));
      if (r.offset + 8 > g.size || base + r.offset + 8 > target->size()) {
        return error(Code::kInvalidImage, fmt::format("module '{}': relocation at {} outside "
                                                      "variable '{}'", name, r.offset, g.name));
      }
      put_u64(*target, base + r.offset, va + static_cast<uint64_t>(r.addend));
    }
    if (g.space != sxbin::VarSpace::kConst && !image.empty()) {
      RETURN_IF_ERROR(allocator.write(globals_[g.name].va, image.data(), image.size()));
    }
  }
  if (!bank2.empty()) {
    RETURN_IF_ERROR(allocator.write(bank2_va, bank2.data(), bank2.size()));
    banks_.push_back({sxbin::kConstVarBank, bank2_va, static_cast<uint32_t>(bank2.size())});
  }

  // 4. The symbol address table, bank 1.
  if (!binary_.symbol_table.empty()) {
    std::vector<uint8_t> table(8 * binary_.symbol_table.size());
    for (size_t i = 0; i < binary_.symbol_table.size(); ++i) {
      ASSIGN_OR_RETURN(uint64_t va, resolve(binary_.symbol_table[i]));
      put_u64(table, 8 * i, va);
    }
    ASSIGN_OR_RETURN(auto buffer, allocator.allocate_device(table.size()));
    RETURN_IF_ERROR(allocator.write(buffer->va(), table.data(), table.size()));
    banks_.push_back({sxbin::kSymbolBank, buffer->va(), static_cast<uint32_t>(table.size())});
    buffers_.push_back(std::move(buffer));
  }

  // 5. The launch environment c[4] (%envreg): the context's all-zero one; a cooperative
  //    launch binds its own instead (cooperative_launch.h).
  ASSIGN_OR_RETURN(hal::ConstBankBinding environment,
                   context_->device_runtime().null_environment());
  banks_.push_back(environment);

  RETURN_IF_ERROR(descriptors_.write(allocator, *executable_, binary_.kernels, banks_));
  for (const sxbin::KernelDesc& k : binary_.kernels) {
    const auto& table = binary_.symbol_table;
    if (k.uses_device_heap && std::find(table.begin(), table.end(), k.name) != table.end()) {
      device_launches_need_heap_ = true;
    }
  }

  for (size_t i = 0; i < binary_.kernels.size(); ++i) {
    functions_.push_back(std::make_shared<Function>(this, static_cast<int>(i)));
  }
  return ok_status();
}

StatusOr<std::shared_ptr<Function>> Module::function(std::string_view name) const {
  for (const auto& f : functions_) {
    if (f->desc().name == name) return f;
  }
  return error(Code::kNotFound, fmt::format("module has no kernel named '{}'", name));
}

StatusOr<Module::Global> Module::global(std::string_view name) const {
  auto it = globals_.find(name);
  if (it == globals_.end()) {
    return error(Code::kNotFound, fmt::format("module has no global variable named '{}'", name));
  }
  return it->second;
}

std::shared_ptr<const SourceLines> Module::source_lines() const {
  std::call_once(source_lines_once_, [&] {
    source_lines_ = std::make_shared<const SourceLines>(
        binary_, executable_ != nullptr ? executable_->code_va() : 0);
  });
  return source_lines_;
}

std::string Module::describe_pc(std::string_view kernel, uint32_t pc) const {
  const sxbin::KernelDesc* k = binary_.find_kernel(kernel);
  if (k == nullptr || k->lines.empty()) return "";
  const sxbin::LineEntry* row = nullptr;
  for (const sxbin::LineEntry& e : k->lines) {
    if (e.inst_index > pc) break;
    row = &e;
  }
  if (row == nullptr || row->ptx_line == 0) return "";
  std::string out = fmt::format("{} line {}", k->ptx_source.empty() ? "PTX" : k->ptx_source,
                                row->ptx_line);
  if (row->file != 0) {
    for (const sxbin::SourceFile& f : binary_.source_files) {
      if (f.index == row->file) {
        out += fmt::format(" ({}:{})", f.path, row->line);
        break;
      }
    }
  }
  return out;
}

}  // namespace strata::cuda::driver
