#include "staccato/nnue/packed.h"

#include <algorithm>
#include <bit>
#include <fstream>

namespace staccato::nnue {

PackedPosition PackedPosition::pack(const Position& pos, int white_score, int white_result) {
    PackedPosition p;
    p.occupancy = pos.pieces();
    int i = 0;
    for (Bitboard b = p.occupancy; b; b &= b - 1, ++i)
        p.pieces[i / 2] |= std::uint8_t(pos.piece_on(Square(std::countr_zero(b))) << (4 * (i % 2)));
    p.score = std::int16_t(std::clamp(white_score, -32767, 32767));
    p.result = std::uint8_t(white_result);
    p.side = std::uint8_t(pos.side_to_move());
    p.ep_square = std::uint8_t(pos.ep_square());
    p.castling = std::uint8_t(pos.castling_rights());
    p.rule50 = std::uint8_t(std::min(pos.rule50(), 255));
    return p;
}

std::optional<std::string> PackedPosition::check() const {
    const int n = std::popcount(occupancy);
    if (n > 32) return "more than 32 pieces";
    std::array<int, 2> kings{};
    for (int i = 0; i < n; ++i) {
        const Piece pc = piece(i);
        if ((pc & 7) > KING || pc > B_KING) return "bad piece code " + std::to_string(int(pc));
        if (type_of(pc) == KING) ++kings[color_of(pc)];
    }
    for (int i = n; i < 32; ++i)
        if (piece(i) != 0) return "piece bits beyond the occupied squares";
    if (kings[WHITE] != 1 || kings[BLACK] != 1) return "not one king of each colour";
    if (result > 2) return "bad result " + std::to_string(int(result));
    if (side > 1) return "bad side to move " + std::to_string(int(side));
    if (ep_square > SQ_NONE || castling > ALL_CASTLING) return "bad en-passant square or castling rights";
    return std::nullopt;
}

std::string placement_field(const std::array<char, 64>& letters) {
    std::string s;
    for (int rank = 7; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < 8; ++file) {
            const char letter = letters[make_square(file, rank)];
            if (letter == ' ') {
                ++empty;
                continue;
            }
            if (empty) s += char('0' + empty), empty = 0;
            s += letter;
        }
        if (empty) s += char('0' + empty);
        if (rank) s += '/';
    }
    return s;
}

std::string PackedPosition::fen() const {
    std::array<char, 64> letters;
    letters.fill(' ');
    int i = 0;
    for (Bitboard b = occupancy; b; b &= b - 1) letters[std::countr_zero(b)] = "PNBRQK??pnbrqk??"[piece(i++)];
    std::string s = placement_field(letters);
    s += side ? " b " : " w ";
    std::string rights;
    if (castling & WHITE_OO) rights += 'K';
    if (castling & WHITE_OOO) rights += 'Q';
    if (castling & BLACK_OO) rights += 'k';
    if (castling & BLACK_OOO) rights += 'q';
    s += rights.empty() ? "-" : rights;
    s += ' ';
    if (ep_square < SQ_NONE)
        s += std::string{char('a' + file_of(Square(ep_square))), char('1' + rank_of(Square(ep_square)))};
    else
        s += '-';
    return s + ' ' + std::to_string(rule50) + " 1";
}

std::optional<std::string> read_records(const std::string& path, std::vector<PackedPosition>& out) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) return "cannot open " + path;
    const auto bytes = std::uint64_t(in.tellg());
    if (bytes % sizeof(PackedPosition) != 0)
        return path + ": " + std::to_string(bytes) +
               " bytes is not a whole number of 32-byte records (record " +
               std::to_string(bytes / sizeof(PackedPosition)) + " is cut off)";
    in.seekg(0);
    const std::size_t first = out.size(), count = bytes / sizeof(PackedPosition);
    out.resize(first + count);
    in.read(reinterpret_cast<char*>(out.data() + first), std::streamsize(bytes));
    if (!in) {
        out.resize(first);
        return "read error on " + path;
    }
    for (std::size_t i = 0; i < count; ++i)
        if (auto why = out[first + i].check()) {
            out.resize(first);
            return path + ": record " + std::to_string(i) + ": " + *why;
        }
    return std::nullopt;
}

} // namespace staccato::nnue
