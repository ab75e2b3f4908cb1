// decoding-lab-cli info: what a GGUF file holds (works on vocabulary-only files too).
#include <cstdio>

#include "commands.h"
#include "core/json_writer.h"
#include "gguf/gguf_file.h"
#include "tokenizer/tokenizer.h"

namespace dlab::cli {

int runInfo(Args& args) {
    const std::string path = modelPathOption(args);
    const bool json = args.flag("--json");
    args.finish();

    auto file = GgufFile::open(path);
    std::unique_ptr<Model> model;
    if (!file->tensors().empty()) model = Model::fromFile(std::move(file));
    const GgufFile& f = model ? model->file() : *file;
    auto vocabOnly = model ? nullptr : Tokenizer::fromGguf(f);
    const Tokenizer& tok = model ? model->tokenizer() : *vocabOnly;

    const std::string name = f.has("general.name") && f.find("general.name")->type == GgufValueType::String
                                 ? f.getString("general.name") : std::string();
    if (json) {
        JsonWriter j;
        j.beginObject().field("file", f.path()).field("file_bytes", static_cast<int64_t>(f.fileSize()))
            .field("gguf_version", static_cast<int64_t>(f.version())).field("name", name)
            .field("tensors", static_cast<int64_t>(f.tensors().size()));
        j.key("tokenizer").beginObject().field("model", tok.modelName()).field("pre", tok.preName())
            .field("vocab", tok.vocabSize()).field("bos", tok.bos()).field("eos", tok.eos())
            .field("add_bos", tok.addsBosByDefault()).endObject();
        if (model) {
            const HParams& hp = model->hparams();
            j.field("architecture", hp.archName).field("parameters", model->parameterCount())
                .field("n_vocab", hp.nVocab).field("n_ctx_train", hp.nCtxTrain).field("n_embd", hp.nEmbd)
                .field("n_layer", hp.nLayer).field("n_head", hp.nHead).field("n_head_kv", hp.nHeadKv)
                .field("head_dim", hp.headDim).field("n_ff", hp.nFf).field("rope_freq_base", hp.ropeFreqBase)
                .field("norm_eps", hp.normEps).field("tied_output", model->tiedOutput())
                .field("tensor_types", model->tensorTypeSummary())
                .field("kv_bytes_per_token_f16", hp.kvBytesPerToken(2))
                .field("kv_bytes_per_token_f32", hp.kvBytesPerToken(4));
        }
        j.endObject();
        std::printf("%s\n", j.str().c_str());
        return 0;
    }
    std::printf("file            %s (%.1f MiB, GGUF v%u)\n", f.path().c_str(), f.fileSize() / 1048576.0, f.version());
    if (!name.empty()) std::printf("name            %s\n", name.c_str());
    if (model) {
        const HParams& hp = model->hparams();
        std::printf("architecture    %s\n", hp.archName.c_str());
        std::printf("parameters      %lld (%.1f M)\n", (long long)model->parameterCount(), model->parameterCount() / 1e6);
        std::printf("layers          %lld\n", (long long)hp.nLayer);
        std::printf("embedding       %lld\n", (long long)hp.nEmbd);
        std::printf("heads           %lld query, %lld key/value (head size %lld)\n", (long long)hp.nHead,
                    (long long)hp.nHeadKv, (long long)hp.headDim);
        std::printf("feed-forward    %lld\n", (long long)hp.nFf);
        std::printf("context (train) %lld\n", (long long)hp.nCtxTrain);
        std::printf("vocabulary      %lld\n", (long long)hp.nVocab);
        if (hp.rope != RopeStyle::None)
            std::printf("rope            %s, base %g, %lld dims, scale %g\n", hp.rope == RopeStyle::NeoX ? "neox" : "normal",
                        hp.ropeFreqBase, (long long)hp.nRot, hp.ropeFreqScale);
        std::printf("output          %s\n", model->tiedOutput() ? "tied to the token embedding" : "separate matrix");
        std::printf("tensor types    %s\n", model->tensorTypeSummary().c_str());
        std::printf("KV per token    %lld bytes in f16, %lld in f32\n", (long long)hp.kvBytesPerToken(2),
                    (long long)hp.kvBytesPerToken(4));
    } else {
        std::printf("tensors         none (vocabulary-only file)\n");
    }
    std::printf("tokenizer       %s / %s, %d tokens, BOS %d%s, EOS %d\n", tok.modelName().c_str(), tok.preName().c_str(),
                tok.vocabSize(), tok.bos(), tok.addsBosByDefault() ? " (added)" : " (not added)", tok.eos());
    return 0;
}

}  // namespace dlab::cli
