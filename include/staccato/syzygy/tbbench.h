// Random tablebase positions and the probe-speed benchmark
// (`staccato tbbench PATH [POSITIONS]`).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string_view>

#include "staccato/position.h"
#include "staccato/random.h"
#include "staccato/syzygy/table.h"

namespace staccato::syzygy {

// A random legal position with `material` (white as named first, either
// side to move); with `en_passant` (both sides having pawns) the side not to
// move has just pushed a pawn two squares next to an enemy pawn. nullopt
// when a thousand tries found none.
std::optional<Position> random_position(const Material& material, Rng& rng, bool en_passant);

// Loads the tables of `paths`, draws `positions` random positions over the
// tables found, and times WDL and DTZ probes: the first pass ("cold": each
// table mapped and parsed on its first probe, its pages touched for the
// first time by this process) and three more ("warm"). Writes a report;
// false when no table was found.
bool run_tb_bench(std::string_view paths, int positions, std::ostream& out);

} // namespace staccato::syzygy
