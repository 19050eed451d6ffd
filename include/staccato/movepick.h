// The staged move picker. Moves live in one array per search thread, shared
// by every ply: each ply owns the slice [start, next_to_generate), and the
// next ply starts where this one's generated moves end. Moves are generated
// one category at a time, only when the search gets that far, and picked by
// selection (best remaining score swapped to next_to_play).
//
// Main search, not in check:
//   hash move -> captures (MVV-LVA + capture history; SEE >= 0 now, losers
//   set aside) -> killer 1 -> killer 2 -> countermove -> quiets (butterfly +
//   continuation history) -> losing
//   captures and under-promotions (both set aside into the slice's prefix)
// In check: hash move -> evasions (captures by MVV-LVA, then history).
// Quiescence: hash move if a capture -> captures with SEE >= 0.
//
// Moves are pseudo-legal; the search tests Position::is_legal() just before
// playing one. A move returned by an early stage is never returned again.
#pragma once

#include <array>
#include <cassert>

#include "staccato/history.h"
#include "staccato/position.h"

namespace staccato {

// The shared, ply-indexed move array of one search thread.
struct MoveArray {
    static constexpr int CAPACITY = MAX_PLY * MAX_MOVES;
    std::array<ScoredMove, CAPACITY + MAX_MOVES> moves; // slack for the deepest ply
};

// The stage a returned move came from (read by the ordering statistics).
enum class Origin : std::uint8_t { Hash, GoodCapture, Killer, Countermove, Quiet, BadCapture, Evasion };
inline constexpr int ORIGIN_NB = 7;
inline constexpr std::array<const char*, ORIGIN_NB> ORIGIN_NAMES = {
    "hash", "good captures", "killers", "countermove", "quiets", "losing captures", "evasions"};

class MovePicker {
  public:
    enum class Stage {
        MainHash,
        CaptureInit,
        GoodCaptures,
        Killer1,
        Killer2,
        Countermove,
        QuietInit,
        Quiets,
        BadCaptures,
        EvasionHash,
        EvasionInit,
        Evasions,
        QsHash,
        QsCaptureInit,
        QsCaptures,
        Done
    };

    // Main search. `start` is the parent ply's next_to_generate (0 at the root).
    MovePicker(const Position& pos, MoveArray& array, int start, Move hash_move,
               const std::array<Move, 2>& killers, Move countermove, const OrderingView& view);
    // Quiescence search.
    MovePicker(const Position& pos, MoveArray& array, int start, Move hash_move, const OrderingView& view);

    // The next move to try, or Move::none() when every stage is exhausted.
    Move next();
    // Late move pruning: quiets not yet generated are skipped from now on.
    void skip_quiets() { skip_quiets_ = true; }

    // Where the next ply's slice begins.
    int next_to_generate() const { return next_to_generate_; }
    Stage stage() const { return stage_; }
    // The stage of the move next() returned last.
    Origin origin() const;

  private:
    template <typename Accept> Move pick_best(Accept accept);
    void generate_captures(bool main_search);
    void generate_quiets();
    void score_captures(int from, int to);
    void score_quiets(int from, int to);
    void score_evasions(int from, int to);
    bool tried(Move m) const;
    Move special(Move m); // validates a killer or countermove

    const Position& pos_;
    ScoredMove* moves_;
    OrderingView view_;
    Move hash_move_;
    std::array<Move, 2> killers_{};
    Move countermove_;
    std::array<Move, 4> tried_{}; // moves already returned by special stages
    int tried_count_ = 0;

    int start_;
    int next_to_play_;
    int next_to_generate_;
    int stage_end_;        // the current stage's moves end here (<= next_to_generate_)
    int bad_captures_end_; // losing captures are kept in [start_, bad_captures_end_)
    Stage stage_;
    bool skip_quiets_ = false;
};

} // namespace staccato
