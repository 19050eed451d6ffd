// Move-ordering memory: histories of what caused cutoffs (butterfly, capture
// and continuation history, all with gravity) and the countermove table.
// Killers live in the search stack (per ply). Also the correction
// histories, the search's memory of how far the static evaluation was off
// (by pawns, by other pieces, by the last two moves). One Histories per
// search thread.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>

#include "staccato/tunables.h"
#include "staccato/types.h"

namespace staccato {

// History scores stay within [-HISTORY_MAX, HISTORY_MAX].
inline constexpr int HISTORY_MAX = 16384;

// Bonus for a move that caused a cutoff at `depth` (and the penalty for the
// moves of its kind tried before it): grows with depth, capped. Not
// constexpr: in a tuning build the values are variables, and clang refuses a
// constexpr function that can never be a constant expression.
inline int history_bonus(int depth) {
    return std::min(tune<"HistoryBonusQuadratic"> * depth * depth + tune<"HistoryBonusLinear"> * depth,
                    tune<"HistoryBonusMax">);
}

// Gravity: the bonus shrinks as the entry nears the bound, so scores saturate
// smoothly and recent results outweigh old ones.
inline void history_update(std::int16_t& entry, int bonus) {
    int clamped = std::clamp(bonus, -HISTORY_MAX, HISTORY_MAX);
    entry = std::int16_t(entry + clamped - entry * std::abs(clamped) / HISTORY_MAX);
}

// A flat table of history entries, N long, with the common operations.
template <std::size_t N> class HistoryTable {
  public:
    // Between searches: old knowledge counts for less.
    void age() {
        for (auto& v : table_) v = std::int16_t(v / 2);
    }
    void clear() { table_.fill(0); }

  protected:
    std::array<std::int16_t, N> table_{};
};

// [side to move][from attacked][to attacked][from][to] of quiet moves, where
// `threats` are the squares the opponent attacks in the position the move is
// played in: the same move fares differently when it flees an attack or
// steps into one, so each case learns apart.
class ButterflyHistory : public HistoryTable<2 * 2 * 2 * 64 * 64> {
  public:
    int get(Color c, Bitboard threats, Move m) const { return table_[index(c, threats, m)]; }
    void update(Color c, Bitboard threats, Move m, int bonus) {
        history_update(table_[index(c, threats, m)], bonus);
    }

  private:
    static std::size_t index(Color c, Bitboard threats, Move m) {
        const std::size_t from_attacked = (threats >> m.from()) & 1, to_attacked = (threats >> m.to()) & 1;
        return (((std::size_t(c) * 2 + from_attacked) * 2 + to_attacked) * 64 + m.from()) * 64 + m.to();
    }
};

// [moving piece][to][captured piece type] of captures and promotions.
class CaptureHistory : public HistoryTable<PIECE_NB * 64 * (PIECE_TYPE_NB + 1)> {
  public:
    int get(Piece p, Square to, PieceType captured) const { return table_[index(p, to, captured)]; }
    void update(Piece p, Square to, PieceType captured, int bonus) {
        history_update(table_[index(p, to, captured)], bonus);
    }

  private:
    static std::size_t index(Piece p, Square to, PieceType captured) {
        return (std::size_t(p) * 64 + to) * (PIECE_TYPE_NB + 1) + captured;
    }
};

// [moving piece][to] of quiet moves, one such table per earlier move: how a
// quiet move fared as the reply (or the reply to the reply) to that move.
class PieceToHistory : public HistoryTable<PIECE_NB * 64> {
  public:
    int get(Piece p, Square to) const { return table_[std::size_t(p) * 64 + to]; }
    void update(Piece p, Square to, int bonus) { history_update(table_[std::size_t(p) * 64 + to], bonus); }
};

// The continuation history: a PieceToHistory per earlier (piece, to).
// A quiet move is scored and taught as the reply to the moves this many
// plies back (four: our own move before last, a looser link).
inline constexpr std::array<int, 3> CONTINUATION_PLIES = {1, 2, 4};
// The bonus a move's continuation table `back` plies up learns: the full
// bonus for the two direct links, half beyond them.
constexpr int continuation_bonus(int back, int bonus) { return back <= 2 ? bonus : bonus / 2; }

class ContinuationHistory {
  public:
    PieceToHistory& at(Piece p, Square to) { return table_[std::size_t(p) * 64 + to]; }
    void age() {
        for (auto& t : table_) t.age();
    }
    void clear() {
        for (auto& t : table_) t.clear();
    }

  private:
    std::array<PieceToHistory, PIECE_NB * 64> table_{};
};

// The move that last refuted a move, indexed by that move's piece and target.
class CounterMoves {
  public:
    Move get(Piece p, Square to) const { return table_[p][to]; }
    void set(Piece p, Square to, Move m) { table_[p][to] = m; }
    void clear() {
        for (auto& row : table_) row.fill(Move::none());
    }

  private:
    std::array<std::array<Move, 64>, PIECE_NB> table_{};
};

// A correction entry: a running average of how far search results fell from
// the static evaluation, in 1/CORRECTION_GRAIN centipawn.
inline constexpr int CORRECTION_GRAIN = 256;
inline constexpr int CORRECTION_LIMIT = 64 * CORRECTION_GRAIN; // at most 64 centipawns either way

// `error` = search result - static eval; deeper results weigh more.
template <typename Entry> void correction_update(Entry& e, int error, int depth) {
    const int weight = std::min(depth + 1, tune<"CorrectionWeightMax">);
    e = Entry(std::clamp((e * (256 - weight) + error * CORRECTION_GRAIN * weight) / 256, -CORRECTION_LIMIT,
                         CORRECTION_LIMIT));
}

// Correction history: by side to move and pawn structure, the running
// average added to later static evaluations of positions with the same pawns.
class CorrectionHistory {
  public:
    static constexpr std::size_t SIZE = 16384; // per side
    static constexpr int GRAIN = CORRECTION_GRAIN;
    static constexpr int LIMIT = CORRECTION_LIMIT;

    int get(Color c, std::uint64_t pawn_key) const { return table_[index(c, pawn_key)] / GRAIN; }
    void update(Color c, std::uint64_t pawn_key, int error, int depth) {
        correction_update(table_[index(c, pawn_key)], error, depth);
    }
    void clear() { table_.fill(0); }

  private:
    static std::size_t index(Color c, std::uint64_t k) { return std::size_t(c) * SIZE + k % SIZE; }
    std::array<int, 2 * SIZE> table_{};
};

// Continuation correction history: the same running average keyed by the
// last two moves, the (piece, to) of each. Some sequences (a capture and the
// recapture, a check and its evasion, an attack and the retreat) leave
// positions the evaluation misjudges alike whatever the pawns and pieces.
class ContinuationCorrectionHistory {
  public:
    static constexpr std::size_t NONE = ~std::size_t(0); // no such pair of moves

    // The key of the move (p2, to2) followed by (p1, to1).
    static std::size_t key(Piece p2, Square to2, Piece p1, Square to1) {
        return ((std::size_t(p2) * 64 + to2) * PIECE_NB + p1) * 64 + to1;
    }
    int get(std::size_t key) const { return key == NONE ? 0 : table_[key] / CORRECTION_GRAIN; }
    void update(std::size_t key, int error, int depth) {
        if (key != NONE) correction_update(table_[key], error, depth);
    }
    void clear() { table_.fill(0); }

  private:
    std::array<std::int16_t, PIECE_NB * 64 * PIECE_NB * 64> table_{};
};

// Everything one search thread learns as it searches: the move-order
// histories, and the correction of the static evaluation (which is not aged
// between searches: a pawn structure's eval error does not go stale).
struct Histories {
    ButterflyHistory butterfly;
    CaptureHistory capture;
    ContinuationHistory continuation;
    CorrectionHistory correction;                          // by pawn structure
    std::array<CorrectionHistory, 2> non_pawn_correction;  // [colour]: by that colour's other pieces
    ContinuationCorrectionHistory continuation_correction; // by the last two moves
    CounterMoves countermoves;

    void age() {
        butterfly.age();
        capture.age();
        continuation.age();
    }
    void clear() {
        butterfly.clear();
        capture.clear();
        continuation.clear();
        correction.clear();
        for (auto& c : non_pawn_correction) c.clear();
        continuation_correction.clear();
        countermoves.clear();
    }
};

// What the picker reads to order the moves of one node: the thread's
// histories, the continuation tables of the moves one, two and four plies
// back (null where there is no such move) and the squares the opponent
// attacks (the butterfly history's threat index).
struct OrderingView {
    const Histories& histories;
    std::array<const PieceToHistory*, 3> continuation{};
    Bitboard threats = 0;

    int quiet_score(Color us, Piece moved, Move m) const {
        int score = histories.butterfly.get(us, threats, m);
        for (const PieceToHistory* t : continuation)
            if (t) score += t->get(moved, m.to());
        return score;
    }
};

} // namespace staccato
