#pragma once
// Which of a build's code images a GPU runs, decided as the driver decides it. The build lists its
// architectures as CMAKE_CUDA_ARCHITECTURES writes them ("75-virtual;90-real;90-virtual"): "NN-real"
// is SASS, "NN-virtual" PTX, "NN" both, with an optional "a" / "f" for code that runs only on
// exactly that version. The driver takes SASS of the device's major version and a minor no higher
// (the newest such), else the newest PTX no newer than the device, which it compiles at load time
// (the only choice with CUDA_FORCE_PTX_JIT=1). Host code only: the probe uses it without loading
// any GPU code, and the CUDA emulator (tests/cuda_emulator) follows the same rule.
#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <string_view>

namespace dlab::cuda {

// Versions are major * 10 + minor, as cudaFuncAttributes has them; both 0: no code for the device.
struct CodeImage {
    int ptxVersion = 0;      // the virtual architecture the code was compiled from
    int binaryVersion = 0;   // the architecture of the SASS that runs
};

// nullopt when the list names no architecture number ("native", "all": only the driver can tell).
inline std::optional<CodeImage> codeImageFor(std::string_view archs, int major, int minor, bool forcePtxJit) {
    const int device = major * 10 + minor;
    int bestSass = 0, bestPtx = 0;
    bool named = false;
    size_t at = 0;
    while (at <= archs.size()) {
        size_t end = archs.find_first_of(";,", at);
        if (end == std::string_view::npos) end = archs.size();
        const std::string_view entry = archs.substr(at, end - at);
        at = end + 1;
        size_t digits = 0;
        while (digits < entry.size() && std::isdigit(static_cast<unsigned char>(entry[digits]))) ++digits;
        if (digits == 0 || digits > 4) continue;
        named = true;
        const int arch = std::stoi(std::string(entry.substr(0, digits)));
        std::string_view rest = entry.substr(digits);
        const bool exact = !rest.empty() && (rest[0] == 'a' || rest[0] == 'f');
        if (exact) rest.remove_prefix(1);
        const bool real = rest.empty() || rest == "-real", virt = rest.empty() || rest == "-virtual";
        // SASS runs on its own major version from its minor up (exactly there for "a" / "f" code);
        // PTX is compiled for any device at least as new.
        if (real && arch / 10 == major && (exact ? arch == device : arch % 10 <= minor)) bestSass = std::max(bestSass, arch);
        if (virt && !exact && arch <= device) bestPtx = std::max(bestPtx, arch);
    }
    if (!named) return std::nullopt;
    if (bestSass && !forcePtxJit) return CodeImage{bestSass, bestSass};
    if (bestPtx) return CodeImage{bestPtx, device};
    return CodeImage{};
}

// "NVIDIA GeForce RTX 3060 has compute capability 8.6 and this build has no GPU code for it (built
// for ...); rebuild with -DCMAKE_CUDA_ARCHITECTURES=86" (device_probe.cpp, with the build's list).
std::string noCodeFor(const std::string& gpu, int major, int minor);

}  // namespace dlab::cuda
