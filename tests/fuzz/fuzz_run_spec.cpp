// libFuzzer target: the run specs of `compare --run` and the Strategies page's column editor
// (generate/run_spec.h). For every input:
//   - parseRunSpec may only fail with a dlab::Error (a sentence naming the spec), never crash;
//   - a spec that parses has a canonical text (runSpecText) that parses again to the same
//     canonical text, so what the page saves and the CLI prints reads back unchanged;
//   - a beam spec's options (beamOptionsOf) are valid BeamOptions.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/error.h"
#include "generate/run_spec.h"

using namespace dlab;

namespace {
[[noreturn]] void failure(const std::string& what, const std::string& input) {
    std::fprintf(stderr, "fuzz_run_spec: %s (input \"%s\")\n", what.c_str(), input.c_str());
    std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string input(reinterpret_cast<const char*>(data), size);
    RunSpec spec;
    try {
        spec = parseRunSpec(input);
    } catch (const Error& e) {
        if (std::string(e.what()).empty()) failure("an error without a message", input);
        return 0;
    }
    const std::string text = runSpecText(spec);
    try {
        const RunSpec again = parseRunSpec(text);
        if (runSpecText(again) != text) failure("the canonical text \"" + text + "\" does not read back to itself", input);
        if (again.kind != spec.kind) failure("the canonical text \"" + text + "\" changed the kind", input);
        if (spec.kind == RunKind::Beam) beamOptionsOf(again).validate();
    } catch (const Error& e) {
        failure("the canonical text \"" + text + "\" does not parse: " + e.what(), input);
    }
    return 0;
}
