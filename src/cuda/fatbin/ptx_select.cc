#include "cuda/fatbin/ptx_select.h"

#include <fmt/format.h>

namespace strata::cuda::fatbin {
namespace {

// Rank of a usable entry for the device; higher is better, -1 if unusable.
int rank(const Entry& entry, int device_arch) {
  if (!entry.is_ptx()) return -1;
  if (entry.variant != ArchVariant::kGeneric) {
    // Exact match only; beats generic PTX of the same target.
    return entry.arch == device_arch ? entry.arch * 2 + 1 : -1;
  }
  return entry.arch <= device_arch ? entry.arch * 2 : -1;
}

}  // namespace

StatusOr<const Entry*> select_ptx(std::span<const Image> images, int cc_major, int cc_minor) {
  int device_arch = arch_number(cc_major, cc_minor);
  const Entry* best = nullptr;
  int best_rank = -1;
  std::string carried;
  for (const Image& image : images) {
    for (const Entry& entry : image.entries) {
      if (!carried.empty()) carried += ", ";
      carried += target_name(entry);
      int r = rank(entry, device_arch);
      if (r > best_rank) {
        best_rank = r;
        best = &entry;
      }
    }
  }
  if (best == nullptr) {
    return error(Code::kNoBinaryForGpu,
                 fmt::format("no PTX usable on a compute capability {}.{} device (the binary "
                             "carries: {}); rebuild with PTX for this or an older target, e.g. "
                             "-arch=compute_{} or -gencode arch=compute_{},code=compute_{}",
                             cc_major, cc_minor, carried.empty() ? "nothing" : carried,
                             device_arch, device_arch, device_arch));
  }
  return best;
}

StatusOr<const Entry*> select_ptx(const Image& image, int cc_major, int cc_minor) {
  return select_ptx(std::span<const Image>(&image, 1), cc_major, cc_minor);
}

}  // namespace strata::cuda::fatbin
