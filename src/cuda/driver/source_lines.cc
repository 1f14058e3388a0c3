#include "cuda/driver/source_lines.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace strata::cuda::driver {

SourceLines::SourceLines(const sxbin::Binary& binary, uint64_t code_va)
    : files_(binary.source_files) {
  for (const sxbin::KernelDesc& k : binary.kernels) {
    Kernel kernel;
    kernel.code_va = code_va + k.code_offset;
    kernel.ptx_source = k.ptx_source.empty() ? "PTX" : k.ptx_source;
    kernel.lines = k.lines;
    std::stable_sort(kernel.lines.begin(), kernel.lines.end(),
                     [](const sxbin::LineEntry& a, const sxbin::LineEntry& b) {
                       return a.inst_index < b.inst_index;
                     });
    kernels_.push_back(std::move(kernel));
  }
  std::sort(kernels_.begin(), kernels_.end(),
            [](const Kernel& a, const Kernel& b) { return a.code_va < b.code_va; });
}

const SourceLines::Kernel* SourceLines::find(uint64_t kernel_code_va) const {
  auto it = std::lower_bound(kernels_.begin(), kernels_.end(), kernel_code_va,
                             [](const Kernel& k, uint64_t va) { return k.code_va < va; });
  return it != kernels_.end() && it->code_va == kernel_code_va ? &*it : nullptr;
}

std::optional<SourceLines::Location> SourceLines::locate(uint64_t kernel_code_va,
                                                         uint32_t pc) const {
  const Kernel* k = find(kernel_code_va);
  if (k == nullptr) return std::nullopt;
  // The last row at or before pc covers it (rows start runs of instructions).
  auto it =
      std::upper_bound(k->lines.begin(), k->lines.end(), pc,
                       [](uint32_t p, const sxbin::LineEntry& e) { return p < e.inst_index; });
  if (it == k->lines.begin()) return std::nullopt;
  const sxbin::LineEntry& row = *std::prev(it);
  if (row.file != 0) {
    for (const sxbin::SourceFile& f : files_) {
      if (f.index == row.file && row.line != 0) return Location{f.path, row.line, false};
    }
  }
  if (row.ptx_line == 0) return std::nullopt;
  return Location{k->ptx_source, row.ptx_line, true};
}

std::vector<prof::SourceLine> SourceLines::aggregate(uint64_t kernel_code_va,
                                                     std::span<const hw::PcCounters> pcs) const {
  std::map<std::tuple<bool, std::string_view, uint32_t>, prof::SourceLine> by_line;
  for (const hw::PcCounters& c : pcs) {
    const std::optional<Location> where = locate(kernel_code_va, c.pc);
    if (!where) continue;
    prof::SourceLine& s = by_line[{where->ptx, where->file, where->line}];
    s.warp_instructions += c.warp_instructions;
    s.thread_instructions += c.thread_instructions;
    s.global_requests += c.global_requests;
    s.global_sectors += c.global_sectors;
    s.global_bytes += c.global_bytes;
    s.local_requests += c.local_requests;
    s.local_sectors += c.local_sectors;
    s.shared_requests += c.shared_requests;
    s.shared_wavefronts += c.shared_wavefronts;
    s.shared_bank_conflicts += c.shared_bank_conflicts;
  }
  std::vector<prof::SourceLine> out;
  out.reserve(by_line.size());
  for (auto& [key, s] : by_line) {
    s.ptx = std::get<0>(key);
    s.file = std::string(std::get<1>(key));
    s.line = std::get<2>(key);
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace strata::cuda::driver
