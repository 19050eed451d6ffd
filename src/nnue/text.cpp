#include "staccato/nnue/text.h"

#include <charconv>
#include <cstdlib>

namespace staccato::nnue {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

struct Line {
    std::string fen;
    int score = 0;  // White's view
    int result = 1; // White's: 0, 1, 2
};

// "FEN | score | result"
std::optional<std::string> parse_scored(std::string_view line, Line& out) {
    const auto bar1 = line.find('|');
    const auto bar2 = bar1 == std::string_view::npos ? bar1 : line.find('|', bar1 + 1);
    if (bar2 == std::string_view::npos) return "expected 'FEN | score | result'";
    out.fen = std::string(trim(line.substr(0, bar1)));
    const std::string_view score = trim(line.substr(bar1 + 1, bar2 - bar1 - 1)),
                           result = trim(line.substr(bar2 + 1));
    const auto [end, ec] = std::from_chars(score.data(), score.data() + score.size(), out.score);
    if (ec != std::errc{} || end != score.data() + score.size())
        return "bad score '" + std::string(score) + "'";
    out.result = result == "1.0" ? 2 : result == "0.5" ? 1 : result == "0.0" ? 0 : -1;
    if (out.result < 0) return "bad result '" + std::string(result) + "' (1.0, 0.5 or 0.0)";
    return std::nullopt;
}

// "FEN [1.0]" or EPD "... c9 "1-0";"
std::optional<std::string> parse_labelled(std::string_view line, Line& out) {
    if (const auto b = line.rfind(" ["); b != std::string_view::npos) {
        const std::string_view r = line.substr(b + 2, 3);
        out.result = r == "1.0" ? 2 : r == "0.5" ? 1 : r == "0.0" ? 0 : -1;
        out.fen = std::string(trim(line.substr(0, b)));
    } else if (const auto c = line.find(" c9 \""); c != std::string_view::npos) {
        const std::string_view r = line.substr(c + 5);
        out.result = r.starts_with("1-0") ? 2 : r.starts_with("0-1") ? 0 : r.starts_with("1/2") ? 1 : -1;
        out.fen = std::string(trim(line.substr(0, c))) + " 0 1"; // EPD: four fields
    } else
        return "expected 'FEN [result]' or EPD with c9 \"result\"";
    if (out.result < 0) return "bad result (1.0 / 0.5 / 0.0, or 1-0 / 1/2-1/2 / 0-1)";
    out.score = 0;
    return std::nullopt;
}

} // namespace

std::optional<std::string> read_text(ByteSource& src, DataFormat kind, const GameFilter& filter,
                                     std::vector<PackedPosition>& out, DataStats& stats) {
    std::string text;
    std::uint64_t number = 0;
    Position pos;
    while (true) {
        const std::uint64_t offset = src.offset();
        if (!src.getline(text)) return std::nullopt;
        ++number;
        if (trim(text).empty()) continue;
        auto refuse = [&](const std::string& why) {
            return src.path() + ": line " + std::to_string(number) + " (byte " + std::to_string(offset) +
                   "): " + why;
        };
        Line line;
        if (auto why = kind == DataFormat::ScoredText ? parse_scored(text, line) : parse_labelled(text, line))
            return refuse(*why);
        if (auto setup = pos.set_fen(line.fen); setup.error) return refuse("bad FEN: " + *setup.error);
        ++stats.plies;
        if (std::abs(line.score) >= filter.max_score || (filter.skip_in_check && pos.in_check())) continue;
        out.push_back(PackedPosition::pack(pos, line.score, line.result));
        ++stats.kept;
    }
}

} // namespace staccato::nnue
