// The UCI protocol loop: reads commands, answers them, and drives an Engine.
// It holds no search logic; every malformed input is answered with
// `info string ...` and the engine stays in a consistent state.
#pragma once

#include <istream>
#include <string_view>
#include <vector>

#include "staccato/engine.h"

namespace staccato {

// "Staccato <version>" (the version CMake or the makefile compiled in): the
// `id name`, `staccato --version` and the line printed when the loop starts.
std::string_view engine_name();
// The CPU it was built for, the network's SIMD path and the slider lookups
// ("x86-64 with popcnt avx2 bmi2, network SIMD: AVX2, sliders: PEXT"): `--version`.
std::string build_description();
// The usage text, one command a line, ending in a newline: what `staccato
// help` prints and `help` answers inside the UCI loop.
std::string_view usage_text();

// The tool commands (perft, bench, datagen, genfens, ...) are one table in
// src/uci.cpp: name, handler and usage text, each run from the command line
// (`staccato perft 5`), inside the loop, or both.
// True when `name` (or an alias: --help, -h, -v) runs from the command line
// with separate arguments.
bool is_command_line_tool(std::string_view name);
// Runs it: output on stdout, diagnostics and refusals (with its usage) on
// stderr. The exit status: 0 done, 2 refused arguments, 1 failed.
int run_command_line_tool(std::string_view name, const std::vector<std::string_view>& args);

class UciLoop {
  public:
    // `out` receives every line the loop writes (the same sink the engine
    // uses, so that lines from the search thread never interleave).
    UciLoop(Engine& engine, Engine::Sink out);
    // True when the line's first word is a command of the loop (the command
    // line refuses arguments that are not).
    static bool knows(std::string_view line);
    // Every command of the loop, the protocol's and the extras.
    static const std::vector<std::string_view>& commands();
    // Handles one input line. Returns false after `quit`.
    bool handle_line(std::string_view line);
    // Reads lines until `quit` or end of input, then stops any search.
    void run(std::istream& in);
    // After the last command-line argument: waits for a search with a limit
    // to end (its bestmove), stops an infinite or pondering one.
    void finish();
    // How many `bench`, `perft` or `genfens` commands were refused (bad
    // arguments, or a search running): the command line's exit status.
    int refused_tools() const { return refused_tools_; }

  private:
    void cmd_uci();
    void cmd_position(const std::vector<std::string_view>& args);
    void cmd_go(const std::vector<std::string_view>& args);
    void cmd_setoption(const std::vector<std::string_view>& args);

    Engine& engine_;
    Engine::Sink out_;
    bool open_ended_ = false; // the last go was infinite or ponder
    int refused_tools_ = 0;
};

} // namespace staccato
