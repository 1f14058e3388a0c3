// Generates the tables in docs/ from the single sources:
//   hw_doc_tables regs  <docs/hw-contract.md> [--check|--write]   (hw/contract/regs.def)
//   hw_doc_tables arch  <docs/arch-config.md> [--check|--write]   (hw/config/arch_fields.def)
// The table sits between "<!-- BEGIN GENERATED -->" and "<!-- END GENERATED -->".
// --check exits 1 if the document's table differs from the generated one (a ctest);
// --write rewrites it in place. Without a flag the table is printed.
#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include "hw/config/arch_fields.h"
#include "hw/contract/regs.h"

namespace {

constexpr std::string_view kBegin = "<!-- BEGIN GENERATED -->";
constexpr std::string_view kEnd = "<!-- END GENERATED -->";

std::string escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

std::string regs_table() {
  std::string out =
      "| Register | Offset | Access | Meaning |\n|---|---|---|---|\n";
#define STRATA_REG(NAME, OFFSET, ACCESS, DESCRIPTION)                                  \
  out += fmt::format("| `{}` | `{:#06x}` | {} | {} |\n", #NAME, OFFSET, #ACCESS, \
                     escape(DESCRIPTION));
#include "hw/contract/regs.def"
#undef STRATA_REG
  return out;
}

std::string number(double v) {
  if (v == static_cast<double>(static_cast<int64_t>(v))) {
    return fmt::format("{}", static_cast<int64_t>(v));
  }
  return fmt::format("{}", v);
}

std::string arch_table() {
  std::string out =
      "| Section | Key | Type | Range | Meaning |\n|---|---|---|---|---|\n";
  for (const strata::hw::ArchFieldInfo& f : strata::hw::arch_fields()) {
    const std::string range = f.type == strata::hw::ArchFieldType::kString
                                  ? "non-empty"
                                  : fmt::format("{} .. {}", number(f.min), number(f.max));
    out += fmt::format("| `[{}]` | `{}` | {} | {} | {} |\n", f.section, f.name,
                       strata::hw::arch_field_type_name(f.type), range, escape(f.description));
  }
  return out;
}

int usage() {
  std::fprintf(stderr, "usage: hw_doc_tables regs|arch [DOC.md [--check|--write]]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  const std::string_view kind = argv[1];
  std::string table;
  if (kind == "regs") {
    table = regs_table();
  } else if (kind == "arch") {
    table = arch_table();
  } else {
    return usage();
  }
  if (argc == 2) {
    std::fputs(table.c_str(), stdout);
    return 0;
  }
  if (argc != 4) return usage();
  const std::string path = argv[2];
  const std::string_view mode = argv[3];
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "%s: cannot open\n", path.c_str());
    return 1;
  }
  std::ostringstream buf;
  buf << in.rdbuf();
  std::string doc = buf.str();
  const size_t begin = doc.find(kBegin);
  const size_t end = doc.find(kEnd);
  if (begin == std::string::npos || end == std::string::npos || end < begin) {
    std::fprintf(stderr, "%s: missing %s / %s markers\n", path.c_str(), kBegin.data(), kEnd.data());
    return 1;
  }
  const size_t body = begin + kBegin.size();
  const std::string expected = "\n" + table;
  if (mode == "--check") {
    if (doc.compare(body, end - body, expected) == 0) return 0;
    std::fprintf(stderr,
                 "%s: the generated table is out of date; run hw_doc_tables %s %s --write\n",
                 path.c_str(), argv[1], path.c_str());
    return 1;
  }
  if (mode == "--write") {
    doc.replace(body, end - body, expected);
    std::ofstream out(path, std::ios::trunc);
    out << doc;
    return out ? 0 : 1;
  }
  return usage();
}
