// The evaluation: colour and mirror symmetry over every suite position, the
// pawn cache, the tuner's linear trace, and known endgames (KPK bitbase,
// KBNK, KNNK, KBK).
#include <catch2/catch.hpp>
#include <cctype>
#include <sstream>
#include <string>
#include <vector>

#include "staccato/hce/eval.h"
#include "staccato/hce/kpk.h"
#include "staccato/movegen.h"
#include "suite.h"

using namespace staccato;
using staccato::test::from_fen;

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : s) {
        if (c == sep) {
            out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    out.push_back(cur);
    return out;
}

// The same position with the colours swapped and the board turned upside down.
std::string colour_flip(const std::string& fen) {
    std::istringstream in(fen);
    std::string board, side, castling, ep, half = "0", full = "1";
    in >> board >> side >> castling >> ep >> half >> full;
    std::vector<std::string> ranks = split(board, '/');
    std::string flipped;
    for (auto it = ranks.rbegin(); it != ranks.rend(); ++it) {
        for (char& c : *it) c = std::isupper(c) ? char(std::tolower(c)) : char(std::toupper(c));
        flipped += (flipped.empty() ? "" : "/") + *it;
    }
    for (char& c : castling)
        if (c != '-') c = std::isupper(c) ? char(std::tolower(c)) : char(std::toupper(c));
    if (ep != "-") ep[1] = char('1' + ('8' - ep[1]));
    return flipped + (side == "w" ? " b " : " w ") + castling + " " + ep + " " + half + " " + full;
}

// Files reversed; only for positions without castling rights.
std::string mirror(const std::string& fen) {
    std::istringstream in(fen);
    std::string board, side, castling, ep, half = "0", full = "1";
    in >> board >> side >> castling >> ep >> half >> full;
    std::string out;
    for (std::string rank : split(board, '/')) {
        std::string expanded;
        for (char c : rank) expanded += std::isdigit(c) ? std::string(c - '0', '1') : std::string(1, c);
        std::string rev(expanded.rbegin(), expanded.rend());
        std::string packed;
        int run = 0;
        for (char c : rev) {
            if (c == '1') {
                ++run;
                continue;
            }
            if (run) packed += char('0' + run), run = 0;
            packed += c;
        }
        if (run) packed += char('0' + run);
        out += (out.empty() ? "" : "/") + packed;
    }
    if (ep != "-") ep[0] = char('a' + ('h' - ep[0]));
    return out + " " + side + " " + castling + " " + ep + " " + half + " " + full;
}

std::vector<std::string> all_suite_fens() {
    std::vector<std::string> fens = test::suite_fens();
    for (const std::string& line : test::data_lines("epd/eval.epd")) {
        std::istringstream f(line);
        std::string a, b, c, d;
        if (f >> a >> b >> c >> d) fens.push_back(a + " " + b + " " + c + " " + d + " 0 1");
    }
    return fens;
}

Value eval_of(const std::string& fen) { return hce::evaluate(from_fen(fen)); }

} // namespace

TEST_CASE("evaluation is colour-symmetric and mirror-symmetric on every suite position", "[eval]") {
    int checked = 0, mirrored = 0;
    for (const std::string& fen : all_suite_fens()) {
        Position pos;
        if (pos.set_fen(fen).error) continue; // a few STS lines carry no full FEN; the perft ones all parse
        const Value v = hce::evaluate(pos);
        INFO(fen);
        REQUIRE(eval_of(colour_flip(fen)) == v);
        ++checked;
        if (pos.castling_rights() == 0) {
            REQUIRE(eval_of(mirror(fen)) == v);
            ++mirrored;
        }
    }
    CHECK(checked > 1800);
    CHECK(mirrored > 500);
}

TEST_CASE("the pawn cache never changes the evaluation", "[eval]") {
    hce::PawnTable table;
    for (int pass = 0; pass < 2; ++pass) // the second pass hits the cache
        for (const std::string& fen : test::suite_fens(3)) {
            Position pos = from_fen(fen);
            INFO(fen);
            REQUIRE(hce::evaluate(pos, &table) == hce::evaluate(pos));
        }
}

TEST_CASE("the tuner's trace reproduces the evaluation as a linear function of the weights", "[eval]") {
    for (const std::string& fen : test::suite_fens(5)) {
        Position pos = from_fen(fen);
        hce::Trace t;
        const Value v = hce::evaluate_traced(pos, t);
        REQUIRE(v == (pos.side_to_move() == WHITE ? hce::evaluate(pos) : -hce::evaluate(pos)));
        if (t.special) continue;
        double mg = 0, eg = 0;
        for (int i = 0; i < hce::NUM_WEIGHTS; ++i)
            mg += t.coeff[i] * hce::WEIGHTS[i].mg, eg += t.coeff[i] * hce::WEIGHTS[i].eg;
        const double linear = (mg * t.phase + eg * (24 - t.phase) * t.scale / 64.0) / 24.0;
        INFO(fen);
        REQUIRE(std::abs(linear - v) <= 3.0); // integer rounding of the scaled king-attack terms
    }
}

TEST_CASE("KPK bitbase: known wins and draws", "[eval][kpk]") {
    struct Case {
        const char* fen;
        bool win;
    };
    const Case cases[] = {
        {"8/8/8/8/8/4k3/4P3/4K3 w - - 0 1", false}, // the defender in front, White cannot gain the opposition
        {"4k3/8/4K3/4P3/8/8/8/8 w - - 0 1", true},  // king on the sixth in front of its pawn wins
        {"8/4k3/8/4K3/4P3/8/8/8 w - - 0 1", false}, // on the fifth: Black has the opposition, a draw
        {"8/4k3/8/4K3/4P3/8/8/8 b - - 0 1", true},  // Black to move must give way
        {"4k3/8/3K4/4P3/8/8/8/8 w - - 0 1", true},  // king on the sixth in front of its pawn
        {"k7/8/8/8/8/8/P7/K7 w - - 0 1", false},    // rook pawn, defender in the corner
        {"7k/8/7K/7P/8/8/8/8 w - - 0 1", false},    // rook pawn: draw
        {"8/k7/8/8/8/8/7P/7K w - - 0 1", true},     // the king is outside the pawn's square
        {"8/8/8/8/8/8/k6P/7K b - - 0 1", true},     // too far, even with the move
    };
    for (const Case& c : cases) {
        INFO(c.fen);
        Position pos = from_fen(c.fen);
        const Bitboard pawns = pos.pieces(PAWN);
        const Color strong = color_of(pos.piece_on(lsb(pawns)));
        CHECK(kpk::probe(strong, pos.king_square(strong), lsb(pawns), pos.king_square(~strong),
                         pos.side_to_move()) == c.win);
        // And the colour-flipped twin gives the same verdict.
        Position flipped = from_fen(colour_flip(c.fen));
        const Square fp = lsb(flipped.pieces(PAWN));
        CHECK(kpk::probe(~strong, flipped.king_square(~strong), fp, flipped.king_square(strong),
                         flipped.side_to_move()) == c.win);
        const Value v = hce::evaluate(pos) * (pos.side_to_move() == strong ? 1 : -1);
        if (c.win)
            CHECK(v > 500);
        else
            CHECK(v == 0);
    }
}

TEST_CASE("KPK bitbase agrees with a shallow search of its own verdicts", "[eval][kpk]") {
    // A won position (strong side to move) has a move to a won position; a
    // drawn one has none. Checked over every placement with the pawn on e4.
    int checked = 0;
    for (int wk = 0; wk < 64; ++wk)
        for (int bk = 0; bk < 64; ++bk) {
            if (wk == bk || wk == SQ_E4 || bk == SQ_E4) continue;
            std::string fen;
            Position pos;
            // Build the FEN square by square.
            for (int r = 7; r >= 0; --r) {
                int empty = 0;
                for (int f = 0; f < 8; ++f) {
                    int s = r * 8 + f;
                    char c = s == wk ? 'K' : s == bk ? 'k' : s == SQ_E4 ? 'P' : 0;
                    if (!c) {
                        ++empty;
                        continue;
                    }
                    if (empty) fen += char('0' + empty), empty = 0;
                    fen += c;
                }
                if (empty) fen += char('0' + empty);
                if (r) fen += '/';
            }
            fen += " w - - 0 1";
            if (pos.set_fen(fen).error) continue; // illegal: kings adjacent, Black in check
            bool win = kpk::probe(WHITE, Square(wk), SQ_E4, Square(bk), WHITE);
            bool some_child_wins = false;
            for (const ScoredMove& m : MoveList(pos)) {
                pos.make_move(m.move);
                const Bitboard p = pos.pieces(PAWN);
                bool child_win = false;
                if (p && popcount(pos.pieces()) == 3 && m.move.type() != MoveType::Promotion)
                    child_win =
                        kpk::probe(WHITE, pos.king_square(WHITE), lsb(p), pos.king_square(BLACK), BLACK);
                pos.unmake_move(m.move);
                some_child_wins |= child_win;
            }
            INFO(fen);
            REQUIRE(win == some_child_wins);
            ++checked;
        }
    CHECK(checked > 3000);
}

TEST_CASE("known endgames: KBNK is won, KNNK and KBK are drawn", "[eval]") {
    for (const char* fen : {"8/8/3k4/8/8/2NBK3/8/8 w - - 0 1", "8/8/8/4k3/8/8/8/KBN5 b - - 0 1",
                            "7k/8/8/8/8/8/8/KBN5 w - - 0 1"}) {
        Position pos = from_fen(fen);
        INFO(fen);
        const Value white_view = pos.side_to_move() == WHITE ? hce::evaluate(pos) : -hce::evaluate(pos);
        CHECK(white_view > 400);
    }
    // KBNK with a light-squared bishop (b1): mate is forced in a light corner
    // (a8, h1), so the bare king is worse off on a8 than on h8.
    const Value mating_corner = hce::evaluate(from_fen("k7/8/2K5/8/8/8/8/1BN5 w - - 0 1"));
    const Value other_corner = hce::evaluate(from_fen("7k/8/5K2/8/8/8/8/1BN5 w - - 0 1"));
    CHECK(mating_corner > other_corner);
    for (const char* fen : {"8/8/3k4/8/8/2NNK3/8/8 w - - 0 1", "8/8/3k4/8/8/3BK3/8/8 w - - 0 1",
                            "8/8/3k4/8/8/3NK3/8/8 b - - 0 1", "8/3k4/8/8/8/1nn5/8/4K3 b - - 0 1"}) {
        INFO(fen);
        CHECK(eval_of(fen) == 0);
    }
}

TEST_CASE("drawish material is scaled down", "[eval]") {
    // Opposite-coloured bishops with a pawn up: far less than the same with
    // same-coloured bishops.
    // White's bishop e2 is on a light square; Black's is on e5 (dark) or d5 (light).
    const Value opposite = eval_of("4k3/8/8/4b3/8/8/2PPB3/4K3 w - - 0 1");
    const Value same = eval_of("4k3/8/8/3b4/8/8/2PPB3/4K3 w - - 0 1");
    CHECK(opposite > 0);
    CHECK(opposite < same);
    // Rook pawn (queening on dark h8) with a light-squared bishop, the
    // defending king in the corner: a draw.
    CHECK(eval_of("7k/8/8/7P/8/8/8/3BK3 w - - 0 1") == 0);
    // With the dark-squared bishop it is winning.
    CHECK(eval_of("7k/8/8/7P/8/8/8/2B1K3 w - - 0 1") > 200);
}
