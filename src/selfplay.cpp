#include "staccato/selfplay.h"

#include <fstream>
#include <sstream>

#include "staccato/movegen.h"
#include "staccato/parse.h"

namespace staccato {

GameResult game_result(const Position& pos) {
    if (count_legal_moves(pos) == 0)
        return !pos.in_check()               ? GameResult::Draw
               : pos.side_to_move() == WHITE ? GameResult::BlackWin
                                             : GameResult::WhiteWin;
    if (pos.is_fifty_move_draw() || pos.has_insufficient_material() ||
        pos.is_repetition(pos.history_length()))
        return GameResult::Draw;
    return GameResult::None;
}

namespace {

// A book line as a FEN, or nothing when it is no playable position.
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
    if (pos.set_fen(fen).error || game_result(pos) != GameResult::None) return std::nullopt;
    return fen;
}

} // namespace

std::optional<Book> read_book(const std::string& path) {
    Book book;
    if (path.empty()) return book;
    std::ifstream in(path);
    if (!in) return std::nullopt;
    for (std::string line; std::getline(in, line);) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue; // blank
        if (auto fen = book_fen(line))
            book.fens.push_back(std::move(*fen));
        else
            ++book.skipped;
    }
    return book;
}

bool random_opening(Position& pos, const Book& book, int plies, Rng& rng) {
    const std::string_view fen =
        book.fens.empty() ? Position::START_FEN : book.fens[rng.below(book.fens.size())];
    if (pos.set_fen(fen).error) return false;
    for (int i = 0; i < plies; ++i) {
        const MoveList legal(pos);
        if (legal.size() == 0) return false;
        pos.push_game_move(legal.begin()[rng.below(std::size_t(legal.size()))].move);
    }
    return game_result(pos) == GameResult::None;
}

} // namespace staccato
