// The staged move picker yields exactly the legal moves, each once, in stage
// order, whatever hash/killer/countermove slots it is handed.
#include <algorithm>
#include <catch2/catch.hpp>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "staccato/movegen.h"
#include "staccato/movepick.h"
#include "staccato/see.h"
#include "suite.h"

using namespace staccato;

namespace {

std::vector<std::string> suite_fens() {
    std::vector<std::string> fens;
    for (const char* file : {"perft/standard.epd", "perft/fischer.epd"}) {
        int n = 0;
        for (const std::string& line : test::data_lines(file)) {
            // Every standard position, one Chess960 position in eight.
            if (std::string(file).find("fischer") != std::string::npos && n++ % 8) continue;
            fens.push_back(line.substr(0, line.find(';')));
        }
    }
    return fens;
}

// Raw candidates for the special slots: moves that are legal in some other
// position, so most are illegal here, some are captures, some quiet.
struct SlotSource {
    std::mt19937_64 rng{12345};
    std::vector<Move> pool;
    Move pick() {
        if (pool.empty() || rng() % 8 == 0) return Move(std::uint16_t(rng()));
        return pool[rng() % pool.size()];
    }
    void learn(const Position& pos) {
        for (const ScoredMove& sm : MoveList(pos)) pool.push_back(sm.move);
        if (pool.size() > 4000) pool.erase(pool.begin(), pool.begin() + 2000);
    }
};

// Drains a main-search picker and checks the result against MoveList.
void check_main_picker(const Position& pos, MoveArray& array, int start, SlotSource& slots,
                       const OrderingView& view) {
    Move hash = slots.pick();
    std::array<Move, 2> killers{slots.pick(), slots.pick()};
    Move counter = slots.pick();
    MovePicker picker(pos, array, start, hash, killers, counter, view);

    std::vector<Move> legal_seen;
    std::set<std::uint16_t> seen;
    bool in_quiet_stage_or_later = false;
    Origin last_origin = Origin::Hash;
    while (Move m = picker.next()) {
        INFO(pos.fen() << " move " << pos.move_to_uci(m));
        REQUIRE(seen.insert(m.raw()).second); // never twice
        REQUIRE(pos.is_pseudo_legal(m));
        if (pos.in_check()) REQUIRE(picker.stage() != MovePicker::Stage::Quiets);
        if (picker.stage() == MovePicker::Stage::Quiets) in_quiet_stage_or_later = true;
        // Stage order: no capture from the good-capture stage after quiets started.
        if (in_quiet_stage_or_later && picker.stage() == MovePicker::Stage::GoodCaptures) FAIL("stage order");
        // Under-promotions come last, with the losing captures (unless a
        // hash, killer or countermove slot named them).
        const bool slot = m == hash || m == killers[0] || m == killers[1] || m == counter;
        if (!pos.in_check() && !slot && m.type() == MoveType::Promotion && m.promotion() != QUEEN)
            REQUIRE(picker.stage() == MovePicker::Stage::BadCaptures);
        // The stage each move is reported to come from (the ordering
        // statistics count by it) fits the move, and never goes back.
        const Origin origin = picker.origin();
        REQUIRE(int(origin) >= int(last_origin));
        last_origin = origin;
        const bool tactical = pos.is_capture_or_promotion(m);
        const bool under = m.type() == MoveType::Promotion && m.promotion() != QUEEN;
        switch (origin) {
        case Origin::Hash: REQUIRE(m == hash); break;
        case Origin::Killer: REQUIRE((m == killers[0] || m == killers[1])); break;
        case Origin::Countermove: REQUIRE(m == counter); break;
        case Origin::GoodCapture: REQUIRE((tactical && !under && see_ge(pos, m, 0))); break;
        case Origin::Quiet: REQUIRE(!tactical); break;
        case Origin::BadCapture: REQUIRE((tactical && (under || !see_ge(pos, m, 0)))); break;
        case Origin::Evasion: REQUIRE(pos.in_check()); break;
        }
        if (pos.in_check()) REQUIRE((origin == Origin::Hash || origin == Origin::Evasion));
        if (pos.is_legal(m)) legal_seen.push_back(m);
        REQUIRE(picker.next_to_generate() <= MoveArray::CAPACITY);
    }
    MoveList legal(pos);
    REQUIRE(int(legal_seen.size()) == legal.size());
    for (const ScoredMove& sm : legal)
        REQUIRE(std::find(legal_seen.begin(), legal_seen.end(), sm.move) != legal_seen.end());
}

void check_qs_picker(const Position& pos, MoveArray& array, int start, SlotSource& slots,
                     const OrderingView& view) {
    MovePicker picker(pos, array, start, slots.pick(), view);
    std::set<std::uint16_t> seen;
    std::vector<Move> got;
    while (Move m = picker.next()) {
        REQUIRE(seen.insert(m.raw()).second);
        if (pos.is_legal(m)) got.push_back(m);
    }
    MoveList legal(pos);
    if (pos.in_check()) {
        REQUIRE(int(got.size()) == legal.size());
        return;
    }
    // Exactly the legal captures and queen promotions with SEE >= 0 (a hash
    // capture may come first whatever its SEE).
    std::vector<Move> expected;
    for (const ScoredMove& sm : legal) {
        Move m = sm.move;
        bool tactical = pos.is_capture(m) && m.type() != MoveType::Promotion;
        bool queen_promo = m.type() == MoveType::Promotion && m.promotion() == QUEEN;
        if ((tactical || queen_promo) && see_ge(pos, m, 0)) expected.push_back(m);
    }
    for (Move m : expected) REQUIRE(std::find(got.begin(), got.end(), m) != got.end());
    for (Move m : got) {
        bool listed = std::find(expected.begin(), expected.end(), m) != expected.end();
        bool hash_capture = m == got.front() && pos.is_capture_or_promotion(m);
        REQUIRE((listed || hash_capture));
    }
}

} // namespace

TEST_CASE("picker yields exactly the legal moves on the perft suites", "[movepick]") {
    auto array = std::make_unique<MoveArray>();
    auto histories = std::make_unique<Histories>();
    const OrderingView view{*histories, {}};
    SlotSource slots;
    for (const std::string& fen : suite_fens()) {
        Position pos;
        REQUIRE(!pos.set_fen(fen).error);
        slots.learn(pos);
        check_main_picker(pos, *array, 0, slots, view);
        check_qs_picker(pos, *array, 0, slots, view);
    }
}

TEST_CASE("picker slices stack across plies in long random games", "[movepick]") {
    auto array = std::make_unique<MoveArray>();
    auto histories = std::make_unique<Histories>();
    SlotSource slots;
    std::mt19937_64 rng(2024);
    for (int game = 0; game < 40; ++game) {
        Position pos;
        // The continuation tables of the last four moves (most recent first)
        // and the squares the opponent attacks, as the search keeps them.
        std::array<const PieceToHistory*, 4> continuation{};
        // Walk down a game while every ply keeps its picker open, as the
        // search does: each child slice starts at the parent's end.
        std::vector<std::unique_ptr<MovePicker>> open;
        int start = 0;
        for (int ply = 0; ply < MAX_PLY - 1; ++ply) {
            slots.learn(pos);
            const OrderingView view{*histories,
                                    {continuation[0], continuation[1], continuation[3]},
                                    pos.attacks_by(~pos.side_to_move())};
            check_main_picker(pos, *array, start, slots, view);
            auto picker = std::make_unique<MovePicker>(pos, *array, start, slots.pick(),
                                                       std::array<Move, 2>{slots.pick(), slots.pick()},
                                                       slots.pick(), view);
            std::vector<Move> legal;
            while (Move m = picker->next())
                if (pos.is_legal(m)) legal.push_back(m);
            if (legal.empty()) break;
            Move m = legal[rng() % legal.size()];
            // Random history updates, so that scores differ from move to move.
            Piece moved = pos.moved_piece(m);
            histories->butterfly.update(pos.side_to_move(), view.threats, m, int(rng() % 4001) - 2000);
            for (Move other : legal)
                if (pos.is_capture(other))
                    histories->capture.update(pos.moved_piece(other), other.to(),
                                              type_of(pos.piece_on(other.to())), int(rng() % 4001) - 2000);
            PieceToHistory& next = histories->continuation.at(moved, m.to());
            for (int k = 0; k < 8; ++k)
                next.update(Piece(rng() % PIECE_NB), Square(rng() % 64), int(rng() % 4001) - 2000);
            continuation = {&next, continuation[0], continuation[1], continuation[2]};
            start = picker->next_to_generate();
            REQUIRE(start <= (ply + 1) * MAX_MOVES);
            open.push_back(std::move(picker));
            pos.make_move(m);
            if (pos.is_fifty_move_draw() || pos.has_insufficient_material()) break;
        }
    }
}
