// Which of the build's code images the driver would load for the emulated device (emulator.h's
// loadedCode): the architectures come as CMAKE_CUDA_ARCHITECTURES writes them, "NN-real" (SASS),
// "NN-virtual" (PTX) or "NN" (both), with an optional "a" / "f" suffix for code that runs only
// on exactly that version.
#include <algorithm>
#include <cctype>
#include <string>

#include "emulator.h"

namespace dlab::emu {

std::string Config::defaultImages() {
#ifdef DLAB_CUDA_ARCHS
    return DLAB_CUDA_ARCHS;
#else
    return "75-virtual;90-real;90-virtual";
#endif
}

LoadedCode loadedCode(const std::string& images, int major, int minor, bool forcePtxJit) {
    const int device = major * 10 + minor;
    int bestSass = 0, bestPtx = 0;
    size_t at = 0;
    while (at <= images.size()) {
        size_t end = images.find_first_of(";,", at);
        if (end == std::string::npos) end = images.size();
        const std::string entry = images.substr(at, end - at);
        at = end + 1;
        size_t digits = 0;
        while (digits < entry.size() && std::isdigit(static_cast<unsigned char>(entry[digits]))) ++digits;
        if (digits == 0) continue;
        const int arch = std::stoi(entry.substr(0, digits));
        std::string rest = entry.substr(digits);
        const bool exact = !rest.empty() && (rest[0] == 'a' || rest[0] == 'f');
        if (exact) rest.erase(0, 1);
        const bool real = rest.empty() || rest == "-real", virt = rest.empty() || rest == "-virtual";
        // SASS runs on its own major version from its minor up (exactly there for "a" / "f" code);
        // PTX is compiled for any device at least as new.
        if (real && arch / 10 == major && (exact ? arch == device : arch % 10 <= minor)) bestSass = std::max(bestSass, arch);
        if (virt && arch <= device && !exact) bestPtx = std::max(bestPtx, arch);
    }
    if (bestSass && !forcePtxJit) return {bestSass, bestSass};
    if (bestPtx) return {bestPtx, device};
    return {};
}

LoadedCode loadedCode() {
    const Config& c = config();
    return loadedCode(c.images, c.major, c.minor, c.forcePtxJit);
}

}  // namespace dlab::emu
