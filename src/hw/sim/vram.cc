#include "hw/sim/vram.h"

#include <fmt/format.h>
#include <sys/mman.h>

#include <cerrno>
#include <cstring>

namespace strata::hw::sim {

StatusOr<std::unique_ptr<Vram>> Vram::create(uint64_t bytes) {
  if (bytes == 0) return error(Code::kInvalidValue, "VRAM size must be non-zero");
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    return error(Code::kOutOfMemory, fmt::format("cannot reserve {} bytes of simulated VRAM: {}",
                                                 bytes, std::strerror(errno)));
  }
  return std::unique_ptr<Vram>(new Vram(static_cast<uint8_t*>(p), bytes));
}

Vram::~Vram() { ::munmap(base_, size_); }

}  // namespace strata::hw::sim
