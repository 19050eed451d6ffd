#include "staccato/movepick.h"

#include <algorithm>
#include <cstdint>

#include "staccato/movegen.h"
#include "staccato/see.h"
#include "staccato/tunables.h"

namespace staccato {

namespace {
constexpr int CAPTURE_BASE = 1 << 24; // evasion captures before evasion quiets
constexpr int UNDERPROMOTION_SCORE = -(1 << 24);
} // namespace

MovePicker::MovePicker(const Position& pos, MoveArray& array, int start, Move hash_move,
                       const std::array<Move, 2>& killers, Move countermove, const OrderingView& view)
    : pos_(pos), moves_(array.moves.data()), view_(view), killers_(killers), countermove_(countermove),
      start_(start), next_to_play_(start), next_to_generate_(start), stage_end_(start),
      bad_captures_end_(start) {
    assert(start >= 0 && start <= MoveArray::CAPACITY);
    stage_ = pos.in_check() ? Stage::EvasionHash : Stage::MainHash;
    hash_move_ = hash_move && pos.is_pseudo_legal(hash_move) ? hash_move : Move::none();
}

MovePicker::MovePicker(const Position& pos, MoveArray& array, int start, Move hash_move,
                       const OrderingView& view)
    : pos_(pos), moves_(array.moves.data()), view_(view), start_(start), next_to_play_(start),
      next_to_generate_(start), stage_end_(start), bad_captures_end_(start) {
    assert(start >= 0 && start <= MoveArray::CAPACITY);
    stage_ = pos.in_check() ? Stage::EvasionHash : Stage::QsHash;
    bool usable = hash_move && pos.is_pseudo_legal(hash_move) &&
                  (pos.in_check() || pos.is_capture(hash_move) ||
                   (hash_move.type() == MoveType::Promotion && hash_move.promotion() == QUEEN));
    hash_move_ = usable ? hash_move : Move::none();
}

// next() leaves stage_ past a special move (hash, killer, countermove) and at
// the current stage for a move picked from a list, so the stage of the move
// it returned last follows from stage_.
Origin MovePicker::origin() const {
    switch (stage_) {
    case Stage::CaptureInit:
    case Stage::EvasionInit:
    case Stage::QsCaptureInit: return Origin::Hash;
    case Stage::GoodCaptures:
    case Stage::QsCaptures: return Origin::GoodCapture;
    case Stage::Killer2:
    case Stage::Countermove: return Origin::Killer;
    case Stage::QuietInit: return Origin::Countermove;
    case Stage::Quiets: return Origin::Quiet;
    case Stage::BadCaptures: return Origin::BadCapture;
    case Stage::Evasions: return Origin::Evasion;
    case Stage::MainHash:
    case Stage::Killer1:
    case Stage::EvasionHash:
    case Stage::QsHash:
    case Stage::Done: break; // next() never stops here after returning a move
    }
    return Origin::Hash;
}

bool MovePicker::tried(Move m) const {
    for (int i = 0; i < tried_count_; ++i)
        if (tried_[i] == m) return true;
    return false;
}

// A killer or countermove is played without generation when it is a quiet
// pseudo-legal move here and wasn't returned already.
Move MovePicker::special(Move m) {
    if (!m || tried(m) || pos_.is_capture_or_promotion(m) || !pos_.is_pseudo_legal(m)) return Move::none();
    tried_[tried_count_++] = m;
    return m;
}

void MovePicker::generate_captures(bool main_search) {
    assert(next_to_generate_ + MAX_MOVES <= int(MoveArray::CAPACITY + MAX_MOVES));
    int from = next_to_generate_;
    next_to_generate_ = int(generate<GenType::Captures>(pos_, moves_ + next_to_generate_) - moves_);
    score_captures(from, next_to_generate_);
    stage_end_ = next_to_generate_;
#ifdef STACCATO_UPFRONT_MOVEGEN
    // Comparison build: every quiet is generated and scored now as well, as
    // if the picker were not staged (the quiets wait behind stage_end_).
    if (main_search) generate_quiets();
#else
    (void)main_search;
#endif
}

void MovePicker::generate_quiets() {
    int from = next_to_generate_;
    next_to_generate_ = int(generate<GenType::Quiets>(pos_, moves_ + next_to_generate_) - moves_);
    score_quiets(from, next_to_generate_);
}

void MovePicker::score_captures(int from, int to) {
    for (int i = from; i < to; ++i) {
        Move m = moves_[i].move;
        PieceType victim = pos_.captured_type(m);
        Piece moved = pos_.moved_piece(m);
        int score = victim == NO_PIECE_TYPE ? 0 : SEE_VALUE[victim] * tune<"PickerMvvWeight">;
        if (m.type() == MoveType::Promotion) score += SEE_VALUE[m.promotion()] * tune<"PickerMvvWeight">;
        score += view_.histories.capture.get(moved, m.to(), victim) / tune<"PickerCaptureHistDivisor">;
        moves_[i].score = score - int(type_of(moved));
    }
}

void MovePicker::score_quiets(int from, int to) {
    Color us = pos_.side_to_move();
    // The squares from which each piece type would check their king directly
    // (discovered checks are left out: finding them costs more than they
    // are worth here), computed once for the whole stage.
    const Square ksq = pos_.king_square(~us);
    const Bitboard occupied = pos_.pieces();
    std::array<Bitboard, PIECE_TYPE_NB> checks{};
    checks[PAWN] = pawn_attacks(~us, ksq);
    checks[KNIGHT] = knight_attacks(ksq);
    checks[BISHOP] = bishop_attacks(ksq, occupied);
    checks[ROOK] = rook_attacks(ksq, occupied);
    checks[QUEEN] = checks[BISHOP] | checks[ROOK];
    for (int i = from; i < to; ++i) {
        Move m = moves_[i].move;
        if (m.type() == MoveType::Promotion) {
            moves_[i].score = UNDERPROMOTION_SCORE;
            continue;
        }
        const Piece moved = pos_.moved_piece(m);
        moves_[i].score = view_.quiet_score(us, moved, m);
        // A direct check that does not hang the piece: ahead of most quiets.
        if ((checks[type_of(moved)] & square_bb(m.to())) && see_ge(pos_, m, 0))
            moves_[i].score += tune<"PickerQuietCheckBonus">;
    }
}

void MovePicker::score_evasions(int from, int to) {
    Color us = pos_.side_to_move();
    for (int i = from; i < to; ++i) {
        Move m = moves_[i].move;
        if (pos_.is_capture(m)) {
            moves_[i].score = CAPTURE_BASE + SEE_VALUE[pos_.captured_type(m)] * tune<"PickerMvvWeight"> -
                              int(type_of(pos_.moved_piece(m)));
        } else {
            moves_[i].score = view_.quiet_score(us, pos_.moved_piece(m), m);
        }
    }
}

// Selection sort step: swaps the best remaining move to next_to_play and
// returns it if `accept` agrees; rejected moves are consumed too.
template <typename Accept> Move MovePicker::pick_best(Accept accept) {
    while (next_to_play_ < stage_end_) {
        // The highest score, the earliest slot among equals: score and slot
        // are packed into one number whose maximum names both, so that the
        // scan is a branch-free max (which move scores best is a coin toss to
        // the branch predictor, and a profile-guided build had turned the
        // plain comparison back into a branch).
        auto key = [this](int i) {
            return std::int64_t(std::uint64_t(std::int64_t(moves_[i].score)) << 32 | std::uint32_t(~i));
        };
        std::int64_t best_key = key(next_to_play_);
        for (int i = next_to_play_ + 1; i < stage_end_; ++i) best_key = std::max(best_key, key(i));
        const int best = int(~std::uint32_t(best_key));
        std::swap(moves_[best], moves_[next_to_play_]);
        ScoredMove& sm = moves_[next_to_play_++];
        if (!tried(sm.move) && accept(sm)) return sm.move;
    }
    return Move::none();
}

Move MovePicker::next() {
    switch (stage_) {
    case Stage::MainHash:
    case Stage::EvasionHash:
    case Stage::QsHash:
        stage_ = Stage(int(stage_) + 1);
        if (hash_move_) {
            tried_[tried_count_++] = hash_move_;
            return hash_move_;
        }
        return next();

    case Stage::QsCaptureInit:
        generate_captures(false);
        stage_ = Stage::QsCaptures;
        return next();

    case Stage::CaptureInit:
        generate_captures(true);
        stage_ = Stage::GoodCaptures;
        [[fallthrough]];

    case Stage::GoodCaptures:
        if (Move m = pick_best([this](const ScoredMove& sm) {
                if (see_ge(pos_, sm.move, 0)) return true;
                moves_[bad_captures_end_++] = sm; // set aside for the last stage
                return false;
            }))
            return m;
        stage_ = Stage::Killer1;
        [[fallthrough]];

    case Stage::Killer1:
        stage_ = Stage::Killer2;
        if (Move m = special(killers_[0])) return m;
        [[fallthrough]];

    case Stage::Killer2:
        stage_ = Stage::Countermove;
        if (Move m = special(killers_[1])) return m;
        [[fallthrough]];

    case Stage::Countermove:
        stage_ = Stage::QuietInit;
        if (Move m = special(countermove_)) return m;
        [[fallthrough]];

    case Stage::QuietInit:
        if (!skip_quiets_) {
#ifndef STACCATO_UPFRONT_MOVEGEN
            generate_quiets();
#endif
            stage_end_ = next_to_generate_;
        }
        stage_ = Stage::Quiets;
        [[fallthrough]];

    case Stage::Quiets:
        if (!skip_quiets_) {
            if (Move m = pick_best([this](const ScoredMove& sm) {
                    if (sm.move.type() != MoveType::Promotion) return true;
                    moves_[bad_captures_end_++] = sm; // under-promotions wait for the last stage
                    return false;
                }))
                return m;
        }
        stage_ = Stage::BadCaptures;
        next_to_play_ = start_;
        [[fallthrough]];

    case Stage::BadCaptures:
        // Losing captures, then under-promotions, in the order they were set
        // aside. Each was written over a slot already played, so this prefix
        // of the slice never overtook next_to_play; next_to_play now walks it
        // from the start, and next_to_generate still marks the slice's end.
        if (next_to_play_ < bad_captures_end_) return moves_[next_to_play_++].move;
        stage_ = Stage::Done;
        return Move::none();

    case Stage::EvasionInit:
        next_to_generate_ = int(generate<GenType::Evasions>(pos_, moves_ + next_to_generate_) - moves_);
        score_evasions(start_, next_to_generate_);
        stage_end_ = next_to_generate_;
        stage_ = Stage::Evasions;
        [[fallthrough]];

    case Stage::Evasions:
        if (Move m = pick_best([](const ScoredMove&) { return true; })) return m;
        stage_ = Stage::Done;
        return Move::none();

    case Stage::QsCaptures:
        return pick_best([this](const ScoredMove& sm) { return see_ge(pos_, sm.move, 0); });

    case Stage::Done: return Move::none();
    }
    return Move::none();
}

} // namespace staccato
