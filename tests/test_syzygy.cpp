// Syzygy tablebases (staccato/syzygy/): the prober on real table files.
//
//   [syzygy]       the repository's small tables (tests/data/syzygy): fixed
//                  positions with fathom's values, consistency of WDL and DTZ
//                  with the values after every move over random positions,
//                  root move ranking, broken files, SyzygyPath parsing.
//   [syzygy-full]  the same consistency checks over every table of the
//                  shared set (../shared/data/syzygy, or STACCATO_SYZYGY_FULL):
//                  hidden ([.syzygy-full]), run by the ctest test
//                  `syzygy-full` (label syzygy-full), which reports itself
//                  skipped when the folder is absent.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "staccato/movegen.h"
#include "staccato/syzygy/table.h"
#include "staccato/syzygy/tablebase.h"
#include "staccato/syzygy/tbbench.h"
#include "suite.h"
#include "temp_path.h"
#include "uci_session.h"

using namespace staccato;
using namespace staccato::syzygy;
using staccato::test::data_lines;
using staccato::test::from_fen;
using staccato::test::temp_folder;

namespace {

const std::string REPO_TABLES = std::string(STACCATO_TEST_DATA) + "/syzygy";
const char* const REPO_TABLE_NAMES[] = {"KQvK",  "KRvK",  "KBvK",  "KNvK", "KPvK",
                                        "KRvKR", "KRvKB", "KQvKQ", "KPvKP"};

int sign(int v) { return (v > 0) - (v < 0); }

bool is_zeroing(const Position& pos, Move m) {
    return pos.is_capture(m) || type_of(pos.moved_piece(m)) == PAWN;
}

int dtz_before_zeroing(int wdl) {
    return wdl == 2 ? 1 : wdl == 1 ? 101 : wdl == -1 ? -101 : wdl == -2 ? -1 : 0;
}

enum class Check { Passed, Failed, Skipped };

// WDL against the values after each move: the plain game value (win, draw,
// loss, the 50-move rule aside) is the best of the negated values after
// the moves; a win within the rule has a move to a loss within the rule,
// a loss within the rule has only moves to such wins, and a draw has a move
// to a draw and none to any loss. Skipped where a probe fails (a move into
// a table that is not there).
Check check_wdl(const Tablebases& tb, Position& pos, std::string& why) {
    const auto w = tb.probe_wdl(pos);
    if (!w) return Check::Skipped;
    const int v = int(*w);
    const MoveList moves(pos);
    if (moves.size() == 0) {
        const int expected = pos.in_check() ? -2 : 0;
        why = "no legal move: WDL " + std::to_string(v) + ", expected " + std::to_string(expected);
        return v == expected ? Check::Passed : Check::Failed;
    }
    int best_sign = -2;
    bool to_loss = false, to_any_loss = false, to_draw = false, all_to_win = true;
    for (const ScoredMove& sm : moves) {
        pos.make_move(sm.move);
        const auto cw = tb.probe_wdl(pos);
        pos.unmake_move(sm.move);
        if (!cw) return Check::Skipped;
        const int c = int(*cw);
        best_sign = std::max(best_sign, -sign(c));
        to_loss |= c == -2;
        to_any_loss |= c < 0;
        to_draw |= c == 0;
        all_to_win &= c == 2;
    }
    std::ostringstream os;
    os << "WDL " << v << ": best plain value after a move " << best_sign << ", to loss " << to_loss
       << ", to any loss " << to_any_loss << ", to draw " << to_draw << ", all to win " << all_to_win;
    why = os.str();
    bool ok = sign(v) == best_sign;
    if (v == 2) ok &= to_loss;
    if (v == -2) ok &= all_to_win;
    if (v == 0) ok &= to_draw && !to_any_loss;
    return ok ? Check::Passed : Check::Failed;
}

// DTZ against the values after each move: in the range of its WDL class,
// and within one ply of the best (winning) or longest (losing) way to the
// next zeroing move, counted from the values after each move (the format
// may round a distance up by one ply).
Check check_dtz(const Tablebases& tb, Position& pos, std::string& why) {
    const auto w = tb.probe_wdl(pos);
    const auto d = tb.probe_dtz(pos);
    if (!w || !d) return Check::Skipped;
    const int v = int(*w), dtz = *d;
    std::ostringstream os;
    os << "WDL " << v << " DTZ " << dtz;
    why = os.str();
    const bool in_range = v == 2    ? dtz >= 1 && dtz <= 100
                          : v == 1  ? dtz > 100
                          : v == 0  ? dtz == 0
                          : v == -1 ? dtz < -100
                                    : dtz <= -1 && dtz >= -100;
    if (!in_range) return Check::Failed;
    const MoveList moves(pos);
    if (v == 0 || moves.size() == 0)
        return dtz == 0 || (moves.size() == 0 && dtz == -1) ? Check::Passed : Check::Failed;
    int best = v > 0 ? 1 << 20 : 0;
    for (const ScoredMove& sm : moves) {
        const bool zeroing = is_zeroing(pos, sm.move);
        pos.make_move(sm.move);
        std::optional<int> cand;
        if (zeroing) {
            if (const auto cw = tb.probe_wdl(pos)) cand = dtz_before_zeroing(-int(*cw));
        } else if (pos.in_check() && count_legal_moves(pos) == 0) {
            cand = 1;
        } else if (const auto cd = tb.probe_dtz(pos)) {
            cand = -*cd + sign(-*cd);
        }
        pos.unmake_move(sm.move);
        if (!cand) return Check::Skipped;
        if (sign(*cand) == sign(v)) best = std::min(best, *cand);
    }
    why += ", best by the moves " + std::to_string(best);
    return std::abs(best - dtz) <= 1 ? Check::Passed : Check::Failed;
}

struct Tally {
    int passed = 0, skipped = 0;
};

// `count` random positions of each table named, both checks each; fails
// (with the position) on the first inconsistency.
Tally check_tables(const Tablebases& tb, const std::vector<std::string>& names, int count, bool with_dtz,
                   std::uint64_t seed) {
    Tally t;
    for (const std::string& name : names) {
        const auto m = Material::from_name(name);
        REQUIRE(m);
        Rng rng(seed ^ std::hash<std::string>{}(name));
        for (int i = 0; i < count; ++i) {
            auto pos = random_position(*m, rng, i % 4 == 3);
            if (!pos) continue;
            std::string why;
            for (int which = 0; which < (with_dtz ? 2 : 1); ++which) {
                const Check c = which == 0 ? check_wdl(tb, *pos, why) : check_dtz(tb, *pos, why);
                if (c == Check::Failed) {
                    INFO(name << " " << pos->fen() << ": " << why);
                    FAIL((which == 0 ? "WDL" : "DTZ") << " inconsistent");
                }
                (c == Check::Passed ? t.passed : t.skipped)++;
            }
        }
    }
    return t;
}

const Tablebases& repo_tablebases() {
    static Tablebases tb;
    static const LoadReport report = tb.load(REPO_TABLES);
    (void)report;
    return tb;
}

std::vector<std::string> repo_names() { return {std::begin(REPO_TABLE_NAMES), std::end(REPO_TABLE_NAMES)}; }

// "FEN ; wdl W ; dtz D ; moves WIN DRAW LOSS" (tests/data/syzygy/positions.epd).
struct Expected {
    std::string fen;
    int wdl = 0, dtz = 0;
    std::array<int, 3> moves{}; // fathom's winning, drawing, losing move counts
};

std::vector<Expected> expected_positions() {
    std::vector<Expected> out;
    for (const std::string& line : data_lines("syzygy/positions.epd")) {
        Expected e;
        std::istringstream fields(line);
        std::string field;
        std::getline(fields, e.fen, ';');
        while (!e.fen.empty() && e.fen.back() == ' ') e.fen.pop_back();
        while (std::getline(fields, field, ';')) {
            std::istringstream f(field);
            std::string key;
            f >> key;
            if (key == "wdl") f >> e.wdl;
            if (key == "dtz") f >> e.dtz;
            if (key == "moves") f >> e.moves[0] >> e.moves[1] >> e.moves[2];
            INFO(line);
            REQUIRE(!f.fail());
        }
        out.push_back(e);
    }
    return out;
}

std::vector<char> read_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::string& path, const std::vector<char>& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
}

} // namespace

TEST_CASE("syzygy: the repository's tables are found", "[syzygy]") {
    Tablebases tb;
    const LoadReport r = tb.load(REPO_TABLES);
    CHECK(r.wdl_files == 9);
    CHECK(r.dtz_files == 9);
    CHECK(r.max_pieces == 4);
    CHECK(r.bad_folders.empty());
    CHECK(r.summary() == "found 9 WDL and 9 DTZ tablebase files (up to 4 pieces)");
}

// Calls f(expected, position) for every line of positions.epd; returns their number.
template <typename F> int for_each_expected(F&& f) {
    int n = 0;
    for (const Expected& e : expected_positions()) {
        Position pos = from_fen(e.fen);
        INFO(e.fen);
        f(e, pos);
        ++n;
    }
    return n;
}

TEST_CASE("syzygy: WDL and DTZ of fixed positions match fathom's", "[syzygy]") {
    const Tablebases& tb = repo_tablebases();
    const int probed = for_each_expected([&](const Expected& e, Position& pos) {
        const auto w = tb.probe_wdl(pos);
        const auto d = tb.probe_dtz(pos);
        REQUIRE(w);
        REQUIRE(d);
        CHECK(int(*w) == e.wdl);
        CHECK(*d == e.dtz);
        CHECK(pos.fen() == from_fen(e.fen).fen()); // the probes leave the position as it was
    });
    CHECK(probed >= 100);
}

TEST_CASE("syzygy: WDL and DTZ agree with the values after every move", "[syzygy]") {
    const Tally t = check_tables(repo_tablebases(), repo_names(), 250, true, 1);
    INFO(t.passed << " checks passed, " << t.skipped << " skipped");
    CHECK(t.passed > 9 * 250 * 2 * 8 / 10);
}

// The root moves the search keeps: those of the best rank.
std::vector<Move> kept_root_moves(const Tablebases& tb, Position& pos) {
    std::vector<RootRank> moves;
    for (const ScoredMove& sm : MoveList(pos)) moves.push_back({sm.move});
    const auto source = tb.rank_root_moves(pos, moves, true);
    REQUIRE((moves.empty() || source == Tablebases::RootSource::Dtz));
    return best_ranked(moves);
}

TEST_CASE("syzygy: root ranking keeps exactly the moves that keep the result", "[syzygy]") {
    const Tablebases& tb = repo_tablebases();
    const int ranked = for_each_expected([&](const Expected& e, Position& pos) {
        const std::vector<Move> kept = kept_root_moves(tb, pos);
        if (MoveList(pos).size() == 0) return;
        // fathom's counts: the moves to a win, a draw, a loss.
        const int best_class = e.moves[0] ? 0 : e.moves[1] ? 1 : 2;
        if (best_class == 2)
            CHECK(!kept.empty()); // all moves lose: the longest resistance
        else
            CHECK(int(kept.size()) == e.moves[best_class]);
        for (Move m : kept) {
            // Every kept move keeps the root's result.
            pos.make_move(m);
            const auto after = tb.probe_wdl(pos);
            pos.unmake_move(m);
            REQUIRE(after);
            CHECK(sign(-int(*after)) == sign(e.wdl));
        }
    });
    CHECK(ranked >= 100);

    // Wins the 50-move counter would spoil are not kept. KQvK, 11 plies to
    // mate, with 85 plies on the counter: every move kept still mates in time.
    Position late = from_fen("8/8/8/8/8/2k5/8/KQ6 w - - 85 120");
    const std::vector<Move> kept = kept_root_moves(tb, late);
    CHECK(!kept.empty());
    for (Move m : kept) {
        late.make_move(m);
        const auto d = tb.probe_dtz(late);
        late.unmake_move(m);
        REQUIRE(d);
        CHECK(-*d + 1 + 85 <= 99); // still converted under the rule
    }
}

TEST_CASE("syzygy: castling rights, too many pieces and missing tables are not probed", "[syzygy]") {
    const Tablebases& tb = repo_tablebases();
    Position castling = from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    CHECK(!tb.probe_wdl(castling));
    CHECK(!tb.probe_dtz(castling));
    Position five = from_fen("4k3/8/8/8/8/8/8/R3K2R w - - 0 1");
    CHECK(!tb.probe_wdl(five));
    Position missing = from_fen("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1"); // KBBvK is not in the repository
    CHECK(!tb.probe_wdl(missing));
    CHECK(!tb.probe_dtz(missing));
    Position bare = from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    CHECK(tb.probe_wdl(bare) == Wdl::Draw);
    CHECK(tb.probe_dtz(bare) == 0);
    Tablebases none;
    CHECK(none.load("").wdl_files == 0);
    CHECK(none.load("<empty>").wdl_files == 0);
    CHECK(!none.probe_wdl(bare));
}

TEST_CASE("syzygy: several folders, the first wins, a bad folder is reported", "[syzygy]") {
    const std::string a = temp_folder("a");
    const std::string sep(1, PATH_SEPARATOR);
    std::filesystem::copy_file(REPO_TABLES + "/KQvK.rtbw", a + "/KQvK.rtbw");
    std::filesystem::copy_file(REPO_TABLES + "/KRvK.rtbw", a + "/KRvK.rtbw");
    std::ofstream(a + "/README.txt") << "not a table";
    std::ofstream(a + "/KXvK.rtbw") << "not a table name";
    Tablebases tb;
    const LoadReport r = tb.load(a + sep + "/no/such/folder" + sep + sep + REPO_TABLES);
    CHECK(r.wdl_files == 9);
    CHECK(r.dtz_files == 9);
    REQUIRE(r.bad_folders.size() == 1);
    CHECK(r.bad_folders[0] == "/no/such/folder");
    Position pos = from_fen("8/8/8/8/8/2k5/8/KQ6 w - - 0 1");
    CHECK(tb.probe_wdl(pos) == Wdl::Win);
    CHECK(tb.probe_dtz(pos) == 11);
    std::filesystem::remove_all(a);
}

TEST_CASE("syzygy: truncated, corrupted and empty files fail cleanly", "[syzygy]") {
    const std::string dir = temp_folder("broken");
    const std::vector<std::string> fens = {
        "8/8/8/8/8/2k5/8/KQ6 w - - 0 1", "8/8/8/8/8/2k5/8/KQ6 b - - 0 1", "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
        "8/2k5/8/8/8/8/1r6/KR6 b - - 0 1", "8/8/8/3pP3/8/2k5/8/K7 w - d6 0 1"};
    auto probe_all = [&](const Tablebases& tb, bool expect_fail) {
        for (const std::string& fen : fens) {
            Position pos = from_fen(fen);
            const auto w = tb.probe_wdl(pos);
            const auto d = tb.probe_dtz(pos);
            if (expect_fail) CHECK(!(w && d));
            CHECK(pos.fen() == from_fen(fen).fen());
        }
    };
    auto fresh_copy = [&](auto&& change) {
        std::filesystem::remove_all(dir);
        std::filesystem::create_directories(dir);
        for (const char* name : REPO_TABLE_NAMES)
            for (const char* ext : {".rtbw", ".rtbz"}) {
                auto bytes = read_bytes(REPO_TABLES + "/" + name + ext);
                change(std::string(name) + ext, bytes);
                write_bytes(dir + "/" + name + ext, bytes);
            }
        Tablebases tb;
        tb.load(dir);
        return tb.max_pieces();
    };
    SECTION("truncated") {
        for (std::size_t keep :
             {std::size_t(0), std::size_t(3), std::size_t(16), std::size_t(80), std::size_t(200)}) {
            std::filesystem::remove_all(dir);
            std::filesystem::create_directories(dir);
            for (const char* name : REPO_TABLE_NAMES)
                for (const char* ext : {".rtbw", ".rtbz"}) {
                    auto bytes = read_bytes(REPO_TABLES + "/" + name + ext);
                    bytes.resize(std::min(bytes.size(), keep));
                    write_bytes(dir + "/" + name + ext, bytes);
                }
            Tablebases tb;
            tb.load(dir);
            probe_all(tb, true);
        }
        // Cut by a block at the end (the size no longer fits the format).
        std::filesystem::remove_all(dir);
        std::filesystem::create_directories(dir);
        for (const char* name : REPO_TABLE_NAMES)
            for (const char* ext : {".rtbw", ".rtbz"}) {
                auto bytes = read_bytes(REPO_TABLES + "/" + name + ext);
                bytes.resize(bytes.size() - 64);
                write_bytes(dir + "/" + name + ext, bytes);
            }
        Tablebases tb;
        tb.load(dir);
        probe_all(tb, false); // whatever the prober makes of it, it must not crash
    }
    SECTION("wrong magic") {
        fresh_copy([](const std::string&, std::vector<char>& b) { b[0] ^= 1; });
        Tablebases tb;
        tb.load(dir);
        probe_all(tb, true);
    }
    SECTION("random bytes changed") {
        Rng rng(7);
        for (int round = 0; round < 40; ++round) {
            fresh_copy([&](const std::string&, std::vector<char>& b) {
                for (int k = 0; k < 8; ++k) b[4 + rng.below(b.size() - 4)] = char(rng());
            });
            Tablebases tb;
            tb.load(dir);
            probe_all(tb, false);
            Rng pos_rng{std::uint64_t(round)};
            for (const char* name : REPO_TABLE_NAMES)
                for (int i = 0; i < 20; ++i)
                    if (auto pos = random_position(*Material::from_name(name), pos_rng, false)) {
                        (void)tb.probe_wdl(*pos);
                        (void)tb.probe_dtz(*pos);
                    }
        }
    }
    SECTION("header bytes changed") {
        // Every byte of the headers, one at a time, of a pawnless and a pawn table.
        for (const char* file : {"KRvKR.rtbw", "KPvKP.rtbz", "KQvK.rtbz"}) {
            const auto original = read_bytes(REPO_TABLES + "/" + file);
            for (std::size_t at = 4; at < std::min<std::size_t>(original.size(), 120); ++at) {
                std::filesystem::remove_all(dir);
                std::filesystem::create_directories(dir);
                auto bytes = original;
                bytes[at] = char(bytes[at] ^ 0x5A);
                write_bytes(dir + "/" + file, bytes);
                Tablebases tb;
                tb.load(dir);
                probe_all(tb, false);
            }
        }
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("syzygy: every table of the shared set is consistent", "[.syzygy-full]") {
    const char* env = std::getenv("STACCATO_SYZYGY_FULL");
    const std::string folder = env && *env ? env : STACCATO_SYZYGY_FULL_DEFAULT;
    std::vector<std::string> names;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".rtbw") names.push_back(it->path().stem().string());
    if (names.empty()) {
        // ctest's SKIP_REGULAR_EXPRESSION turns this into "skipped".
        WARN("SYZYGY-FULL SKIPPED: no tables in " << folder);
        return;
    }
    std::sort(names.begin(), names.end());
    Tablebases tb;
    const LoadReport r = tb.load(folder);
    INFO(r.summary());
    const Tally t = check_tables(tb, names, 2000, true, 2);
    WARN(names.size() << " tables, " << t.passed << " checks passed, " << t.skipped << " skipped");
    CHECK(t.passed > int(names.size()) * 2000);
}

// ---------------------------------------------------------------------------
// The engine with tables: options, root filtering, probes in the search.
// ---------------------------------------------------------------------------
TEST_CASE("syzygy: UCI options, root filtering and tbhits", "[syzygy][uci]") {
    staccato::test::UciSession s;
    s.send("uci");
    CHECK(s.count("option name SyzygyPath type string default <empty>") == 1);
    CHECK(s.count("option name SyzygyProbeDepth type spin default 1 min 1 max 100") == 1);
    CHECK(s.count("option name Syzygy50MoveRule type check default true") == 1);
    CHECK(s.count("option name SyzygyProbeLimit type spin default 7 min 0 max 7") == 1);

    // A bad folder is reported; the good one is used.
    const std::string sep(1, PATH_SEPARATOR);
    s.send("setoption name SyzygyPath value /no/such/folder" + sep + REPO_TABLES);
    CHECK(s.count_containing("folder '/no/such/folder' not found or not readable") == 1);
    CHECK(s.last() == "info string SyzygyPath: found 9 WDL and 9 DTZ tablebase files (up to 4 pieces)");

    // Rxh7 is the only winning move (fathom: 1 wins, 7 draw, 13 lose).
    s.send("position fen 8/5k1r/8/8/8/7R/1K6/8 w - - 0 1");
    s.send("go depth 6");
    s.engine.wait_until_idle();
    CHECK(s.last().rfind("bestmove h3h7", 0) == 0);
    const std::string info = s.last_starting("info depth");
    CHECK(info.find(" score cp 31871 ") != std::string::npos);
    CHECK(info.find(" tbhits ") != std::string::npos);

    // A drawn KRvKR with 4 losing moves (fathom): the engine plays a drawing one.
    s.send("position fen 5K2/8/8/7R/4k3/8/3r4/8 w - - 0 1");
    s.send("go depth 8");
    s.engine.wait_until_idle();
    Position drawn = from_fen("5K2/8/8/7R/4k3/8/3r4/8 w - - 0 1");
    const std::string best = s.last().substr(9, 4);
    const auto m = drawn.parse_uci_move(best);
    REQUIRE(m);
    drawn.make_move(*m);
    const auto after = repo_tablebases().probe_wdl(drawn);
    REQUIRE(after);
    CHECK(*after == Wdl::Draw);
    CHECK(s.last_starting("info depth").find(" score cp 0 ") != std::string::npos);

    // Probes in the search: a 5-piece root (not in the tables) whose captures lead into them.
    s.send("position fen 8/8/4k3/8/2r5/8/3K4/2R2Q2 w - - 0 1");
    s.send("go depth 6");
    s.engine.wait_until_idle();
    const std::string deep = s.last_starting("info depth");
    const auto at = deep.find(" tbhits ");
    REQUIRE(at != std::string::npos);
    CHECK(std::stoll(deep.substr(at + 8)) > 0);

    // SyzygyProbeLimit 0: no probes; no path: no tbhits field.
    s.send("setoption name SyzygyProbeLimit value 0");
    s.send("go depth 4");
    s.engine.wait_until_idle();
    CHECK(s.last_starting("info depth").find(" tbhits 0 ") != std::string::npos);
    s.send("setoption name SyzygyPath value <empty>");
    CHECK(s.last() == "info string SyzygyPath: found 0 WDL and 0 DTZ tablebase files (up to 0 pieces)");
    s.send("go depth 4");
    s.engine.wait_until_idle();
    CHECK(s.last_starting("info depth").find("tbhits") == std::string::npos);
}
