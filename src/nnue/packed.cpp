#include "staccato/nnue/packed.h"

#include <algorithm>
#include <bit>
#include <cstdlib>

#include "staccato/nnue/data.h"
#include "staccato/nnue/source.h"

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
        s += square_name(Square(ep_square));
    else
        s += '-';
    return s + ' ' + std::to_string(rule50) + " 1";
}

std::optional<std::string> read_records(ByteSource& src, const GameFilter& filter,
                                        std::vector<PackedPosition>& out, DataStats& stats) {
    std::vector<PackedPosition> chunk(1 << 15);
    while (true) {
        const std::uint64_t first = src.offset() / sizeof(PackedPosition);
        const std::size_t got = src.read(chunk.data(), chunk.size() * sizeof(PackedPosition));
        const std::size_t whole = got / sizeof(PackedPosition);
        for (std::size_t i = 0; i < whole; ++i) {
            const PackedPosition& r = chunk[i];
            if (auto why = r.check())
                return src.path() + ": record " + std::to_string(first + i) + " (byte " +
                       std::to_string((first + i) * sizeof(PackedPosition)) + "): " + *why;
            ++stats.plies;
            if (std::abs(r.score) >= filter.max_score) continue;
            out.push_back(r);
            ++stats.kept;
        }
        if (got % sizeof(PackedPosition) != 0)
            return src.path() + ": record " + std::to_string(first + whole) + " (byte " +
                   std::to_string((first + whole) * sizeof(PackedPosition)) + ") is cut off after " +
                   std::to_string(got % sizeof(PackedPosition)) + " of its 32 bytes";
        if (got < chunk.size() * sizeof(PackedPosition)) return std::nullopt;
    }
}

} // namespace staccato::nnue
