#include "tools/app_modules.h"

#include <fmt/format.h>

#include <cstring>

#include "cuda/fatbin/device_runtime_library.h"
#include "cuda/fatbin/fatbin.h"
#include "cuda/fatbin/ptx_select.h"
#include "cuda/fatbin/wrapper.h"

namespace strata::tools {
namespace {

constexpr uint64_t kWrapperRecordSize = 24;

struct WrapperRecord {
  uint32_t version = 0;
  uint64_t image = 0;  // virtual address of the fatbin image
};

// The best PTX of the fatbin image at `address`, as module_loader.cc's best_ptx.
StatusOr<compiler::PtxSource> best_ptx(const ElfFile& elf, uint64_t address, int cc_major,
                                       int cc_minor, const std::string& what) {
  std::span<const uint8_t> bytes = elf.bytes_at(address);
  if (bytes.empty()) {
    return error(Code::kInvalidImage,
                 fmt::format("{}: image address {:#x} is outside the file", what, address));
  }
  ASSIGN_OR_RETURN(cuda::fatbin::Image image, cuda::fatbin::parse_image(bytes));
  ASSIGN_OR_RETURN(const cuda::fatbin::Entry* entry,
                   cuda::fatbin::select_ptx(image, cc_major, cc_minor));
  ASSIGN_OR_RETURN(std::string text, cuda::fatbin::ptx_text(*entry));
  return compiler::PtxSource{fmt::format("{} ({})", what, cuda::fatbin::target_name(*entry)),
                             std::move(text)};
}

AppModule module_or_error(std::string name, StatusOr<std::vector<compiler::PtxSource>> sources) {
  AppModule module{std::move(name), {}, ok_status()};
  if (sources.ok()) {
    module.sources = std::move(sources).value();
  } else {
    module.error = sources.status();
  }
  return module;
}

}  // namespace

StatusOr<std::vector<AppModule>> app_modules(const ElfFile& elf, int cc_major, int cc_minor) {
  std::span<const uint8_t> segment = elf.section(".nvFatBinSegment");
  const uint64_t segment_start = elf.section_addresses(".nvFatBinSegment").first;
  if (segment.empty()) {
    return error(Code::kNoBinaryForGpu,
                 "no .nvFatBinSegment section: not a CUDA program built by nvcc");
  }
  auto [relfatbin_start, relfatbin_end] = elf.section_addresses("__nv_relfatbin");
  std::vector<WrapperRecord> records;
  std::vector<uint64_t> relocatable;  // image addresses, in record order
  for (uint64_t off = 0; off + kWrapperRecordSize <= segment.size(); off += kWrapperRecordSize) {
    uint32_t magic;
    WrapperRecord record;
    std::memcpy(&magic, segment.data() + off, 4);
    std::memcpy(&record.version, segment.data() + off + 4, 4);
    if (magic != cuda::fatbin::kWrapperMagic || (record.version != 1 && record.version != 2)) {
      return error(Code::kInvalidImage,
                   fmt::format(".nvFatBinSegment record {}: bad magic {:#x} or version {}",
                               off / kWrapperRecordSize, magic, record.version));
    }
    ASSIGN_OR_RETURN(record.image, elf.pointer_at(segment_start + off + 8));
    if (record.version == 1 && record.image >= relfatbin_start && record.image < relfatbin_end) {
      relocatable.push_back(record.image);
    } else {
      records.push_back(record);
    }
  }
  std::vector<AppModule> modules;
  for (size_t i = 0; i < records.size(); ++i) {
    const WrapperRecord& record = records[i];
    if (record.version == 2 && !relocatable.empty()) {
      std::vector<compiler::PtxSource> sources;
      Status status = ok_status();
      for (size_t r = 0; r < relocatable.size() && status.ok(); ++r) {
        // CUDA's device runtime library (-lcudadevrt), which the runtime leaves out too.
        auto image = cuda::fatbin::parse_image(elf.bytes_at(relocatable[r]));
        if (image.ok() && cuda::fatbin::is_device_runtime_library(*image)) continue;
        auto source = best_ptx(elf, relocatable[r], cc_major, cc_minor,
                               fmt::format("relocatable fatbin {}", r));
        if (source.ok()) {
          sources.push_back(std::move(source).value());
        } else {
          status = source.status();
        }
      }
      std::string name =
          fmt::format("-rdc link of {} relocatable fatbins", relocatable.size());
      if (!status.ok()) {
        modules.push_back(module_or_error(std::move(name), status));
      } else {
        modules.push_back(module_or_error(std::move(name), std::move(sources)));
      }
      continue;
    }
    std::string what = fmt::format("fatbin {}", i);
    auto source = best_ptx(elf, record.image, cc_major, cc_minor, what);
    if (record.version == 2 && !source.ok() && source.status().code() == Code::kNoBinaryForGpu) {
      continue;  // nvlink's SASS-only image of a program without -rdc: no kernel uses it
    }
    if (source.ok()) {
      std::string name = source->name;
      modules.push_back(module_or_error(
          std::move(name), std::vector<compiler::PtxSource>{std::move(source).value()}));
    } else {
      modules.push_back(module_or_error(std::move(what), source.status()));
    }
  }
  return modules;
}

}  // namespace strata::tools
