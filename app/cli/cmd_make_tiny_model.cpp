#include "cmd_make_tiny_model.h"

#include <cstdint>
#include <cstdio>

#include "args.h"
#include "core/error.h"
#include "gguf/tiny_model.h"

namespace dlab::cli {

namespace {

GgmlType weightTypeOption(const std::string& name) {
    std::string known;
    for (GgmlType t : tinyModelWeightTypes()) {
        std::string lower = ggmlTypeName(t);
        for (auto& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
        if (lower == name) return t;
        known += (known.empty() ? "" : ", ") + lower;
    }
    throw Error("make-tiny-model: --type '" + name + "' is not supported (supported: " + known + ")");
}

}  // namespace

int runMakeTinyModel(const std::vector<std::string>& argv) {
    Args args("make-tiny-model", argv);
    TinyModelSpec spec;
    const auto arch = args.value("--arch");
    const auto out = args.value("--out");
    spec.seed = static_cast<uint64_t>(args.integer("--seed", 1, 0, INT64_MAX));
    spec.weightType = weightTypeOption(args.value("--type", "f32"));
    spec.tiedOutput = args.flag("--tied");
    args.finish();
    if (!arch) throw Error("make-tiny-model: --arch is required (llama, qwen2 or gpt2)");
    if (!out) throw Error("make-tiny-model: --out is required (the GGUF file to write)");
    spec.arch = *arch;

    writeTinyModel(spec, *out);
    std::printf("wrote %s (%s, %s weights%s, seed %llu)\n", out->c_str(), spec.arch.c_str(),
                ggmlTypeName(spec.weightType).c_str(), spec.tiedOutput ? ", tied output" : "",
                static_cast<unsigned long long>(spec.seed));
    return 0;
}

}  // namespace dlab::cli
