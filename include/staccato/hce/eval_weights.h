// The evaluation's tunable weights: one flat array of (middlegame, endgame)
// pairs, so that the Texel tuner (src/hce/tuner.cpp) can treat the evaluation as
// a linear function of them. The layout below names every slice; the values
// live in src/hce/eval_weights.cpp, which the tuner writes.
#pragma once

#include <array>
#include <string_view>

namespace staccato::hce {

struct Score {
    int mg = 0, eg = 0;
    constexpr Score operator+(Score o) const { return {mg + o.mg, eg + o.eg}; }
    constexpr Score operator-(Score o) const { return {mg - o.mg, eg - o.eg}; }
    constexpr Score operator*(int k) const { return {mg * k, eg * k}; }
    constexpr Score& operator+=(Score o) { return mg += o.mg, eg += o.eg, *this; }
    constexpr Score& operator-=(Score o) { return mg -= o.mg, eg -= o.eg, *this; }
};

// A named run of weights: [offset, offset + size).
struct WeightGroup {
    std::string_view name;
    int offset;
    int size;
};

// The groups in array order. Every term is a bonus for the side that has it
// (a penalty is a negative weight). Index conventions:
//   material, per piece type: PAWN..QUEEN
//   psqt: [piece type][rank * 4 + file folded to a..d], from the owner's side
//   mobility: by the number of safe squares attacked
//   pawn and passed-pawn tables: by the pawn's rank from its owner's side;
//     the king-distance tables are multiplied by the distance (1..7)
//   threats: by the victim's type, KNIGHT..QUEEN as 0..3
//   king attack / safe checks: by the attacker's type, KNIGHT..QUEEN as 0..3
//   king shield/storm: by the rank (owner's side) of the nearest pawn on a
//     file next to the king, 0 when there is none
constexpr int group_end(const WeightGroup& g) { return g.offset + g.size; }

inline constexpr WeightGroup MATERIAL{"material", 0, 5};
inline constexpr WeightGroup PSQT{"psqt", group_end(MATERIAL), 6 * 32};
inline constexpr WeightGroup MOBILITY_KNIGHT{"mobility_knight", group_end(PSQT), 9};
inline constexpr WeightGroup MOBILITY_BISHOP{"mobility_bishop", group_end(MOBILITY_KNIGHT), 14};
inline constexpr WeightGroup MOBILITY_ROOK{"mobility_rook", group_end(MOBILITY_BISHOP), 15};
inline constexpr WeightGroup MOBILITY_QUEEN{"mobility_queen", group_end(MOBILITY_ROOK), 28};
inline constexpr WeightGroup PAWN_DOUBLED{"pawn_doubled", group_end(MOBILITY_QUEEN), 1};
inline constexpr WeightGroup PAWN_ISOLATED{"pawn_isolated", group_end(PAWN_DOUBLED), 1};
inline constexpr WeightGroup PAWN_BACKWARD{"pawn_backward", group_end(PAWN_ISOLATED), 1};
inline constexpr WeightGroup PAWN_PHALANX{"pawn_phalanx", group_end(PAWN_BACKWARD), 8};
inline constexpr WeightGroup PAWN_SUPPORTED{"pawn_supported", group_end(PAWN_PHALANX), 8};
inline constexpr WeightGroup PASSED{"passed", group_end(PAWN_SUPPORTED), 8};
inline constexpr WeightGroup PASSED_FREE{"passed_free", group_end(PASSED), 8};
inline constexpr WeightGroup PASSED_OWN_KING{"passed_own_king", group_end(PASSED_FREE), 8};
inline constexpr WeightGroup PASSED_ENEMY_KING{"passed_enemy_king", group_end(PASSED_OWN_KING), 8};
inline constexpr WeightGroup PASSED_CANDIDATE{"passed_candidate", group_end(PASSED_ENEMY_KING), 8};
inline constexpr WeightGroup BISHOP_PAIR{"bishop_pair", group_end(PASSED_CANDIDATE), 1};
inline constexpr WeightGroup ROOK_OPEN{"rook_open_file", group_end(BISHOP_PAIR), 1};
inline constexpr WeightGroup ROOK_SEMI_OPEN{"rook_semi_open_file", group_end(ROOK_OPEN), 1};
inline constexpr WeightGroup ROOK_SEVENTH{"rook_seventh", group_end(ROOK_SEMI_OPEN), 1};
inline constexpr WeightGroup KNIGHT_OUTPOST{"knight_outpost", group_end(ROOK_SEVENTH), 1};
inline constexpr WeightGroup BISHOP_OUTPOST{"bishop_outpost", group_end(KNIGHT_OUTPOST), 1};
inline constexpr WeightGroup THREAT_BY_PAWN{"threat_by_pawn", group_end(BISHOP_OUTPOST), 4};
inline constexpr WeightGroup THREAT_BY_MINOR{"threat_by_minor", group_end(THREAT_BY_PAWN), 4};
inline constexpr WeightGroup THREAT_BY_ROOK{"threat_by_rook", group_end(THREAT_BY_MINOR), 4};
inline constexpr WeightGroup HANGING{"hanging_piece", group_end(THREAT_BY_ROOK), 1};
inline constexpr WeightGroup HANGING_PAWN{"hanging_pawn", group_end(HANGING), 1};
inline constexpr WeightGroup KING_ATTACK{"king_attack", group_end(HANGING_PAWN), 4};
inline constexpr WeightGroup SAFE_CHECK{"safe_check", group_end(KING_ATTACK), 4};
inline constexpr WeightGroup KING_SHIELD{"king_shield", group_end(SAFE_CHECK), 8};
inline constexpr WeightGroup KING_STORM{"king_storm", group_end(KING_SHIELD), 8};
inline constexpr WeightGroup KING_OPEN_FILE{"king_open_file", group_end(KING_STORM), 1};
inline constexpr WeightGroup KING_SEMI_OPEN_FILE{"king_semi_open_file", group_end(KING_OPEN_FILE), 1};
inline constexpr WeightGroup TEMPO{"tempo", group_end(KING_SEMI_OPEN_FILE), 1};

inline constexpr std::array WEIGHT_GROUPS = {MATERIAL,
                                             PSQT,
                                             MOBILITY_KNIGHT,
                                             MOBILITY_BISHOP,
                                             MOBILITY_ROOK,
                                             MOBILITY_QUEEN,
                                             PAWN_DOUBLED,
                                             PAWN_ISOLATED,
                                             PAWN_BACKWARD,
                                             PAWN_PHALANX,
                                             PAWN_SUPPORTED,
                                             PASSED,
                                             PASSED_FREE,
                                             PASSED_OWN_KING,
                                             PASSED_ENEMY_KING,
                                             PASSED_CANDIDATE,
                                             BISHOP_PAIR,
                                             ROOK_OPEN,
                                             ROOK_SEMI_OPEN,
                                             ROOK_SEVENTH,
                                             KNIGHT_OUTPOST,
                                             BISHOP_OUTPOST,
                                             THREAT_BY_PAWN,
                                             THREAT_BY_MINOR,
                                             THREAT_BY_ROOK,
                                             HANGING,
                                             HANGING_PAWN,
                                             KING_ATTACK,
                                             SAFE_CHECK,
                                             KING_SHIELD,
                                             KING_STORM,
                                             KING_OPEN_FILE,
                                             KING_SEMI_OPEN_FILE,
                                             TEMPO};

inline constexpr int NUM_WEIGHTS = group_end(TEMPO);

using Weights = std::array<Score, NUM_WEIGHTS>;

// The engine's weights (src/hce/eval_weights.cpp, written by the tuner).
extern const Weights WEIGHTS;

} // namespace staccato::hce
