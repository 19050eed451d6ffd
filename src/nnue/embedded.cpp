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

const Network& default_network() {
    static const std::unique_ptr<Network> net = [] {
        auto n = std::make_unique<Network>();
        // A bad embedded file fails the build's own check (the tests load it);
        // here it would leave zero weights.
        (void)deserialize(default_network_bytes(), *n);
        return n;
    }();
    return *net;
}

} // namespace staccato::nnue
