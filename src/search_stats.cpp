// What the search learns from each finished node: the correction histories
// (how far the static evaluation was off) and the move-ordering statistics
// (killers, countermoves, butterfly, continuation and capture histories).
// search.cpp calls these at the end of a node; they run once a node, off the
// hot path, so they live apart from the search itself.
#include <cstdlib>

#include "staccato/search.h"

namespace staccato {

// Step 15 of search(): the correction history learns from this node's result
// when it says something about the static evaluation (a bound on the right
// side of it) and the best move was quiet (a capture changes the material,
// which the evaluation already counts).
void Worker::update_correction(Value best, Bound bound, Move best_move, Value static_eval, int depth,
                               int ply) {
    if (best_move && pos_.is_capture_or_promotion(best_move)) return;
    if (std::abs(best) >= VALUE_TB_WIN_IN_MAX_PLY) return;
    if ((bound == Bound::Lower && best <= static_eval) || (bound == Bound::Upper && best >= static_eval))
        return;
    const Color us = pos_.side_to_move();
    histories_.correction.update(us, pos_.pawn_key(), best - static_eval, depth);
    for (Color c : {WHITE, BLACK})
        histories_.non_pawn_correction[c].update(us, pos_.non_pawn_key(c), best - static_eval, depth);
    histories_.continuation_correction.update(continuation_correction_key(ply), best - static_eval, depth);
}

// A quiet move's (piece to `to`, played at `ply`) continuation histories:
// as the reply to each earlier move (CONTINUATION_PLIES).
void Worker::update_continuations(int ply, Piece moved, Square to, int bonus) {
    for (int back : CONTINUATION_PLIES)
        if (PieceToHistory* t = continuation(ply, back))
            t->update(moved, to, continuation_bonus(back, bonus));
}

// Every history that orders quiets (butterfly, continuation) learns `bonus`
// for quiet `m` at this node; stack_[ply].threats must be this node's.
void Worker::update_quiet_histories(int ply, Move m, int bonus) {
    const Piece moved = pos_.moved_piece(m);
    histories_.butterfly.update(pos_.side_to_move(), stack_[ply].threats, m, bonus);
    update_continuations(ply, moved, m.to(), bonus);
}

// Killers, countermove and histories after a quiet move caused a cutoff: the
// cutoff move gains, the quiets tried before it lose.
void Worker::update_quiet_stats(int ply, Move best, int depth, const Move* quiets, int quiet_count) {
    StackEntry& ss = stack_[ply];
    if (ss.killers[0] != best) {
        ss.killers[1] = ss.killers[0];
        ss.killers[0] = best;
    }
    const int bonus = history_bonus(depth);
    update_quiet_histories(ply, best, bonus);
    for (int i = 0; i < quiet_count; ++i)
        if (quiets[i] != best) update_quiet_histories(ply, quiets[i], -bonus);
    if (ply > 0) {
        const StackEntry& prev = stack_[ply - 1];
        if (prev.current_move && prev.current_move != Move::null())
            histories_.countermoves.set(prev.moved_piece, prev.current_move.to(), best);
    }
}

// Capture history after a cutoff: a capture that cut gains; the captures
// tried before the cutoff move (whatever its kind) lose.
void Worker::update_capture_stats(Move best, int depth, const Move* captures, int capture_count) {
    const int bonus = history_bonus(depth);
    auto reward = [&](Move m, int b) {
        histories_.capture.update(pos_.moved_piece(m), m.to(), pos_.captured_type(m), b);
    };
    if (pos_.is_capture_or_promotion(best)) reward(best, bonus);
    for (int i = 0; i < capture_count; ++i)
        if (captures[i] != best) reward(captures[i], -bonus);
}

// A hash cutoff above beta by a quiet move: the move that cut before cuts
// again, so its histories gain as after a searched cutoff (no maluses: no
// other move was tried).
void Worker::update_tt_cutoff_stats(int ply, Move tt_move, int depth) {
    if (!tt_move || !pos_.is_pseudo_legal(tt_move) || pos_.is_capture_or_promotion(tt_move)) return;
    stack_[ply].threats = pos_.attacks_by(~pos_.side_to_move()); // not yet set at a hash cutoff
    update_quiet_histories(ply, tt_move, history_bonus(depth) * tune<"TtCutoffBonusPercent"> / 100);
}
} // namespace staccato
