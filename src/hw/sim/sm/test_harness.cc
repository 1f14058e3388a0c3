#include "hw/sim/sm/test_harness.h"

#include <cstdlib>
#include <string>

#include "hw/contract/page_table.h"
#include "hw/sim/sm/hazard_check.h"
#include "hw/sim/sm/trace_hook.h"
#include "isa/encode.h"

namespace strata::hw::sim::testing {

Harness::Harness(uint64_t vram_bytes) : vram_size_(vram_bytes) {
  vram_ = static_cast<uint8_t*>(std::aligned_alloc(kPageSize, vram_bytes));
  std::memset(vram_, 0, vram_bytes);
  next_data_ = 8ull << 20;  // the first 8 MiB hold page tables
  pt_root_ = new_table();
  walker_ = std::make_unique<PageWalker>(vram_, vram_size_, pt_root_);
  config.sm_count = 4;
  config.core_clock_mhz = 1000;
  config.max_threads_per_block = 1024;
  config.max_threads_per_sm = 2048;
  config.max_blocks_per_sm = 16;
  config.registers_per_sm = 65536;
  config.register_alloc_unit = 256;
  config.shared_bytes_per_sm = 228 * 1024;
  config.shared_bytes_per_block = 48 * 1024;
}

Harness::~Harness() { std::free(vram_); }

uint64_t Harness::new_table() {
  const uint64_t pa = next_table_;
  next_table_ += kPageSize;
  return pa;
}

void Harness::map_page(uint64_t va, uint64_t pa, bool writable) {
  uint64_t table = pt_root_;
  for (int level = 4; level > 1; --level) {
    auto* e = reinterpret_cast<uint64_t*>(vram_ + table) + pt_index(va, level);
    if ((*e & kPteValid) == 0) *e = new_table() | kPteValid;
    table = *e & kPteAddrMask;
  }
  auto* e = reinterpret_cast<uint64_t*>(vram_ + table) + pt_index(va, 1);
  *e = pa | kPteValid | (writable ? kPteWritable : 0);
}

uint64_t Harness::alloc(uint64_t bytes, bool writable) {
  const uint64_t pages = (bytes + kPageSize - 1) / kPageSize;
  const uint64_t va = next_va_;
  for (uint64_t i = 0; i < pages; ++i) {
    map_page(va + i * kPageSize, next_data_, writable);
    next_data_ += kPageSize;
  }
  next_va_ += (pages + 1) * kPageSize;  // leave an unmapped guard page
  return va;
}

uint8_t* Harness::host(uint64_t va) {
  Translation t;
  if (!walker_->walk(va, &t)) std::abort();
  return t.host_page + (va - t.page_va);
}

FaultRecord Harness::launch(const std::vector<isa::Inst>& code, Dim grid, Dim block,
                            const std::vector<uint32_t>& params, const LaunchOptions& opts, GridStats* stats) {
  LaunchOptions o = opts;
  if (!o.check_hazards.has_value()) o.check_hazards = false;
  return launch_raw(isa::encode_program(code), grid, block, params, o, stats);
}

FaultRecord Harness::launch_raw(const std::vector<uint8_t>& bytes, Dim grid, Dim block,
                                const std::vector<uint32_t>& params, const LaunchOptions& opts, GridStats* stats) {
  auto program = decode_program(bytes.data(), bytes.size());
  LaunchPacket p{};
  p.kernel_id = 7;
  p.grid[0] = grid.x; p.grid[1] = grid.y; p.grid[2] = grid.z;
  p.block[0] = block.x; p.block[1] = block.y; p.block[2] = block.z;
  p.shared_bytes = opts.shared_bytes;
  p.dynamic_shared_bytes = opts.dynamic_shared_bytes;
  p.regs_per_thread = opts.regs;
  p.local_bytes_per_thread = opts.local_bytes;
  p.num_barriers = 1;
  if (!params.empty()) {
    const uint64_t va = alloc(params.size() * 4, /*writable=*/false);
    write(va, params);
    p.cbanks[0] = ConstBankBinding{va, static_cast<uint32_t>(params.size() * 4), 0};
  }
  if (!opts.const_bank2.empty()) {
    const uint64_t va = alloc(opts.const_bank2.size(), /*writable=*/false);
    write(va, opts.const_bank2);
    p.cbanks[2] = ConstBankBinding{va, static_cast<uint32_t>(opts.const_bank2.size()), 0};
  }
  if (!opts.env_bank.empty()) {
    const uint64_t va = alloc(opts.env_bank.size(), /*writable=*/false);
    write(va, opts.env_bank);
    p.cbanks[4] = ConstBankBinding{va, static_cast<uint32_t>(opts.env_bank.size()), 0};
  }
  GridLaunch l;
  l.packet = &p;
  l.program = program.get();
  l.memory = walker_.get();
  l.config = &config;
  l.shared_window = kSharedWindow;
  l.local_window = kLocalWindow;
  l.start_time_ns = 1000;
  l.check_hazards = opts.check_hazards.value_or(hazard_check_from_environment());
  if (opts.trace != nullptr) return execute_grid_traced(l, stats, opts.trace);
  return execute_grid(l, stats);
}

ScopedThreads::ScopedThreads(int n) { setenv("STRATA_THREADS", std::to_string(n).c_str(), 1); }
ScopedThreads::~ScopedThreads() { unsetenv("STRATA_THREADS"); }

}  // namespace strata::hw::sim::testing

namespace strata::hw::sim::testing {

std::vector<isa::Inst> prologue() {
  return {
      B(Opcode::S2R).d(0).mod(static_cast<uint8_t>(isa::SpecialReg::TID_X)),
      B(Opcode::S2R).d(1).mod(static_cast<uint8_t>(isa::SpecialReg::CTAID_X)),
      B(Opcode::S2R).d(2).mod(static_cast<uint8_t>(isa::SpecialReg::NTID_X)),
      B(Opcode::IMAD).t(DataType::U32).d(3).a(1).b(2).c(0),
  };
}

std::vector<isa::Inst> element_address(uint32_t param_off, uint32_t elem, uint8_t dst) {
  return {
      B(Opcode::LDC).t(DataType::U64).d(4).imm(param_off).mod(0),
      B(Opcode::MOV).t(DataType::U32).d(20).bi(elem),
      B(Opcode::IMADWIDE).t(DataType::U32).d(dst).a(3).b(20).c(4),
  };
}

std::vector<uint64_t> run_map(Harness& h, const std::vector<isa::Inst>& body, const std::vector<uint64_t>& a,
                              const std::vector<uint64_t>& b, bool wide, const std::vector<uint64_t>& c,
                              FaultRecord* fault) {
  const size_t n = a.size();
  const uint32_t elem = wide ? 8 : 4;
  auto upload = [&](const std::vector<uint64_t>& v) {
    const uint64_t va = h.alloc(n * 8 + 8);
    for (size_t i = 0; i < n && i < v.size(); ++i) std::memcpy(h.host(va + i * elem), &v[i], elem);
    return va;
  };
  const uint64_t va_a = upload(a), va_b = upload(b), va_c = upload(c), va_out = upload({});
  const DataType t = wide ? DataType::U64 : DataType::U32;
  std::vector<isa::Inst> code = prologue();
  auto load = [&](uint32_t param, uint8_t reg) {
    for (const isa::Inst& i : element_address(param, elem)) code.push_back(i);
    code.push_back(B(Opcode::LD).t(t).d(reg).a(6).space(isa::MemSpace::GLOBAL));
  };
  load(8, 8);
  load(16, wide ? 10 : 9);
  if (!wide) load(24, 12);
  for (const isa::Inst& i : body) code.push_back(i);
  for (const isa::Inst& i : element_address(0, elem)) code.push_back(i);
  code.push_back(B(Opcode::ST).t(t).a(6).b(wide ? 12 : 10).space(isa::MemSpace::GLOBAL));
  code.push_back(B(Opcode::EXIT));
  auto lo = [](uint64_t v) { return static_cast<uint32_t>(v); };
  auto hi = [](uint64_t v) { return static_cast<uint32_t>(v >> 32); };
  const std::vector<uint32_t> params = {lo(va_out), hi(va_out), lo(va_a), hi(va_a),
                                        lo(va_b),   hi(va_b),   lo(va_c), hi(va_c)};
  const uint32_t threads = static_cast<uint32_t>(n);
  FaultRecord f = h.launch(code, Dim{(threads + 31) / 32}, Dim{threads < 32 ? threads : 32}, params);
  if (fault != nullptr) *fault = f;
  std::vector<uint64_t> out(n);
  for (size_t i = 0; i < n; ++i) {
    out[i] = 0;
    std::memcpy(&out[i], h.host(va_out + i * elem), elem);
  }
  return out;
}

}  // namespace strata::hw::sim::testing
