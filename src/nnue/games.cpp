#include "staccato/nnue/games.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <fstream>
#include <iterator>

namespace staccato::nnue {

namespace {

constexpr std::uint8_t UNMOVED_ROOK = 6; // a rook with its castling right

// The file's move type field, in the order the format fixes.
constexpr std::array<std::uint16_t, 4> FILE_TYPE = {
    0, // MoveType::Normal
    3, // MoveType::Promotion
    1, // MoveType::EnPassant
    2, // MoveType::Castling
};
constexpr std::array<MoveType, 4> ENGINE_TYPE = {MoveType::Normal, MoveType::EnPassant, MoveType::Castling,
                                                 MoveType::Promotion};

GameBoard encode_board(const Position& pos) {
    GameBoard b;
    b.occupancy = pos.pieces();
    Bitboard castling_rooks = 0;
    for (int idx = 0; idx < 4; ++idx)
        if (pos.can_castle(idx)) castling_rooks |= square_bb(pos.castling_rook_square(idx));
    int i = 0;
    for (Bitboard bb = b.occupancy; bb; bb &= bb - 1, ++i) {
        const Square s = Square(std::countr_zero(bb));
        std::uint8_t code = pos.piece_on(s);
        if (castling_rooks & square_bb(s)) code = std::uint8_t((code & 8) | UNMOVED_ROOK);
        b.pieces[i / 2] |= std::uint8_t(code << (4 * (i % 2)));
    }
    b.side_ep = std::uint8_t((pos.side_to_move() == BLACK ? 0x80 : 0) | pos.ep_square());
    b.rule50 = std::uint8_t(std::min(pos.rule50(), 255));
    b.fullmove = std::uint16_t(std::min(pos.fullmove_number(), 65535));
    return b;
}

// The start board as a FEN for the engine's parser, which then checks it.
std::optional<std::string> board_fen(const GameBoard& b) {
    if (std::popcount(b.occupancy) > 32) return std::nullopt;
    std::array<std::uint8_t, 64> board;
    std::array<char, 64> letters;
    board.fill(0xFF);
    letters.fill(' ');
    int i = 0;
    for (Bitboard bb = b.occupancy; bb; bb &= bb - 1, ++i) {
        const Square s = Square(std::countr_zero(bb));
        board[s] = std::uint8_t((b.pieces[i / 2] >> (4 * (i % 2))) & 15);
        if ((board[s] & 7) > UNMOVED_ROOK) return std::nullopt;
        letters[s] = "PNBRQKR?pnbrqkr?"[board[s]];
    }
    std::string fen = placement_field(letters), rights;
    // Castling rights from the unmoved rooks: KQkq where the king stands on
    // the e-file and the rook in a corner, the rook's file letter otherwise.
    for (Color c : {WHITE, BLACK}) {
        const int back = c == WHITE ? 0 : 7;
        for (int file = 7; file >= 0; --file) {
            const std::uint8_t code = board[make_square(file, back)];
            if (code != (c << 3 | UNMOVED_ROOK)) continue;
            const bool king_on_e = board[make_square(4, back)] == (c << 3 | KING);
            char letter = king_on_e && file == 7 ? 'K' : king_on_e && file == 0 ? 'Q' : char('A' + file);
            rights += c == WHITE ? letter : char(letter - 'A' + 'a');
        }
    }
    fen += b.side_ep & 0x80 ? " b " : " w ";
    fen += rights.empty() ? "-" : rights;
    const int ep = b.side_ep & 0x7F;
    if (ep > 64) return std::nullopt;
    fen += ep == 64 ? std::string(" -") : ' ' + square_name(Square(ep));
    return fen + ' ' + std::to_string(b.rule50) + ' ' + std::to_string(std::max<int>(1, b.fullmove));
}

} // namespace

std::uint16_t encode_move(Move m) {
    const std::uint16_t promo = m.type() == MoveType::Promotion ? std::uint16_t(m.promotion() - KNIGHT) : 0;
    return std::uint16_t(m.from() | (m.to() << 6) | (promo << 12) | (FILE_TYPE[int(m.type())] << 14));
}

std::optional<Move> decode_move(const Position& pos, std::uint16_t code) {
    const Square from = Square(code & 63), to = Square((code >> 6) & 63);
    const MoveType type = ENGINE_TYPE[code >> 14];
    const Move m = type == MoveType::Promotion ? Move(from, to, type, PieceType(KNIGHT + ((code >> 12) & 3)))
                                               : Move(from, to, type);
    if (!m.is_ok() || !pos.is_pseudo_legal(m) || !pos.is_legal(m)) return std::nullopt;
    return m;
}

GameWriter::GameWriter(const Position& start) : board_(encode_board(start)) {}

void GameWriter::add(Move m, int white_score) {
    moves_.push_back({encode_move(m), std::uint16_t(std::int16_t(std::clamp(white_score, -32767, 32767)))});
}

void GameWriter::write(std::ostream& out, int white_result) const {
    GameBoard b = board_;
    b.result = std::uint8_t(white_result);
    // Little-endian hosts only (x86-64 and AArch64): the structs are the bytes.
    static_assert(std::endian::native == std::endian::little);
    out.write(reinterpret_cast<const char*>(&b), sizeof b);
    out.write(reinterpret_cast<const char*>(moves_.data()),
              std::streamsize(moves_.size() * sizeof moves_[0]));
    constexpr char terminator[4] = {};
    out.write(terminator, sizeof terminator);
}

std::optional<std::string> walk_games(ByteSource& src, GameVisitor& visitor, std::uint64_t& games) {
    while (true) {
        const std::uint64_t start = src.offset();
        auto refuse = [&](const std::string& why) {
            return src.path() + ": game " + std::to_string(games + 1) + " at byte " + std::to_string(start) +
                   ": " + why;
        };
        GameBoard b;
        const std::size_t got = src.read(&b, sizeof b);
        if (got == 0) return std::nullopt;
        if (got < sizeof b) return refuse("cut off in its start board");
        if (b.result > 2) return refuse("bad result " + std::to_string(int(b.result)));
        const auto fen = board_fen(b);
        if (!fen) return refuse("bad start board");
        Position pos;
        if (auto setup = pos.set_fen(*fen); setup.error) return refuse("bad start board: " + *setup.error);
        visitor.start(pos, b.result);
        int plies = 0;
        while (true) {
            std::array<std::uint16_t, 2> pair;
            if (src.read(pair.data(), 4) < 4)
                return refuse("cut off after " + std::to_string(plies) + " moves (no terminator)");
            const std::uint16_t code = pair[0];
            const auto score = std::int16_t(pair[1]);
            if (code == 0 && score == 0) break;
            const auto m = decode_move(pos, code);
            if (!m)
                return refuse("move " + std::to_string(plies + 1) + " (byte " +
                              std::to_string(src.offset() - 4) + ") is not legal in " + pos.fen());
            if (std::abs(score) > VALUE_MATE)
                return refuse("score " + std::to_string(score) + " at byte " +
                              std::to_string(src.offset() - 2) + " is beyond a mate score");
            visitor.move(pos, *m, score, plies);
            pos.push_game_move(*m);
            ++plies;
        }
        visitor.end(plies);
        ++games;
    }
}

std::optional<std::string> read_games(ByteSource& src, const GameFilter& filter,
                                      std::vector<PackedPosition>& out, DataStats& stats) {
    struct Keep : GameVisitor {
        const GameFilter& filter;
        std::vector<PackedPosition>& out;
        DataStats& stats;
        std::vector<PackedPosition> game; // this game's kept positions, appended when it is whole
        int result = 1;
        Keep(const GameFilter& f, std::vector<PackedPosition>& o, DataStats& s)
            : filter(f), out(o), stats(s) {}
        void start(const Position&, int white_result) override {
            game.clear();
            result = white_result;
        }
        void move(const Position& pos, Move m, int score, int ply) override {
            if (ply >= filter.min_ply && ply < filter.max_ply && std::abs(score) < filter.max_score &&
                !(filter.skip_in_check && pos.in_check()) &&
                !(filter.skip_noisy && pos.is_capture_or_promotion(m)))
                game.push_back(PackedPosition::pack(pos, score, result));
        }
        void end(int plies) override {
            out.insert(out.end(), game.begin(), game.end());
            stats.plies += std::uint64_t(plies);
            stats.kept += game.size();
        }
    } keep(filter, out, stats);
    return walk_games(src, keep, stats.games);
}

std::optional<GameFileEnd> scan_game_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    GameFileEnd end;
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    end.size = bytes.size();
    std::size_t at = 0;
    while (at + sizeof(GameBoard) <= bytes.size()) {
        std::size_t p = at + sizeof(GameBoard);
        std::uint64_t plies = 0;
        bool whole = false;
        for (; p + 4 <= bytes.size(); p += 4) {
            std::uint32_t pair;
            std::memcpy(&pair, bytes.data() + p, 4);
            if (pair == 0) {
                whole = true;
                p += 4;
                break;
            }
            ++plies;
        }
        if (!whole) break;
        at = p;
        ++end.games;
        end.plies += plies;
    }
    end.whole_bytes = at;
    return end;
}

} // namespace staccato::nnue
