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
    const auto like = args.value("--like");
    TinyModelSpec spec;
    if (like) {
        if (*like != "smollm2-135m") throw Error("make-tiny-model: --like takes smollm2-135m (got '" + *like + "')");
        spec = smollm2_135mShape();
    }
    const auto arch = like ? std::optional<std::string>(args.value("--arch", spec.arch)) : args.value("--arch");
    const auto out = args.value("--out");
    spec.seed = static_cast<uint64_t>(args.integer("--seed", 1, 0, INT64_MAX));
    if (const auto t = args.value("--type")) spec.weightType = weightTypeOption(*t);
    else if (!like) spec.weightType = GgmlType::F32;
    spec.tiedOutput = args.flag("--tied") || spec.tiedOutput;
    spec.nLayer = static_cast<int>(args.integer("--layers", spec.nLayer, 1, 256));   // the shape with fewer (or more) layers
    args.finish();
    if (!arch) throw Error("make-tiny-model: --arch is required (llama, qwen2 or gpt2)");
    if (!out) throw Error("make-tiny-model: --out is required (the GGUF file to write)");
    spec.arch = *arch;

    writeTinyModel(spec, *out);
    std::printf("wrote %s (%s, %s weights%s%s, %d layers of %d, %d tokens, seed %llu)\n", out->c_str(), spec.arch.c_str(),
                ggmlTypeName(spec.weightType).c_str(), spec.embeddingType ? (", " + ggmlTypeName(*spec.embeddingType) + " embedding").c_str() : "",
                spec.tiedOutput ? ", tied output" : "", spec.nLayer, spec.nEmbd, spec.nVocab,
                static_cast<unsigned long long>(spec.seed));
    return 0;
}

}  // namespace dlab::cli
