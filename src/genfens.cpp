#include "staccato/genfens.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "staccato/movegen.h"
#include "staccato/parse.h"
#include "staccato/position.h"
#include "staccato/selfplay.h"
#include "staccato/thread.h"
#include "staccato/tt.h"

namespace staccato {

namespace {

constexpr const char* USAGE = "usage: genfens N seed S book <None|FILE> [PLIES]";
constexpr int TT_MB = 4;

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
    const auto book = read_book(request.book);
    if (!book) return "genfens: cannot read the book " + request.book;
    if (book->skipped > 0)
        log << "genfens: skipped " << book->skipped << " book line" << (book->skipped == 1 ? "" : "s")
            << " that are no playable position in " << request.book << std::endl;
    if (!request.book.empty() && book->fens.empty())
        return "genfens: no playable position in the book " + request.book;
    const int plies = request.plies >= 0   ? request.plies
                      : book->fens.empty() ? GENFENS_PLIES_NO_BOOK
                                           : GENFENS_PLIES_BOOK;

    Rng rng(request.seed);
    TranspositionTable tt(TT_MB);
    ThreadPool pool(tt);
    pool.set_network(net);
    SearchLimits limits;
    limits.nodes = GENFENS_NODES;
    for (int printed = 0; printed < request.count; ++printed) {
        bool found = false;
        for (int tries = 0; tries < GENFENS_MAX_TRIES && !found; ++tries) {
            Position pos;
            if (!random_opening(pos, *book, plies, rng)) continue;
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
