// Static evaluation. Tapered: a middlegame and an endgame score are blended by
// the game phase (24 with all pieces on, 0 with kings and pawns). Computed
// from White's view, returned from the side to move's view.
//
// Terms (weights in eval_weights.h, tuned by src/hce/tuner.cpp): material,
// piece-square tables, mobility over safe squares, pawn structure (doubled,
// isolated, backward, phalanx, supported, candidate passers; cached in a pawn
// hash table), passed pawns (by rank, free path, both kings' distances),
// bishop pair, rooks on open files and the seventh, outposts, threats, king
// safety (attacks on the king zone scaled by the number of attackers, safe
// checks, pawn shield and storm, open files near the king), tempo.
// Endgame knowledge on top: a KPK bitbase, scale factors for drawish
// material (opposite bishops, a rook pawn with the wrong bishop, no pawns and
// at most a minor piece ahead) and a mop-up term that drives a bare king to
// the edge (to the right corner in KBNK).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "staccato/hce/eval_weights.h"
#include "staccato/position.h"

namespace staccato::hce {

// The part of the evaluation that depends only on the pawns, cached by pawn
// key. One table per search thread.
struct PawnEntry {
    Key key = 0;
    Score score;                      // pawn-structure terms, White minus Black
    std::array<Bitboard, 2> passed{}; // passed pawns of each colour
};

class PawnTable {
  public:
    static constexpr std::size_t SIZE = 1 << 14; // entries (512 KB)
    PawnTable() : entries_(std::make_unique<PawnEntry[]>(SIZE)) {}
    PawnEntry& at(Key key) { return entries_[key & (SIZE - 1)]; }
    void clear() {
        for (std::size_t i = 0; i < SIZE; ++i) entries_[i] = PawnEntry{};
    }

  private:
    std::unique_ptr<PawnEntry[]> entries_;
};

// Everything the tuner needs to see the evaluation of one position as a
// linear function of the weights: E = (mg * phase + eg * (24 - phase) *
// scale / 64) / 24, with mg and eg the dot products of coeff and the weights.
struct Trace {
    std::array<double, NUM_WEIGHTS> coeff{}; // White minus Black
    int phase = 0;                           // 0..24
    int scale = 64;                          // endgame scale factor, 64 = 1
    bool special = false; // a rule decided the value (KPK, drawn material, mop-up): not linear
};

// The evaluation from White's view with its trace (no pawn cache).
Value evaluate_traced(const Position& pos, Trace& trace);

// The static evaluation from the side to move's view. With a pawn table the
// pawn structure is cached there.
Value evaluate(const Position& pos, PawnTable* pawns = nullptr);

// The term-by-term breakdown printed by the `eval` command.
std::string eval_report(const Position& pos);

} // namespace staccato::hce
