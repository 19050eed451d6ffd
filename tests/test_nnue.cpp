// The network evaluation: incremental accumulator updates against full
// refreshes, the SIMD output against the plain loop, the net file's checks,
// the embedded net, and EvalFile over UCI.
#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "staccato/engine.h"
#include "staccato/hce/eval.h"
#include "staccato/movegen.h"
#include "staccato/nnue/accumulator.h"
#include "staccato/nnue/report.h"
#include "suite.h"
#include "temp_path.h"
#include "uci_session.h"

using namespace staccato;
using staccato::test::from_fen;
using staccato::test::write_temp;

namespace {

const nnue::Network& net() { return nnue::default_network(); }

// Every legal move of `pos`: the updated accumulator (a half whose king
// crossed the d/e line rebuilt from `cache`) equals a refresh of the
// position after the move. Returns the number of moves checked.
int check_children(Position& pos, const nnue::Accumulator& parent, nnue::RefreshCache& cache) {
    int checked = 0;
    for (const ScoredMove& sm : MoveList(pos)) {
        const nnue::DirtyPieces dirty = nnue::dirty_pieces(pos, sm.move);
        nnue::Accumulator updated, fresh;
        pos.make_move(sm.move);
        nnue::apply(net(), pos, parent, dirty, updated, cache);
        nnue::refresh(net(), pos, fresh);
        INFO(pos.fen());
        CHECK(updated == fresh);
        pos.unmake_move(sm.move);
        ++checked;
    }
    return checked;
}

// A network with random weights inside the trainer's bounds, to reach
// activations and products a trained net seldom does.
std::unique_ptr<nnue::Network> random_network(std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    auto n = std::make_unique<nnue::Network>();
    std::uniform_int_distribution<int> ft(-400, 400), out(-nnue::MAX_OUTPUT_WEIGHT, nnue::MAX_OUTPUT_WEIGHT),
        bias(-200, 400);
    for (auto& w : n->ft_weights) w = std::int16_t(ft(rng));
    for (auto& b : n->ft_bias) b = std::int16_t(bias(rng));
    for (auto& w : n->out_weights) w = std::int16_t(out(rng));
    for (auto& b : n->out_bias) b = out(rng) * 1000;
    return n;
}

std::vector<std::uint8_t> default_bytes() {
    const auto span = nnue::default_network_bytes();
    return {span.begin(), span.end()};
}

void put(std::vector<std::uint8_t>& out, std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(std::uint8_t(v >> (8 * i)));
}

// A net file as any version writes it: the magic, `version`, the shape's
// fields, the FNV-1a checksum of `payload`, the payload.
std::vector<std::uint8_t> net_file(std::uint32_t version, std::initializer_list<std::uint32_t> shape,
                                   const std::vector<std::uint8_t>& payload) {
    std::uint64_t fnv = 0xcbf29ce484222325ULL;
    for (std::uint8_t b : payload) fnv = (fnv ^ b) * 0x100000001b3ULL;
    std::vector<std::uint8_t> file = {'S', 'T', 'A', 'C', 'N', 'N', 'U', 'E'};
    put(file, version, 4);
    for (std::uint32_t v : shape) put(file, v, 4);
    put(file, fnv, 8);
    file.insert(file.end(), payload.begin(), payload.end());
    return file;
}

// `n`'s weights with its first `buckets` output layers, as the payload lays them out.
std::vector<std::uint8_t> weights_of(const nnue::Network& n, int buckets) {
    std::vector<std::uint8_t> payload;
    for (std::int16_t w : n.ft_weights) put(payload, std::uint16_t(w), 2);
    for (std::int16_t b : n.ft_bias) put(payload, std::uint16_t(b), 2);
    for (int i = 0; i < buckets * nnue::OUTPUT_INPUTS; ++i)
        put(payload, std::uint16_t(n.out_weights[std::size_t(i)]), 2);
    for (int b = 0; b < buckets; ++b) put(payload, std::uint32_t(n.out_bias[std::size_t(b)]), 4);
    return payload;
}

// A version-1 net file (one output layer, no bucket count) holding `n`'s
// first bucket: the format nets were written in before output buckets.
std::vector<std::uint8_t> version_1_bytes(const nnue::Network& n) {
    const nnue::NetShape& s = nnue::V1_SHAPE;
    return net_file(1, {s.inputs, s.hidden, s.activation, s.qa, s.qb, s.scale}, weights_of(n, 1));
}

// A version-2 net file (buckets, no input kind, no WDL model) of `n`: the
// format of the nets of rounds 4 to 8.
std::vector<std::uint8_t> version_2_bytes(const nnue::Network& n) {
    const nnue::NetShape& s = nnue::V2_SHAPE;
    return net_file(2, {s.inputs, s.hidden, s.activation, s.qa, s.qb, s.scale, s.buckets},
                    weights_of(n, nnue::OUTPUT_BUCKETS));
}

// A current-version net file of any shape, zero weights and no WDL model,
// its checksum right: what a trainer built for another architecture would
// write.
std::vector<std::uint8_t> net_file_of_shape(const nnue::NetShape& shape) {
    const std::vector<std::uint8_t> payload(4 + nnue::payload_bytes(shape),
                                            0); // the model's count (0), the weights
    return net_file(nnue::FILE_VERSION,
                    {shape.inputs, shape.hidden, shape.activation, shape.qa, shape.qb, shape.scale,
                     shape.buckets, shape.input_kind},
                    payload);
}

} // namespace

TEST_CASE("the embedded net is a valid net file", "[nnue]") {
    nnue::Network n;
    const auto error = nnue::deserialize(nnue::default_network_bytes(), n);
    INFO(error.value_or(""));
    REQUIRE(!error);
    CHECK(nnue::default_network_bytes().size() == nnue::FILE_BYTES_WDL);
    // It carries the WDL model its scores are shown with (wdl.h).
    REQUIRE(n.wdl);
    CHECK(n.wdl->check().empty());
    // It says something about material: a queen up is good for its owner.
    const Value up = nnue::evaluate(net(), from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1"));
    const Value down = nnue::evaluate(net(), from_fen("3qk3/8/8/8/8/8/8/4K3 w - - 0 1"));
    CHECK(up > 300);
    CHECK(down < -300);
}

TEST_CASE("incremental updates equal a full refresh over the perft suites", "[nnue]") {
    int checked = 0, rebuilt = 0;
    auto cache = std::make_unique<nnue::RefreshCache>();
    cache->clear(net()); // one cache over all the positions, as a search thread keeps it
    for (const std::string& fen : test::suite_fens(4)) {
        Position pos = from_fen(fen);
        nnue::Accumulator acc;
        nnue::refresh(net(), pos, acc);
        checked += check_children(pos, acc, *cache);
        for (const ScoredMove& sm : MoveList(pos)) {
            const auto d = nnue::dirty_pieces(pos, sm.move);
            rebuilt += d.rebuild[WHITE] + d.rebuild[BLACK];
        }
    }
    CHECK(checked > 5000);
    // With mirrored inputs, kings crossing the d/e line (castling long too).
    if (nnue::INPUT_KIND == nnue::INPUT_KIND_MIRRORED)
        CHECK(rebuilt > 20);
    else
        CHECK(rebuilt == 0);
}

TEST_CASE("incremental updates equal a full refresh along long random games", "[nnue]") {
    std::mt19937_64 rng(2026);
    int plies = 0;
    auto cache = std::make_unique<nnue::RefreshCache>();
    for (int game = 0; game < 40; ++game) {
        Position pos;
        std::vector<nnue::Accumulator> stack(1);
        nnue::refresh(net(), pos, stack[0]);
        cache->clear(net());
        for (int ply = 0; ply < 300; ++ply) {
            MoveList legal(pos);
            if (legal.size() == 0 || pos.is_fifty_move_draw()) break;
            const Move m = legal.begin()[rng() % std::size_t(legal.size())].move;
            nnue::Accumulator next;
            const auto dirty = nnue::dirty_pieces(pos, m);
            pos.make_move(m);
            nnue::apply(net(), pos, stack.back(), dirty, next, *cache);
            stack.push_back(next);
            nnue::Accumulator fresh;
            nnue::refresh(net(), pos, fresh);
            INFO(pos.fen());
            REQUIRE(stack.back() == fresh);
            ++plies;
        }
    }
    CHECK(plies > 5000);
}

TEST_CASE("the SIMD accumulator update and refresh equal the plain loops bit for bit", "[nnue]") {
    // Random games with the default net and random nets (wider weights):
    // every move's update, whatever kind of move it is, and a refresh after.
    std::mt19937_64 rng(45);
    int updates = 0;
    for (std::uint64_t seed : {0, 1}) {
        const auto random = random_network(seed);
        for (const nnue::Network* n : {&net(), static_cast<const nnue::Network*>(random.get())}) {
            for (int game = 0; game < 10; ++game) {
                Position pos;
                nnue::Accumulator acc;
                nnue::refresh_scalar(*n, pos, acc);
                for (int ply = 0; ply < 200; ++ply) {
                    MoveList legal(pos);
                    if (legal.size() == 0 || pos.is_fifty_move_draw()) break;
                    const Move m = legal.begin()[rng() % std::size_t(legal.size())].move;
                    const nnue::DirtyPieces dirty = nnue::dirty_pieces(pos, m);
                    nnue::Accumulator simd = acc, plain = acc, simd_fresh, plain_fresh;
                    nnue::update(*n, acc, dirty, simd);
                    nnue::update_scalar(*n, acc, dirty, plain);
                    pos.make_move(m);
                    nnue::refresh(*n, pos, simd_fresh);
                    nnue::refresh_scalar(*n, pos, plain_fresh);
                    INFO(pos.fen());
                    REQUIRE(simd == plain);
                    REQUIRE(simd_fresh == plain_fresh);
                    for (Color view : {WHITE, BLACK}) // a half to rebuild is left as it was
                        REQUIRE(
                            (plain.values[view] == (dirty.rebuild[view] ? acc : plain_fresh).values[view]));
                    acc = plain_fresh;
                    ++updates;
                }
            }
        }
    }
    CHECK(updates > 4000);
}

TEST_CASE("the SIMD output equals the plain loop bit for bit", "[nnue]") {
    int compared = 0;
    for (std::uint64_t seed : {0, 1, 2}) {
        const auto random = random_network(seed);
        for (const nnue::Network* n : {&net(), static_cast<const nnue::Network*>(random.get())}) {
            for (const std::string& fen : test::suite_fens(8)) {
                const Position pos = from_fen(fen);
                nnue::Accumulator acc;
                nnue::refresh(*n, pos, acc);
                for (Color stm : {WHITE, BLACK})
                    for (int bucket = 0; bucket < nnue::OUTPUT_BUCKETS; ++bucket) {
                        INFO(fen << " bucket " << bucket);
                        REQUIRE(nnue::output_sum(*n, acc, stm, bucket) ==
                                nnue::output_sum_scalar(*n, acc, stm, bucket));
                        ++compared;
                    }
            }
        }
    }
    CHECK(compared > 4000);
}

TEST_CASE("the evaluation is symmetric under a colour flip", "[nnue]") {
    // The same position with colours swapped and the board mirrored vertically
    // has the same side-to-move evaluation: both perspectives share weights.
    const Position a = from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    const Position b = from_fen("rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3");
    CHECK(nnue::evaluate(net(), a) == nnue::evaluate(net(), b));
}

namespace {

// `fen` without castling rights, and with `image` flipped left-right (files
// a <-> h): the same position but for the wing every piece stands on.
std::string left_right_image(const std::string& fen, bool image) {
    std::istringstream in(fen);
    std::string board, side, castling, ep, rest;
    in >> board >> side >> castling >> ep;
    std::getline(in, rest);
    if (image) {
        std::string flipped, rank;
        for (const char c : board + "/") {
            if (c != '/') {
                rank += c;
                continue;
            }
            if (!flipped.empty()) flipped += '/';
            flipped.append(rank.rbegin(), rank.rend());
            rank.clear();
        }
        board = flipped;
        if (ep != "-") ep[0] = char('a' + 'h' - ep[0]);
    }
    return board + " " + side + " - " + ep + rest;
}

} // namespace

TEST_CASE("the input kind's rule: mirrored inputs see a position and its left-right image alike", "[nnue]") {
    // arch.h: with mirrored inputs (a STACCATO_MIRRORED build) a perspective
    // whose king stands on e-h sees the board flipped left-right, so an index
    // with the king and the piece both flipped is the same input; with plain
    // inputs (main's build) the king plays no part and the two never meet.
    const bool mirrored = nnue::INPUT_KIND == nnue::INPUT_KIND_MIRRORED;
    int same = 0, pairs = 0;
    for (int k = 0; k < SQUARE_NB; ++k)
        for (const Piece pc : {W_PAWN, W_KNIGHT, B_QUEEN, B_KING})
            for (int s = 0; s < SQUARE_NB; ++s)
                for (const Color view : {WHITE, BLACK}) {
                    ++pairs;
                    same += nnue::feature_index(view, Square(k), pc, Square(s)) ==
                            nnue::feature_index(view, flip_file(Square(k)), pc, flip_file(Square(s)));
                }
    CHECK(same == (mirrored ? pairs : 0));

    // Whole evaluations, with random weights (no trained net is symmetric by
    // itself): castling rights dropped, since castling is the one thing the
    // image does not keep.
    int compared = 0, equal = 0;
    for (const std::uint64_t seed : {11, 12}) {
        const auto random = random_network(seed);
        for (const std::string& fen : test::suite_fens(16)) {
            const Position pos = from_fen(left_right_image(fen, false));
            const Position image = from_fen(left_right_image(fen, true));
            INFO(pos.fen() << " and " << image.fen());
            const Value a = nnue::evaluate(*random, pos), b = nnue::evaluate(*random, image);
            ++compared;
            equal += a == b;
            if (mirrored) CHECK(a == b);
        }
    }
    CHECK(compared > 100);
    // Plain inputs tell the wings apart: nearly every pair differs.
    if (!mirrored) CHECK(equal < compared / 10);
}

TEST_CASE("the refresh cache rebuilds a perspective as a refresh would, from any board before", "[nnue]") {
    // What a king crossing the d/e line makes the search do with mirrored
    // inputs (arch.h), checked with this build's inputs: one cache along
    // random games, each side's half rebuilt now and then, whatever the
    // cache held for it last.
    std::mt19937_64 rng(81);
    auto cache = std::make_unique<nnue::RefreshCache>();
    cache->clear(net());
    int rebuilt = 0;
    for (int game = 0; game < 20; ++game) {
        Position pos;
        for (int ply = 0; ply < 200; ++ply) {
            MoveList legal(pos);
            if (legal.size() == 0 || pos.is_fifty_move_draw()) break;
            pos.make_move(legal.begin()[rng() % std::size_t(legal.size())].move);
            if (rng() % 4) continue;
            const Color view = Color(rng() % 2);
            nnue::Accumulator fresh, acc;
            nnue::refresh(net(), pos, fresh);
            acc = fresh;
            acc.values[view].fill(0);
            cache->rebuild(net(), pos, view, acc);
            INFO(pos.fen());
            REQUIRE(acc == fresh);
            ++rebuilt;
        }
    }
    CHECK(rebuilt > 500);
}

TEST_CASE("a net file round-trips and every fault is refused with the net kept", "[nnue]") {
    const std::vector<std::uint8_t> good = default_bytes();
    nnue::Network n;
    REQUIRE(!nnue::deserialize(good, n));
    CHECK(nnue::serialize(n) == good);

    nnue::Network target = *random_network(7);
    const nnue::Network before = target;
    auto refused = [&](const std::vector<std::uint8_t>& bytes, const std::string& words) {
        const auto error = nnue::deserialize(bytes, target);
        REQUIRE(error);
        CHECK_THAT(*error, Catch::Contains(words));
        CHECK(target.ft_weights == before.ft_weights);
        CHECK(target.out_bias == before.out_bias);
    };
    refused({}, "not a net file");
    refused({good.begin(), good.begin() + 20}, "not a net file");
    refused({good.begin(), good.end() - 1}, "bytes, expected");
    auto bad_magic = good;
    bad_magic[0] = 'X';
    refused(bad_magic, "bad magic");
    auto other_arch = good;
    other_arch[8 + 4 + 4] ^= 0x80; // another hidden size (little-endian low byte)
    refused(other_arch, "the engine expects");
    auto other_buckets = good;
    other_buckets[8 + 4 * 7] ^= 0x04; // another bucket count
    refused(other_buckets, "the engine expects");
    auto other_inputs = good;
    other_inputs[8 + 4 + 4 * 7] ^= 0x01; // another input kind
    refused(other_inputs, "the engine expects");
    auto future = good;
    future[8] = std::uint8_t(nnue::FILE_VERSION + 1);
    refused(future, "version");
    auto corrupted = good;
    corrupted[nnue::HEADER_BYTES + 1000] ^= 0x10;
    refused(corrupted, "checksum");
    auto corrupted_model = good; // the checksum covers the WDL model too
    corrupted_model[nnue::HEADER_BYTES + 4 + 1] ^= 0x10;
    refused(corrupted_model, "checksum");
    auto model_count = good;
    model_count[nnue::HEADER_BYTES] = 5;
    refused(model_count, "WDL model has 5 values");
    auto longer = good;
    longer.push_back(0);
    refused(longer, "bytes, expected");

    CHECK(nnue::load_file("", target));
    CHECK(nnue::load_file(std::filesystem::temp_directory_path().string(), target));
    CHECK(nnue::load_file("/nonexistent/net.nnue", target));
    CHECK(target.ft_weights == before.ft_weights);
}

TEST_CASE("a net file of another shape is refused naming both shapes", "[nnue]") {
    // The engine's own shape, written the way the messages name it.
    const std::string kind = nnue::INPUT_KIND == nnue::INPUT_KIND_MIRRORED ? " mirrored" : "";
    CHECK(nnue::describe(nnue::SHAPE) == std::to_string(nnue::INPUTS) + kind + "->" +
                                             std::to_string(nnue::HIDDEN) + "x2, " +
                                             std::to_string(nnue::OUTPUT_BUCKETS) + " buckets");
    // The zero net of the engine's shape loads: the helper writes good files.
    nnue::Network n;
    REQUIRE(!nnue::deserialize(net_file_of_shape(nnue::SHAPE), n));

    nnue::NetShape wider = nnue::SHAPE, fewer_buckets = nnue::SHAPE, other_qa = nnue::SHAPE,
                   other_inputs = nnue::SHAPE;
    wider.hidden *= 2;
    fewer_buckets.buckets /= 2;
    other_qa.qa = nnue::QA / 2;
    other_inputs.input_kind =
        nnue::INPUT_KIND == nnue::INPUT_KIND_PLAIN ? nnue::INPUT_KIND_MIRRORED : nnue::INPUT_KIND_PLAIN;
    CHECK(nnue::describe(other_inputs) != nnue::describe(nnue::SHAPE));
    for (const nnue::NetShape& shape : {wider, fewer_buckets, other_qa, other_inputs}) {
        const std::string path = write_temp("staccato-shape.nnue", net_file_of_shape(shape));
        nnue::Network target = *random_network(3);
        const nnue::Network before = target;
        const auto error = nnue::load_file(path, target);
        REQUIRE(error);
        INFO(*error);
        const bool quantisation = shape.qa != nnue::QA;
        // "PATH: this net is <its shape>; the engine expects <SHAPE>"
        CHECK(*error == path + ": this net is " + nnue::describe(shape, quantisation) +
                            "; the engine expects " + nnue::describe(nnue::SHAPE, quantisation));
        CHECK_THAT(*error, Catch::Contains("x2, ") && Catch::Contains("; the engine expects "));
        if (quantisation)
            CHECK_THAT(*error, Catch::Contains("QA " + std::to_string(nnue::QA / 2)) &&
                                   Catch::Contains("QA " + std::to_string(nnue::QA)));
        CHECK(target.ft_weights == before.ft_weights);
        CHECK(target.out_weights == before.out_weights);
    }

    // The engine's shape in the header but a size that does not fit it: the
    // message gives both sizes and the shape the header claims.
    auto cut = net_file_of_shape(nnue::SHAPE);
    cut.resize(cut.size() - 2 * nnue::HIDDEN);
    const auto error = nnue::deserialize(cut, n);
    REQUIRE(error);
    CHECK(*error == "net file has " + std::to_string(cut.size()) + " bytes, expected " +
                        std::to_string(nnue::FILE_BYTES) + " for " + nnue::describe(nnue::SHAPE));
}

TEST_CASE("EvalFile with a net of another shape answers with both shapes over UCI", "[nnue][uci]") {
    test::UciSession s;
    s.send("position fen 4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    const std::string report = s.engine.eval_report();
    nnue::NetShape wider = nnue::SHAPE;
    wider.hidden *= 2;
    const std::string path = write_temp("staccato-wider.nnue", net_file_of_shape(wider));
    s.send("setoption name EvalFile value " + path);
    CHECK(s.last() == "info string EvalFile refused: " + path + ": this net is " + nnue::describe(wider) +
                          "; the engine expects " + nnue::describe(nnue::SHAPE) + "; keeping " +
                          std::string(EMBEDDED_NET));
    // The current net stays in use.
    CHECK(s.engine.options().eval_file == std::string(EMBEDDED_NET));
    CHECK(s.engine.eval_report() == report);
}

TEST_CASE("a refused embedded net leaves the hand-crafted evaluation, said at uci and go", "[nnue][uci]") {
    // Main's build loads its embedded net; a mirrored build configured with
    // main's plain net refuses it (arch.h's input kinds) and must neither
    // search with zero weights nor stay silent about it.
    const auto error = nnue::default_network_error();
    const bool refused = error.has_value();
    if (nnue::INPUT_KIND == nnue::INPUT_KIND_PLAIN) CHECK(!refused);
    const std::string warning = "info string the embedded net was refused (";
    test::UciSession s;
    s.send("uci");
    CHECK(s.last() == "uciok");
    CHECK(s.count(warning) == (refused ? 1 : 0));
    CHECK((s.engine.search_network() == nullptr) == refused);
    s.send("position fen 4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    if (refused)
        CHECK(s.engine.eval_report() == hce::eval_report(from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1")));
    for (int i = 0; i < 2; ++i) {
        s.send("go depth 3");
        s.engine.wait_until_idle();
        CHECK(s.last_starting("bestmove ") != "bestmove 0000");
    }
    CHECK(s.count(warning) == (refused ? 2 : 0)); // at uci and at the first go only
    s.send("setoption name EvalFile value <embedded>");
    CHECK(s.last() == (refused
                           ? "info string EvalFile refused: <embedded>: " + *error + "; keeping <embedded>"
                           : std::string("info string EvalFile <embedded> loaded")));
}

TEST_CASE("the output bucket follows the piece count", "[nnue]") {
    CHECK(nnue::output_bucket(2) == 0);
    CHECK(nnue::output_bucket(5) == 0);
    CHECK(nnue::output_bucket(6) == 1);
    CHECK(nnue::output_bucket(31) == nnue::OUTPUT_BUCKETS - 1);
    CHECK(nnue::output_bucket(32) == nnue::OUTPUT_BUCKETS - 1);
    for (int pieces = 3; pieces <= 32; ++pieces)
        CHECK(nnue::output_bucket(pieces) - nnue::output_bucket(pieces - 1) >= 0);

    // Each bucket's own weights decide: a net whose buckets differ gives a
    // position the output of the bucket its piece count picks.
    const auto n = std::make_unique<nnue::Network>(net());
    const Position pos = from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1"); // 3 pieces: bucket 0
    nnue::Accumulator acc;
    nnue::refresh(*n, pos, acc);
    auto shifted = std::make_unique<nnue::Network>(*n);
    shifted->out_bias[1] += 1000 * nnue::QA * nnue::QB / nnue::SCALE; // +1000 cp in bucket 1 only
    CHECK(nnue::evaluate(*shifted, pos) == nnue::evaluate(*n, pos));
    const Value base = nnue::evaluate(*n, acc, WHITE, 6);
    REQUIRE(std::abs(base) < 2000);
    CHECK(std::abs(nnue::evaluate(*shifted, acc, WHITE, 6) - (base + 1000)) <= 1); // integer rounding
}

TEST_CASE("a version-2 net file loads as it was, without a WDL model", "[nnue]") {
    const auto original = random_network(7);
    nnue::Network loaded = *random_network(8);
    loaded.wdl = WdlModel{{0, 0, 0, 150}, {0, 0, 0, 90}};
    // Older files are of plain inputs: an engine of mirrored inputs refuses
    // them, naming both shapes, and reads them only for the trainer's --init.
    const bool plain = nnue::INPUT_KIND == nnue::INPUT_KIND_PLAIN;
    if (!plain) {
        const auto refused = nnue::deserialize(version_2_bytes(*original), loaded);
        REQUIRE(refused);
        CHECK(*refused == "this net is " + nnue::describe(nnue::V2_SHAPE) + "; the engine expects " +
                              nnue::describe(nnue::SHAPE));
    }
    const auto error = nnue::deserialize(version_2_bytes(*original), loaded, !plain);
    INFO(error.value_or(""));
    REQUIRE(!error);
    CHECK(loaded.ft_weights == original->ft_weights);
    CHECK(loaded.out_weights == original->out_weights);
    CHECK(loaded.out_bias == original->out_bias);
    CHECK(!loaded.wdl);
    auto cut = version_2_bytes(*original);
    cut.pop_back();
    CHECK(nnue::deserialize(cut, loaded, true));
}

TEST_CASE("a version-1 net file loads with its output layer in every bucket", "[nnue]") {
    const auto original = random_network(5);
    nnue::Network loaded = *random_network(6);
    const auto error = nnue::deserialize(version_1_bytes(*original), loaded,
                                         nnue::INPUT_KIND != nnue::INPUT_KIND_PLAIN); // plain inputs
    INFO(error.value_or(""));
    REQUIRE(!error);
    CHECK(loaded.ft_weights == original->ft_weights);
    CHECK(loaded.ft_bias == original->ft_bias);
    for (int b = 0; b < nnue::OUTPUT_BUCKETS; ++b) {
        INFO("bucket " << b);
        CHECK(std::equal(original->out_weights.begin(), original->out_weights.begin() + nnue::OUTPUT_INPUTS,
                         loaded.out_weights.begin() + b * nnue::OUTPUT_INPUTS));
        CHECK(loaded.out_bias[std::size_t(b)] == original->out_bias[0]);
    }
    // Written back, it is a current (version-3) file that reads the same.
    nnue::Network again;
    REQUIRE(!nnue::deserialize(nnue::serialize(loaded), again));
    CHECK(nnue::serialize(again) == nnue::serialize(loaded));
    // A truncated or corrupted version-1 file is refused like any other.
    auto v1 = version_1_bytes(*original);
    v1.pop_back();
    CHECK(nnue::deserialize(v1, loaded, true));
    v1 = version_1_bytes(*original);
    v1[nnue::V1_HEADER_BYTES + 5] ^= 1;
    CHECK(nnue::deserialize(v1, loaded, true));
}

TEST_CASE("EvalFile refuses bad files over UCI and keeps the current net", "[nnue][uci]") {
    std::vector<std::string> lines;
    Engine engine([&](std::string_view l) { lines.emplace_back(l); });
    engine.set_use_nnue(false);
    const std::string hand_crafted = engine.eval_report();
    CHECK_THAT(hand_crafted, !Catch::Contains("NNUE"));
    engine.set_use_nnue(true);
    const std::string report = engine.eval_report();
    CHECK_THAT(report, Catch::Contains("NNUE evaluation"));
    auto good = default_bytes();
    auto corrupted = good;
    corrupted.back() ^= 1;
    for (const std::string& path :
         {std::string(""), std::filesystem::temp_directory_path().string(), std::string("/nonexistent"),
          write_temp("staccato-garbage.nnue", {'g', 'a', 'r', 'b', 'a', 'g', 'e'}),
          write_temp("staccato-corrupted.nnue", corrupted)}) {
        INFO(path);
        CHECK(engine.set_eval_file(path));
        CHECK(engine.eval_report() == report);
        CHECK(engine.options().eval_file == std::string(EMBEDDED_NET));
    }
    // A good file loads, and <embedded> goes back to the built-in net.
    const std::string copy = write_temp("staccato-copy.nnue", good);
    CHECK(!engine.set_eval_file(copy));
    CHECK(engine.options().eval_file == copy);
    CHECK(engine.eval_report() == report);
    CHECK(!engine.set_eval_file(std::string(EMBEDDED_NET)));
    engine.set_use_nnue(false);
    CHECK(engine.eval_report() == hand_crafted);
}

TEST_CASE("eval shows each piece's contribution on the board", "[nnue]") {
    const Position pos = from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    const std::string report = nnue::eval_report(net(), pos);
    CHECK_THAT(report, Catch::Contains("NNUE evaluation"));
    // The queen's line shows a large positive value (White's view).
    CHECK_THAT(report, Catch::Contains("|   Q   |"));
    CHECK_THAT(report, Catch::Matches("(.|\n)*\\| *\\+[0-9]+\\.[0-9][0-9] *\\|(.|\n)*"));
}
