// Position: FEN in and out, refused FENs, castling notations, make/unmake,
// null move, draws by rule, UCI move text and the game list.
#include <catch2/catch.hpp>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "staccato/movegen.h"
#include "staccato/position.h"
#include "suite.h"

using namespace staccato;
using staccato::test::from_fen;
using staccato::test::suite_fens;
using staccato::test::uci;

namespace {

std::string error_of(std::string_view fen) {
    Position pos;
    auto err = pos.set_fen(fen).error;
    return err ? *err : std::string("(accepted)");
}

// Everything make/unmake must restore, captured at one ply.
struct Snapshot {
    std::string fen;
    Key key, pawn_key, non_pawn_white, non_pawn_black;
    Bitboard checkers, blockers_w, blockers_b;
    int history_length, game_ply;
    Piece captured;
    bool operator==(const Snapshot&) const = default;
};

Snapshot snapshot(const Position& pos) {
    return {pos.fen(),
            pos.key(),
            pos.pawn_key(),
            pos.non_pawn_key(WHITE),
            pos.non_pawn_key(BLACK),
            pos.checkers(),
            pos.blockers_for_king(WHITE),
            pos.blockers_for_king(BLACK),
            pos.history_length(),
            pos.game_ply(),
            pos.captured_piece()};
}

// Plays `games` random games of up to `plies` plies from fen, checking the
// position after every make and every unmake. Returns the plies played.
int play_random_games(const std::string& fen, int games, int plies, std::mt19937_64& rng) {
    int total = 0;
    for (int g = 0; g < games; ++g) {
        Position pos = from_fen(fen);
        std::vector<Snapshot> before;
        std::vector<Move> played;
        for (int p = 0; p < plies; ++p) {
            MoveList list(pos);
            if (list.size() == 0) break;
            const Move m = list.begin()[rng() % list.size()].move;
            const Piece victim = m.type() == MoveType::EnPassant  ? make_piece(~pos.side_to_move(), PAWN)
                                 : m.type() == MoveType::Castling ? NO_PIECE
                                                                  : pos.piece_on(m.to());
            const bool checks = pos.gives_check(m);
            // Every legal move's prediction against the position it makes.
            for (const auto& other : list) {
                const bool predicted = pos.gives_check(other.move);
                pos.make_move(other.move);
                const bool checked = pos.in_check();
                pos.unmake_move(other.move);
                if (checked != predicted)
                    FAIL(pos.fen() << " then " << pos.move_to_uci(other.move) << ": gives_check said "
                                   << predicted);
            }
            const bool capture = pos.is_capture(m);
            before.push_back(snapshot(pos));
            pos.make_move(m);
            played.push_back(m);

            std::string why;
            INFO(before.back().fen << " then " << pos.move_to_uci(m));
            REQUIRE(pos.is_consistent(&why)); // bitboards, mailbox, both keys, checkers
            INFO(why);
            REQUIRE(pos.key() == pos.compute_key());
            REQUIRE(pos.pawn_key() == pos.compute_pawn_key());
            REQUIRE(pos.non_pawn_key(WHITE) == pos.compute_non_pawn_key(WHITE));
            REQUIRE(pos.non_pawn_key(BLACK) == pos.compute_non_pawn_key(BLACK));
            REQUIRE(pos.in_check() == checks); // gives_check predicted it
            REQUIRE(pos.captured_piece() == victim);
            REQUIRE(capture == (victim != NO_PIECE));
            REQUIRE(pos.history_length() == before.back().history_length + 1);
            REQUIRE(pos.history_move(pos.history_length() - 1) == m);
            REQUIRE(pos.history_key(pos.history_length() - 1) == before.back().key);
            REQUIRE(pos.history_key(pos.history_length()) == pos.key());
            ++total;
        }
        while (!played.empty()) {
            pos.unmake_move(played.back());
            played.pop_back();
            REQUIRE(snapshot(pos) == before.back());
            REQUIRE(pos.is_consistent());
            before.pop_back();
        }
        REQUIRE(pos.fen() == from_fen(fen).fen());
    }
    return total;
}

} // namespace

TEST_CASE("FEN round trips", "[position]") {
    // Printed exactly as given (clocks, en passant, both notations).
    const char* exact[] = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pp1ppppp/8/2pP4/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 3",
        "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b Kq e3 0 3",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R b Qk - 37 120",
        "4k3/8/8/8/8/8/8/4K3 w - - 100 300",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1",
        "1r4kr/8/8/8/8/8/8/1R4KR b Bh - 5 40",
    };
    for (const char* fen : exact) {
        INFO(fen);
        Position pos = from_fen(fen);
        REQUIRE(pos.fen() == fen);
    }
    Position pos;
    REQUIRE(pos.fen() == Position::START_FEN);
    REQUIRE(pos.key() == pos.compute_key());

    // An en-passant square no pawn can use is dropped (and not hashed).
    pos = from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    REQUIRE(pos.ep_square() == SQ_NONE);
    REQUIRE(pos.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    REQUIRE(pos.key() == from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").key());
    REQUIRE(pos.key() != from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1").key());
    // Four fields: the clocks default to 0 and 1.
    REQUIRE(from_fen("4k3/8/8/8/8/8/8/4K3 b - -").fen() == "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    // Extra blanks are tolerated.
    REQUIRE(from_fen("  4k3/8/8/8/8/8/8/4K3   w  -  -  3  7 ").fen() == "4k3/8/8/8/8/8/8/4K3 w - - 3 7");

    // Every line of both suites: parsed, printed back identically (the
    // Chess960 lines in Shredder letters) and parsed again to the same key.
    int lines = 0, chess960 = 0;
    for (const std::string& fen : suite_fens()) {
        INFO(fen);
        Position p = from_fen(fen);
        REQUIRE(p.fen() == fen);
        Position again = from_fen(p.fen());
        REQUIRE(again.fen() == fen);
        REQUIRE(again.key() == p.key());
        REQUIRE(again.is_chess960() == p.is_chess960());
        REQUIRE(p.is_consistent());
        chess960 += p.is_chess960();
        ++lines;
    }
    REQUIRE(lines == 128 + 960);
    REQUIRE(chess960 > 800); // the fischer lines with castling rights
}

TEST_CASE("bad FENs are refused with a specific message", "[position]") {
    struct Bad {
        const char* fen;
        const char* message;
    };
    const Bad bad[] = {
        // Field count.
        {"", "FEN has 0 fields, expected 6 (or 4)"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w", "FEN has 2 fields, expected 6 (or 4)"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x", "FEN has 7 fields, expected 6 (or 4)"},
        // Board.
        {"rnbqkbnx/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "FEN has a bad piece letter 'x'"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN0 w KQkq - 0 1", "FEN has a bad piece letter '0'"},
        {"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "FEN has a bad piece letter '9'"},
        {"rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "FEN rank 7 does not have 8 squares"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", "FEN rank 1 does not have 8 squares"},
        {"rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "FEN rank 7 has more than 8 squares"},
        {"rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "(accepted)"}, // 4+4 is 8
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR1 w KQkq - 0 1", "FEN rank 1 has more than 8 squares"},
        {"rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "FEN board has fewer than 8 ranks"},
        {"rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "FEN board has more than 8 ranks"},
        {"rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "FEN must have exactly one black king"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w kq - 0 1", "FEN must have exactly one white king"},
        {"8/8/8/8/8/8/8/8 w - - 0 1", "FEN must have exactly one white king"},
        {"P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "FEN has a pawn on the first or last rank"},
        {"4k3/8/8/8/8/8/8/p3K3 b - - 0 1", "FEN has a pawn on the first or last rank"},
        {"QQQQkQQQ/QQQQQQQQ/8/8/8/8/8/4K3 b - - 0 1", "FEN has too many white pieces"},
        {"4k3/pppppppp/n7/8/8/8/8/4K3 w - - 0 1", "(accepted)"},
        {"4k3/pppppppp/nnn5/8/8/8/8/4K3 w - - 0 1", "FEN has too many black pieces"},
        // Side to move.
        {"4k3/8/8/8/8/8/8/4K3 x - - 0 1", "FEN side to move must be 'w' or 'b', not 'x'"},
        {"4k3/8/8/8/8/8/8/4K3 W - - 0 1", "FEN side to move must be 'w' or 'b', not 'W'"},
        {"4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "FEN side not to move is in check"},
        {"4k3/8/8/8/8/8/3p4/4K3 b - - 0 1", "FEN side not to move is in check"},
        // Castling.
        {"4k3/8/8/8/8/8/8/4K2R w Z - 0 1", "FEN castling field has a bad letter 'Z'"},
        {"4k3/8/8/8/8/8/8/4K2R w K- - 0 1", "FEN castling field has a bad letter '-'"},
        {"4k3/8/8/8/8/8/8/4K2R w KK - 0 1", "FEN castling field repeats a right ('K')"},
        {"4k3/8/8/8/8/8/8/4K2R w KH - 0 1", "FEN castling field repeats a right ('H')"},
        {"4k3/8/8/8/8/8/8/4K3 w Kx - 0 1", "FEN castling field has a bad letter 'x'"},
        {"4k3/8/8/8/8/8/4K3/8 w Z - 0 1", "FEN castling field has a bad letter 'Z'"},
        // En passant.
        {"4k3/8/8/8/8/8/8/4K2R w - e9 0 1", "FEN en-passant field 'e9' is not a square"},
        {"4k3/8/8/8/8/8/8/4K2R w - 6e 0 1", "FEN en-passant field '6e' is not a square"},
        {"4k3/8/8/8/8/8/8/4K2R w - e66 0 1", "FEN en-passant field 'e66' is not a square"},
        {"4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1", "(accepted)"},
        // Clocks.
        {"4k3/8/8/8/8/8/8/4K2R w - - x 1", "FEN halfmove clock 'x' is not valid"},
        {"4k3/8/8/8/8/8/8/4K2R w - - -1 1", "FEN halfmove clock '-1' is not valid"},
        {"4k3/8/8/8/8/8/8/4K2R w - - 5x 1", "FEN halfmove clock '5x' is not valid"},
        {"4k3/8/8/8/8/8/8/4K2R w - - 0 -3", "FEN fullmove number '-3' is not valid"},
        {"4k3/8/8/8/8/8/8/4K2R w - - 0 z", "FEN fullmove number 'z' is not valid"},
        {"4k3/8/8/8/8/8/8/4K2R w - - 0 99999999999", "FEN fullmove number '99999999999' is not valid"},
    };

    // The position a refused FEN must leave alone: Chess960, with a history.
    Position pos = from_fen("1r4kr/8/8/8/8/8/PP6/1R4KR w BHbh - 0 1");
    pos.make_move(uci(pos, "a2a4"));
    pos.make_move(uci(pos, "g8h8")); // black king-side castling, 960 notation
    const std::string fen = pos.fen();
    const Key key = pos.key();
    const int history = pos.history_length();
    REQUIRE(fen == "1r3rk1/8/8/8/P7/8/1P6/1R4KR w HB - 1 2");

    int refused = 0;
    for (const Bad& b : bad) {
        INFO("FEN \"" << b.fen << "\"");
        REQUIRE(error_of(b.fen) == b.message);
        if (std::string(b.message) == "(accepted)") continue;
        auto err = pos.set_fen(b.fen).error;
        REQUIRE(err);
        REQUIRE(*err == b.message);
        // Nothing changed: board, state, key, notation and game list.
        REQUIRE(pos.fen() == fen);
        REQUIRE(pos.key() == key);
        REQUIRE(pos.is_chess960());
        REQUIRE(pos.history_length() == history);
        REQUIRE(pos.is_consistent());
        ++refused;
    }
    REQUIRE(refused > 35);
    // And the position still plays on: unmake the history.
    pos.unmake_move(pos.history_move(1));
    pos.unmake_move(pos.history_move(0));
    REQUIRE(pos.fen() == "1r4kr/8/8/8/8/8/PP6/1R4KR w HBhb - 0 1");
}

TEST_CASE("impossible castling rights and en-passant squares are dropped with a warning", "[position]") {
    struct Lenient {
        const char* fen;
        const char* normalised; // what fen() prints after the drop
        const char* warning;
    };
    const Lenient lenient[] = {
        {"2rkr3/2p1p3/8/8/8/8/8/4K2R w KQ - 0 1", "2rkr3/2p1p3/8/8/8/8/8/4K2R w K - 0 1",
         "FEN castling 'Q' has no matching rook: right dropped"},
        {"4k3/8/8/8/8/8/8/4K3 w K - 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
         "FEN castling 'K' has no matching rook: right dropped"},
        {"4k3/8/8/8/8/8/8/R3K3 w K - 0 1", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
         "FEN castling 'K' has no matching rook: right dropped"},
        {"r3k3/8/8/8/8/8/8/4K3 w kq - 0 1", "r3k3/8/8/8/8/8/8/4K3 w q - 0 1",
         "FEN castling 'k' has no matching rook: right dropped"},
        {"4k3/8/8/8/8/8/8/4K2R w B - 0 1", "4k3/8/8/8/8/8/8/4K2R w - - 0 1",
         "FEN castling 'B' has no matching rook: right dropped"},
        {"4k3/8/8/8/8/8/8/4K2R w E - 0 1", "4k3/8/8/8/8/8/8/4K2R w - - 0 1",
         "FEN castling 'E' has no matching rook: right dropped"},
        {"4k3/8/8/8/8/8/4K3/7R w K - 0 1", "4k3/8/8/8/8/8/4K3/7R w - - 0 1",
         "FEN castling 'K' but the king is not on its first rank: right dropped"},
        {"6k1/8/8/3Pq3/8/8/8/6K1 w - e6 0 1", "6k1/8/8/3Pq3/8/8/8/6K1 w - - 0 1",
         "FEN en-passant square e6 does not follow a double pawn push: cleared"},
        {"4k3/8/8/8/8/8/8/4K2R w - e3 0 1", "4k3/8/8/8/8/8/8/4K2R w - - 0 1",
         "FEN en-passant square e3 is on the wrong rank: cleared"},
        {"4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1", "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1",
         "FEN en-passant square e3 is on the wrong rank: cleared"},
        {"4k3/8/8/8/8/8/8/4K2R w - e6 0 1", "4k3/8/8/8/8/8/8/4K2R w - - 0 1",
         "FEN en-passant square e6 does not follow a double pawn push: cleared"},
        {"4k3/4p3/8/3Pp3/8/8/8/4K3 w - e6 0 1", "4k3/4p3/8/3Pp3/8/8/8/4K3 w - - 0 1",
         "FEN en-passant square e6 does not follow a double pawn push: cleared"},
        {"4k3/8/4n3/3Pp3/8/8/8/4K3 w - e6 0 1", "4k3/8/4n3/3Pp3/8/8/8/4K3 w - - 0 1",
         "FEN en-passant square e6 does not follow a double pawn push: cleared"},
    };
    for (const Lenient& l : lenient) {
        INFO("FEN \"" << l.fen << "\"");
        Position pos;
        const SetupResult result = pos.set_fen(l.fen);
        REQUIRE(!result.error);
        REQUIRE(result.warnings == std::vector<std::string>{l.warning});
        REQUIRE(pos.fen() == l.normalised);
        REQUIRE(pos.is_consistent());
        // The normalised FEN reads back as itself, with nothing to drop.
        Position again;
        const SetupResult clean = again.set_fen(pos.fen());
        REQUIRE(!clean.error);
        REQUIRE(clean.warnings.empty());
        REQUIRE(again.fen() == l.normalised);
        REQUIRE(again.key() == pos.key());
    }
    // Both at once, each with its own warning; the remaining right still works.
    Position pos;
    const SetupResult both = pos.set_fen("r3k3/8/8/4pP2/8/8/8/4K2R w KQq d6 0 1");
    REQUIRE(both.warnings.size() == 2);
    REQUIRE(pos.fen() == "r3k3/8/8/4pP2/8/8/8/4K2R w Kq - 0 1");
    REQUIRE(pos.parse_uci_move("e1g1"));
    // A valid en-passant square no pawn can take on is cleared without a word.
    const SetupResult quiet = pos.set_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    REQUIRE(!quiet.error);
    REQUIRE(quiet.warnings.empty());
    REQUIRE(pos.ep_square() == SQ_NONE);
    // A refused FEN reports no warnings, however many it would have had.
    const SetupResult refused = pos.set_fen("4k3/8/8/8/8/8/8/4K3 w KQ e6 0 x");
    REQUIRE(refused.error);
    REQUIRE(refused.warnings.empty());
}

TEST_CASE("X-FEN and Shredder castling notations", "[position]") {
    // KQkq and HAha describe the same standard position; the Shredder letters
    // switch Chess960 mode on, which changes only the printing.
    Position a = from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    Position b = from_fen("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1");
    REQUIRE(!a.is_chess960());
    REQUIRE(b.is_chess960());
    REQUIRE(a.key() == b.key());
    REQUIRE(a.castling_rights() == b.castling_rights());
    for (int idx = 0; idx < 4; ++idx) {
        REQUIRE(a.castling_rook_square(idx) == b.castling_rook_square(idx));
        REQUIRE(a.castling_path(idx) == b.castling_path(idx));
    }
    REQUIRE(a.castling_rook_square(castling_index(WHITE, true)) == SQ_H1);
    REQUIRE(a.castling_rook_square(castling_index(BLACK, false)) == SQ_A8);
    REQUIRE(MoveList(a).size() == MoveList(b).size());
    REQUIRE(a.fen() == "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    REQUIRE(b.fen() == "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1");
    // The caller can ask for Chess960 printing too.
    Position c;
    REQUIRE(!c.set_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", true).error);
    REQUIRE(c.fen() == "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1");
    REQUIRE(c.key() == a.key());

    // Auto-detection: a castling rook off the corner, or a king off e1/e8.
    Position d = from_fen("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1");
    REQUIRE(d.is_chess960());
    REQUIRE(d.fen() == "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1");
    Position e = from_fen("rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1");
    REQUIRE(e.is_chess960());
    REQUIRE(e.fen() == "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1");
    REQUIRE(e.key() == from_fen("rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1").key());
    // No castling rights: nothing to detect.
    REQUIRE(!from_fen("rk5r/8/8/8/8/8/8/RK5R w - - 0 1").is_chess960());

    // X-FEN: K/Q name the outermost rook; a file letter picks an inner one.
    Position outer = from_fen("4k3/8/8/8/8/8/8/4K1RR w K - 0 1");
    REQUIRE(outer.castling_rook_square(castling_index(WHITE, true)) == SQ_H1);
    Position inner = from_fen("4k3/8/8/8/8/8/8/4K1RR w G - 0 1");
    REQUIRE(inner.castling_rook_square(castling_index(WHITE, true)) == SQ_G1);
    REQUIRE(inner.is_chess960());
    REQUIRE(inner.key() == outer.key()); // same rights bit; the rook differs
    REQUIRE(inner.fen() == "4k3/8/8/8/8/8/8/4K1RR w G - 0 1");
    REQUIRE(inner.parse_uci_move("e1g1"));
    REQUIRE(inner.parse_uci_move("e1g1")->type() == MoveType::Castling);
    REQUIRE(!outer.parse_uci_move("e1h1")); // blocked by the g1 rook

    // Castling paths: squares that must be empty.
    REQUIRE(a.castling_path(castling_index(WHITE, true)) == (square_bb(SQ_F1) | square_bb(SQ_G1)));
    REQUIRE(a.castling_path(castling_index(WHITE, false)) ==
            (square_bb(SQ_B1) | square_bb(SQ_C1) | square_bb(SQ_D1)));
}

TEST_CASE("make/unmake restores everything along random games", "[position]") {
    std::mt19937_64 rng(99);
    // 200 games of up to 200 plies from the start position ...
    REQUIRE(play_random_games(std::string(Position::START_FEN), 200, 200, rng) > 20000);
    // ... and two shorter ones from a sample of both suites.
    int plies = 0;
    for (const std::string& fen : suite_fens(8)) plies += play_random_games(fen, 2, 100, rng);
    REQUIRE(plies > 10000);
}

TEST_CASE("make/unmake on hand-picked special moves", "[position]") {
    struct Case {
        const char* fen;
        const char* move;
        const char* after;
    };
    const Case cases[] = {
        // En passant, both colours.
        {"4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1", "d5e6", "4k3/8/4P3/8/8/8/8/4K3 b - - 0 1"},
        {"4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1", "d4e3", "4k3/8/8/8/8/4p3/8/4K3 w - - 0 2"},
        // Double push: the ep square is set only when a pawn can take.
        {"4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", "e2e4", "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1"},
        {"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2e4", "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1"},
        // Promotions, with and without capture.
        {"1n2k3/P7/8/8/8/8/8/4K3 w - - 3 1", "a7a8q", "Qn2k3/8/8/8/8/8/8/4K3 b - - 0 1"},
        {"1n2k3/P7/8/8/8/8/8/4K3 w - - 3 1", "a7b8n", "1N2k3/8/8/8/8/8/8/4K3 b - - 0 1"},
        // Castling, standard and Chess960 (king or rook already on its target).
        {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1"},
        {"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8", "2kr3r/8/8/8/8/8/8/R3K2R w KQ - 1 2"},
        {"4k3/8/8/8/8/8/8/6KR w H - 0 1", "g1h1", "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"},
        {"4k3/8/8/8/8/8/8/4KR2 w F - 0 1", "e1f1", "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"},
        {"4k3/8/8/8/8/8/8/1RK5 w B - 0 1", "c1b1", "4k3/8/8/8/8/8/8/2KR4 b - - 1 1"},
        {"4k3/8/8/8/8/8/8/RK6 w A - 0 1", "b1a1", "4k3/8/8/8/8/8/8/2KR4 b - - 1 1"},
        {"4k3/8/8/8/8/8/8/5RK1 w F - 0 1", "g1f1", "4k3/8/8/8/8/8/8/2KR4 b - - 1 1"}, // queen side
        // Capturing a rook takes the opponent's right away.
        {"r3k2r/8/8/8/8/8/6B1/R3K2R w KQkq - 0 1", "g2a8", "B3k2r/8/8/8/8/8/8/R3K2R b KQk - 0 1"},
    };
    for (const Case& c : cases) {
        INFO(c.fen << " " << c.move);
        Position pos = from_fen(c.fen);
        const Snapshot before = snapshot(pos);
        const Move m = uci(pos, c.move);
        pos.make_move(m);
        REQUIRE(pos.fen() == c.after);
        REQUIRE(pos.is_consistent());
        REQUIRE(pos.key() == from_fen(c.after).key());
        REQUIRE(pos.pawn_key() == from_fen(c.after).pawn_key());
        pos.unmake_move(m);
        REQUIRE(snapshot(pos) == before);
    }
}

TEST_CASE("null move", "[position]") {
    Position pos = from_fen("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2");
    pos.make_move(uci(pos, "f7f5"));
    const Snapshot before = snapshot(pos);
    REQUIRE(pos.ep_square() == SQ_F6);
    pos.make_null();
    REQUIRE(pos.side_to_move() == BLACK);
    REQUIRE(pos.ep_square() == SQ_NONE); // the en-passant chance is gone
    REQUIRE(pos.key() == pos.compute_key());
    REQUIRE(pos.key() != before.key);
    REQUIRE(pos.pawn_key() == before.pawn_key);
    REQUIRE(!pos.in_check());
    REQUIRE(pos.rule50() == 1);
    REQUIRE(pos.fen() == "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR b KQkq - 1 3");
    REQUIRE(pos.is_consistent());
    // Play on from the null move and come back.
    const Move m = uci(pos, "g8f6");
    pos.make_move(m);
    REQUIRE(pos.is_consistent());
    pos.unmake_move(m);
    pos.unmake_null();
    REQUIRE(snapshot(pos) == before);
    REQUIRE(pos.is_consistent());

    // A repetition scan does not look past a null move: with real moves the
    // start position recurring at ply 8 repeats ply 4 (after the root) ...
    Position real;
    for (const char* mv : {"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"})
        real.make_move(uci(real, mv));
    REQUIRE(real.is_repetition(0));
    // ... but not when the cycle went through null moves.
    Position r;
    for (const char* mv : {"g1f3", "g8f6", "f3g1", "f6g8"}) r.make_move(uci(r, mv));
    r.make_null();
    r.make_move(uci(r, "g8f6"));
    r.make_null();
    r.make_move(uci(r, "f6g8"));
    REQUIRE(r.key() == r.history_key(4)); // the same position as before the nulls
    REQUIRE(!r.is_repetition(0));
}

TEST_CASE("the squares a colour attacks", "[position]") {
    Position start;
    // Black's pawns cover rank 6, its pieces defend all of rank 7 and rank 8
    // but the rooks' corners.
    REQUIRE(start.attacks_by(BLACK) ==
            (RANK_6_BB | RANK_7_BB | (RANK_8_BB & ~square_bb(SQ_A8) & ~square_bb(SQ_H8))));
    // Every attacked square is one some piece of that colour attacks, on
    // positions of every kind.
    for (const std::string& fen : suite_fens()) {
        const Position pos = from_fen(fen);
        for (Color c : {WHITE, BLACK}) {
            Bitboard expected = 0;
            for (int s = 0; s < 64; ++s)
                if (pos.attacked_by(c, Square(s), pos.pieces())) expected |= square_bb(Square(s));
            REQUIRE(pos.attacks_by(c) == expected);
        }
    }
}

TEST_CASE("key_after predicts the key of the position after a plain move", "[position]") {
    // Exact for every move that changes neither the castling rights nor the
    // en passant square and is no promotion, castling or en passant capture;
    // a move it cannot see through (a double push) gives some other key.
    int exact = 0, differs = 0;
    for (const std::string& fen : suite_fens()) {
        Position pos = from_fen(fen);
        for (const ScoredMove& sm : MoveList(pos)) {
            const Move m = sm.move;
            const Key predicted = pos.key_after(m);
            const int castling = pos.castling_rights();
            const bool had_ep = pos.ep_square() != SQ_NONE;
            pos.make_move(m);
            const bool plain = m.type() == MoveType::Normal && pos.castling_rights() == castling &&
                               pos.ep_square() == SQ_NONE;
            if (plain) {
                REQUIRE(predicted == pos.key());
                ++exact;
            } else if (!had_ep && pos.ep_square() != SQ_NONE) {
                REQUIRE(predicted != pos.key());
                ++differs;
            }
            pos.unmake_move(m);
        }
    }
    REQUIRE(exact > 500);
    REQUIRE(differs > 0);
}

TEST_CASE("repetition, fifty moves, insufficient material", "[position]") {
    Position pos;
    const char* cycle[] = {"g1f3", "g8f6", "f3g1", "f6g8"};
    for (const char* m : cycle) pos.push_game_move(uci(pos, m));
    // The start position occurred twice: a repetition inside the search tree
    // (root before it) but not yet a three-fold in the game.
    REQUIRE(!pos.is_repetition(pos.history_length()));
    REQUIRE(!pos.is_repetition(0)); // the earlier occurrence is the root itself
    pos.push_game_move(uci(pos, "g1f3"));
    REQUIRE(pos.is_repetition(0));  // repeats ply 1, which is after the root: counts at once
    REQUIRE(!pos.is_repetition(1)); // root at ply 1: needs a third occurrence
    REQUIRE(!pos.is_repetition(pos.history_length()));
    for (const char* m : {"g8f6", "f3g1", "f6g8"}) pos.push_game_move(uci(pos, m));
    REQUIRE(pos.is_repetition(pos.history_length())); // three-fold with the game history
    pos.make_move(uci(pos, "e2e4"));
    REQUIRE(!pos.is_repetition(0)); // irreversible move: nothing before it counts
    REQUIRE(pos.rule50() == 0);

    // Same placement, different castling rights: not a repetition.
    Position c = from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    for (const char* m : {"h1g1", "a8b8", "g1h1", "b8a8"}) c.make_move(uci(c, m));
    REQUIRE(c.fen() == "r3k2r/8/8/8/8/8/8/R3K2R w Qk - 4 3");
    REQUIRE(!c.is_repetition(0));
    for (const char* m : {"h1g1", "a8b8", "g1h1", "b8a8"}) c.make_move(uci(c, m));
    REQUIRE(c.is_repetition(0));  // now the same as four plies ago
    REQUIRE(!c.is_repetition(8)); // from the game's point of view: twice only

    // Fifty-move rule.
    pos = from_fen("4k3/8/8/8/8/8/8/4K2R w - - 99 80");
    REQUIRE(!pos.is_fifty_move_draw());
    pos.make_move(uci(pos, "h1h2"));
    REQUIRE(pos.rule50() == 100);
    REQUIRE(pos.is_fifty_move_draw());
    pos.unmake_move(pos.history_move(0));
    REQUIRE(!pos.is_fifty_move_draw());
    pos = from_fen("4k3/8/8/8/8/8/4P3/4K2R w - - 99 80");
    pos.make_move(uci(pos, "e2e3")); // a pawn move resets the clock
    REQUIRE(!pos.is_fifty_move_draw());
    REQUIRE(pos.rule50() == 0);

    auto insufficient = [](const char* fen) { return from_fen(fen).has_insufficient_material(); };
    REQUIRE(insufficient("4k3/8/8/8/8/8/8/4K3 w - - 0 1"));
    REQUIRE(insufficient("4k3/8/8/8/8/8/8/4KN2 w - - 0 1"));
    REQUIRE(insufficient("4k3/8/8/8/8/8/8/4KB2 w - - 0 1"));
    REQUIRE(insufficient("4kn2/8/8/8/8/8/8/4K3 w - - 0 1"));
    REQUIRE(insufficient("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1"));   // bishops on one colour
    REQUIRE(insufficient("4kb2/8/8/8/8/B7/8/2B1K3 w - - 0 1"));  // several, still one colour
    REQUIRE(!insufficient("4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1")); // opposite colours
    REQUIRE(!insufficient("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1"));   // two knights
    REQUIRE(!insufficient("4kn2/8/8/8/8/8/8/4KB2 w - - 0 1"));   // knight against bishop
    REQUIRE(!insufficient("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"));
    REQUIRE(!insufficient("4k3/8/8/8/8/8/8/4K2R w - - 0 1"));
    REQUIRE(!insufficient("4k3/8/8/8/8/8/8/3QK3 w - - 0 1"));
    REQUIRE(!insufficient("4k3/p7/8/8/8/8/8/4K3 w - - 0 1"));
}

TEST_CASE("UCI move text", "[position]") {
    Position pos = from_fen("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1");
    // Standard castling is written as the king's two-square move and stored
    // as king-takes-rook.
    Move oo = uci(pos, "e1g1");
    REQUIRE(oo.type() == MoveType::Castling);
    REQUIRE(oo.from() == SQ_E1);
    REQUIRE(oo.to() == SQ_H1);
    REQUIRE(pos.move_to_uci(oo) == "e1g1");
    REQUIRE(pos.move_to_uci(uci(pos, "e1c1")) == "e1c1");
    REQUIRE(uci(pos, "e1c1").to() == SQ_A1);
    REQUIRE(!pos.parse_uci_move("e1h1")); // 960 notation, not in standard mode
    // Promotions: lower-case letter, every piece; upper case is accepted.
    REQUIRE(uci(pos, "b7a8q").promotion() == QUEEN);
    REQUIRE(uci(pos, "b7b8N").promotion() == KNIGHT);
    REQUIRE(pos.move_to_uci(Move(SQ_B7, SQ_B8, MoveType::Promotion, KNIGHT)) == "b7b8n");
    REQUIRE(pos.move_to_uci(Move(SQ_B7, SQ_B8, MoveType::Promotion, BISHOP)) == "b7b8b");
    REQUIRE(pos.move_to_uci(Move(SQ_B7, SQ_A8, MoveType::Promotion, ROOK)) == "b7a8r");
    REQUIRE(pos.move_to_uci(Move(SQ_B7, SQ_A8, MoveType::Promotion, QUEEN)) == "b7a8q");
    REQUIRE(pos.move_to_uci(Move::none()) == "0000");
    REQUIRE(pos.move_to_uci(Move::null()) == "0000");
    // Refused: malformed, illegal, or missing the promotion piece.
    for (const char* text :
         {"",     "e1",    "e1g",   "zz",    "e1g1xx", "e1g1 ", " e1g1", "i1g1", "e0e1", "e1e1", "0000",
          "b7b8", "b7b8k", "b7b8p", "b7b8x", "a1a8q",  "e1e3",  "e1d3",  "e8d8", "a1b2", "h1h8 "}) {
        INFO("\"" << text << "\"");
        REQUIRE(!pos.parse_uci_move(text));
    }
    // A pinned piece and a king walking into check are illegal.
    Position pin = from_fen("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
    REQUIRE(!pin.parse_uci_move("e2c3"));
    REQUIRE(pin.parse_uci_move("e1f2"));
    REQUIRE(!pin.parse_uci_move("e1e2")); // own piece
    Position check = from_fen("4k3/8/8/8/8/8/8/3rK3 w - - 0 1");
    REQUIRE(!check.parse_uci_move("e1f1")); // along the checking line
    REQUIRE(!check.parse_uci_move("e1d2"));
    REQUIRE(check.parse_uci_move("e1e2"));
    REQUIRE(check.parse_uci_move("e1d1"));

    // Chess960: castling is written king-takes-rook.
    Position c960 = from_fen("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1");
    REQUIRE(uci(c960, "e1h1").type() == MoveType::Castling);
    REQUIRE(!c960.parse_uci_move("e1g1"));
    REQUIRE(c960.move_to_uci(uci(c960, "e1a1")) == "e1a1");
    // King next to its rook: f1g1 is a plain king step, f1h1 castles.
    Position k = from_fen("4k3/8/8/8/8/8/8/5K1R w H - 0 1");
    REQUIRE(uci(k, "f1g1").type() == MoveType::Normal);
    REQUIRE(uci(k, "f1h1").type() == MoveType::Castling);
    REQUIRE(k.move_to_uci(Move(SQ_F1, SQ_H1, MoveType::Castling)) == "f1h1");

    // Every legal move along random games prints and parses back to itself.
    std::mt19937_64 rng(3);
    for (const std::string& fen : suite_fens(32)) {
        Position p = from_fen(fen);
        for (int ply = 0; ply < 60; ++ply) {
            MoveList list(p);
            if (list.size() == 0) break;
            for (const ScoredMove& sm : list) {
                std::string text = p.move_to_uci(sm.move);
                INFO(p.fen() << " " << text);
                REQUIRE(text.size() == (sm.move.type() == MoveType::Promotion ? 5u : 4u));
                REQUIRE(p.parse_uci_move(text) == sm.move);
            }
            p.make_move(list.begin()[rng() % list.size()].move);
        }
    }
}

TEST_CASE("a game of any length fits: the game list keeps its last plies", "[position]") {
    Position pos;
    const char* cycle[] = {"g1f3", "g8f6", "f3g1", "f6g8"};
    constexpr int PLIES = 10000;
    for (int played = 0; played < PLIES; ++played) {
        pos.push_game_move(uci(pos, cycle[played % 4]));
        REQUIRE(pos.history_length() < MAX_GAME_PLY);
    }
    REQUIRE(pos.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 10000 5001");
    REQUIRE(pos.game_ply() == PLIES);
    REQUIRE(pos.history_length() > Position::HISTORY_KEPT);
    REQUIRE(pos.history_key(pos.history_length()) == pos.key());
    REQUIRE(pos.history_key(pos.history_length() - 4) == pos.key());
    REQUIRE(pos.history_move(pos.history_length() - 1) == Move(SQ_F6, SQ_G8));
    REQUIRE(pos.is_consistent());
    REQUIRE(pos.is_repetition(pos.history_length()));
    // The search still has room for a full line beyond a full game list.
    const int length = pos.history_length();
    for (int i = 0; i < MAX_PLY; ++i) pos.make_move(uci(pos, cycle[i % 4]));
    REQUIRE(pos.is_consistent());
    for (int i = MAX_PLY - 1; i >= 0; --i) pos.unmake_move(pos.history_move(pos.history_length() - 1));
    REQUIRE(pos.history_length() == length);
    REQUIRE(pos.is_consistent());
}

TEST_CASE("repetitions are found across the game list's compaction", "[position]") {
    // Random games that mostly take back their own last move (so positions
    // recur), checked against every key of the game kept aside.
    std::mt19937_64 rng(27);
    Position pos;
    std::vector<Key> keys{pos.key()};
    std::vector<Move> played;
    int repetitions = 0, compactions = 0;
    for (int ply = 0; ply < 6000; ++ply) {
        MoveList list(pos);
        if (list.size() == 0 || pos.is_fifty_move_draw()) {
            pos = Position();
            keys = {pos.key()};
            played.clear();
            continue;
        }
        std::optional<Move> m;
        if (played.size() >= 2 && rng() % 8 != 0) {
            const Move own = played[played.size() - 2];
            m = pos.parse_uci_move(pos.move_to_uci(Move(own.to(), own.from())));
        }
        if (!m) m = list.begin()[rng() % list.size()].move;
        const int length = pos.history_length();
        pos.push_game_move(*m);
        compactions += pos.history_length() < length;
        played.push_back(*m);
        keys.push_back(pos.key());
        // Three-fold: two earlier occurrences since the last irreversible move.
        const int n = int(keys.size()) - 1;
        int seen = 0;
        for (int i = n - 4; i >= n - pos.rule50() && i >= 0; i -= 2)
            seen += keys[std::size_t(i)] == keys[std::size_t(n)];
        INFO("ply " << ply << " " << pos.fen());
        REQUIRE(pos.is_repetition(pos.history_length()) == (seen >= 2));
        repetitions += seen >= 2;
    }
    REQUIRE(repetitions > 100);
    REQUIRE(compactions > 0);
}
