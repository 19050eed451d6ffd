// One Syzygy table file (.rtbw: win/draw/loss, .rtbz: distance to zeroing)
// and the mapping from a position to the value the file stores for it.
//
// A table is named after its material ("KRPvKR": the first side is the one
// the file calls white). It is registered from the name alone; the file is
// mapped and its header parsed on the first probe (thread-safe), and every
// offset the header gives is checked against the file's size: a truncated or
// corrupted file makes every probe of the table fail, never crash.
//
// The format (public; described by its author with the generator,
// github.com/syzygy1/tb): per (side to move, file of the leading pawn) a
// sub-table; a position's pieces are mapped to an index by symmetry and
// combinatorial numbering of piece groups; the values are compressed by
// recursive pairing and a canonical Huffman code in fixed-size blocks, with
// a sparse index of block positions.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "staccato/position.h"
#include "staccato/syzygy/mapped_file.h"

namespace staccato::syzygy {

constexpr int MAX_TABLE_PIECES = 7;

enum class TableKind : std::uint8_t { Wdl, Dtz };

// Piece counts per colour and type (kings included) of a table or position.
struct Material {
    std::array<std::array<std::uint8_t, PIECE_TYPE_NB>, COLOR_NB> count{};

    // "KRPvKR" (either side may come first); nullopt for anything else,
    // KvK and more than MAX_TABLE_PIECES pieces included.
    static std::optional<Material> from_name(std::string_view name);
    static Material of(const Position& pos);
    int total() const;
    int pawns(Color c) const { return count[c][PAWN]; }
    // The signature used to find a table: the non-king counts, white's in
    // the low bits; `swapped` reads the colours the other way round.
    std::uint64_t key(bool swapped = false) const;
    std::string name() const; // "KRPvKR"
};

// The signature of a position's material (Material::of(pos).key()), cheaply.
std::uint64_t material_key(const Position& pos);

// What a table lookup came to.
struct Lookup {
    enum Status : std::uint8_t { Ok, Failed, OtherSide } status = Failed;
    int value = 0; // WDL: -2..2; DTZ: plies (or moves) to zeroing, >= 1
};

class Table {
  public:
    Table(TableKind kind, const Material& material, std::string path);
    ~Table();
    Table(const Table&) = delete;
    Table& operator=(const Table&) = delete;

    // The value stored for `pos` (whose material is this table's, either
    // way round, and whose key is `pos_key`). DTZ needs the position's WDL
    // value `wdl` (non-zero) and answers OtherSide when the file stores the
    // other side to move. Thread-safe; maps the file on first use.
    Lookup probe(const Position& pos, std::uint64_t pos_key, int wdl) const;

    TableKind kind() const { return kind_; }
    const Material& material() const { return material_; }
    const std::string& path() const { return path_; }
    // Maps and parses the file now (if not done yet); false when it is
    // unreadable or corrupted.
    bool load() const;

    struct SubTable; // one (side to move, leading file) part of the file

  private:
    bool parse(std::span<const std::uint8_t> file) const;
    std::optional<std::uint64_t> encode(const Position& pos, const SubTable& sub, bool flip) const;

    TableKind kind_;
    Material material_;
    std::string path_;
    std::uint64_t white_key_;
    bool symmetric_; // both sides have the same material
    bool has_pawns_;
    bool unique_;      // some side has a lone piece besides the king
    Color lead_color_; // the side whose pawns lead the encoding (table colours)

    enum State : std::uint8_t { Unloaded, Ready, Broken };
    mutable std::atomic<std::uint8_t> state_{Unloaded};
    mutable std::mutex load_mutex_;
    mutable MappedFile file_;
    mutable std::vector<SubTable> subs_; // [side * 4 + file]
};

} // namespace staccato::syzygy
