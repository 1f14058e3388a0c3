// strata advise NAME.sqlite: each kernel's bottlenecks, ranked, with the evidence and a
// suggestion, and the program's (transfer-bound, serialised streams), from a database
// `strata prof --metrics` wrote (prof/advise.h).
#include <fmt/format.h>

#include <memory>
#include <string>

#include "prof/advise.h"
#include "tools/commands.h"

namespace strata::tools {

void add_advise_command(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand(
      "advise", "Rank each kernel's bottlenecks from a `strata prof --metrics` database");
  auto path = std::make_shared<std::string>();
  cmd->add_option("database", *path, "NAME.sqlite written by `strata prof --metrics`")->required();
  cmd->callback([path, exit_code] {
    auto advice = prof::advise_database(*path);
    if (!advice.ok()) {
      fmt::print(stderr, "strata advise: {}\n", advice.status().message());
      *exit_code = 1;
      return;
    }
    fmt::print("{}", prof::format_advice(advice.value()));
    *exit_code = 0;
  });
}

}  // namespace strata::tools
