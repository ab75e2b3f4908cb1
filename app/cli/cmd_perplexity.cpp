// decoding-lab-cli perplexity: exp(mean negative log-likelihood) of a text, scored as llama.cpp's
// perplexity tool does: the text is cut into windows of --ctx tokens and only the second half of
// each window is scored, so every scored token sees at least ctx/2 tokens of context.
#include <cmath>
#include <cstdio>

#include "commands.h"
#include "interrupt.h"
#include "core/error.h"
#include "model/backend.h"

namespace dlab::cli {

int runPerplexity(Args& args) {
    const std::string path = modelPathOption(args);
    const int threads = threadsOption(args);
    const BackendOption backendKind = backendOption(args);
    const auto file = args.value("--file");
    const int64_t nCtx = args.integer("--ctx", 512, 16, 1 << 20);
    const KvType kvType = parseKvType(args.value("--kv-type", "f16"));
    args.finish();
    if (!file) throw Error("perplexity: --file is required");
    const std::string text = readTextFile(*file);  // a bad --file fails before the model loads

    auto model = Model::load(path);
    const Tokenizer& tok = model->tokenizer();
    const bool bos = tok.addsBosByDefault();
    const auto ids = tok.encode(text, false, false);
    if (static_cast<int64_t>(ids.size()) < nCtx)
        throw Error(*file + ": the text has " + std::to_string(ids.size()) + " tokens; perplexity with --ctx " +
                    std::to_string(nCtx) + " needs at least that many (use a longer text or a smaller --ctx)");
    if (nCtx > model->hparams().nCtxTrain && model->hparams().arch == Arch::Gpt2)
        throw Error("perplexity: --ctx is larger than this GPT-2 model's " + std::to_string(model->hparams().nCtxTrain) + " positions");

    checkKvFitsMemory("perplexity", model->hparams(), nCtx, kvType);
    auto backend = openBackend(*model, backendKind, threads);
    backend->setCancelFlag(installInterruptHandler());
    KvCache cache(model->hparams(), nCtx, kvType);
    const int64_t V = model->hparams().nVocab;
    const int64_t chunks = static_cast<int64_t>(ids.size()) / nCtx;
    const int64_t first = nCtx / 2;
    double nll = 0.0, nll2 = 0.0;
    int64_t count = 0;
    int64_t done = chunks;  // windows scored; fewer after a Ctrl-C
    for (int64_t c = 0; c < chunks; ++c) {
        std::vector<TokenId> window(ids.begin() + c * nCtx, ids.begin() + (c + 1) * nCtx);
        if (bos) window[0] = tok.bos();  // as llama.cpp: the window's first token is replaced by BOS
        cache.clear();
        std::span<const float> logits;
        try {
            logits = backend->forward(window, cache, true);
        } catch (const Cancelled&) {
            done = c;
            break;
        }
        for (int64_t i = first; i < nCtx - 1; ++i) {
            const float* row = logits.data() + i * V;
            float mx = row[0];
            for (int64_t v = 1; v < V; ++v) mx = std::max(mx, row[v]);
            double sum = 0.0;
            for (int64_t v = 0; v < V; ++v) sum += std::exp(double(row[v]) - mx);
            const double lp = double(row[window[i + 1]]) - mx - std::log(sum);
            nll -= lp;
            nll2 += lp * lp;
            ++count;
        }
        std::fprintf(stderr, "[%lld/%lld] running perplexity %.4f\n", (long long)(c + 1), (long long)chunks, std::exp(nll / count));
    }
    if (done < chunks && count == 0) {
        std::fprintf(stderr, "[interrupted during the first of %lld windows: no token scored]\n", (long long)chunks);
        return kInterruptedExit;
    }
    const double mean = nll / count;
    const double var = nll2 / count - mean * mean;
    const double se = std::sqrt(std::max(0.0, var) / std::max<int64_t>(1, count - 1));
    std::printf("perplexity %.4f +/- %.4f over %lld tokens (%lld windows of %lld)\n", std::exp(mean), std::exp(mean) * se,
                (long long)count, (long long)done, (long long)nCtx);
    if (done < chunks) {
        std::fprintf(stderr, "[interrupted after %lld of %lld windows]\n", (long long)done, (long long)chunks);
        return kInterruptedExit;
    }
    return 0;
}

}  // namespace dlab::cli
