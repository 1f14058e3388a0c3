// The `strata` subcommands. Each add_*_command registers one CLI11 subcommand on `app`;
// its callback stores the exit status in *exit_code (0 on success).
#pragma once

#include <CLI/CLI.hpp>

namespace strata::tools {

void add_run_command(CLI::App& app, int* exit_code);
void add_info_command(CLI::App& app, int* exit_code);
void add_cc_command(CLI::App& app, int* exit_code);
void add_asm_command(CLI::App& app, int* exit_code);
void add_disasm_command(CLI::App& app, int* exit_code);
void add_sweep_command(CLI::App& app, int* exit_code);
void add_stats_command(CLI::App& app, int* exit_code);
void add_prof_command(CLI::App& app, int* exit_code);
void add_advise_command(CLI::App& app, int* exit_code);

}  // namespace strata::tools
