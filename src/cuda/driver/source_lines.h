// Source lines of a module's kernels for the profiler: instruction index -> the .loc
// file and line (`nvcc -lineinfo`), else the PTX line, from the binary's line table
// (.strata.lines, compiler/sxbin/sxbin.h). Built once per module when the profiler
// first asks (Module::source_lines); immutable and thread-safe after that.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/sxbin/sxbin.h"
#include "hw/contract/report.h"
#include "prof/trace.h"

namespace strata::cuda::driver {

class SourceLines {
 public:
  // `code_va`: where the binary's .text was loaded (hal::Executable::code_va).
  SourceLines(const sxbin::Binary& binary, uint64_t code_va);

  struct Location {
    std::string_view file;  // .loc path, or the PTX module's name for a PTX line
    uint32_t line = 0;
    bool ptx = false;
  };
  // Where instruction `pc` of the kernel whose code starts at `kernel_code_va` comes
  // from; nullopt when the kernel is not this module's or the line table has no row
  // for it.
  std::optional<Location> locate(uint64_t kernel_code_va, uint32_t pc) const;
  // Whether the kernel whose code starts at `kernel_code_va` is one of this module's.
  bool has_kernel(uint64_t kernel_code_va) const { return find(kernel_code_va) != nullptr; }

  // The per-instruction counters of one launch of that kernel summed per source line,
  // .loc lines first, then PTX lines, each by (file, line). Instructions without a
  // location are left out.
  std::vector<prof::SourceLine> aggregate(uint64_t kernel_code_va,
                                          std::span<const hw::PcCounters> pcs) const;

 private:
  struct Kernel {
    uint64_t code_va = 0;
    std::string ptx_source;
    std::vector<sxbin::LineEntry> lines;  // ascending inst_index
  };
  const Kernel* find(uint64_t kernel_code_va) const;

  std::vector<Kernel> kernels_;  // ascending code_va
  std::vector<sxbin::SourceFile> files_;
};

}  // namespace strata::cuda::driver
