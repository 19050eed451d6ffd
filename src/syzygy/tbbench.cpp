#include "staccato/syzygy/tbbench.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "staccato/syzygy/tablebase.h"

namespace staccato::syzygy {

namespace {

std::string board_fen(const std::array<char, 64>& board) {
    std::string fen;
    for (int r = 7; r >= 0; --r) {
        int empty = 0;
        for (int f = 0; f < 8; ++f) {
            const char ch = board[std::size_t(r * 8 + f)];
            if (ch == '.') {
                ++empty;
                continue;
            }
            if (empty) fen += char('0' + std::exchange(empty, 0));
            fen += ch;
        }
        if (empty) fen += char('0' + empty);
        if (r) fen += '/';
    }
    return fen;
}

} // namespace

std::optional<Position> random_position(const Material& material, Rng& rng, bool en_passant) {
    for (int attempt = 0; attempt < 1000; ++attempt) {
        std::array<char, 64> board;
        board.fill('.');
        const bool white = rng() & 1;
        Material left = material;
        Square ep = SQ_NONE; // the square the double push crossed, if any
        if (en_passant && material.pawns(WHITE) && material.pawns(BLACK)) {
            // The pawn that just moved (the side not to move's), from two
            // squares back, and an enemy pawn beside it.
            const int f = int(rng() % 8), g = f == 0 ? 1 : f == 7 ? 6 : f + ((rng() & 1) ? 1 : -1);
            const int r = white ? 4 : 3;
            board[std::size_t(r * 8 + f)] = white ? 'p' : 'P';
            board[std::size_t(r * 8 + g)] = white ? 'P' : 'p';
            --left.count[WHITE][PAWN];
            --left.count[BLACK][PAWN];
            ep = make_square(f, white ? 5 : 2);
        }
        for (int c = 0; c < 2; ++c)
            for (int pt = PAWN; pt <= KING; ++pt)
                for (int k = 0; k < left.count[c][pt]; ++k) {
                    int s = 0;
                    do s = int(rng() % 64);
                    while (board[std::size_t(s)] != '.' || (pt == PAWN && (s < 8 || s >= 56)));
                    board[std::size_t(s)] = (c ? "pnbrqk" : "PNBRQK")[pt];
                }
        // The squares the pawn crossed (the e.p. square and its start) must be empty.
        if (ep != SQ_NONE &&
            (board[std::size_t(ep)] != '.' || board[std::size_t(white ? ep + 8 : ep - 8)] != '.'))
            continue;
        Position pos;
        const SetupResult result = pos.set_fen(board_fen(board) + (white ? " w - " : " b - ") +
                                               (ep == SQ_NONE ? "-" : square_name(ep)) + " 0 1");
        if (!result.error && result.warnings.empty()) return pos;
    }
    return std::nullopt;
}

bool run_tb_bench(std::string_view paths, int positions, std::ostream& out) {
    using Clock = std::chrono::steady_clock;
    Tablebases tb;
    const LoadReport report = tb.load(paths);
    for (const std::string& folder : report.bad_folders) out << "folder not readable: " << folder << '\n';
    out << report.summary() << '\n';
    if (tb.empty()) return false;

    // The tables: every .rtbw of the folders (names only; load() found them).
    std::vector<Material> tables;
    for (std::string_view rest = paths; !rest.empty();) {
        const std::size_t end = std::min(rest.find(PATH_SEPARATOR), rest.size());
        std::error_code ec;
        for (std::filesystem::directory_iterator it(std::string(rest.substr(0, end)), ec), stop;
             !ec && it != stop; it.increment(ec))
            if (it->path().extension() == ".rtbw")
                if (auto m = Material::from_name(it->path().stem().string())) tables.push_back(*m);
        rest.remove_prefix(std::min(end + 1, rest.size()));
    }
    Rng rng(20240601);
    std::vector<Position> pool;
    pool.reserve(std::size_t(positions));
    for (int i = 0; i < positions && !tables.empty(); ++i)
        if (auto p = random_position(tables[std::size_t(i) % tables.size()], rng, false)) pool.push_back(*p);
    std::shuffle(pool.begin(), pool.end(), rng);

    auto timed = [&](bool dtz, int passes, int& failed) {
        const auto start = Clock::now();
        failed = 0;
        for (int pass = 0; pass < passes; ++pass)
            for (Position& p : pool)
                failed += dtz ? !tb.probe_dtz(p).has_value() : !tb.probe_wdl(p).has_value();
        const double s = std::chrono::duration<double>(Clock::now() - start).count();
        return double(pool.size()) * passes / std::max(s, 1e-9);
    };
    int failed = 0;
    out << pool.size() << " random positions over " << tables.size() << " tables\n";
    const double wdl_cold = timed(false, 1, failed);
    out << "WDL cold (tables mapped on first probe): " << std::int64_t(wdl_cold) << " probes/s";
    out << " (" << failed << " failed)\n";
    const double wdl_warm = timed(false, 3, failed);
    out << "WDL warm: " << std::int64_t(wdl_warm) << " probes/s\n";
    const double dtz_cold = timed(true, 1, failed);
    out << "DTZ cold: " << std::int64_t(dtz_cold) << " probes/s (" << failed << " failed)\n";
    const double dtz_warm = timed(true, 3, failed);
    out << "DTZ warm: " << std::int64_t(dtz_warm) << " probes/s\n";
    return true;
}

} // namespace staccato::syzygy
