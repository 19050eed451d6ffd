// Reads one Markdown table out of README.md, for the tests that hold the
// README to the code (the option table, the UCI_Elo table): the table is
// found by its header line, and each row comes back as its cells.
#pragma once

#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace staccato::test {

// `s` without the spaces around it and without one pair of backticks around
// the whole (README cells write option names as code: `Hash`).
inline std::string trim_cell(std::string s) {
    const auto first = s.find_first_not_of(" \t");
    if (first == std::string::npos) return "";
    s = s.substr(first, s.find_last_not_of(" \t") - first + 1);
    if (s.size() >= 2 && s.front() == '`' && s.back() == '`') s = s.substr(1, s.size() - 2);
    return s;
}

using TableRow = std::vector<std::string>;

// The rows of the first table in `path` whose header line is exactly
// `header`: every `|` line after the header's `|---|` line, up to the first
// line that is not one, split into trimmed cells (`\|` is a `|` inside a
// cell). Nothing when the file cannot be read or the header is not there.
inline std::optional<std::vector<TableRow>> readme_table(const std::string& path, std::string_view header) {
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line) && line != header) {
    }
    if (!in || !std::getline(in, line)) return std::nullopt; // no header, or no |---| line after it
    std::vector<TableRow> rows;
    while (std::getline(in, line) && line.rfind('|', 0) == 0) {
        TableRow cells;
        std::string cell;
        for (std::size_t i = 1; i < line.size(); ++i) {
            if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == '|') {
                cell += line[++i];
            } else if (line[i] == '|') {
                cells.push_back(trim_cell(cell));
                cell.clear();
            } else {
                cell += line[i];
            }
        }
        rows.push_back(std::move(cells));
    }
    return rows;
}

} // namespace staccato::test
