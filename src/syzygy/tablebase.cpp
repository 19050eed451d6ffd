#include "staccato/syzygy/tablebase.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "staccato/movegen.h"
#include "staccato/syzygy/table.h"

namespace staccato::syzygy {

namespace {

constexpr int RANK_MAX = 1 << 18; // above any DTZ the format can hold
constexpr int NO_DTZ = 0xFFFF;

int sign(int v) { return (v > 0) - (v < 0); }

// The DTZ of a position whose best move zeroes the 50-move counter, from
// the WDL value it leads to.
int dtz_before_zeroing(int wdl) {
    switch (wdl) {
    case 2: return 1;
    case 1: return 101;
    case -1: return -101;
    case -2: return -1;
    default: return 0;
    }
}

bool is_mate(const Position& pos) { return pos.in_check() && count_legal_moves(pos) == 0; }

// Some position since the last zeroing move occurred twice.
bool repeated_since_zeroing(const Position& pos) {
    const int end = pos.history_length();
    const int start = std::max(0, end - pos.rule50());
    for (int i = end; i >= start; --i)
        for (int j = i - 2; j >= start; j -= 2)
            if (pos.history_key(i) == pos.history_key(j)) return true;
    return false;
}

// After a root move: a draw by the rules before any probe (a third
// occurrence, or the 50-move rule).
bool drawn_by_rule(const Position& pos) {
    return pos.is_repetition(pos.history_length()) || (pos.is_fifty_move_draw() && !is_mate(pos));
}

} // namespace

std::string LoadReport::summary() const {
    return "found " + std::to_string(wdl_files) + " WDL and " + std::to_string(dtz_files) +
           " DTZ tablebase files (up to " + std::to_string(max_pieces) + " pieces)";
}

std::vector<Move> best_ranked(std::span<const RootRank> moves) {
    std::vector<Move> out;
    int best = 0;
    for (const RootRank& rm : moves)
        if (out.empty() || rm.rank > best)
            best = rm.rank, out = {rm.move};
        else if (rm.rank == best)
            out.push_back(rm.move);
    return out;
}

Tablebases::Tablebases() = default;
Tablebases::~Tablebases() = default;

void Tablebases::clear() {
    by_key_.clear();
    tables_.clear();
    max_pieces_ = 0;
}

LoadReport Tablebases::load(std::string_view paths) {
    clear();
    LoadReport report;
    if (paths == "<empty>") return report;
    // Name -> file; a name in an earlier folder wins.
    std::map<std::string, std::string> found[2];
    while (!paths.empty()) {
        const std::size_t end = std::min(paths.find(PATH_SEPARATOR), paths.size());
        const std::string folder(paths.substr(0, end));
        paths.remove_prefix(std::min(end + 1, paths.size()));
        if (folder.empty()) continue;
        std::error_code ec;
        std::filesystem::directory_iterator it(folder, ec);
        if (ec) {
            report.bad_folders.push_back(folder);
            continue;
        }
        for (; !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
            const std::filesystem::path& p = it->path();
            const std::string ext = p.extension().string();
            const int kind = ext == ".rtbw" ? 0 : ext == ".rtbz" ? 1 : -1;
            if (kind < 0 || !Material::from_name(p.stem().string())) continue;
            found[kind].emplace(p.stem().string(), p.string());
        }
    }
    for (int kind = 0; kind < 2; ++kind)
        for (const auto& [name, path] : found[kind]) {
            const Material m = *Material::from_name(name);
            auto& t = tables_.emplace_back(
                std::make_unique<Table>(kind == 0 ? TableKind::Wdl : TableKind::Dtz, m, path));
            for (bool swapped : {false, true}) {
                auto& slot = by_key_[m.key(swapped)];
                (kind == 0 ? slot.first : slot.second) = t.get();
            }
            if (kind == 0) {
                ++report.wdl_files;
                max_pieces_ = std::max(max_pieces_, m.total());
            } else {
                ++report.dtz_files;
            }
        }
    report.max_pieces = max_pieces_;
    return report;
}

std::optional<int> Tablebases::table_wdl(const Position& pos) const {
    const std::uint64_t key = material_key(pos);
    const auto it = by_key_.find(key);
    if (it == by_key_.end() || !it->second.first) return std::nullopt;
    const Lookup l = it->second.first->probe(pos, key, 0);
    if (l.status != Lookup::Ok) return std::nullopt;
    return l.value;
}

// The WDL value of `pos`: the table's, improved by the captures (the tables
// store "don't care" values where a capture wins, and know nothing of en
// passant). With `pawn_moves_zero` pawn moves are tried too (for DTZ, which
// stores nothing useful where a zeroing move is best). *zeroing_best: the
// value is reached by a zeroing move.
std::optional<int> Tablebases::search_wdl(Position& pos, bool pawn_moves_zero, bool* zeroing_best) const {
    *zeroing_best = false;
    if (popcount(pos.pieces()) == 2) return 0; // bare kings
    int best = -3, tried = 0;
    const MoveList moves(pos);
    for (const ScoredMove& sm : moves) {
        const Move m = sm.move;
        if (!pos.is_capture(m) && !(pawn_moves_zero && type_of(pos.moved_piece(m)) == PAWN)) continue;
        ++tried;
        bool ignored = false;
        pos.make_move(m);
        const auto v = search_wdl(pos, false, &ignored);
        pos.unmake_move(m);
        if (!v) return std::nullopt;
        if (-*v > best) {
            best = -*v;
            if (best == 2) {
                *zeroing_best = true;
                return best;
            }
        }
    }
    // With every legal move searched the table is not needed (nor right:
    // it may stand for a position without the en passant capture).
    const bool searched_all = tried > 0 && tried == moves.size();
    int value = best;
    if (!searched_all) {
        const auto t = table_wdl(pos);
        if (!t) return std::nullopt;
        value = *t;
    }
    if (best >= value) {
        *zeroing_best = best > 0 || searched_all;
        return best;
    }
    return value;
}

std::optional<Wdl> Tablebases::probe_wdl(Position& pos) const {
    if (pos.castling_rights() || popcount(pos.pieces()) > max_pieces_) return std::nullopt;
    bool zeroing = false;
    const auto v = search_wdl(pos, false, &zeroing);
    if (!v) return std::nullopt;
    return Wdl(*v);
}

std::optional<int> Tablebases::probe_dtz(Position& pos) const {
    if (pos.castling_rights() || popcount(pos.pieces()) > max_pieces_) return std::nullopt;
    bool zeroing = false;
    const auto w = search_wdl(pos, true, &zeroing);
    if (!w) return std::nullopt;
    if (*w == 0) return 0;
    if (zeroing) return dtz_before_zeroing(*w);

    const std::uint64_t key = material_key(pos);
    const auto it = by_key_.find(key);
    if (it == by_key_.end() || !it->second.second) return std::nullopt;
    const Lookup l = it->second.second->probe(pos, key, *w);
    if (l.status == Lookup::Failed) return std::nullopt;
    if (l.status == Lookup::Ok) return (l.value + (std::abs(*w) == 1 ? 100 : 0)) * sign(*w);

    // The file stores the other side to move: one ply deeper. The winner
    // takes the shortest way to zeroing, the loser the longest.
    int best = NO_DTZ;
    for (const ScoredMove& sm : MoveList(pos)) {
        const Move m = sm.move;
        const bool zeroes = pos.is_capture(m) || type_of(pos.moved_piece(m)) == PAWN;
        pos.make_move(m);
        std::optional<int> d;
        if (zeroes) {
            bool ignored = false;
            if (const auto cw = search_wdl(pos, false, &ignored)) d = -dtz_before_zeroing(*cw);
        } else if (const auto cd = probe_dtz(pos)) {
            d = -*cd;
        }
        const bool mates = d && *d == 1 && is_mate(pos);
        pos.unmake_move(m);
        if (!d) return std::nullopt;
        int dtz = *d;
        if (mates) best = 1;
        if (!zeroes) dtz += sign(dtz);
        if (dtz < best && sign(dtz) == sign(*w)) best = dtz;
    }
    return best == NO_DTZ ? -1 : best;
}

bool Tablebases::rank_by_dtz(Position& pos, std::span<RootRank> moves, bool rule50) const {
    const int rule50_count = pos.rule50();
    const bool repeated = repeated_since_zeroing(pos);
    const int bound = rule50 ? RANK_MAX / 2 - 100 : 1;
    for (RootRank& rm : moves) {
        pos.make_move(rm.move);
        std::optional<int> dtz;
        if (pos.rule50() == 0) {
            if (const auto w = probe_wdl(pos)) dtz = dtz_before_zeroing(-int(*w));
        } else if (drawn_by_rule(pos)) {
            dtz = 0;
        } else if (const auto d = probe_dtz(pos)) {
            dtz = -*d + sign(-*d);
        }
        if (dtz && *dtz == 2 && is_mate(pos)) dtz = 1;
        pos.unmake_move(rm.move);
        if (!dtz) return false;

        // Wins that the 50-move rule cannot spoil rank equally (the search
        // picks among them; the counter forces progress), later ones and
        // those after a repetition by distance; losses the other way round.
        const int d = *dtz;
        rm.rank = d > 0 ? (d + rule50_count <= 99 && !repeated ? RANK_MAX : RANK_MAX / 2 - (d + rule50_count))
                  : d < 0 ? (-d * 2 + rule50_count < 100 ? -RANK_MAX : -RANK_MAX / 2 + (-d + rule50_count))
                          : 0;
        rm.wdl = rm.rank >= bound   ? Wdl::Win
                 : rm.rank > 0      ? Wdl::CursedWin
                 : rm.rank == 0     ? Wdl::Draw
                 : rm.rank > -bound ? Wdl::BlessedLoss
                                    : Wdl::Loss;
    }
    return true;
}

bool Tablebases::rank_by_wdl(Position& pos, std::span<RootRank> moves) const {
    constexpr int RANK_OF[] = {-RANK_MAX, -RANK_MAX + 101, 0, RANK_MAX - 101, RANK_MAX};
    for (RootRank& rm : moves) {
        pos.make_move(rm.move);
        std::optional<int> w = 0;
        if (!drawn_by_rule(pos)) {
            const auto v = probe_wdl(pos);
            w = v ? std::optional<int>(-int(*v)) : std::nullopt;
        }
        pos.unmake_move(rm.move);
        if (!w) return false;
        rm.rank = RANK_OF[*w + 2];
        rm.wdl = Wdl(*w);
    }
    return true;
}

Tablebases::RootSource Tablebases::rank_root_moves(Position& pos, std::span<RootRank> moves,
                                                   bool rule50) const {
    if (empty() || moves.empty() || pos.castling_rights() || popcount(pos.pieces()) > max_pieces_)
        return RootSource::None;
    if (rank_by_dtz(pos, moves, rule50)) return RootSource::Dtz;
    if (rank_by_wdl(pos, moves)) return RootSource::Wdl;
    return RootSource::None;
}

} // namespace staccato::syzygy
