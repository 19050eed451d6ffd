// Histories: gravity keeps every entry in bounds, ageing halves, and the
// picker orders captures and quiets by what the histories learnt.
#include <catch2/catch.hpp>
#include <memory>
#include <vector>

#include "staccato/history.h"
#include "staccato/movepick.h"
#include "suite.h"

using namespace staccato;
using staccato::test::uci;

namespace {

// White's rook and king with a black king that no move checks (the pawn on
// b3 shields the third rank): only the histories order these quiets.
constexpr const char* QUIETS_WITHOUT_CHECKS = "8/8/8/8/8/1P5k/8/R3K3 w - - 0 1";

// Every move the picker returns, in order, legal or not.
std::vector<Move> drain(MovePicker& picker) {
    std::vector<Move> moves;
    while (Move m = picker.next()) moves.push_back(m);
    return moves;
}

// The first move a main-search picker without hash move, killers or
// countermove returns under `view`.
Move first_move(const Position& pos, MoveArray& array, const OrderingView& view) {
    MovePicker picker(pos, array, 0, Move::none(), {}, Move::none(), view);
    return picker.next();
}

int index_of(const std::vector<Move>& moves, Move m) {
    for (std::size_t i = 0; i < moves.size(); ++i)
        if (moves[i] == m) return int(i);
    FAIL("move not returned");
    return -1;
}

} // namespace

TEST_CASE("gravity keeps history entries within bounds", "[history]") {
    auto h = std::make_unique<Histories>();
    const Move m(SQ_E2, SQ_E4);
    h->butterfly.update(WHITE, 0, m, 500);
    REQUIRE(h->butterfly.get(WHITE, 0, m) == 500); // from zero, a bonus is taken whole
    for (int i = 0; i < 1000; ++i) h->butterfly.update(WHITE, 0, m, history_bonus(20));
    const int high = h->butterfly.get(WHITE, 0, m);
    REQUIRE(high <= HISTORY_MAX);
    REQUIRE(high > HISTORY_MAX * 9 / 10); // saturates near the bound
    for (int i = 0; i < 1000; ++i) h->butterfly.update(WHITE, 0, m, -history_bonus(20));
    REQUIRE(h->butterfly.get(WHITE, 0, m) >= -HISTORY_MAX);
    REQUIRE(h->butterfly.get(WHITE, 0, m) < -HISTORY_MAX * 9 / 10);
    REQUIRE(h->butterfly.get(BLACK, 0, m) == 0); // the other side's entry is untouched

    h->capture.update(W_KNIGHT, SQ_D5, PAWN, 1000);
    h->continuation.at(W_PAWN, SQ_E4).update(B_KNIGHT, SQ_F6, -1000);
    h->age();
    REQUIRE(h->capture.get(W_KNIGHT, SQ_D5, PAWN) == 500);
    REQUIRE(h->continuation.at(W_PAWN, SQ_E4).get(B_KNIGHT, SQ_F6) == -500);
    h->clear();
    REQUIRE(h->butterfly.get(WHITE, 0, m) == 0);
    REQUIRE(h->capture.get(W_KNIGHT, SQ_D5, PAWN) == 0);
}

TEST_CASE("capture history orders captures of equal victims", "[history]") {
    // Two knights can each take a defended-by-nothing pawn: same victim, same
    // attacker, so only the capture history separates them.
    Position pos;
    REQUIRE(!pos.set_fen("4k3/8/8/3p1p2/8/4N3/8/4K3 w - - 0 1").error);
    auto array = std::make_unique<MoveArray>();
    auto h = std::make_unique<Histories>();
    const Move nxd5 = uci(pos, "e3d5"), nxf5 = uci(pos, "e3f5");
    for (int favoured = 0; favoured < 2; ++favoured) {
        const Move good = favoured ? nxd5 : nxf5, other = favoured ? nxf5 : nxd5;
        h->clear();
        h->capture.update(W_KNIGHT, good.to(), PAWN, 4000);
        h->capture.update(W_KNIGHT, other.to(), PAWN, -4000);
        MovePicker picker(pos, *array, 0, Move::none(), {}, Move::none(), OrderingView{*h, {}});
        auto moves = drain(picker);
        REQUIRE(index_of(moves, good) == 0);
        REQUIRE(index_of(moves, other) == 1);
    }
}

TEST_CASE("a quiet check that loses nothing comes ahead of the other quiets", "[history]") {
    Position pos;
    REQUIRE(!pos.set_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").error);
    auto array = std::make_unique<MoveArray>();
    auto h = std::make_unique<Histories>();
    REQUIRE(first_move(pos, *array, OrderingView{*h, {}}) == uci(pos, "a1a8")); // no history at all
    h->butterfly.update(WHITE, 0, uci(pos, "e1e2"), 3000);
    REQUIRE(first_move(pos, *array, OrderingView{*h, {}}) == uci(pos, "a1a8")); // ahead of a good history
    // With the rook's checking square guarded, the check would hang it: history decides.
    REQUIRE(!pos.set_fen("4k3/8/1n6/8/8/8/8/R3K3 w - - 0 1").error);
    REQUIRE(first_move(pos, *array, OrderingView{*h, {}}) == uci(pos, "e1e2"));
}

TEST_CASE("butterfly and continuation history order the quiets", "[history]") {
    Position pos;
    REQUIRE(!pos.set_fen(QUIETS_WITHOUT_CHECKS).error);
    auto array = std::make_unique<MoveArray>();
    auto h = std::make_unique<Histories>();
    const Move ra5 = uci(pos, "a1a5"), ke2 = uci(pos, "e1e2"), ra7 = uci(pos, "a1a7");

    // Butterfly history alone.
    h->butterfly.update(WHITE, 0, ke2, 3000);
    {
        MovePicker picker(pos, *array, 0, Move::none(), {}, Move::none(), OrderingView{*h, {}});
        REQUIRE(drain(picker).front() == ke2);
    }
    // A continuation table (the reply history after some earlier move)
    // outweighs it for another move; a view without that table does not see it.
    PieceToHistory& after = h->continuation.at(B_KING, SQ_E8);
    after.update(W_ROOK, ra5.to(), 6000);
    {
        MovePicker picker(pos, *array, 0, Move::none(), {}, Move::none(),
                          OrderingView{*h, {&after, nullptr}});
        auto moves = drain(picker);
        REQUIRE(moves.front() == ra5);
        REQUIRE(index_of(moves, ke2) == 1);
    }
    {
        MovePicker picker(pos, *array, 0, Move::none(), {}, Move::none(),
                          OrderingView{*h, {nullptr, &after}});
        REQUIRE(drain(picker).front() == ra5); // two plies back counts the same
    }
    REQUIRE(first_move(pos, *array, OrderingView{*h, {nullptr, nullptr, &after}}) == ra5); // and four back
    // Killers come before every quiet, whatever the histories say.
    {
        MovePicker picker(pos, *array, 0, Move::none(), {ra7, Move::none()}, Move::none(),
                          OrderingView{*h, {&after, nullptr}});
        auto moves = drain(picker);
        REQUIRE(moves.front() == ra7);
        REQUIRE(index_of(moves, ra5) == 1);
    }
}

TEST_CASE("butterfly history learns apart by attacked from- and to-squares", "[history]") {
    const Position pos = test::from_fen(QUIETS_WITHOUT_CHECKS);
    auto array = std::make_unique<MoveArray>();
    auto h = std::make_unique<Histories>();
    const Move ra5 = uci(pos, "a1a5"), ke2 = uci(pos, "e1e2");
    const Bitboard from_attacked = square_bb(SQ_A1), to_attacked = square_bb(SQ_A5);
    h->butterfly.update(WHITE, from_attacked, ra5, 3000);
    REQUIRE(h->butterfly.get(WHITE, from_attacked, ra5) == 3000);
    // Attacks on other squares: the same entry.
    REQUIRE(h->butterfly.get(WHITE, from_attacked | square_bb(SQ_B2), ra5) == 3000);
    REQUIRE(h->butterfly.get(WHITE, 0, ra5) == 0);
    REQUIRE(h->butterfly.get(WHITE, to_attacked, ra5) == 0);
    REQUIRE(h->butterfly.get(WHITE, from_attacked | to_attacked, ra5) == 0);
    // The picker reads the entry of the node's threats only.
    h->butterfly.update(WHITE, 0, ke2, 1000);
    REQUIRE(first_move(pos, *array, OrderingView{*h, {}, from_attacked}) == ra5);
    REQUIRE(first_move(pos, *array, OrderingView{*h, {}, 0}) == ke2);
}

TEST_CASE("continuation correction history is keyed by the last two moves", "[history]") {
    auto h = std::make_unique<Histories>();
    using CC = ContinuationCorrectionHistory;
    const std::size_t key = CC::key(W_KNIGHT, SQ_F3, B_PAWN, SQ_D5);
    REQUIRE(key != CC::key(B_PAWN, SQ_D5, W_KNIGHT, SQ_F3)); // the order of the moves counts
    REQUIRE(key != CC::key(W_KNIGHT, SQ_F3, B_PAWN, SQ_D6));
    for (int i = 0; i < 200; ++i) h->continuation_correction.update(key, 30, 15);
    REQUIRE(h->continuation_correction.get(key) > 25);
    REQUIRE(h->continuation_correction.get(key) <= 30);
    REQUIRE(h->continuation_correction.get(CC::key(W_KNIGHT, SQ_F3, B_PAWN, SQ_D6)) == 0);
    // No pair of moves (the root's edge, a null move): nothing read or learnt.
    h->continuation_correction.update(CC::NONE, 30, 15);
    REQUIRE(h->continuation_correction.get(CC::NONE) == 0);
    for (int i = 0; i < 500; ++i) h->continuation_correction.update(key, -5000, 20);
    REQUIRE(h->continuation_correction.get(key) == -CORRECTION_LIMIT / CORRECTION_GRAIN);
    h->clear();
    REQUIRE(h->continuation_correction.get(key) == 0);
}

TEST_CASE("correction history follows the search's error, within its limit", "[history]") {
    auto h = std::make_unique<Histories>();
    const std::uint64_t key = 0x1234567890ABCDEFULL, other = key + 1;
    REQUIRE(h->correction.get(WHITE, key) == 0);
    h->correction.update(WHITE, key, 40, 7); // weight 8 of 256 at depth 7
    const int once = h->correction.get(WHITE, key);
    REQUIRE(once == 40 * 8 / 256);
    for (int i = 0; i < 200; ++i) h->correction.update(WHITE, key, 40, 15);
    REQUIRE(h->correction.get(WHITE, key) > 35); // a running average converges on the error
    REQUIRE(h->correction.get(WHITE, key) <= 40);
    REQUIRE(h->correction.get(BLACK, key) == 0); // by side to move
    REQUIRE(h->correction.get(WHITE, other) == 0);
    for (int i = 0; i < 500; ++i) h->correction.update(BLACK, key, -5000, 20);
    REQUIRE(h->correction.get(BLACK, key) == -CorrectionHistory::LIMIT / CorrectionHistory::GRAIN);
    h->clear();
    REQUIRE(h->correction.get(WHITE, key) == 0);
}
