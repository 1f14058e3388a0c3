#include "tools/file_io.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

namespace strata::tools {

StatusOr<std::vector<uint8_t>> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return error(Code::kFileNotFound, fmt::format("{}: {}", path, std::strerror(errno)));
  }
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), {});
}

Status write_file(const std::string& path, std::span<const uint8_t> bytes) {
  std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    if (!out) {
      return error(Code::kInvalidValue,
                   fmt::format("{}: cannot write: {}", temporary, std::strerror(errno)));
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    return error(Code::kInvalidValue,
                 fmt::format("{}: cannot rename into place: {}", path, std::strerror(errno)));
  }
  return ok_status();
}

}  // namespace strata::tools
