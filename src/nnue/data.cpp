#include "staccato/nnue/data.h"

#include <algorithm>

#include "staccato/nnue/games.h"
#include "staccato/nnue/pgn.h"
#include "staccato/nnue/source.h"
#include "staccato/nnue/text.h"

namespace staccato::nnue {

std::string_view format_name(DataFormat f) {
    switch (f) {
    case DataFormat::Empty: return "empty";
    case DataFormat::Games: return "games";
    case DataFormat::Records: return "records";
    case DataFormat::ScoredText: return "scored text";
    case DataFormat::LabelledText: return "labelled text";
    case DataFormat::Pgn: return "PGN";
    }
    return "?";
}

namespace {

bool is_ep_byte(unsigned b) { return b == 64 || (b >= 16 && b <= 23) || (b >= 40 && b <= 47); }

std::string hex(std::string_view bytes) {
    std::string s;
    constexpr char DIGITS[] = "0123456789abcdef";
    for (unsigned char c : bytes.substr(0, 32)) s += {DIGITS[c >> 4], DIGITS[c & 15], ' '};
    if (!s.empty()) s.pop_back();
    return s;
}

} // namespace

Detected detect_format(std::string_view head) {
    if (head.empty()) return {DataFormat::Empty, ""};
    const bool binary =
        std::any_of(head.begin(), head.end(), [](char c) { return static_cast<unsigned char>(c) < 9; });
    if (binary) {
        if (head.size() < 32)
            return {std::nullopt, "binary, " + std::to_string(head.size()) +
                                      " bytes: shorter than one 32-byte start board or record"};
        auto b = [&](int i) { return unsigned(static_cast<unsigned char>(head[std::size_t(i)])); };
        if (b(28) == 0 && b(29) == 0 && b(30) <= 2 && b(31) == 0) return {DataFormat::Games, ""};
        if (b(31) == 0 && b(26) <= 2 && b(27) <= 1 && is_ep_byte(b(28)) && b(29) <= 15)
            return {DataFormat::Records, ""};
        return {std::nullopt, "binary, but the first 32 bytes (" + hex(head) +
                                  ") are neither a game's start board nor a 32-byte record"};
    }
    std::size_t at = head.starts_with("\xEF\xBB\xBF") ? 3 : 0; // a UTF-8 byte-order mark
    while (at < head.size() && (head[at] == ' ' || head[at] == '\t' || head[at] == '\r' || head[at] == '\n'))
        ++at;
    const std::string_view line = head.substr(at, head.find('\n', at) - at);
    if (line.starts_with("[")) return {DataFormat::Pgn, ""};
    if (line.find('|') != std::string_view::npos) return {DataFormat::ScoredText, ""};
    if (line.find(" [") != std::string_view::npos || line.find(" c9 ") != std::string_view::npos)
        return {DataFormat::LabelledText, ""};
    return {std::nullopt,
            "text, but the first line ('" + std::string(line.substr(0, 60)) +
                "') is neither a PGN tag, 'FEN | score | result', 'FEN [result]' nor EPD with c9"};
}

std::optional<std::string> read_data(const std::string& path, const GameFilter& filter,
                                     std::vector<PackedPosition>& out, DataStats& stats, bool need_scores) {
    ByteSource src;
    if (auto error = src.open(path)) return error;
    stats.compressed = src.compressed();
    // Enough for a PGN's first tag line, a text line or a board.
    const Detected d = detect_format(src.peek(4096));
    if (!d.format) {
        if (auto error = src.close()) return error;
        return path + ": not a data file Staccato reads: " + d.why;
    }
    stats.format = *d.format;
    std::optional<std::string> error;
    switch (*d.format) {
    case DataFormat::Empty: break;
    case DataFormat::Games: error = read_games(src, filter, out, stats); break;
    case DataFormat::Records: error = read_records(src, filter, out, stats); break;
    case DataFormat::ScoredText:
    case DataFormat::LabelledText:
        if (*d.format == DataFormat::LabelledText && need_scores) {
            error = path + ": labelled text (game results only, no search scores): the trainer needs scores";
            break;
        }
        error = read_text(src, *d.format, filter, out, stats);
        break;
    case DataFormat::Pgn: error = read_pgn(src, filter, out, stats); break;
    }
    stats.bytes = src.offset();
    if (error)
        *error += " (read as " + std::string(format_name(*d.format)) +
                  (src.compressed() ? ", xz-compressed)" : ")");
    // A decompressor's failure explains a cut-off file better than the cut.
    if (auto closing = src.close()) return error ? *closing + "; " + *error : *closing;
    return error;
}

} // namespace staccato::nnue
