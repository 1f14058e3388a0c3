// strata cc <in.ptx | cuda binary> -o out.sxbin: ahead-of-time PTX compilation.
#include <fmt/format.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "compiler/compiler.h"
#include "cuda/fatbin/fatbin.h"
#include "cuda/fatbin/ptx_select.h"
#include "tools/commands.h"
#include "tools/elf_inspect.h"
#include "tools/file_io.h"

namespace strata::tools {
namespace {

struct CcOptions {
  std::string input;
  std::string output;
  std::string compute_capability = "8.0";
  int opt_level = 2;
};

StatusOr<std::pair<int, int>> parse_cc(const std::string& text) {
  int major = 0, minor = 0;
  char dot = 0;
  if (std::sscanf(text.c_str(), "%d%c%d", &major, &dot, &minor) != 3 || dot != '.' ||
      major < 1 || minor < 0 || minor > 9) {
    return error(Code::kInvalidValue,
                 fmt::format("bad compute capability '{}' (expected e.g. 8.0)", text));
  }
  return std::make_pair(major, minor);
}

// The PTX to compile: the file itself, or the best PTX of a CUDA binary's fatbins.
StatusOr<compiler::PtxSource> load_ptx(const CcOptions& options) {
  ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, read_file(options.input));
  if (bytes.size() < 4 || std::memcmp(bytes.data(), "\x7f" "ELF", 4) != 0) {
    return compiler::PtxSource{options.input, std::string(bytes.begin(), bytes.end())};
  }
  ASSIGN_OR_RETURN(ElfFile elf, ElfFile::parse(std::move(bytes), options.input));
  std::span<const uint8_t> section = elf.section(".nv_fatbin");
  if (section.empty()) {
    return error(Code::kNoBinaryForGpu,
                 fmt::format("{}: no .nv_fatbin section (not a CUDA binary?)", options.input));
  }
  ASSIGN_OR_RETURN(auto images, cuda::fatbin::parse_images(section));
  ASSIGN_OR_RETURN(auto cc, parse_cc(options.compute_capability));
  ASSIGN_OR_RETURN(const cuda::fatbin::Entry* entry,
                   cuda::fatbin::select_ptx(images, cc.first, cc.second));
  ASSIGN_OR_RETURN(std::string text, cuda::fatbin::ptx_text(*entry));
  return compiler::PtxSource{
      fmt::format("{} ({})", options.input, cuda::fatbin::target_name(*entry)), std::move(text)};
}

int compile(const CcOptions& options) {
  auto source = load_ptx(options);
  if (!source.ok()) {
    fmt::print(stderr, "strata cc: {}\n", source.status().message());
    return 1;
  }
  compiler::CompileOptions compile_options;
  compile_options.opt_level = options.opt_level;
  auto binary = compiler::compile_ptx({*source}, compile_options);
  if (!binary.ok()) {
    fmt::print(stderr, "strata cc: {}\n", binary.status().message());
    return 1;
  }
  Status written = write_file(options.output, *binary);
  if (!written.ok()) {
    fmt::print(stderr, "strata cc: {}\n", written.message());
    return 1;
  }
  return 0;
}

}  // namespace

void add_cc_command(CLI::App& app, int* exit_code) {
  auto options = std::make_shared<CcOptions>();
  CLI::App* sub = app.add_subcommand(
      "cc", "Compile PTX (a .ptx file, or the PTX inside a CUDA binary) to a Strata binary");
  sub->add_option("input", options->input, "PTX file or CUDA executable")->required();
  sub->add_option("-o,--output", options->output, "output .sxbin")->required();
  sub->add_option("--compute-capability", options->compute_capability,
                  "device whose PTX to pick from a CUDA binary (default 8.0)");
  sub->add_option("-O", options->opt_level, "optimisation level (0-3)")
      ->check(CLI::Range(0, 3));
  sub->callback([options, exit_code] { *exit_code = compile(*options); });
}

}  // namespace strata::tools
