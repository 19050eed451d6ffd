// libFuzzer target: arbitrary bytes as a FEN. A refused FEN must leave the
// position untouched; an accepted one (perhaps with warnings about what it
// dropped) must be internally consistent, round-trip through fen() as its
// normalised form with nothing left to drop, and agree with itself on move
// generation.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "staccato/attacks.h"
#include "staccato/hce/eval.h"
#include "staccato/movegen.h"
#include "staccato/perft.h"
#include "staccato/position.h"

using namespace staccato;

namespace {
void require(bool ok) {
    if (!ok) std::abort();
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static bool ready = (attacks::init(), true);
    (void)ready;
    const std::string text(reinterpret_cast<const char*>(data), size);

    Position pos;
    const std::string before = pos.fen();
    if (const SetupResult result = pos.set_fen(text); result.error) {
        require(result.warnings.empty());
        require(pos.fen() == before); // refused: nothing changed
        return 0;
    }
    std::string why;
    require(pos.is_consistent(&why));
    const std::string fen = pos.fen();
    Position again;
    const SetupResult normalised = again.set_fen(fen);
    require(!normalised.error && normalised.warnings.empty());
    require(again.fen() == fen);
    require(again.key() == pos.key());

    // Move generation agrees with itself: the legal list, the bulk counter,
    // and perft(2) as the sum over the children.
    MoveList legal(pos);
    require(legal.size() == count_legal_moves(pos));
    std::uint64_t sum = 0;
    for (const ScoredMove& sm : legal) {
        require(pos.is_pseudo_legal(sm.move) && pos.is_legal(sm.move));
        pos.make_move(sm.move);
        require(pos.is_consistent());
        sum += std::uint64_t(count_legal_moves(pos));
        pos.unmake_move(sm.move);
    }
    require(perft(pos, 2) == sum);
    require(pos.fen() == fen);
    (void)hce::evaluate(pos);
    return 0;
}
