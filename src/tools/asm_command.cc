// strata asm <in.sxasm> -o <out.bin> / strata disasm <in.bin|in.sxbin>: the Strata ISA
// as text. disasm prints raw instruction words, or every kernel of a Strata binary with
// its descriptor.
#include <fmt/format.h>

#include <memory>
#include <string>

#include "compiler/sxbin/sxbin.h"
#include "isa/asm.h"
#include "isa/disasm.h"
#include "isa/encode.h"
#include "tools/commands.h"
#include "tools/file_io.h"

namespace strata::tools {
namespace {

struct Files {
  std::string input;
  std::string output;
};

int assemble_file(const Files& files) {
  auto text = read_file(files.input);
  if (!text.ok()) {
    fmt::print(stderr, "strata asm: {}\n", text.status().message());
    return 1;
  }
  auto program = isa::assemble(std::string_view(reinterpret_cast<const char*>(text->data()),
                                                text->size()), files.input);
  if (!program.ok()) {
    fmt::print(stderr, "strata asm: {}\n", program.status().message());
    return 1;
  }
  Status written = write_file(files.output, isa::encode_program(*program));
  if (!written.ok()) {
    fmt::print(stderr, "strata asm: {}\n", written.message());
    return 1;
  }
  return 0;
}

int disassemble_binary(const Files& files, std::span<const uint8_t> bytes) {
  auto binary = sxbin::read_sxbin(bytes);
  if (!binary.ok()) {
    fmt::print(stderr, "strata disasm: {}: {}\n", files.input, binary.status().message());
    return 1;
  }
  for (const sxbin::KernelDesc& k : binary->kernels) {
    fmt::print("// kernel {}: {} instructions, {} registers, {} B shared, {} B local, {} B params\n",
               k.name, k.code_size / isa::kInstBytes, k.regs_per_thread, k.shared_bytes,
               k.local_bytes, k.param_bytes);
    auto program = isa::decode_program(
        std::span<const uint8_t>(binary->code).subspan(k.code_offset, k.code_size));
    if (!program.ok()) {
      fmt::print(stderr, "strata disasm: {}: kernel {}: {}\n", files.input, k.name,
                 program.status().message());
      return 1;
    }
    fmt::print("{}\n", isa::disassemble_program(*program));
  }
  return 0;
}

int disassemble_file(const Files& files) {
  auto bytes = read_file(files.input);
  if (!bytes.ok()) {
    fmt::print(stderr, "strata disasm: {}\n", bytes.status().message());
    return 1;
  }
  if (sxbin::is_sxbin(*bytes)) return disassemble_binary(files, *bytes);
  auto program = isa::decode_program(*bytes);
  if (!program.ok()) {
    fmt::print(stderr, "strata disasm: {}: {}\n", files.input, program.status().message());
    return 1;
  }
  fmt::print("{}", isa::disassemble_program(*program));
  return 0;
}

}  // namespace

void add_asm_command(CLI::App& app, int* exit_code) {
  auto files = std::make_shared<Files>();
  CLI::App* sub = app.add_subcommand("asm", "Assemble Strata ISA text into instruction words");
  sub->add_option("input", files->input, "assembly file")->required();
  sub->add_option("-o,--output", files->output, "output binary")->required();
  sub->callback([files, exit_code] { *exit_code = assemble_file(*files); });
}

void add_disasm_command(CLI::App& app, int* exit_code) {
  auto files = std::make_shared<Files>();
  CLI::App* sub = app.add_subcommand("disasm", "Disassemble Strata instruction words or a Strata binary (.sxbin)");
  sub->add_option("input", files->input, "raw instruction words or a .sxbin")->required();
  sub->callback([files, exit_code] { *exit_code = disassemble_file(*files); });
}

}  // namespace strata::tools
