#include "staccato/genfens.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "staccato/movegen.h"
#include "staccato/parse.h"
#include "staccato/position.h"
#include "staccato/thread.h"
#include "staccato/tt.h"

namespace staccato {

namespace {

constexpr const char* USAGE = "usage: genfens N seed S book <None|FILE> [PLIES]";
constexpr int TT_MB = 4;

struct Rng { // splitmix64: any seed, 0 included, gives a usable stream
    std::uint64_t s;
    std::uint64_t next() {
        std::uint64_t z = (s += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    std::size_t below(std::size_t n) { return std::size_t(next() % n); }
};

bool game_over(const Position& pos) {
    return count_legal_moves(pos) == 0 || pos.is_fifty_move_draw() || pos.has_insufficient_material() ||
           pos.is_repetition(pos.history_length());
}

// A book line as a FEN: the four board fields, then the two counters when
// the line has them as numbers (a FEN), else "0 1" (an EPD's operations are
// dropped). nullopt: not a position.
std::optional<std::string> book_fen(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> fields;
    for (std::string f; fields.size() < 6 && in >> f;) fields.push_back(f);
    if (fields.size() < 4) return std::nullopt;
    std::string fen = fields[0] + ' ' + fields[1] + ' ' + fields[2] + ' ' + fields[3];
    const bool counters = fields.size() == 6 && parse_number<unsigned>(fields[4]) &&
                          parse_number<unsigned>(fields[5]) && *parse_number<unsigned>(fields[5]) > 0;
    fen += counters ? ' ' + fields[4] + ' ' + fields[5] : std::string(" 0 1");
    Position pos;
    if (pos.set_fen(fen).error || game_over(pos)) return std::nullopt;
    return fen;
}

} // namespace

std::variant<GenfensRequest, std::string> parse_genfens(const std::vector<std::string_view>& args) {
    GenfensRequest r;
    auto fail = [](const std::string& why) { return "genfens: " + why + " (" + USAGE + ")"; };
    if (args.empty()) return fail("missing N");
    const auto count = parse_number<int>(args[0]);
    if (!count || *count < 1 || *count > GENFENS_MAX_COUNT)
        return fail("N must be a number from 1 to " + std::to_string(GENFENS_MAX_COUNT));
    r.count = *count;
    if (args.size() < 3 || args[1] != "seed") return fail("missing seed");
    const auto seed = parse_number<std::uint64_t>(args[2]);
    if (!seed) return fail("the seed must be a number from 0 to 2^64-1");
    r.seed = *seed;
    if (args.size() < 5 || args[3] != "book") return fail("missing book (a file, or None)");
    if (args[4] != "None" && args[4] != "none" && args[4] != "NONE") r.book = args[4];
    if (args.size() > 6) return fail("too many fields");
    if (args.size() == 6) {
        const auto plies = parse_number<int>(args[5]);
        if (!plies || *plies < 0 || *plies > GENFENS_MAX_PLIES)
            return fail("PLIES must be a number from 0 to " + std::to_string(GENFENS_MAX_PLIES));
        r.plies = *plies;
    }
    return r;
}

std::optional<std::string> run_genfens(const GenfensRequest& request, const nnue::Network* net,
                                       const std::function<void(std::string_view)>& out, std::ostream& log) {
    std::vector<std::string> book;
    if (!request.book.empty()) {
        std::ifstream in(request.book);
        if (!in) return "genfens: cannot read the book " + request.book;
        int bad = 0;
        for (std::string line; std::getline(in, line);) {
            if (line.find_first_not_of(" \t\r") == std::string::npos) continue; // blank
            if (auto fen = book_fen(line))
                book.push_back(std::move(*fen));
            else
                ++bad;
        }
        if (bad > 0)
            log << "genfens: skipped " << bad << " book line" << (bad == 1 ? "" : "s")
                << " that are no playable position in " << request.book << std::endl;
        if (book.empty()) return "genfens: no playable position in the book " + request.book;
    }
    const int plies = request.plies >= 0 ? request.plies
                      : book.empty()     ? GENFENS_PLIES_NO_BOOK
                                         : GENFENS_PLIES_BOOK;

    Rng rng{request.seed};
    TranspositionTable tt(TT_MB);
    ThreadPool pool(tt);
    pool.set_network(net);
    SearchLimits limits;
    limits.nodes = GENFENS_NODES;
    for (int printed = 0; printed < request.count; ++printed) {
        bool found = false;
        for (int tries = 0; tries < GENFENS_MAX_TRIES && !found; ++tries) {
            Position pos;
            if (pos.set_fen(book.empty() ? std::string(Position::START_FEN) : book[rng.below(book.size())])
                    .error)
                continue; // cannot happen: every book line was checked
            bool ok = true;
            for (int i = 0; i < plies && ok; ++i) {
                MoveList legal(pos);
                ok = legal.size() > 0;
                if (ok) pos.push_game_move(legal.begin()[rng.below(std::size_t(legal.size()))].move);
            }
            if (!ok || game_over(pos)) continue;
            tt.clear();
            pool.clear_history();
            const ThreadPool::SyncResult r = pool.search_sync(pos, limits);
            if (!r.best || std::abs(r.score) >= GENFENS_SCORE_LIMIT) continue;
            out("info string genfens " + pos.fen());
            found = true;
        }
        if (!found)
            return "genfens: no position within " + std::to_string(GENFENS_SCORE_LIMIT) + " cp after " +
                   std::to_string(GENFENS_MAX_TRIES) + " tries (" + std::to_string(printed) + " of " +
                   std::to_string(request.count) + " printed)";
    }
    return std::nullopt;
}

} // namespace staccato
