// strata cc <in.ptx | cuda binary> -o out.sxbin: ahead-of-time PTX compilation.
// strata cc --precompile <cuda binary>: compiles every module the runtime would load for
// the configured device (STRATA_ARCH) into the JIT cache (STRATA_CACHE_DIR), under the
// key the driver computes (src/cuda/driver/module_image.cc jit_compile), so that the
// program's first run finds them there.
#include <fmt/format.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "compiler/compiler.h"
#include "compiler/jit/cache.h"
#include "compiler/jit/cache_key.h"
#include "compiler/sxbin/sxbin.h"
#include "cuda/driver/compute_capability.h"
#include "cuda/fatbin/fatbin.h"
#include "cuda/fatbin/ptx_select.h"
#include "hw/config/arch_config.h"
#include "tools/app_modules.h"
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
  bool precompile = false;
  bool opt_level_given = false;
  bool compute_capability_given = false;
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

// The driver's JIT cache key for `sources` (module_image.cc jit_compile: the PTX texts,
// the compiler's build id, the arch config's content hash, "O<level>" of the default
// CompileOptions, which is what the driver compiles with).
std::string driver_cache_key(const std::vector<compiler::PtxSource>& sources,
                             const hw::ArchConfig& arch) {
  std::vector<std::string> texts;
  texts.reserve(sources.size());
  for (const compiler::PtxSource& source : sources) texts.push_back(source.text);
  return jit::make_cache_key(texts, compiler::compiler_build_id(), arch.content_hash,
                             fmt::format("O{}", compiler::CompileOptions{}.opt_level));
}

int precompile(const CcOptions& options) {
  if (options.opt_level_given || options.compute_capability_given || !options.output.empty()) {
    fmt::print(stderr,
               "strata cc: --precompile takes no -o, -O or --compute-capability: it compiles "
               "what the JIT would, for the configured device (STRATA_ARCH)\n");
    return 2;
  }
  auto arch = hw::load_arch_config_from_env();
  if (!arch.ok()) {
    fmt::print(stderr, "strata cc: {}\n", arch.status().message());
    return 1;
  }
  auto elf = ElfFile::read(options.input);
  if (!elf.ok()) {
    fmt::print(stderr, "strata cc: {}\n", elf.status().message());
    return 1;
  }
  cuda::driver::ComputeCapability cc = cuda::driver::reported_compute_capability(*arch);
  auto modules = app_modules(*elf, cc.major, cc.minor);
  if (!modules.ok()) {
    fmt::print(stderr, "strata cc: {}: {}\n", options.input, modules.status().message());
    return 1;
  }
  jit::JitCache cache = jit::JitCache::from_environment();
  if (!cache.enabled()) {
    fmt::print(stderr, "strata cc: the JIT cache is disabled (set STRATA_CACHE_DIR or HOME)\n");
    return 1;
  }
  fmt::print("{}: {} module(s) for {} (compute capability {}.{}), cache {}\n", options.input,
             modules->size(), arch->source_path, cc.major, cc.minor,
             cache.directory().string());
  int failures = 0;
  for (const AppModule& module : *modules) {
    if (!module.error.ok()) {
      fmt::print(stderr, "strata cc: {}: {}\n", module.name, module.error.message());
      ++failures;
      continue;
    }
    const std::string key = driver_cache_key(module.sources, *arch);
    auto cached = cache.lookup(key);
    if (cached.ok() && cached->has_value() && sxbin::read_sxbin(**cached).ok()) {
      fmt::print("  {}: already cached ({})\n", module.name, key);
      continue;
    }
    auto binary = compiler::compile_ptx(module.sources, compiler::CompileOptions{});
    if (!binary.ok()) {
      fmt::print(stderr, "strata cc: {}: {}\n", module.name, binary.status().message());
      ++failures;
      continue;
    }
    Status stored = cache.store(key, *binary);
    if (!stored.ok()) {
      fmt::print(stderr, "strata cc: {}: cannot store: {}\n", module.name, stored.message());
      ++failures;
      continue;
    }
    fmt::print("  {}: compiled, {} bytes, cached ({})\n", module.name, binary->size(), key);
  }
  return failures == 0 ? 0 : 1;
}

}  // namespace

void add_cc_command(CLI::App& app, int* exit_code) {
  auto options = std::make_shared<CcOptions>();
  CLI::App* sub = app.add_subcommand(
      "cc", "Compile PTX (a .ptx file, or the PTX inside a CUDA binary) to a Strata binary");
  sub->add_option("input", options->input, "PTX file or CUDA executable")->required();
  sub->add_option("-o,--output", options->output, "output .sxbin (required without --precompile)");
  CLI::Option* cc = sub->add_option("--compute-capability", options->compute_capability,
                                    "device whose PTX to pick from a CUDA binary (default 8.0)");
  CLI::Option* opt = sub->add_option("-O", options->opt_level, "optimisation level (0-3)")
                         ->check(CLI::Range(0, 3));
  sub->add_flag("--precompile", options->precompile,
                "compile every module of a CUDA program into the JIT cache, for the device "
                "STRATA_ARCH configures, so that its first run needs no JIT compilation");
  sub->callback([options, exit_code, cc, opt] {
    options->compute_capability_given = cc->count() > 0;
    options->opt_level_given = opt->count() > 0;
    if (options->precompile) {
      *exit_code = precompile(*options);
    } else if (options->output.empty()) {
      fmt::print(stderr, "strata cc: -o is required (or --precompile)\n");
      *exit_code = 2;
    } else {
      *exit_code = compile(*options);
    }
  });
}

}  // namespace strata::tools
