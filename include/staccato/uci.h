// The UCI protocol loop: reads commands, answers them, and drives an Engine.
// It holds no search logic; every malformed input is answered with
// `info string ...` and the engine stays in a consistent state.
#pragma once

#include <istream>
#include <string_view>
#include <vector>

#include "staccato/engine.h"

namespace staccato {

class UciLoop {
  public:
    // `out` receives every line the loop writes (the same sink the engine
    // uses, so that lines from the search thread never interleave).
    UciLoop(Engine& engine, Engine::Sink out);
    // Handles one input line. Returns false after `quit`.
    bool handle_line(std::string_view line);
    // Reads lines until `quit` or end of input, then stops any search.
    void run(std::istream& in);

  private:
    void send_lines(std::string_view text);
    void cmd_uci();
    void cmd_position(const std::vector<std::string_view>& args);
    void cmd_go(const std::vector<std::string_view>& args);
    void cmd_setoption(const std::vector<std::string_view>& args);

    Engine& engine_;
    Engine::Sink out_;
};

} // namespace staccato
