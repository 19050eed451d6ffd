// `genfens N seed S book <None|FILE> [PLIES]`: opening positions for an
// OpenBench worker (Client/genfens.py runs `staccato "genfens ..." quit` and
// keeps every line that starts with `info string genfens `).
//
// Each position is a book line picked by the seed (EPD or FEN; `None`: the
// start position) followed by PLIES random legal plies (the optional last
// field, 0..40; default GENFENS_PLIES_NO_BOOK without a book,
// GENFENS_PLIES_BOOK with one). A position is kept when the game is not over
// and a GENFENS_NODES-node search scores it within GENFENS_SCORE_LIMIT
// centipawns; otherwise another is drawn. The same request prints the same
// lines on every machine (one thread, histories and hash cleared per try).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace staccato {

namespace nnue {
struct Network;
}

inline constexpr int GENFENS_PLIES_NO_BOOK = 8;
inline constexpr int GENFENS_PLIES_BOOK = 2;
inline constexpr int GENFENS_MAX_PLIES = 40;
inline constexpr int GENFENS_MAX_COUNT = 1'000'000;
inline constexpr std::uint64_t GENFENS_NODES = 3000;
inline constexpr int GENFENS_SCORE_LIMIT = 300;
// Draws in a row that may fail the checks before genfens gives up (a book of
// lopsided or finished positions): an error, never an endless loop.
inline constexpr int GENFENS_MAX_TRIES = 2000;

struct GenfensRequest {
    int count = 0;
    std::uint64_t seed = 0;
    std::string book; // empty: the start position (`book None`)
    int plies = -1;   // -1: the default for the book
};

// The request the arguments after `genfens` spell, or the reason they do not.
std::variant<GenfensRequest, std::string> parse_genfens(const std::vector<std::string_view>& args);

// Prints request.count lines `info string genfens <FEN>` through `out`, one
// call per line. Book lines that are no position are skipped and counted on
// `log`. `net`: the network the search evaluates with (null: the hand-crafted
// evaluation). Returns the reason on failure (an unreadable book, a book with
// no position, no balanced position found), after the lines printed so far.
std::optional<std::string> run_genfens(const GenfensRequest& request, const nnue::Network* net,
                                       const std::function<void(std::string_view)>& out, std::ostream& log);

} // namespace staccato
