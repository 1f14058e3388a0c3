// strata: run CUDA programs on Strata and work with its compiler and ISA.
#include <CLI/CLI.hpp>

#include "tools/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"Strata: an open CUDA-compatible GPU stack with a built-in GPU model"};
  app.require_subcommand(1);
  int exit_code = 0;
  strata::tools::add_run_command(app, &exit_code);
  strata::tools::add_info_command(app, &exit_code);
  strata::tools::add_cc_command(app, &exit_code);
  strata::tools::add_asm_command(app, &exit_code);
  strata::tools::add_disasm_command(app, &exit_code);
  strata::tools::add_sweep_command(app, &exit_code);
  strata::tools::add_stats_command(app, &exit_code);
  strata::tools::add_prof_command(app, &exit_code);
  strata::tools::add_advise_command(app, &exit_code);
  CLI11_PARSE(app, argc, argv);
  return exit_code;
}
