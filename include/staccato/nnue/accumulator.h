// The network's first layer, kept up to date move by move.
//
// An accumulator holds the feature transformer's output for both
// perspectives: the bias plus the weight rows of every piece on the board.
// A move changes at most four pieces (castling moves two, a capture removes
// one, a promotion swaps one), so the child's accumulator is the parent's plus
// and minus a few rows: update() does that, refresh() computes it from
// scratch (at the root, and in tests that check every update). With mirrored
// inputs (arch.h) a king that crosses the d/e line changes every row of its
// own perspective: that half is rebuilt instead, from a RefreshCache, which
// keeps for each perspective and mirror state the last half it built and
// the board it summed, so that only the pieces that differ are added or
// taken away.
#pragma once

#include <array>
#include <cstdint>

#include "staccato/nnue/network.h"
#include "staccato/position.h"

namespace staccato::nnue {

struct Accumulator {
    alignas(64) std::array<std::array<std::int16_t, HIDDEN>, COLOR_NB> values; // [perspective][neuron]
    bool operator==(const Accumulator&) const = default;
};

// The pieces a move takes off and puts on the board, each side's king after
// it, and which perspectives it leaves to be rebuilt (their king crossed the
// d/e line: arch.h, mirrors()).
struct DirtyPieces {
    struct Change {
        Piece piece;
        Square square;
    };
    std::array<Change, 2> removed{}, added{};
    int removed_count = 0, added_count = 0;
    std::array<Square, COLOR_NB> kings{};
    std::array<bool, COLOR_NB> rebuild{};
};
// Computed before `m` is made on `pos`.
DirtyPieces dirty_pieces(const Position& pos, Move m);

// The last accumulator half built for each perspective and mirror state, with
// the board it sums (one bitboard per piece code). No allocation: a search
// thread owns one, cleared when a search starts (its net may have changed).
class RefreshCache {
  public:
    // Every entry: the net's bias, an empty board.
    void clear(const Network& net);
    // acc.values[view] for `pos` from the entry of view's mirror state, by the
    // pieces that differ from the board it holds; the entry then holds `pos`.
    void rebuild(const Network& net, const Position& pos, Color view, Accumulator& acc);

  private:
    struct Entry {
        alignas(64) std::array<std::int16_t, HIDDEN> values;
        std::array<Bitboard, PIECE_NB> pieces;
    };
    std::array<std::array<Entry, 2>, COLOR_NB> entries_{};
};

// refresh() and update() use AVX-512, AVX2 or NEON registers when the build
// has them (simd.h); the _scalar versions are the plain loops they must equal
// bit for bit (tests), and what the others are in a build without any.
// update() leaves the perspectives dirty.rebuild names as they were:
// apply() is update() and those rebuilds, what the search does after a move.
void refresh(const Network& net, const Position& pos, Accumulator& acc);
void update(const Network& net, const Accumulator& parent, const DirtyPieces& dirty, Accumulator& child);
void apply(const Network& net, const Position& after, const Accumulator& parent, const DirtyPieces& dirty,
           Accumulator& child, RefreshCache& cache);
void refresh_scalar(const Network& net, const Position& pos, Accumulator& acc);
void update_scalar(const Network& net, const Accumulator& parent, const DirtyPieces& dirty,
                   Accumulator& child);
// Takes one piece (not a king) of `pos` off (for `eval`'s per-piece report).
void remove_piece(const Network& net, const Position& pos, Square s, Accumulator& acc);

// The network's output in centipawns for the side to move `stm`, with
// `piece_count` pieces on the board (which picks the output bucket).
Value evaluate(const Network& net, const Accumulator& acc, Color stm, int piece_count);
// The same from scratch (no accumulator to reuse).
Value evaluate(const Network& net, const Position& pos);

// The output layer's raw sum, written twice: a plain loop and the SIMD path
// the engine uses when the build has AVX2, AVX-512 or NEON (one body for all;
// the plain loop otherwise). Tests check that both agree bit for bit.
std::int32_t output_sum_scalar(const Network& net, const Accumulator& acc, Color stm, int bucket);
std::int32_t output_sum(const Network& net, const Accumulator& acc, Color stm, int bucket);

} // namespace staccato::nnue
