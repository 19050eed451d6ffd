// Syzygy endgame tablebases: the set of tables found in SyzygyPath, and the
// probes the search and the root use.
//
//   WDL (win/draw/loss) from the side to move's view, with the 50-move rule
//   distinction: -2 loss, -1 loss that the 50-move rule saves (blessed
//   loss), 0 draw, 1 win that the 50-move rule spoils (cursed win), 2 win.
//
//   DTZ (distance to zeroing), in plies from the side to move's view:
//   n > 0 a win whose next capture or pawn move (winning) comes after n
//   plies of best play (n > 100: a cursed win), n < 0 the loss, 0 a draw.
//   As the format defines it, the value may be one ply longer than the
//   truth; a win with dtz + rule50 <= 99 is always a win under the rule.
//
// Probes never allocate and never throw; every failure (no table, a
// castling right, a broken file) is an empty optional, and the caller goes
// on without. En passant captures are searched, not read from the tables.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "staccato/position.h"

namespace staccato::syzygy {

class Table;

enum class Wdl : std::int8_t { Loss = -2, BlessedLoss = -1, Draw = 0, CursedWin = 1, Win = 2 };

// The folder separator of SyzygyPath: ';' on Windows, ':' elsewhere.
#ifdef _WIN32
inline constexpr char PATH_SEPARATOR = ';';
#else
inline constexpr char PATH_SEPARATOR = ':';
#endif

// What load() found.
struct LoadReport {
    int wdl_files = 0, dtz_files = 0;
    int max_pieces = 0;                   // the largest WDL table's pieces (0: none)
    std::vector<std::string> bad_folders; // named but not readable as a folder
    std::string summary() const;          // "found 35 WDL and 35 DTZ tables (up to 4 pieces)"
};

// A root move and its tablebase verdict (rank_root_moves()).
struct RootRank {
    Move move;
    int rank = 0;        // higher is better; equal ranks are equally good
    Wdl wdl = Wdl::Draw; // the result after this move, from the root side's view, by the 50-move rule
};

// The moves of the best rank: those the search should choose from.
std::vector<Move> best_ranked(std::span<const RootRank> moves);

class Tablebases {
  public:
    Tablebases();
    ~Tablebases();
    Tablebases(const Tablebases&) = delete;
    Tablebases& operator=(const Tablebases&) = delete;

    // Replaces the tables by those in `paths` (folders separated by
    // PATH_SEPARATOR; empty or "<empty>": none). Not while probing.
    LoadReport load(std::string_view paths);
    void clear();

    int max_pieces() const { return max_pieces_; }
    bool empty() const { return max_pieces_ == 0; }

    std::optional<Wdl> probe_wdl(Position& pos) const;
    std::optional<int> probe_dtz(Position& pos) const;

    // Ranks the legal root moves in `moves` by DTZ (by WDL when a DTZ table
    // is missing): every move that keeps the best result gets the best rank.
    // Wins stay wins under the 50-move rule when `rule50` (a win that can
    // still be converted in time ranks above one that cannot, and past a
    // repetition the shortest way to zeroing ranks first). None: the root
    // is not in the tables, or a probe failed (the ranks are meaningless).
    enum class RootSource { None, Dtz, Wdl };
    RootSource rank_root_moves(Position& pos, std::span<RootRank> moves, bool rule50) const;

  private:
    std::optional<int> table_wdl(const Position& pos) const;
    std::optional<int> search_wdl(Position& pos, bool pawn_moves_zero, bool* zeroing_best) const;
    bool rank_by_dtz(Position& pos, std::span<RootRank> moves, bool rule50) const;
    bool rank_by_wdl(Position& pos, std::span<RootRank> moves) const;

    std::vector<std::unique_ptr<Table>> tables_;
    // material key -> (WDL table, DTZ table), either may be null
    std::unordered_map<std::uint64_t, std::pair<const Table*, const Table*>> by_key_;
    int max_pieces_ = 0;
};

} // namespace staccato::syzygy
