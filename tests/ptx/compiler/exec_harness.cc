#include "exec_harness.h"

#include <algorithm>
#include <cstring>

#include "compiler/compiler.h"
#include "isa/disasm.h"
#include "isa/encode.h"

namespace strata::compiler::testing {

Status PtxExec::compile(const std::string& ptx, int opt_level) {
  CompileOptions opts;
  opts.opt_level = opt_level;
  opts.verify_each_pass = true;
  ASSIGN_OR_RETURN(std::vector<uint8_t> image, compile_ptx({{"test.ptx", ptx}}, opts));
  ASSIGN_OR_RETURN(bin_, sxbin::read_sxbin(image));
  return ok_status();
}

StatusOr<hw::sim::FaultRecord> PtxExec::run(const std::string& name, Dim grid, Dim block,
                                            const std::vector<uint64_t>& params) {
  const sxbin::KernelDesc* k = bin_.find_kernel(name);
  if (!k) return error(Code::kNotFound, "no kernel " + name);
  if (params.size() != k->params.size()) return error(Code::kInvalidValue, "wrong parameter count");
  std::vector<uint8_t> bytes(k->param_bytes, 0);
  for (size_t i = 0; i < params.size(); ++i) {
    const sxbin::ParamDesc& p = k->params[i];
    if (p.size > 8) return error(Code::kInvalidValue, "parameter wider than 8 bytes");
    std::memcpy(bytes.data() + p.offset, &params[i], p.size);
  }
  return run_with_param_block(name, grid, block, bytes);
}

StatusOr<hw::sim::FaultRecord> PtxExec::run_with_param_block(
    const std::string& name, Dim grid, Dim block, const std::vector<uint8_t>& block_bytes) {
  const sxbin::KernelDesc* k = bin_.find_kernel(name);
  if (!k) return error(Code::kNotFound, "no kernel " + name);
  if (block_bytes.size() != k->param_bytes)
    return error(Code::kInvalidValue, "wrong parameter block size");
  std::vector<uint32_t> words((k->param_bytes + 3) / 4 + 1, 0);
  std::memcpy(words.data(), block_bytes.data(), block_bytes.size());
  std::vector<uint8_t> code(
      bin_.code.begin() + static_cast<std::ptrdiff_t>(k->code_offset),
      bin_.code.begin() + static_cast<std::ptrdiff_t>(k->code_offset + k->code_size));
  hw::sim::testing::LaunchOptions opts;
  opts.regs = k->regs_per_thread;
  opts.local_bytes = k->local_bytes;
  opts.shared_bytes = k->shared_bytes + dynamic_shared_;
  opts.dynamic_shared_bytes = dynamic_shared_;
  if (bin_.const_bank_size > 0) {  // the module's .const variables (bank 2)
    opts.const_bank2 = bin_.const_init;
    opts.const_bank2.resize(bin_.const_bank_size, 0);
  }
  opts.env_bank.resize(sxbin::kEnvBankBytes, 0);  // bank 4: the launch environment
  std::memcpy(opts.env_bank.data(), env_regs_.data(),
              std::min<size_t>(opts.env_bank.size(), env_regs_.size() * 4));
  return h_.launch_raw(code, grid, block, words, opts);
}

std::string PtxExec::disassembly(const std::string& name, bool with_control) const {
  const sxbin::KernelDesc* k = bin_.find_kernel(name);
  if (!k) return "no kernel " + name;
  auto code = isa::decode_program(
      std::span<const uint8_t>(bin_.code.data() + k->code_offset, k->code_size));
  if (!code.ok()) return code.status().to_string();
  return isa::disassemble_program(*code, with_control);
}

}  // namespace strata::compiler::testing
