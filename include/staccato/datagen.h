// `staccato datagen`: self-play games at a number of nodes per move, from
// book openings plus a few random moves, written whole in the compact game
// format (nnue/games.h: the start position, then each move with the search's
// score; the game's result), the data staccato-train reads.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace staccato {

struct DatagenOptions {
    std::string out;            // appended to (name it *.games for staccato-train)
    int games = 1000;           // over all threads
    std::uint64_t nodes = 5000; // per move
    bool soft = true;           // nodes is a soft limit: the iteration that passes it completes
                                // (capped at 10x); false: the search stops on the exact count
    int threads = 1;            // games played side by side
    int hash_mb = 2;            // each game's own transposition table, in MB (1 to 1024): 2 MB
                                // plays as 16 MB does at these node counts and stays in cache
    std::uint64_t seed = 1;     // openings and random moves
    std::string book;           // EPD/FEN lines; empty = the start position
    int random_plies = -1;      // after the opening; -1 = 2 with a book, 8 without
    bool nnue = true;           // the embedded network evaluates (false: the hand-crafted evaluation)
    bool manifest = true;       // keep out's line in the MANIFEST beside it (nnue/manifest.h)
};

struct DatagenSummary {
    int games = 0, white_wins = 0, draws = 0, black_wins = 0;
    std::uint64_t positions = 0;
};

// Plays the games and appends them to `options.out`; progress goes to `log`.
// On a bad option or an unreadable file nothing is played and the reason is
// returned. The file only ever grows by whole games: a torn last game (a
// killed run) is cut off before appending; SIGINT or SIGTERM ends the run at
// a game boundary, dropping the games in progress; a failed write (a full
// disk) stops the run and cuts the torn game off again. With `manifest`, the
// file's line in the folder's MANIFEST is kept current (every 100 games and
// at the end).
std::optional<std::string> run_datagen(const DatagenOptions& options, std::ostream& log,
                                       DatagenSummary* summary = nullptr);

// The usage `staccato datagen` prints after a refused argument or option.
inline constexpr std::string_view DATAGEN_USAGE =
    "usage: staccato datagen out=FILE.games [games=N] [nodes=N] [limit=soft|hard] [threads=N] [hash=MB] "
    "[seed=N] [book=FILE] [random=N] [eval=hce|nnue]\n"
    "  self-play at N nodes a move (soft: the iteration that passes N completes, capped at 10 N; hard:\n"
    "  the exact count), each game with its own hash table of MB (default 2); appends whole games\n"
    "  (start position, moves and scores, result) for staccato-train (eval=hce: the hand-crafted\n"
    "  evaluation plays, else the embedded network)\n";

// The options the arguments after `datagen` (key=value each) spell, or why
// they do not (`datagen: bad argument 'ARG'`). What the values mean together
// (an out file, a positive count) run_datagen checks.
std::variant<DatagenOptions, std::string> parse_datagen_args(const std::vector<std::string_view>& args);

} // namespace staccato
