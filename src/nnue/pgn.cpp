#include "staccato/nnue/pgn.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string_view>

#include "staccato/san.h"

namespace staccato::nnue {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

struct PgnText {
    std::uint64_t line = 0; // where the game starts
    std::vector<std::pair<std::string, std::string>> tags;
    std::string movetext;

    std::string tag(std::string_view name) const {
        for (const auto& [n, v] : tags)
            if (n == name) return v;
        return "";
    }
};

// `[Name "value"]`, with \" and \\ escapes in the value.
void read_tag(std::string_view line, PgnText& game) {
    line.remove_prefix(1);
    const auto space = line.find_first_of(" \t");
    if (space == std::string_view::npos) return;
    std::string name(line.substr(0, space)), value;
    const auto open = line.find('"', space);
    if (open == std::string_view::npos) return;
    for (std::size_t i = open + 1; i < line.size() && line[i] != '"'; ++i) {
        if (line[i] == '\\' && i + 1 < line.size()) ++i;
        value += line[i];
    }
    game.tags.emplace_back(std::move(name), std::move(value));
}

// Splits the file into games: a game is its tag lines and the movetext after
// them, up to the next tag line outside a comment.
class Splitter {
  public:
    explicit Splitter(ByteSource& src) : src_(src) {}

    bool next(PgnText& game) {
        game = PgnText{};
        bool in_moves = false;
        int braces = 0;
        std::string line;
        while (take(line)) {
            const std::string_view t = trim(line);
            if (braces == 0 && t.starts_with("[")) {
                if (in_moves) { // the next game's first tag
                    pending_ = std::move(line);
                    has_pending_ = true;
                    return true;
                }
                if (game.tags.empty()) game.line = line_;
                read_tag(t, game);
                continue;
            }
            if (!in_moves && (t.empty() || t.starts_with("%"))) continue;
            if (!in_moves && game.tags.empty()) game.line = line_;
            in_moves = true;
            for (char c : t) braces += c == '{' ? 1 : c == '}' && braces > 0 ? -1 : 0;
            game.movetext += t;
            game.movetext += '\n';
        }
        return !game.tags.empty() || in_moves;
    }

  private:
    bool take(std::string& line) {
        if (has_pending_) {
            has_pending_ = false;
            line = std::move(pending_);
            return true;
        }
        if (!src_.getline(line)) return false;
        ++line_;
        return true;
    }

    ByteSource& src_;
    std::string pending_;
    bool has_pending_ = false;
    std::uint64_t line_ = 0;
};

struct CommentScore {
    int score;
    bool white_view; // [%eval]: White's view; otherwise the mover's
};

// A number of pawns ("+0.34", "-1", "0.00") or a mate ("+M5", "#-3") at
// the start of `s`; the characters used go into `used`.
std::optional<int> read_score(std::string_view s, std::size_t& used) {
    std::size_t i = 0;
    int sign = 1;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) sign = s[i++] == '-' ? -1 : 1;
    if (i < s.size() && (s[i] == 'M' || s[i] == '#')) {
        ++i;
        if (i < s.size() && (s[i] == '+' || s[i] == '-')) sign = s[i++] == '-' ? -1 : 1;
        const std::size_t digits = i;
        int n = 0;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9' && n < 10000) n = n * 10 + (s[i++] - '0');
        if (i == digits) return std::nullopt;
        used = i;
        return sign * (VALUE_MATE - std::min(n, MAX_PLY));
    }
    const std::size_t digits = i;
    double v = 0, scale = 1;
    bool point = false;
    for (; i < s.size() && ((s[i] >= '0' && s[i] <= '9') || (s[i] == '.' && !point)); ++i) {
        if (s[i] == '.') {
            point = true;
            continue;
        }
        if (point) scale /= 10;
        v = v * 10 + (s[i] - '0');
        if (v > 1e6) return std::nullopt;
    }
    if (i == digits || (i == digits + 1 && point)) return std::nullopt;
    used = i;
    return sign * int(std::lround(std::min(v * scale * 100, double(VALUE_MATE))));
}

std::optional<CommentScore> comment_score(std::string_view c) {
    if (const auto eval = c.find("[%eval "); eval != std::string_view::npos) {
        std::size_t used = 0;
        if (const auto s = read_score(trim(c.substr(eval + 7)), used)) return CommentScore{*s, true};
        return std::nullopt;
    }
    c = trim(c);
    std::size_t used = 0;
    const auto s = read_score(c, used);
    // The match runners' form is "score/depth": a bare number is not a score.
    if (!s || used >= c.size() || c[used] != '/') return std::nullopt;
    return CommentScore{*s, false};
}

int result_code(std::string_view r) { return r == "1-0" ? 2 : r == "0-1" ? 0 : r == "1/2-1/2" ? 1 : -1; }

enum class Outcome { Read, Skipped, Refused };

struct Pending {
    PackedPosition record;
    int ply;
    bool keep_position; // in check / noisy as the filter says
    bool scored = false;
};

Outcome read_game(const PgnText& game, std::uint64_t number, const std::string& path,
                  const GameFilter& filter, std::vector<PackedPosition>& out, DataStats& stats,
                  std::string& error) {
    auto refuse = [&](const std::string& why) {
        error =
            path + ": game " + std::to_string(number) + " (line " + std::to_string(game.line) + "): " + why;
        return Outcome::Refused;
    };
    std::string variant;
    for (char c : game.tag("Variant")) variant += char(std::tolower(static_cast<unsigned char>(c)));
    const bool chess960 = variant.find("960") != std::string::npos || variant == "fischerandom";
    if (!variant.empty() && variant != "standard" && !chess960) return Outcome::Skipped;
    // Whose moves' scores count: both sides', or filter.player's alone.
    bool counts[2] = {true, true};
    if (!filter.player.empty()) {
        counts[WHITE] = game.tag("White") == filter.player;
        counts[BLACK] = game.tag("Black") == filter.player;
        if (!counts[WHITE] && !counts[BLACK]) return Outcome::Skipped;
    }
    Position pos;
    const std::string fen = game.tag("FEN");
    if (auto setup = pos.set_fen(fen.empty() ? Position::START_FEN : std::string_view(fen), chess960);
        setup.error)
        return refuse("bad FEN tag: " + *setup.error);

    std::vector<PackedPosition> kept;
    std::optional<Pending> last;
    int ply = 0, scored = 0;
    auto settle = [&] {
        if (last && last->scored && last->keep_position && last->ply >= filter.min_ply &&
            last->ply < filter.max_ply && std::abs(last->record.score) < filter.max_score)
            kept.push_back(last->record);
        last.reset();
    };
    std::string result;
    const std::string_view text = game.movetext;
    std::size_t i = 0;
    while (i < text.size() && result.empty()) {
        const char c = text[i];
        if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
            ++i;
        } else if (c == '{') {
            const auto close = text.find('}', i);
            if (close == std::string_view::npos) return refuse("a comment is not closed");
            if (last && !last->scored && counts[last->record.side])
                if (const auto s = comment_score(text.substr(i + 1, close - i - 1))) {
                    const bool white_moved = last->record.side == WHITE;
                    const int white = s->white_view || white_moved ? s->score : -s->score;
                    last->record.score = std::int16_t(std::clamp(white, -32767, 32767));
                    last->scored = true;
                    ++scored;
                }
            i = close + 1;
        } else if (c == ';') {
            const auto nl = text.find('\n', i);
            i = nl == std::string_view::npos ? text.size() : nl + 1;
        } else if (c == '(') { // a variation, perhaps nested, perhaps with comments
            int depth = 0;
            for (; i < text.size(); ++i) {
                if (text[i] == '{') {
                    const auto close = text.find('}', i);
                    if (close == std::string_view::npos) return refuse("a comment is not closed");
                    i = close;
                } else if (text[i] == '(')
                    ++depth;
                else if (text[i] == ')' && --depth == 0)
                    break;
            }
            if (depth != 0) return refuse("a variation is not closed");
            ++i;
        } else if (c == ')') {
            return refuse("')' without a variation");
        } else {
            std::size_t end = i;
            while (end < text.size() &&
                   std::string_view(" \n\t\r{}();").find(text[end]) == std::string_view::npos)
                ++end;
            std::string_view word = text.substr(i, end - i);
            i = end;
            if (word.starts_with("$")) continue; // a NAG
            if (result_code(word) >= 0 || word == "*") {
                result = std::string(word);
                break;
            }
            // A move number ("12.", "12...") before the move or on its own.
            if (word.front() >= '0' && word.front() <= '9') {
                std::size_t k = 0;
                while (k < word.size() && word[k] >= '0' && word[k] <= '9') ++k;
                if (k < word.size() && word[k] == '.') {
                    while (k < word.size() && word[k] == '.') ++k;
                    word.remove_prefix(k);
                }
            }
            if (word.empty()) continue;
            const SanResult san = parse_san(pos, word);
            if (!san.move)
                return refuse("move " + std::to_string(ply / 2 + 1) + (ply % 2 ? "..." : ".") + " " +
                              san.error + " (" + pos.fen() + ")");
            settle();
            last = Pending{PackedPosition::pack(pos, 0, 1), ply,
                           !(filter.skip_in_check && pos.in_check()) &&
                               !(filter.skip_noisy && pos.is_capture_or_promotion(*san.move))};
            pos.push_game_move(*san.move);
            ++ply;
        }
    }
    settle();
    if (result.empty())
        return refuse("cut off: the movetext does not end in a result (1-0, 0-1, 1/2-1/2, *)");
    const int code = result_code(result);
    if (code < 0 || scored == 0) return Outcome::Skipped;
    for (PackedPosition& r : kept) r.result = std::uint8_t(code);
    out.insert(out.end(), kept.begin(), kept.end());
    ++stats.games;
    stats.plies += std::uint64_t(ply);
    stats.kept += kept.size();
    return Outcome::Read;
}

} // namespace

std::optional<std::string> read_pgn(ByteSource& src, const GameFilter& filter,
                                    std::vector<PackedPosition>& out, DataStats& stats) {
    Splitter splitter(src);
    PgnText game;
    std::string error;
    for (std::uint64_t number = 1; splitter.next(game); ++number) {
        const Outcome o = read_game(game, number, src.path(), filter, out, stats, error);
        if (o == Outcome::Refused) return error;
        if (o == Outcome::Skipped) ++stats.skipped;
    }
    return std::nullopt;
}

} // namespace staccato::nnue
