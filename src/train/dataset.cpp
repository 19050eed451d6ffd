#include "dataset.h"

#include <charconv>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "staccato/position.h"

namespace staccato::train {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n'))
        s.remove_suffix(1);
    return s;
}

// "FEN | score | result" -> record, or the reason it is refused.
std::optional<std::string> parse_line(std::string_view line, nnue::PackedPosition& record) {
    const auto bar1 = line.find('|');
    const auto bar2 = bar1 == std::string_view::npos ? bar1 : line.find('|', bar1 + 1);
    if (bar2 == std::string_view::npos) return "expected 'FEN | score | result'";
    const std::string_view fen = trim(line.substr(0, bar1)),
                           score_text = trim(line.substr(bar1 + 1, bar2 - bar1 - 1)),
                           result_text = trim(line.substr(bar2 + 1));
    int score = 0;
    const auto [end, ec] = std::from_chars(score_text.data(), score_text.data() + score_text.size(), score);
    if (ec != std::errc{} || end != score_text.data() + score_text.size()) return "bad score";
    int result = result_text == "1.0" ? 2 : result_text == "0.5" ? 1 : result_text == "0.0" ? 0 : -1;
    if (result < 0) return "bad result (1.0, 0.5 or 0.0)";
    Position pos;
    if (auto setup = pos.set_fen(fen); setup.error) return "bad FEN: " + *setup.error;
    record = nnue::PackedPosition::pack(pos, score, result);
    return std::nullopt;
}

} // namespace

std::optional<std::string> convert_text(const std::string& in_path, const std::string& out_path,
                                        ConvertStats& stats) {
    const bool piped = in_path.size() > 3 && in_path.compare(in_path.size() - 3, 3, ".xz") == 0;
    FILE* in = piped ? popen(("xz -dc '" + in_path + "'").c_str(), "r") : std::fopen(in_path.c_str(), "r");
    if (!in) return "cannot read " + in_path;
    std::ofstream out(out_path, std::ios::binary | std::ios::app);
    if (!out) {
        piped ? pclose(in) : std::fclose(in);
        return "cannot write " + out_path;
    }
    std::vector<nnue::PackedPosition> buffer;
    char buf[512];
    std::string line;
    while (std::fgets(buf, sizeof buf, in)) {
        line += buf;
        if (line.back() != '\n' && !std::feof(in)) continue; // a longer line: read on
        ++stats.lines;
        nnue::PackedPosition record;
        if (auto why = parse_line(line, record)) {
            if (++stats.refused <= 10)
                std::cerr << in_path << ": line " << stats.lines << ": " << *why << "\n";
        } else {
            buffer.push_back(record);
            ++stats.written;
        }
        line.clear();
        if (buffer.size() >= 65536) {
            out.write(reinterpret_cast<const char*>(buffer.data()),
                      std::streamsize(buffer.size() * sizeof buffer[0]));
            buffer.clear();
        }
    }
    out.write(reinterpret_cast<const char*>(buffer.data()),
              std::streamsize(buffer.size() * sizeof buffer[0]));
    const int status = piped ? pclose(in) : std::fclose(in);
    if (piped && status != 0) return "xz failed on " + in_path;
    if (!out) return "write error on " + out_path;
    return std::nullopt;
}

} // namespace staccato::train
