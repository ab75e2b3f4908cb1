// decoding-lab-cli generate: stream a continuation (or a chat answer) to stdout.
#include <cstdio>

#include "commands.h"
#include "core/error.h"
#include "generate/generator.h"
#include "generate/chat_prompt.h"

namespace dlab::cli {

int runGenerate(Args& args) {
    const std::string path = modelPathOption(args);
    const int threads = threadsOption(args);
    const auto prompt = args.value("--prompt");
    const bool chat = args.flag("--chat");
    const auto system = args.value("--system");
    GenerateOptions opt;
    opt.maxTokens = static_cast<int>(args.integer("--max-tokens", 128, 1, 1 << 20));
    opt.sampler.temperature = static_cast<float>(args.number("--temperature", opt.sampler.temperature));
    opt.sampler.topK = static_cast<int>(args.integer("--top-k", opt.sampler.topK, -(1ll << 31), 1ll << 31));
    opt.sampler.topP = static_cast<float>(args.number("--top-p", opt.sampler.topP));
    opt.sampler.seed = static_cast<uint64_t>(args.integer("--seed", 0, 0, (1ll << 62)));
    const int64_t ctxOption = args.integer("--ctx", 0, 0, 1 << 24);
    const KvType kvType = parseKvType(args.value("--kv-type", "f16"));
    const bool noBos = args.flag("--no-bos");
    const bool quiet = args.flag("--quiet");
    args.finish();
    if (!prompt) throw Error("generate: --prompt is required");
    if (system && !chat) throw Error("generate: --system needs --chat");
    opt.sampler.validate();

    auto model = Model::load(path);
    const Tokenizer& tok = model->tokenizer();
    std::vector<TokenId> ids;
    if (chat) {
        std::vector<ChatMessage> messages;
        if (system) messages.push_back({"system", *system});
        messages.push_back({"user", *prompt});
        ids = chatPromptTokens(*model, messages);
        if (noBos && !ids.empty() && ids.front() == tok.bos()) ids.erase(ids.begin());
    } else {
        ids = tok.encode(*prompt, !noBos && tok.addsBosByDefault(), false);
    }

    const int64_t nCtx = ctxOption > 0 ? ctxOption : std::min<int64_t>(model->hparams().nCtxTrain, 2048);
    KvCache cache(model->hparams(), nCtx, kvType);
    auto backend = makeCpuBackend(*model, threads);
    const auto result = generate(*model, *backend, cache, ids, opt, [](TokenId, const std::string& piece) {
        std::fwrite(piece.data(), 1, piece.size(), stdout);
        std::fflush(stdout);
        return true;
    });
    std::printf("\n");
    if (!quiet) {
        const double tps = result.decodeMs > 0 ? 1000.0 * result.tokens.size() / result.decodeMs : 0.0;
        std::fprintf(stderr, "[prompt %d tokens in %.1f ms | %zu tokens at %.1f tokens/s | stop: %s | %d threads]\n",
                     result.promptTokens, result.prefillMs, result.tokens.size(), tps, stopReasonName(result.stop), threads);
    }
    return 0;
}

}  // namespace dlab::cli
