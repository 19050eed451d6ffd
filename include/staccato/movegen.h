// Move generation by category, written into a caller-provided buffer: the
// primitives that the staged move picker calls one stage at a time.
//
//   Captures  - captures (en passant included) and queen promotions
//   Quiets    - non-captures and every under-promotion (capturing ones too)
//   Evasions  - when in check: king moves, captures of the checker, blocks
//   NonEvasions - Captures + Quiets, when not in check
//
// These are pseudo-legal: a pinned piece may leave its line and the king may
// step into an attack; Position::is_legal() settles that lazily, just before a
// move is played. generate_legal() filters the list for callers that want
// legal moves only, and count_legal_moves() counts them without writing any
// (perft's bulk counting at the last ply).
#pragma once

#include <array>

#include "staccato/position.h"

namespace staccato {

enum class GenType { Captures, Quiets, Evasions, NonEvasions };

template <GenType T> ScoredMove* generate(const Position& pos, ScoredMove* out);

// Every legal move.
ScoredMove* generate_legal(const Position& pos, ScoredMove* out);

// The number of legal moves, by pin and check masks and popcounts.
int count_legal_moves(const Position& pos);

// A fixed-capacity list of the legal moves, for code outside the search.
class MoveList {
  public:
    explicit MoveList(const Position& pos) : end_(generate_legal(pos, moves_.data())) {}
    const ScoredMove* begin() const { return moves_.data(); }
    const ScoredMove* end() const { return end_; }
    int size() const { return int(end_ - moves_.data()); }
    bool contains(Move m) const {
        for (const ScoredMove& sm : *this)
            if (sm.move == m) return true;
        return false;
    }

  private:
    std::array<ScoredMove, MAX_MOVES> moves_;
    ScoredMove* end_;
};

} // namespace staccato
