#include "staccato/syzygy/table.h"

#include <algorithm>
#include <utility>

namespace staccato::syzygy {

namespace {

constexpr std::array<std::uint8_t, 4> WDL_MAGIC = {0x71, 0xE8, 0x23, 0x5D};
constexpr std::array<std::uint8_t, 4> DTZ_MAGIC = {0xD7, 0x66, 0x0C, 0xA5};

// Sub-table flags (byte 0 of its size record).
constexpr std::uint8_t FLAG_BLACK_TO_MOVE = 1; // DTZ: the side to move stored
constexpr std::uint8_t FLAG_MAPPED = 2;        // DTZ: values go through a map
constexpr std::uint8_t FLAG_WIN_PLIES = 4;     // DTZ: wins counted in plies (else moves)
constexpr std::uint8_t FLAG_LOSS_PLIES = 8;    // DTZ: losses counted in plies
constexpr std::uint8_t FLAG_WIDE_MAP = 16;     // DTZ: 16-bit map entries
constexpr std::uint8_t FLAG_SINGLE = 128;      // every position has one value
constexpr std::uint16_t LEAF = 0xFFF;          // right child of a symbol that is a value

constexpr char PIECE_LETTERS[] = "PNBRQK";

int diagonal_offset(int sq) { return (sq >> 3) - (sq & 7); } // rank - file: < 0 below a1-h8
int transpose(int sq) { return ((sq >> 3) | (sq << 3)) & 63; }

// The numbering schemes of the format, computed once.
struct Numbering {
    std::array<std::array<std::uint64_t, 65>, 8> choose{};     // choose[k][n] = n! / (k! (n-k)!)
    std::array<int, 64> pawn_order{};                          // a2..h7 by file pairs: a2 = 47 ... e7 = 0
    std::array<int, 64> below_diagonal{};                      // squares under a1-h8 -> 0..27
    std::array<int, 64> triangle{};                            // a1-d1-d4 triangle -> 0..9 (diagonal last)
    std::array<std::array<int, 64>, 10> king_pair{};           // [triangle code][other king] -> 0..461
    std::array<std::array<std::uint64_t, 64>, 7> lead_start{}; // [lead pawns][square of the first]
    std::array<std::array<std::uint64_t, 4>, 7> lead_count{};  // [lead pawns][file a..d]

    Numbering() {
        for (int n = 0; n <= 64; ++n) {
            choose[0][n] = 1;
            for (int k = 1; k < 8; ++k) choose[k][n] = n == 0 ? 0 : choose[k - 1][n - 1] + choose[k][n - 1];
        }
        int code = 0;
        for (int sq = 0; sq < 64; ++sq)
            if (diagonal_offset(sq) < 0) below_diagonal[sq] = code++;

        code = 0;
        std::array<int, 4> diagonal{};
        int on_diagonal = 0;
        for (int sq = 0; sq < 64; ++sq) {
            if ((sq & 7) > 3 || (sq >> 3) > 3) continue;
            if (diagonal_offset(sq) < 0)
                triangle[sq] = code++;
            else if (diagonal_offset(sq) == 0)
                diagonal[on_diagonal++] = sq;
        }
        for (int sq : diagonal) triangle[sq] = code++;

        // Two kings, the first in the triangle: never adjacent, and with the
        // first on the diagonal the second not above it; both on the
        // diagonal come last.
        code = 0;
        std::array<std::pair<int, int>, 64> both_diagonal{};
        int deferred = 0;
        for (int t = 0; t < 10; ++t) {
            int k1 = 0;
            while ((k1 & 7) > 3 || (k1 >> 3) > 3 || diagonal_offset(k1) > 0 || triangle[k1] != t) ++k1;
            for (int k2 = 0; k2 < 64; ++k2) {
                const int df = (k1 & 7) - (k2 & 7), dr = (k1 >> 3) - (k2 >> 3);
                if (df >= -1 && df <= 1 && dr >= -1 && dr <= 1) continue;
                if (diagonal_offset(k1) == 0 && diagonal_offset(k2) > 0) continue;
                if (diagonal_offset(k1) == 0 && diagonal_offset(k2) == 0)
                    both_diagonal[deferred++] = {t, k2};
                else
                    king_pair[t][k2] = code++;
            }
        }
        for (int i = 0; i < deferred; ++i)
            king_pair[both_diagonal[i].first][both_diagonal[i].second] = code++;

        // Pawns: the leading pawn is the one nearest the a- or h-file, then
        // the lowest; pawn_order numbers the squares so that it has the
        // highest code (files a/h first, ranks upwards).
        int next = 47;
        for (int f = 0; f < 4; ++f)
            for (int r = 1; r < 7; ++r) {
                pawn_order[r * 8 + f] = next--;
                pawn_order[r * 8 + 7 - f] = next--;
            }
        for (int lead = 1; lead < 7; ++lead)
            for (int f = 0; f < 4; ++f) {
                std::uint64_t start = 0;
                for (int r = 1; r < 7; ++r) {
                    lead_start[lead][r * 8 + f] = start;
                    start += choose[lead - 1][pawn_order[r * 8 + f]];
                }
                lead_count[lead][f] = start;
            }
    }
};

const Numbering& numbering() {
    static const Numbering n;
    return n;
}

std::uint32_t read_le(const std::uint8_t* p, int bytes) {
    std::uint32_t v = 0;
    for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}

// A bounds-checked reading position in the file: reading past the end
// clears ok() and yields zeros.
class Cursor {
  public:
    explicit Cursor(std::span<const std::uint8_t> file) : file_(file) {}
    bool ok() const { return ok_; }
    std::size_t offset() const { return pos_; }
    const std::uint8_t* here() const { return file_.data() + std::min(pos_, file_.size()); }
    bool skip(std::uint64_t n) {
        if (!ok_ || n > file_.size() - pos_) return ok_ = false;
        pos_ += std::size_t(n);
        return true;
    }
    std::uint32_t le(int bytes) {
        const std::uint8_t* p = here();
        return skip(std::uint64_t(bytes)) ? read_le(p, bytes) : 0;
    }
    void align(std::size_t to) { skip((to - pos_ % to) % to); }

  private:
    std::span<const std::uint8_t> file_;
    std::size_t pos_ = 0;
    bool ok_ = true;
};

// Sorts a handful of squares (std::sort's large-array path draws false
// array-bounds warnings from GCC on these tiny arrays).
template <typename Less> void sort_squares(int* first, int* last, Less less) {
    for (int* i = first + 1; i < last; ++i)
        for (int* j = i; j > first && less(*j, *(j - 1)); --j) std::swap(*j, *(j - 1));
}

Piece decode_piece(int nibble) {
    const int type = (nibble & 7) - 1;
    if (type < 0 || type >= PIECE_TYPE_NB || (nibble & ~15)) return NO_PIECE;
    return make_piece(Color(nibble >> 3), PieceType(type));
}

} // namespace

// One (side to move, leading file) part of a table: the order of its pieces,
// their grouping, and where its compressed values are.
struct Table::SubTable {
    std::array<Piece, MAX_TABLE_PIECES> pieces{};
    std::array<int, MAX_TABLE_PIECES + 1> group_len{}; // zero-terminated
    std::array<std::uint64_t, MAX_TABLE_PIECES + 1> group_factor{};
    std::uint64_t positions = 0; // the index range

    std::uint8_t flags = 0;
    int single_value = 0;
    int min_len = 0, max_len = 0;
    std::uint64_t block_size = 0, span = 0;
    std::uint64_t blocks = 0, length_entries = 0, sparse_entries = 0;
    const std::uint8_t* sparse = nullptr;  // 6 bytes an entry: block (32 bits), offset (16)
    const std::uint8_t* lengths = nullptr; // values per block minus one, 16 bits each
    const std::uint8_t* data = nullptr;
    const std::uint8_t* file_end = nullptr;
    std::vector<std::uint64_t> base;  // lowest code of each length, left-aligned in 64 bits
    std::vector<std::uint16_t> first; // first symbol of each code length
    std::vector<std::uint16_t> left, right;
    std::vector<std::uint32_t> extra; // values a symbol stands for, minus one

    // DTZ value maps by WDL class (win, loss, cursed win, blessed loss).
    std::array<const std::uint8_t*, 4> map{};
    std::array<std::uint32_t, 4> map_len{};

    bool group(int piece_count, bool has_pawns, bool unique, bool both_pawns, std::array<int, 2> order,
               int file);
    bool read_sizes(Cursor& c);
    bool count_symbol(std::uint32_t s, std::vector<std::uint8_t>& state);
    std::optional<int> value_at(std::uint64_t index) const;
    std::uint32_t be32(const std::uint8_t* p) const {
        if (p + 4 > file_end) return 0;
        return std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3];
    }
};

// ---------------------------------------------------------------------------
// Material
// ---------------------------------------------------------------------------
std::optional<Material> Material::from_name(std::string_view name) {
    const std::size_t v = name.find('v');
    if (v == std::string_view::npos) return std::nullopt;
    Material m;
    for (int side = 0; side < 2; ++side) {
        std::string_view part = side == 0 ? name.substr(0, v) : name.substr(v + 1);
        if (part.empty() || part[0] != 'K') return std::nullopt;
        for (char ch : part) {
            const char* at = std::find(PIECE_LETTERS, PIECE_LETTERS + 6, ch);
            if (at == PIECE_LETTERS + 6) return std::nullopt;
            ++m.count[side][at - PIECE_LETTERS];
        }
        if (m.count[side][KING] != 1) return std::nullopt;
    }
    if (m.total() < 3 || m.total() > MAX_TABLE_PIECES) return std::nullopt;
    return m;
}

Material Material::of(const Position& pos) {
    Material m;
    for (Color c : {WHITE, BLACK})
        for (int pt = PAWN; pt <= KING; ++pt) m.count[c][pt] = std::uint8_t(pos.count(c, PieceType(pt)));
    return m;
}

int Material::total() const {
    int n = 0;
    for (const auto& side : count)
        for (int k : side) n += k;
    return n;
}

std::uint64_t Material::key(bool swapped) const {
    std::uint64_t k = 0;
    for (int c = 0; c < 2; ++c)
        for (int pt = PAWN; pt < KING; ++pt)
            k |= std::uint64_t(count[c ^ int(swapped)][pt] & 15) << (4 * (5 * c + pt));
    return k;
}

std::string Material::name() const {
    std::string s;
    for (int c = 0; c < 2; ++c) {
        if (c) s += 'v';
        for (int pt = KING; pt >= PAWN; --pt) s.append(count[c][pt], PIECE_LETTERS[pt]);
    }
    return s;
}

std::uint64_t material_key(const Position& pos) {
    std::uint64_t k = 0;
    for (int c = 0; c < 2; ++c)
        for (int pt = PAWN; pt < KING; ++pt)
            k |= std::uint64_t(popcount(pos.pieces(Color(c), PieceType(pt))) & 15) << (4 * (5 * c + pt));
    return k;
}

// ---------------------------------------------------------------------------
// Table
// ---------------------------------------------------------------------------
Table::Table(TableKind kind, const Material& material, std::string path)
    : kind_(kind), material_(material), path_(std::move(path)), white_key_(material.key()) {
    symmetric_ = material.key() == material.key(true);
    has_pawns_ = material.pawns(WHITE) + material.pawns(BLACK) > 0;
    unique_ = false;
    for (const auto& side : material.count)
        for (int pt = PAWN; pt < KING; ++pt) unique_ |= side[pt] == 1;
    // The leading pawns: the side with fewer pawns (white on a tie), if it has any.
    const int w = material.pawns(WHITE), b = material.pawns(BLACK);
    lead_color_ = (b == 0 || (w > 0 && b >= w)) ? WHITE : BLACK;
}

Table::~Table() = default;

bool Table::load() const {
    const std::uint8_t s = state_.load(std::memory_order_acquire);
    if (s != Unloaded) return s == Ready;
    std::lock_guard lock(load_mutex_);
    if (state_.load(std::memory_order_relaxed) == Unloaded) {
        bool ok = file_.open(path_) && parse(file_.bytes());
        if (!ok) {
            subs_.clear();
            file_.close();
        }
        state_.store(ok ? Ready : Broken, std::memory_order_release);
    }
    return state_.load(std::memory_order_relaxed) == Ready;
}

// Groups: the leading group (pawns of the leading side; or, without pawns,
// three unique pieces, or else the two kings), then runs of identical
// pieces. `order` gives the place of the leading group and of the other
// side's pawns among the index's digits.
bool Table::SubTable::group(int piece_count, bool has_pawns, bool unique, bool both_pawns,
                            std::array<int, 2> order, int file) {
    const Numbering& num = numbering();
    int n = 0, first = has_pawns ? 0 : unique ? 3 : 2;
    group_len.fill(0);
    group_len[0] = 1;
    for (int i = 1; i < piece_count; ++i) {
        if (--first > 0 || pieces[i] == pieces[i - 1])
            ++group_len[n];
        else
            group_len[++n] = 1;
    }
    const int groups = n + 1;
    if (order[0] >= groups || (both_pawns && (order[1] >= groups || order[1] == order[0]))) return false;
    if (both_pawns && groups < 2) return false;

    int next = both_pawns ? 2 : 1;
    int free_squares = 64 - group_len[0] - (both_pawns ? group_len[1] : 0);
    std::uint64_t factor = 1;
    for (int k = 0; k < groups; ++k) {
        int g = 0;
        std::uint64_t size = 0;
        if (k == order[0]) {
            size = has_pawns ? num.lead_count[group_len[0]][file] : unique ? 31332 : 462;
        } else if (both_pawns && k == order[1]) {
            g = 1;
            size = num.choose[group_len[1]][48 - group_len[0]];
        } else {
            if (next >= groups || free_squares < group_len[next]) return false;
            g = next++;
            size = num.choose[group_len[g]][free_squares];
            free_squares -= group_len[g];
        }
        group_factor[g] = factor;
        factor *= size;
    }
    positions = factor;
    return next == groups && positions > 0;
}

bool Table::SubTable::read_sizes(Cursor& c) {
    flags = std::uint8_t(c.le(1));
    if (flags & FLAG_SINGLE) {
        single_value = int(c.le(1));
        return c.ok();
    }
    const int block_bits = int(c.le(1)), span_bits = int(c.le(1));
    const int padding = int(c.le(1));
    blocks = c.le(4);
    max_len = int(c.le(1));
    min_len = int(c.le(1));
    if (!c.ok() || block_bits > 16 || span_bits > 24 || min_len < 1 || max_len > 32 || min_len > max_len)
        return false;
    block_size = std::uint64_t(1) << block_bits;
    span = std::uint64_t(1) << span_bits;
    sparse_entries = (positions + span - 1) / span;
    length_entries = blocks + std::uint64_t(padding);

    const int lengths_count = max_len - min_len + 1;
    first.resize(std::size_t(lengths_count));
    for (auto& f : first) f = std::uint16_t(c.le(2));
    // Canonical Huffman: longer codes are numerically lower. base[i] is the
    // lowest code of length min_len + i, left-aligned in 64 bits.
    base.assign(std::size_t(lengths_count), 0);
    for (int i = lengths_count - 2; i >= 0; --i)
        base[std::size_t(i)] =
            (base[std::size_t(i) + 1] + first[std::size_t(i)] - first[std::size_t(i) + 1]) / 2;
    for (int i = 0; i < lengths_count; ++i) base[std::size_t(i)] <<= 64 - i - min_len;

    const std::uint32_t symbols = c.le(2);
    const std::uint8_t* tree = c.here();
    if (!c.skip(3ULL * symbols + (symbols & 1)) || symbols == 0) return false;
    left.resize(symbols);
    right.resize(symbols);
    for (std::uint32_t s = 0; s < symbols; ++s) {
        const std::uint8_t* e = tree + 3 * s;
        left[s] = std::uint16_t(((e[1] & 0xF) << 8) | e[0]);
        right[s] = std::uint16_t((e[2] << 4) | (e[1] >> 4));
    }
    extra.assign(symbols, 0);
    std::vector<std::uint8_t> state(symbols, 0);
    for (std::uint32_t s = 0; s < symbols; ++s)
        if (!count_symbol(s, state)) return false;
    return true;
}

// How many values symbol s stands for (minus one): a leaf is one value, a
// pair the sum of its halves. A pair refers to existing symbols and never
// (directly or not) to itself.
bool Table::SubTable::count_symbol(std::uint32_t s, std::vector<std::uint8_t>& state) {
    if (state[s] == 2) return true;
    if (state[s] == 1) return false; // a cycle: corrupted
    state[s] = 1;
    if (right[s] != LEAF) {
        const std::uint32_t l = left[s], r = right[s];
        if (l >= left.size() || r >= left.size() || !count_symbol(l, state) || !count_symbol(r, state))
            return false;
        extra[s] = extra[l] + extra[r] + 1;
        if (extra[s] > 65535) return false;
    }
    state[s] = 2;
    return true;
}

std::optional<int> Table::SubTable::value_at(std::uint64_t index) const {
    if (flags & FLAG_SINGLE) return single_value;
    if (index >= positions) return std::nullopt;

    // The sparse index gives the block and offset of every span-th value's
    // neighbourhood; walk the block lengths from there.
    const std::uint64_t k = index / span;
    if (k >= sparse_entries) return std::nullopt;
    std::int64_t block = read_le(sparse + 6 * k, 4);
    std::int64_t offset = std::int64_t(read_le(sparse + 6 * k + 4, 2));
    offset += std::int64_t(index % span) - std::int64_t(span / 2);
    auto length = [&](std::int64_t b) { return std::int64_t(read_le(lengths + 2 * b, 2)); };
    if (block >= std::int64_t(length_entries)) return std::nullopt;
    while (offset < 0) {
        if (--block < 0) return std::nullopt;
        offset += length(block) + 1;
    }
    while (offset > length(block)) {
        offset -= length(block) + 1;
        if (++block >= std::int64_t(length_entries)) return std::nullopt;
    }
    if (std::uint64_t(block) >= blocks) return std::nullopt;

    // Decode symbols from the block's start until the one covering `offset`.
    const std::uint8_t* p = data + std::uint64_t(block) * block_size;
    std::uint64_t bits = std::uint64_t(be32(p)) << 32 | be32(p + 4);
    p += 8;
    int held = 64;
    std::uint64_t used = 0;
    std::uint32_t sym = 0;
    while (true) {
        std::size_t len = 0;
        while (bits < base[len]) ++len; // base.back() is 0: always stops
        sym = first[len] + std::uint32_t((bits - base[len]) >> (64 - len - std::size_t(min_len)));
        if (sym >= extra.size()) return std::nullopt;
        if (offset <= std::int64_t(extra[sym])) break;
        offset -= std::int64_t(extra[sym]) + 1;
        const int code_len = int(len) + min_len;
        bits <<= code_len;
        held -= code_len;
        used += std::uint64_t(code_len);
        if (used > block_size * 8) return std::nullopt; // ran off the block: corrupted
        if (held <= 32) {
            held += 32;
            bits |= std::uint64_t(be32(p)) << (64 - held);
            p += 4;
        }
    }
    // Expand pairs down to the value at `offset`.
    while (extra[sym] != 0) {
        const std::uint32_t l = left[sym];
        if (offset <= std::int64_t(extra[l])) {
            sym = l;
        } else {
            offset -= std::int64_t(extra[l]) + 1;
            sym = right[sym];
        }
    }
    return left[sym];
}

// The file layout: magic, flags, per sub-table piece order, size records,
// [DTZ value maps], sparse indices, block lengths, then the blocks (each
// sub-table's 64-byte aligned), then a 16-byte checksum.
bool Table::parse(std::span<const std::uint8_t> file) const {
    if (file.size() < 16 || file.size() % 64 != 16) return false;
    const auto& magic = kind_ == TableKind::Wdl ? WDL_MAGIC : DTZ_MAGIC;
    if (!std::equal(magic.begin(), magic.end(), file.begin())) return false;
    Cursor c(file);
    c.skip(4);
    const std::uint32_t header = c.le(1);
    if (bool(header & 1) == symmetric_ || bool(header & 2) != has_pawns_) return false;

    const int sides = kind_ == TableKind::Wdl && !symmetric_ ? 2 : 1;
    const int files = has_pawns_ ? 4 : 1;
    const bool both_pawns = has_pawns_ && material_.pawns(WHITE) > 0 && material_.pawns(BLACK) > 0;
    const int piece_count = material_.total();
    subs_.assign(std::size_t(sides * 4), SubTable{});
    auto sub = [&](int side, int f) -> SubTable& { return subs_[std::size_t(side * 4 + f)]; };

    for (int f = 0; f < files; ++f) {
        const std::uint32_t o1 = c.le(1);
        const std::uint32_t o2 = both_pawns ? c.le(1) : 0xFF;
        const std::uint8_t* bytes = c.here();
        if (!c.skip(std::uint64_t(piece_count))) return false;
        for (int side = 0; side < sides; ++side) {
            SubTable& s = sub(side, f);
            Material seen;
            for (int i = 0; i < piece_count; ++i) {
                const Piece p = decode_piece(side ? bytes[i] >> 4 : bytes[i] & 15);
                if (p == NO_PIECE) return false;
                s.pieces[std::size_t(i)] = p;
                ++seen.count[color_of(p)][type_of(p)];
            }
            if (seen.count != material_.count) return false;
            if (has_pawns_) {
                // The leading pawns first, then (both sides having pawns) the others.
                const int lead = material_.pawns(lead_color_), other = material_.pawns(~lead_color_);
                for (int i = 0; i < lead + (both_pawns ? other : 0); ++i)
                    if (s.pieces[std::size_t(i)] != make_piece(i < lead ? lead_color_ : ~lead_color_, PAWN))
                        return false;
            }
            const std::array<int, 2> order = {int(side ? o1 >> 4 : o1 & 15), int(side ? o2 >> 4 : o2 & 15)};
            if (!s.group(piece_count, has_pawns_, unique_, both_pawns, order, f)) return false;
            if (has_pawns_ && s.group_len[0] != material_.pawns(lead_color_)) return false;
        }
    }
    c.align(2);
    for (int f = 0; f < files; ++f)
        for (int side = 0; side < sides; ++side)
            if (!sub(side, f).read_sizes(c)) return false;

    if (kind_ == TableKind::Dtz) {
        for (int f = 0; f < files; ++f) {
            SubTable& s = sub(0, f);
            if (!(s.flags & FLAG_MAPPED)) continue;
            const bool wide = s.flags & FLAG_WIDE_MAP;
            if (wide) c.align(2);
            for (int i = 0; i < 4; ++i) {
                s.map_len[std::size_t(i)] = c.le(wide ? 2 : 1);
                s.map[std::size_t(i)] = c.here();
                if (!c.skip(std::uint64_t(s.map_len[std::size_t(i)]) * (wide ? 2 : 1))) return false;
            }
        }
        c.align(2);
    }
    for (int f = 0; f < files; ++f)
        for (int side = 0; side < sides; ++side) {
            SubTable& s = sub(side, f);
            s.sparse = c.here();
            if (!(s.flags & FLAG_SINGLE) && !c.skip(6 * s.sparse_entries)) return false;
        }
    for (int f = 0; f < files; ++f)
        for (int side = 0; side < sides; ++side) {
            SubTable& s = sub(side, f);
            s.lengths = c.here();
            if (!(s.flags & FLAG_SINGLE) && !c.skip(2 * s.length_entries)) return false;
        }
    for (int f = 0; f < files; ++f)
        for (int side = 0; side < sides; ++side) {
            SubTable& s = sub(side, f);
            c.align(64);
            s.data = c.here();
            s.file_end = file.data() + file.size();
            if (s.flags & FLAG_SINGLE) continue;
            if (s.blocks > (std::uint64_t(1) << 40) / s.block_size || !c.skip(s.blocks * s.block_size))
                return false;
        }
    return c.ok();
}

// The index of `pos` in `sub`: the pieces in the sub-table's order, mapped
// by the table's symmetries, numbered group by group.
std::optional<std::uint64_t> Table::encode(const Position& pos, const SubTable& sub, bool flip) const {
    const Numbering& num = numbering();
    std::array<int, MAX_TABLE_PIECES> sq{};
    const int n = material_.total();
    const int flip_squares = flip ? 56 : 0;
    int lead = 0;
    Bitboard lead_pawns = 0;
    if (has_pawns_) {
        lead_pawns = pos.pieces(Color(lead_color_ ^ int(flip)), PAWN);
        for (Bitboard b = lead_pawns; b;) sq[std::size_t(lead++)] = pop_lsb(b) ^ flip_squares;
        auto by_order = [&](int a, int b) { return num.pawn_order[a] < num.pawn_order[b]; };
        std::swap(sq[0], *std::max_element(sq.begin(), sq.begin() + lead, by_order));
    }
    // The other pieces, placed in the sub-table's order.
    std::array<int, MAX_TABLE_PIECES> rest_sq{};
    std::array<Piece, MAX_TABLE_PIECES> rest_piece{};
    int rest = 0;
    for (Bitboard b = pos.pieces() ^ lead_pawns; b;) {
        const Square s = pop_lsb(b);
        const Piece p = pos.piece_on(s);
        rest_piece[std::size_t(rest)] = flip ? make_piece(~color_of(p), type_of(p)) : p;
        rest_sq[std::size_t(rest++)] = s ^ flip_squares;
    }
    if (lead + rest != n) return std::nullopt;
    for (int i = lead; i < n; ++i) {
        int j = 0;
        while (j < rest && rest_piece[std::size_t(j)] != sub.pieces[std::size_t(i)]) ++j;
        if (j == rest) return std::nullopt;
        sq[std::size_t(i)] = rest_sq[std::size_t(j)];
        rest_piece[std::size_t(j)] = NO_PIECE;
    }
    if ((sq[0] & 7) > 3)
        for (int i = 0; i < n; ++i) sq[std::size_t(i)] = flip_file(Square(sq[std::size_t(i)]));

    std::uint64_t index = 0;
    if (has_pawns_) {
        index = num.lead_start[lead][sq[0]];
        sort_squares(sq.data() + 1, sq.data() + lead,
                     [&](int a, int b) { return num.pawn_order[a] < num.pawn_order[b]; });
        for (int i = 1; i < lead; ++i) index += num.choose[i][num.pawn_order[sq[std::size_t(i)]]];
    } else {
        if ((sq[0] >> 3) > 3)
            for (int i = 0; i < n; ++i) sq[std::size_t(i)] = flip_rank(Square(sq[std::size_t(i)]));
        // The first leading piece off the a1-h8 diagonal goes below it.
        for (int i = 0; i < sub.group_len[0]; ++i) {
            const int d = diagonal_offset(sq[std::size_t(i)]);
            if (d == 0) continue;
            if (d > 0)
                for (int j = i; j < n; ++j) sq[std::size_t(j)] = transpose(sq[std::size_t(j)]);
            break;
        }
        if (unique_) {
            const int a = sq[0], b = sq[1], c = sq[2];
            const int b_adj = b - (b > a), c_adj = c - (c > a) - (c > b);
            const int rb = (b >> 3) - (b > a), rc = (c >> 3) - (c > a) - (c > b);
            if (diagonal_offset(a))
                index = std::uint64_t((num.triangle[a] * 63 + b_adj) * 62 + c_adj);
            else if (diagonal_offset(b))
                index = std::uint64_t((6 * 63 + (a >> 3) * 28 + num.below_diagonal[b]) * 62 + c_adj);
            else if (diagonal_offset(c))
                index = std::uint64_t(6 * 63 * 62 + 4 * 28 * 62 + (a >> 3) * 7 * 28 + rb * 28 +
                                      num.below_diagonal[c]);
            else
                index =
                    std::uint64_t(6 * 63 * 62 + 4 * 28 * 62 + 4 * 7 * 28 + (a >> 3) * 7 * 6 + rb * 6 + rc);
        } else {
            index = std::uint64_t(num.king_pair[num.triangle[sq[0]]][sq[1]]);
        }
    }
    index *= sub.group_factor[0];

    // The other groups: each a set of squares, numbered among the squares
    // the earlier groups left free.
    const bool both_pawns = has_pawns_ && material_.pawns(WHITE) > 0 && material_.pawns(BLACK) > 0;
    int start = sub.group_len[0];
    for (int g = 1; sub.group_len[std::size_t(g)]; ++g) {
        const int len = sub.group_len[std::size_t(g)];
        sort_squares(sq.data() + start, sq.data() + start + len, [](int a, int b) { return a < b; });
        const int shift = g == 1 && both_pawns ? 8 : 0;
        std::uint64_t code = 0;
        for (int i = 0; i < len; ++i) {
            const int s = sq[std::size_t(start + i)];
            int below = 0;
            for (int j = 0; j < start; ++j) below += sq[std::size_t(j)] < s;
            const int rank = s - below - shift;
            if (rank < 0) return std::nullopt;
            code += num.choose[i + 1][rank];
        }
        index += code * sub.group_factor[std::size_t(g)];
        start += len;
    }
    return index;
}

Lookup Table::probe(const Position& pos, std::uint64_t pos_key, int wdl) const {
    if (!load()) return {};
    // The file stores white as the side named first; the position may have
    // it the other way round. A symmetric table stores white to move only.
    const bool flip = symmetric_ ? pos.side_to_move() == BLACK : pos_key != white_key_;
    const int stm = int(pos.side_to_move()) ^ int(flip);
    int file = 0;
    if (has_pawns_) {
        const Numbering& num = numbering();
        const int flip_squares = flip ? 56 : 0;
        int best = -1;
        for (Bitboard b = pos.pieces(Color(lead_color_ ^ int(flip)), PAWN); b;) {
            const int s = pop_lsb(b) ^ flip_squares;
            if (best < 0 || num.pawn_order[s] > num.pawn_order[best]) best = s;
        }
        if (best < 0) return {};
        file = std::min(best & 7, 7 - (best & 7));
    }
    const SubTable& sub = subs_[std::size_t((kind_ == TableKind::Wdl && !symmetric_ ? stm : 0) * 4 + file)];
    if (kind_ == TableKind::Dtz && int(sub.flags & FLAG_BLACK_TO_MOVE) != stm && !(symmetric_ && !has_pawns_))
        return {Lookup::OtherSide, 0};

    const auto index = encode(pos, sub, flip);
    if (!index) return {};
    const auto raw = sub.value_at(*index);
    if (!raw) return {};
    int value = *raw;
    if (kind_ == TableKind::Wdl) {
        if (value > 4) return {};
        return {Lookup::Ok, value - 2};
    }
    // DTZ: values are stored per WDL class, maybe through a map, in moves or plies.
    if (sub.flags & FLAG_MAPPED) {
        const int cls = wdl == 2 ? 0 : wdl == -2 ? 1 : wdl == 1 ? 2 : 3;
        if (std::uint32_t(value) >= sub.map_len[std::size_t(cls)]) return {};
        const std::uint8_t* m = sub.map[std::size_t(cls)];
        value = sub.flags & FLAG_WIDE_MAP ? int(read_le(m + 2 * value, 2)) : m[value];
    }
    const bool plies =
        (wdl == 2 && (sub.flags & FLAG_WIN_PLIES)) || (wdl == -2 && (sub.flags & FLAG_LOSS_PLIES));
    if (!plies) value *= 2;
    return {Lookup::Ok, value + 1};
}

} // namespace staccato::syzygy
