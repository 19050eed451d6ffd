// staccato-train: trains the evaluation network (a separate program, never
// linked into the engine).
//
//   staccato-train [options] DATA...       trains, writes the net file
//   staccato-train stats DATA...           what each file holds, and the read speed
//   staccato-train convert OUT.bin DATA... the kept positions as 32-byte records
//   staccato-train wdl [--net NET [--out OUT]] [--clock PGN]... DATA...
//                                          fits the WDL model (wdl.h, wdl_fit.h)
//                                          to the games, and writes it into a net,
//                                          or checks a net's model against games
//
// DATA: any file the data seam reads (nnue/data.h: datagen's games, records,
// text, match runners' PGN; any of them xz-compressed), recognised by its
// content. A file that is not data, or cannot be opened, stops the run before
// training; a file damaged part-way is reported with its offset, and the
// positions read before the damage are kept.
//
// Training: every record's features are summed into two accumulators (side to
// move's and the other side's view), the network's output is squashed by a
// sigmoid and compared with a blend of the search score's win probability and
// the game result (--wdl: the result's weight, --wdl-end: its weight at the
// last epoch, schedule.h); the squared error is
// minimised with AdamW over shuffled mini-batches, threads splitting each
// batch. Every 50th block of 1024 records is held out (positions of one game
// sit together) and its loss printed after each epoch. After each epoch the
// quantised net and a checkpoint (model + optimiser, for --resume) are
// written.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <numeric>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "model.h"
#include "schedule.h"
#include "staccato/nnue/data.h"
#include "staccato/parse.h"
#include "staccato/random.h"
#include "wdl_fit.h"

using namespace staccato;
using namespace staccato::train;

namespace {

struct Options {
    std::vector<std::string> data;
    std::string out = "staccato.nnue", init, resume, checkpoint, scale_to;
    // The defaults are the recipe .github/CONTRIBUTING.md recommends (what
    // rounds 6 and 7 measured): 15 epochs, final LR 0.003 of the start,
    // result weight 0.1, left-right mirroring (schedule.h).
    Schedule schedule;
    int batch = 16384, threads = int(std::max(1u, std::thread::hardware_concurrency()));
    float decay = 0.01f;
    double scale_rms = 0; // --scale-rms: the written net's RMS output in cp (0: not scaled)
    bool mirror = true;
    std::uint64_t seed = 1, limit = 0;
    nnue::GameFilter filter; // which positions of games train
};

constexpr const char* USAGE =
    "usage: staccato-train [options] DATA...     train a net\n"
    "       staccato-train stats DATA...         what each file holds and how fast it reads\n"
    "       staccato-train convert OUT.bin DATA... the kept positions as 32-byte records\n"
    "       staccato-train wdl [--net NET [--out OUT]] [--clock PGN]... [--printed-by NET2]\n"
    "                          [--player NAME] [--skip-plies N] [--max-ply N] DATA...\n"
    "                                            fit the WDL model to games; --net NET --out OUT:\n"
    "                                            write NET with it; --net NET alone: check NET's\n"
    "                                            model against the games, fitting nothing;\n"
    "                                            --clock: NET's match games, scores as NET printed\n"
    "                                            them: the model's a(m), b(m) scaled to fit them;\n"
    "                                            --printed-by: as NET2 printed them (another\n"
    "                                            model); --player: only NAME's moves in PGN\n"
    "DATA: datagen's games, 32-byte records, 'FEN | score | result' text or PGN with scores\n"
    "      (fastchess, cutechess-cli, OpenBench), any of them xz-compressed; told by content\n"
    "options: --out NET (staccato.nnue)  --epochs N (15)  --batch N (16384)  --lr X (0.001,\n"
    "         cosine decay to --final-lr X times it, 0.003)  --wdl X (result weight, 0.1)\n"
    "         --wdl-end X (the result weight at the last epoch, from --wdl at the first in a\n"
    "         straight line; losses are printed at each epoch's weight)\n"
    "         --decay X (AdamW, 0.01)  --threads N  --seed N  --limit N (positions)\n"
    "         --no-mirror (by default positions without castling rights are mirrored\n"
    "         left-right every other epoch)\n"
    "         filter: --skip-plies N (8: each game's first plies)  --max-score CP (1500)\n"
    "         --keep-noisy (also positions whose move captures or promotes)  --keep-checks\n"
    "         --init NET (start from a net file)  --resume CKPT  --checkpoint CKPT (OUT.ckpt)\n"
    "         --scale-to NET (the written net's output scaled to the spread of NET's on the\n"
    "         held-out positions, so that the search's margins keep their meaning; the run\n"
    "         prints NET's RMS)  --scale-rms CP (the same to that RMS, for a NET of another\n"
    "         width than this build's)\n";

// The whole of `s` as a T (staccato/parse.h); `v` is left alone on failure.
template <typename T> bool parse(const std::string& s, T& v) {
    const std::optional<T> parsed = parse_number<T>(s);
    if (parsed) v = *parsed;
    return parsed.has_value();
}

std::optional<Options> parse_options(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&](auto& v) {
            if (i + 1 >= argc || !parse(std::string(argv[i + 1]), v)) return false;
            ++i;
            return true;
        };
        auto text = [&](std::string& v) {
            if (i + 1 >= argc) return false;
            v = argv[++i];
            return true;
        };
        bool ok = true;
        if (a == "--out")
            ok = text(o.out);
        else if (a == "--init")
            ok = text(o.init);
        else if (a == "--resume")
            ok = text(o.resume);
        else if (a == "--checkpoint")
            ok = text(o.checkpoint);
        else if (a == "--scale-to")
            ok = text(o.scale_to);
        else if (a == "--scale-rms")
            ok = value(o.scale_rms) && o.scale_rms > 0;
        else if (a == "--epochs")
            ok = value(o.schedule.epochs) && o.schedule.epochs > 0;
        else if (a == "--batch")
            ok = value(o.batch) && o.batch > 0;
        else if (a == "--threads")
            ok = value(o.threads) && o.threads > 0 && o.threads <= 256;
        else if (a == "--lr")
            ok = value(o.schedule.lr) && o.schedule.lr > 0;
        else if (a == "--final-lr")
            ok = value(o.schedule.final_lr_ratio) && o.schedule.final_lr_ratio > 0;
        else if (a == "--wdl")
            ok = value(o.schedule.wdl) && o.schedule.wdl >= 0 && o.schedule.wdl <= 1;
        else if (a == "--wdl-end") {
            float end = 0;
            ok = value(end) && end >= 0 && end <= 1;
            if (ok) o.schedule.wdl_end = end;
        } else if (a == "--decay")
            ok = value(o.decay) && o.decay >= 0;
        else if (a == "--seed")
            ok = value(o.seed);
        else if (a == "--limit")
            ok = value(o.limit);
        else if (a == "--mirror")
            o.mirror = true;
        else if (a == "--no-mirror")
            o.mirror = false;
        else if (a == "--skip-plies")
            ok = value(o.filter.min_ply) && o.filter.min_ply >= 0;
        else if (a == "--max-score")
            ok = value(o.filter.max_score) && o.filter.max_score > 0;
        else if (a == "--keep-noisy")
            o.filter.skip_noisy = false;
        else if (a == "--keep-checks")
            o.filter.skip_in_check = false;
        else if (a.starts_with("--")) {
            std::cerr << "staccato-train: unknown option " << a << "\n" << USAGE;
            return std::nullopt;
        } else
            o.data.push_back(a);
        if (!ok) {
            std::cerr << "staccato-train: bad or missing value for " << a << "\n" << USAGE;
            return std::nullopt;
        }
    }
    if (o.data.empty()) {
        std::cerr << "staccato-train: no data files\n" << USAGE;
        return std::nullopt;
    }
    if (!o.scale_to.empty() && o.scale_rms > 0) {
        std::cerr << "staccato-train: --scale-to and --scale-rms both scale the output: give one\n" << USAGE;
        return std::nullopt;
    }
    if (o.checkpoint.empty()) o.checkpoint = o.out + ".ckpt";
    return o;
}

// Reads every file through the data seam; what each held goes to `log`. A
// file that cannot be opened or is no data stops the load (false); damage
// part-way is reported and the positions before it kept.
bool load(const std::vector<std::string>& paths, const nnue::GameFilter& filter,
          std::vector<nnue::PackedPosition>& out, std::ostream& log) {
    for (const std::string& path : paths) {
        nnue::DataStats stats;
        const std::size_t before = out.size();
        const auto start = std::chrono::steady_clock::now();
        const auto error = nnue::read_data(path, filter, out, stats);
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        log << path << ": " << nnue::format_name(stats.format) << (stats.compressed ? " (xz)" : "");
        if (stats.games) log << ", " << stats.games << " games";
        log << ", " << stats.plies << " positions, " << stats.kept << " kept";
        if (stats.skipped)
            log << ", " << stats.skipped << " games skipped (no scores, no result or a variant)";
        log << ", " << std::uint64_t(double(stats.plies) / std::max(secs, 1e-6)) << " positions/s"
            << std::endl;
        if (error) {
            std::cerr << "staccato-train: " << *error << "\n";
            if (out.size() == before && stats.plies == 0 && stats.games == 0) return false;
            std::cerr << "staccato-train: kept the " << out.size() - before
                      << " positions read before that\n";
        }
    }
    return true;
}

int stats_command(int argc, char** argv) {
    if (argc < 3) {
        std::cerr << USAGE;
        return 2;
    }
    std::vector<nnue::PackedPosition> all;
    return load({argv + 2, argv + argc}, nnue::GameFilter{}, all, std::cout) ? 0 : 1;
}

int convert(int argc, char** argv) {
    if (argc < 4) {
        std::cerr << USAGE;
        return 2;
    }
    std::vector<nnue::PackedPosition> all;
    if (!load({argv + 3, argv + argc}, nnue::GameFilter{}, all, std::cout)) return 1;
    // Written whole under another name first: a stopped run leaves no half file.
    const std::string out = argv[2], temp = out + ".part";
    {
        std::ofstream f(temp, std::ios::binary | std::ios::trunc);
        f.write(reinterpret_cast<const char*>(all.data()), std::streamsize(all.size() * sizeof all[0]));
        if (!f) {
            std::cerr << "staccato-train: cannot write " << temp << "\n";
            return 1;
        }
    }
    std::error_code ec;
    std::filesystem::rename(temp, out, ec);
    if (ec) {
        std::cerr << "staccato-train: cannot rename " << temp << " to " << out << ": " << ec.message()
                  << "\n";
        return 1;
    }
    std::cout << "wrote " << all.size() << " records to " << out << "\n";
    return 0;
}

// Writes `bytes` to `path` through a temporary file and a rename, so that a
// stopped run (Ctrl-C, a full disk) leaves the old file or the new one.
bool write_whole(const std::string& path, const std::vector<std::uint8_t>& bytes) {
    const std::string temp = path + ".part";
    {
        std::ofstream f(temp, std::ios::binary | std::ios::trunc);
        f.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
        if (!f) return false;
    }
    std::error_code ec;
    std::filesystem::rename(temp, path, ec);
    return !ec;
}

struct Split {
    std::vector<nnue::PackedPosition> train, validation;
};

Split split(std::vector<nnue::PackedPosition>&& all) {
    Split s;
    for (std::size_t i = 0; i < all.size(); ++i)
        (i / 1024 % 50 == 7 ? s.validation : s.train).push_back(all[i]);
    return s;
}

// Runs fn(thread, begin, end) over [0, n) split into `threads` parts.
template <typename Fn> void parallel(int threads, std::size_t n, Fn fn) {
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] { fn(t, n * t / threads, n * (t + 1) / threads); });
    for (auto& th : pool) th.join();
}

double validation_loss(const Model& m, const std::vector<nnue::PackedPosition>& data, float wdl,
                       int threads) {
    std::vector<double> sums(threads);
    parallel(threads, data.size(), [&](int t, std::size_t b, std::size_t e) {
        for (std::size_t i = b; i < e; ++i) {
            const float p = win_probability(m.forward(features_of(data[i])) * nnue::SCALE);
            const float d = p - target(data[i], wdl);
            sums[t] += d * d;
        }
    });
    return data.empty() ? 0.0 : std::accumulate(sums.begin(), sums.end(), 0.0) / double(data.size());
}

void progress(int epoch, int epochs, std::size_t done, std::size_t total, double loss, double rate) {
    const int width = 30, filled = int(double(done) / double(total) * width);
    std::fprintf(stderr, "\repoch %d/%d [%s%s] %5.1f%% loss %.6f %.0f pos/s   ", epoch, epochs,
                 std::string(filled, '#').c_str(), std::string(width - filled, '.').c_str(),
                 100.0 * double(done) / double(total), loss, rate);
}

int run_training(const Options& o) {
    std::vector<nnue::PackedPosition> all;
    if (!load(o.data, o.filter, all, std::cout)) return 1;
    if (o.limit && all.size() > o.limit) all.resize(o.limit);
    Split data = split(std::move(all));
    if (data.train.empty()) {
        std::cerr << "staccato-train: no training records\n";
        return 1;
    }
    std::cout << "records: " << data.train.size() << " training, " << data.validation.size() << " held out"
              << std::endl;

    Checkpoint state;
    state.adam.lr = float(o.schedule.lr);
    state.adam.decay = o.decay;
    state.model.init_random(o.seed);
    if (!o.init.empty()) {
        nnue::Network net;
        if (auto error =
                nnue::load_file(o.init, net, true)) { // a net of the other input kind is a fair start
            std::cerr << "staccato-train: --init " << *error << "\n";
            return 1;
        }
        state.model.dequantise(net);
    }
    Model scale_reference;
    if (!o.scale_to.empty()) {
        nnue::Network net;
        // A net of the other input kind too: its outputs are taken on this
        // kind's features, which for a plain and a mirrored net differ only by
        // a left-right flip of some perspectives (the spreads are close).
        if (auto error = nnue::load_file(o.scale_to, net, true)) {
            std::cerr << "staccato-train: --scale-to " << *error << "\n";
            return 1;
        }
        scale_reference.dequantise(net);
    }
    if (!o.resume.empty()) {
        if (auto error = load_checkpoint(o.resume, state)) {
            std::cerr << "staccato-train: " << *error << "\n";
            return 1;
        }
        std::cout << "resumed after epoch " << state.epoch << "\n";
    }
    std::cout << "validation loss at the start: "
              << validation_loss(state.model, data.validation, o.schedule.result_weight(state.epoch),
                                 o.threads)
              << std::endl;

    Rng rng(o.seed + std::uint64_t(state.epoch));
    std::vector<std::vector<float>> grads(o.threads, std::vector<float>(Layout::SIZE));
    std::vector<float> total(Layout::SIZE);
    std::vector<double> losses(o.threads);
    for (int epoch = state.epoch; epoch < o.schedule.epochs; ++epoch) {
        state.adam.lr = float(o.schedule.learning_rate(epoch));
        const float wdl = o.schedule.result_weight(epoch);
        std::shuffle(data.train.begin(), data.train.end(), rng);
        const auto start = std::chrono::steady_clock::now();
        double loss_sum = 0;
        std::size_t done = 0;
        for (std::size_t b = 0; b < data.train.size(); b += std::size_t(o.batch)) {
            const std::size_t n = std::min<std::size_t>(std::size_t(o.batch), data.train.size() - b);
            parallel(o.threads, n, [&](int t, std::size_t lo, std::size_t hi) {
                std::fill(grads[t].begin(), grads[t].end(), 0.0f);
                double l = 0;
                for (std::size_t i = b + lo; i < b + hi; ++i) {
                    const nnue::PackedPosition& p = data.train[i];
                    const bool mirror = o.mirror && p.castling == 0 && ((i ^ std::size_t(epoch)) & 1);
                    l += accumulate_gradient(state.model, features_of(p, mirror), target(p, wdl), grads[t]);
                }
                losses[t] = l;
            });
            parallel(o.threads, Layout::SIZE, [&](int, std::size_t lo, std::size_t hi) {
                for (std::size_t i = lo; i < hi; ++i) {
                    float g = 0;
                    for (const auto& gt : grads) g += gt[i];
                    total[i] = g / float(n);
                }
                state.adam.apply(state.model.params, total, lo, hi);
            });
            state.adam.bump();
            loss_sum += std::accumulate(losses.begin(), losses.end(), 0.0);
            done += n;
            if ((b / std::size_t(o.batch)) % 8 == 0 || done == data.train.size()) {
                const double secs =
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                progress(epoch + 1, o.schedule.epochs, done, data.train.size(), loss_sum / double(done),
                         double(done) / secs);
            }
        }
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const double vloss = validation_loss(state.model, data.validation, wdl, o.threads);
        std::fprintf(stderr, "\n");
        std::printf(
            "epoch %d: train loss %.6f, validation loss %.6f, lr %.6f, result weight %.3f, %.0f pos/s, "
            "%.1f s\n",
            epoch + 1, loss_sum / double(done), vloss, state.adam.lr, double(wdl), double(done) / secs, secs);
        std::fflush(stdout);
        state.epoch = epoch + 1;
        Model written = state.model; // the checkpoint keeps the unscaled model
        if (!o.scale_to.empty() || o.scale_rms > 0) {
            Spread s = spread(state.model, o.scale_to.empty() ? nullptr : &scale_reference, data.validation);
            if (o.scale_rms > 0) s.reference = o.scale_rms; // the reference's spread, given as a number
            if (s.model == 0) {
                std::printf("output not scaled: no held-out position under 1000 cp\n");
            } else {
                written.scale_output(float(s.ratio()));
                if (!o.scale_to.empty())
                    std::printf(
                        "output scaled by %.4f to the spread of %s on the held-out positions (RMS %.1f cp)\n",
                        s.ratio(), o.scale_to.c_str(), s.reference);
                else
                    std::printf("output scaled by %.4f to an RMS of %.1f cp on the held-out positions\n",
                                s.ratio(), s.reference);
            }
        }
        if (!write_whole(o.out, nnue::serialize(written.quantise()))) {
            std::cerr << "staccato-train: cannot write " << o.out << "\n";
            return 1;
        }
        if (auto error = save_checkpoint(o.checkpoint, state))
            std::cerr << "staccato-train: " << *error << "\n";
    }
    std::cout << "net written to " << o.out << "\n";
    return 0;
}

// staccato-train wdl: the model of wdl.h fitted to every scored position of
// the games (every kind the data seam reads; noisy moves and checks kept,
// a game's first --skip-plies plies, those from --max-ply on and scores of
// WdlCounts::MAX_SCORE or more left out), every tenth block of 4096
// consecutive positions held out (a game's positions sit together, so
// these are held-out games but for the blocks' edges) for the log-loss and
// the table. With --net and --out, that net is written with the model; with
// --net alone, nothing is fitted: the net's own model is checked against
// every position of the games.
//
// --clock FILE: games at a clock (match PGNs) that --net played, scores as
// it printed them under its own model (raw if it has none), turned back
// into internal units; --printed-by NET2: printed under NET2's model instead
// (games played before --net's model was fitted: the same weights, another
// model). --player NAME: only that engine's moves in a PGN (its White or
// Black tag), so an opponent's scores do not count. After the fit, a(m) and
// b(m) are scaled by the two factors (fit_wdl_scale) that explain the even
// blocks of 1024 of those positions best; the odd blocks are held out for
// the report. With --net alone, its model is checked against them too.
void print_report(const WdlModel& m, const WdlCounts& counts, const std::vector<WdlObservation>& held) {
    constexpr WdlModel rough = ROUGH_WDL_MODEL;
    std::printf("log-loss: %.5f (the fixed formula, a 150 b 90 at every material: %.5f)\n",
                log_loss(m, counts), log_loss(rough, counts));
    std::printf("by printed score: positions, measured W/D/L %%, the model's W/D/L %%\n");
    for (const WdlBin& bin : calibration(m, held))
        if (bin.positions)
            std::printf("  [%+5.2f, %+5.2f) %8llu   %5.1f %5.1f %5.1f   %5.1f %5.1f %5.1f\n", bin.low / 100.0,
                        bin.high / 100.0, (unsigned long long)bin.positions, 100 * bin.measured[2],
                        100 * bin.measured[1], 100 * bin.measured[0], 100 * bin.predicted[2],
                        100 * bin.predicted[1], 100 * bin.predicted[0]);
    std::printf("by material at printed +0.50 to +1.50 (-1.50 to -0.50 from the other side): positions, "
                "measured W/D/L %%, the model's W/D/L %%\n");
    for (const WdlMaterialBin& bin : calibration_by_material(m, held, 50, 150, {0, 17, 24, 30, 45, 60, 1000}))
        if (bin.positions)
            std::printf("  material %2d-%-3s %8llu   %5.1f %5.1f %5.1f   %5.1f %5.1f %5.1f\n", bin.low,
                        bin.high == 1000 ? "" : std::to_string(bin.high - 1).c_str(),
                        (unsigned long long)bin.positions, 100 * bin.measured[2], 100 * bin.measured[1],
                        100 * bin.measured[0], 100 * bin.predicted[2], 100 * bin.predicted[1],
                        100 * bin.predicted[0]);
    std::printf(
        "the side to move wins half its games from printed %+.2f (raw %+.0f; a logistic fit of wins)\n",
        half_win_score(&m, held) / 100.0, half_win_score(nullptr, held));
}

void print_constants(const WdlModel& m) {
    std::printf("a = {%.6g, %.6g, %.6g, %.6g}\nb = {%.6g, %.6g, %.6g, %.6g}\n", m.a[0], m.a[1], m.a[2],
                m.a[3], m.b[0], m.b[1], m.b[2], m.b[3]);
    for (int material : {MATERIAL_MIN, 10, MATERIAL_MIN_FIRST, 30, 40, MATERIAL_REFERENCE, 70, MATERIAL_MAX})
        std::printf("material %2d: a %.1f b %.1f\n", material, m.a_of(material), m.b_of(material));
}

// Every `period`th block of `block` consecutive observations held out (a
// game's positions sit together, so these are held-out games but for the
// blocks' edges), the rest counted for the fit.
struct WdlSplit {
    WdlCounts fitted, held_counts;
    std::vector<WdlObservation> held;
};
WdlSplit split_blocks(const std::vector<WdlObservation>& observations, std::size_t block,
                      std::size_t period) {
    WdlSplit split;
    for (std::size_t i = 0; i < observations.size(); ++i) {
        if (i / block % period == period - 1)
            split.held_counts.add(observations[i]), split.held.push_back(observations[i]);
        else
            split.fitted.add(observations[i]);
    }
    return split;
}

// The positions as observations, scores printed under `printed_with` read
// back into internal units (internal_of; null: as they are).
std::vector<WdlObservation> observations_of(const std::vector<nnue::PackedPosition>& positions,
                                            const WdlModel* printed_with = nullptr) {
    std::vector<WdlObservation> out;
    out.reserve(positions.size());
    for (const auto& p : positions) out.push_back(internal_of(observation_of(p), printed_with));
    return out;
}

WdlCounts counts_of(const std::vector<WdlObservation>& observations) {
    WdlCounts counts;
    for (const WdlObservation& o : observations) counts.add(o);
    return counts;
}

int wdl_command(int argc, char** argv) {
    std::string net_path, out, printed_by_path;
    nnue::GameFilter filter;
    filter.skip_in_check = false;
    filter.skip_noisy = false;
    filter.max_score = WdlCounts::MAX_SCORE;
    std::vector<std::string> paths, clock_paths;
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        const bool has_value = i + 1 < argc;
        if (a == "--net" && has_value)
            net_path = argv[++i];
        else if (a == "--out" && has_value)
            out = argv[++i];
        else if (a == "--clock" && has_value)
            clock_paths.push_back(argv[++i]);
        else if (a == "--printed-by" && has_value)
            printed_by_path = argv[++i];
        else if (a == "--player" && has_value)
            filter.player = argv[++i];
        else if (a == "--skip-plies" && has_value && parse(std::string(argv[i + 1]), filter.min_ply) &&
                 filter.min_ply >= 0)
            ++i;
        else if (a == "--max-ply" && has_value && parse(std::string(argv[i + 1]), filter.max_ply) &&
                 filter.max_ply > 0)
            ++i;
        else if (a.starts_with("--")) {
            std::cerr << "staccato-train: wdl: unknown option or missing value: " << a << "\n" << USAGE;
            return 2;
        } else
            paths.push_back(a);
    }
    const bool checking = !net_path.empty() && out.empty();
    if ((paths.empty() && !(checking && !clock_paths.empty())) || (!out.empty() && net_path.empty()) ||
        (!clock_paths.empty() && net_path.empty())) {
        std::cerr << "staccato-train: wdl needs data files (--out and --clock need --net)\n" << USAGE;
        return 2;
    }
    if (!printed_by_path.empty() && clock_paths.empty()) {
        std::cerr << "staccato-train: wdl: --printed-by names the net that printed --clock games\n" << USAGE;
        return 2;
    }
    nnue::Network net, printer;
    if (!net_path.empty())
        if (auto error = nnue::load_file(net_path, net)) {
            std::cerr << "staccato-train: --net " << *error << "\n";
            return 1;
        }
    if (!printed_by_path.empty())
        if (auto error = nnue::load_file(printed_by_path, printer)) {
            std::cerr << "staccato-train: --printed-by " << *error << "\n";
            return 1;
        }
    std::vector<nnue::PackedPosition> all, clock;
    if (!load(paths, filter, all, std::cout)) return 1;
    if (!load(clock_paths, filter, clock, std::cout)) return 1;
    // The clock games in internal units.
    const std::string& printed_by = printed_by_path.empty() ? net_path : printed_by_path;
    const nnue::Network& printing = printed_by_path.empty() ? net : printer;
    const WdlModel* printed_with = printing.wdl ? &*printing.wdl : nullptr;
    const std::vector<WdlObservation> clock_observations = observations_of(clock, printed_with);
    if (!clock.empty() && !printed_with)
        std::printf("%s carries no WDL model: the clock games' scores are read as raw\n", printed_by.c_str());

    if (checking) { // check the net's own model
        if (!net.wdl) {
            std::cerr << "staccato-train: wdl: " << net_path << " carries no WDL model to check\n";
            return 1;
        }
        if (!all.empty()) {
            const std::vector<WdlObservation> every = observations_of(all);
            const WdlCounts counts = counts_of(every);
            std::printf("%s's model on %llu positions\n", net_path.c_str(),
                        (unsigned long long)counts.positions());
            print_report(*net.wdl, counts, every);
        }
        if (!clock.empty()) {
            const WdlCounts counts = counts_of(clock_observations);
            std::printf("%s's model on %llu positions of the clock games\n", net_path.c_str(),
                        (unsigned long long)counts.positions());
            print_report(*net.wdl, counts, clock_observations);
        }
        return 0;
    }

    const WdlSplit data = split_blocks(observations_of(all), 4096, 10);
    WdlFit fit;
    if (const std::string why = fit_wdl(data.fitted, fit); !why.empty()) {
        std::cerr << "staccato-train: wdl: " << why << "\n";
        return 1;
    }
    WdlModel m = fit.model;
    std::printf("fitted on %llu positions (%d likelihood passes, log-loss %.5f), %llu held out\n",
                (unsigned long long)data.fitted.positions(), fit.evaluations, fit.log_loss,
                (unsigned long long)data.held_counts.positions());
    print_constants(m);
    std::printf("held out:\n");
    print_report(m, data.held_counts, data.held);
    if (!clock.empty()) {
        const WdlSplit at_clock = split_blocks(clock_observations, 1024, 2);
        WdlScaleFit scale;
        if (const std::string why = fit_wdl_scale(m, at_clock.fitted, scale); !why.empty()) {
            std::cerr << "staccato-train: wdl: clock games: " << why << "\n";
            return 1;
        }
        std::printf("clock games: a(m) x %.4f, b(m) x %.4f fitted on %llu positions, %llu held out\n",
                    scale.a, scale.b, (unsigned long long)at_clock.fitted.positions(),
                    (unsigned long long)at_clock.held_counts.positions());
        std::printf("held-out clock positions under the unscaled model: log-loss %.5f\n",
                    log_loss(m, at_clock.held_counts));
        m = scale.model;
        print_constants(m);
        std::printf("held-out clock positions:\n");
        print_report(m, at_clock.held_counts, at_clock.held);
    }
    if (!out.empty()) {
        net.wdl = m;
        if (!write_whole(out, nnue::serialize(net))) {
            std::cerr << "staccato-train: cannot write " << out << "\n";
            return 1;
        }
        std::printf("%s with this model written to %s\n", net_path.c_str(), out.c_str());
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    if (argc >= 2 && std::string(argv[1]) == "convert") return convert(argc, argv);
    if (argc >= 2 && std::string(argv[1]) == "wdl") return wdl_command(argc, argv);
    if (argc >= 2 && std::string(argv[1]) == "stats") return stats_command(argc, argv);
    const auto options = parse_options(argc, argv);
    return options ? run_training(*options) : 2;
}
