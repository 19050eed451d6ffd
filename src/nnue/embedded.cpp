// The default net, built into the binary: the assembler's .incbin copies the
// net file named by STACCATO_EVALFILE (set by CMake or the makefile) into a
// read-only section, so the engine needs no file at run time.
#include <memory>

#include "staccato/nnue/network.h"

#ifndef STACCATO_EVALFILE
#error "STACCATO_EVALFILE must name the net file to embed"
#endif

#if defined(__APPLE__)
#define STACCATO_RODATA ".const_data\n"
#define STACCATO_SYMBOL(name) "_" name
#else
#define STACCATO_RODATA ".section .rodata\n"
#define STACCATO_SYMBOL(name) name
#endif

// clang-format off
asm(STACCATO_RODATA
    ".balign 64\n"
    ".globl " STACCATO_SYMBOL("staccato_embedded_net") "\n"
    STACCATO_SYMBOL("staccato_embedded_net") ":\n"
    ".incbin \"" STACCATO_EVALFILE "\"\n"
    ".globl " STACCATO_SYMBOL("staccato_embedded_net_end") "\n"
    STACCATO_SYMBOL("staccato_embedded_net_end") ":\n"
    ".byte 0\n"
    ".text\n");
// clang-format on

extern "C" const unsigned char staccato_embedded_net[];
extern "C" const unsigned char staccato_embedded_net_end[];

namespace staccato::nnue {

std::span<const std::uint8_t> default_network_bytes() {
    return {staccato_embedded_net, std::size_t(staccato_embedded_net_end - staccato_embedded_net)};
}

namespace {

struct Embedded {
    Network net;
    std::optional<std::string> error;
};

const Embedded& embedded() {
    static const std::unique_ptr<Embedded> e = [] {
        auto x = std::make_unique<Embedded>();
        // The tests load the embedded file, so a bad one fails the build's
        // own check; a build configured with a net of the other input kind
        // gets here with the reason, and zero weights.
        x->error = deserialize(default_network_bytes(), x->net);
        return x;
    }();
    return *e;
}

} // namespace

const Network& default_network() { return embedded().net; }

std::optional<std::string> default_network_error() { return embedded().error; }

} // namespace staccato::nnue
