// strata asm <in.sxasm> -o <out.bin> / strata disasm <in.bin>: the Strata ISA as text.
#include <fmt/format.h>

#include <memory>
#include <string>

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

int disassemble_file(const Files& files) {
  auto bytes = read_file(files.input);
  if (!bytes.ok()) {
    fmt::print(stderr, "strata disasm: {}\n", bytes.status().message());
    return 1;
  }
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
  CLI::App* sub = app.add_subcommand("disasm", "Disassemble Strata instruction words");
  sub->add_option("input", files->input, "binary of instruction words")->required();
  sub->callback([files, exit_code] { *exit_code = disassemble_file(*files); });
}

}  // namespace strata::tools
