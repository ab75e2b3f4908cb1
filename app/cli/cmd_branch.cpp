#include "cmd_branch.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "cmd_sample.h"
#include "commands.h"
#include "interrupt.h"
#include "core/error.h"
#include "generate/chat_prompt.h"
#include "generate/session.h"

namespace dlab::cli {

namespace {

struct Alternative {
    TokenId id;
    double p;
};

// The k most probable tokens of raw logits (softmax at temperature 1), most probable first.
std::vector<Alternative> topAlternatives(std::span<const float> logits, int k) {
    std::vector<TokenId> ids(logits.size());
    std::iota(ids.begin(), ids.end(), 0);
    k = std::min<int>(k, static_cast<int>(ids.size()));
    std::partial_sort(ids.begin(), ids.begin() + k, ids.end(),
                      [&](TokenId a, TokenId b) { return logits[a] > logits[b] || (logits[a] == logits[b] && a < b); });
    const float mx = logits[ids[0]];
    double z = 0.0;
    for (float l : logits) z += std::exp(double(l) - mx);
    std::vector<Alternative> out;
    for (int i = 0; i < k; ++i) out.push_back({ids[i], std::exp(double(logits[ids[i]]) - mx) / z});
    return out;
}

std::string shown(const Tokenizer& tok, TokenId id) {
    std::string s = tok.tokenToPiece(id, true), out;
    for (char c : s) out += c == '\n' ? std::string("\\n") : std::string(1, c);
    return out;
}

std::string continuation(const Session& s, BranchId b, const Tokenizer& tok) {
    const auto& all = s.tokens(b);
    return tok.decode(std::vector<TokenId>(all.begin() + static_cast<long>(s.prompt().size()), all.end()));
}

}  // namespace

int runBranch(Args& args) {
    const std::string path = modelPathOption(args);
    const int threads = threadsOption(args);
    const BackendOption backendKind = backendOption(args);
    const auto prompt = args.value("--prompt");
    const bool chat = args.flag("--chat");
    const int maxTokens = static_cast<int>(args.integer("--max-tokens", 32, 1, 1 << 16));
    const int at = static_cast<int>(args.integer("--at", 0, 0, 1 << 16));
    // -1: no --token; checked against the vocabulary once the model is loaded, before any step.
    const auto forced = args.integer("--token", -1, 0, 2147483647);
    const int alternative = static_cast<int>(args.integer("--alternative", 2, 1, 100));
    SessionOptions opt;
    readSamplerOptions(args, opt.sampler);
    opt.contextLength = args.integer("--ctx", 0, 0, 1 << 24);
    opt.kvType = parseKvType(args.value("--kv-type", "f16"));
    opt.stopAtEndOfGeneration = false;
    args.finish();
    if (!prompt) throw Error("branch: --prompt is required");
    if (at >= maxTokens) throw Error("branch: --at must be below --max-tokens (" + std::to_string(maxTokens) + ")");
    opt.sampler.validate();

    auto model = Model::load(path);
    const Tokenizer& tok = model->tokenizer();
    if (forced >= tok.vocabSize())
        throw Error("branch: --token " + std::to_string(forced) + " is outside the vocabulary (0.." +
                    std::to_string(tok.vocabSize() - 1) + ")");
    if (forced < 0 && alternative > tok.vocabSize())
        throw Error("branch: --alternative " + std::to_string(alternative) + " is more than the vocabulary's " +
                    std::to_string(tok.vocabSize()) + " tokens");
    const auto ids = chat ? chatPromptTokens(*model, {{"user", *prompt}}) : tok.encode(*prompt, tok.addsBosByDefault(), false);
    // Both runs are --max-tokens long: the branch must fit as the original did, or step --at may never come.
    const int64_t nCtx = opt.contextLength > 0 ? opt.contextLength : defaultSessionContext(model->hparams());
    checkPromptFitsContext("branch", ids.size(), nCtx, opt.contextLength > 0, maxTokens);
    checkKvFitsMemory("branch", model->hparams(), nCtx, opt.kvType);
    auto backend = openBackend(*model, backendKind, threads);
    Session session(*model, *backend, ids, opt);
    const std::atomic<bool>* interrupt = installInterruptHandler();

    if (session.run(maxTokens, interrupt).stop == StopReason::Cancelled) {
        std::printf("original (%d tokens, interrupted):\n%s\n", session.steps(), continuation(session, session.current(), tok).c_str());
        return kInterruptedExit;
    }
    const BranchId original = session.current();
    const int64_t evaluatedBefore = session.evaluatedTokens();
    std::printf("original (%d tokens):\n%s\n\n", session.steps(), continuation(session, original, tok).c_str());

    const auto alts = topAlternatives(session.logits(at), std::max(5, alternative));
    const TokenId chosen = session.tokens(original)[session.prompt().size() + at];
    std::printf("step %d chose '%s'; the most probable tokens there:\n", at, shown(tok, chosen).c_str());
    for (size_t i = 0; i < alts.size(); ++i)
        std::printf("  %zu. %6d  p %.4f  '%s'%s\n", i + 1, alts[i].id, alts[i].p, shown(tok, alts[i].id).c_str(),
                    alts[i].id == chosen ? "  <- chosen" : "");

    const TokenId token = forced >= 0 ? static_cast<TokenId>(forced) : alts[alternative - 1].id;
    session.branch(at, token);
    // Branching at the last step replaces the last token: nothing is left to generate after it.
    const bool stopped = at + 1 < maxTokens && session.run(maxTokens - at - 1, interrupt).stop == StopReason::Cancelled;
    const KvStats kv = session.kvStats();
    std::printf("\nbranch at step %d with '%s' (%d tokens%s):\n%s\n\n", at, shown(tok, token).c_str(), session.steps(),
                stopped ? ", interrupted" : "",
                continuation(session, session.current(), tok).c_str());
    std::printf("tokens evaluated: %lld for the original (prompt %zu + %d steps), %lld more for the branch "
                "(the shared prefix was not recomputed)\n",
                (long long)evaluatedBefore, ids.size(), maxTokens - 1, (long long)(session.evaluatedTokens() - evaluatedBefore));
    std::printf("KV blocks: %lld in use, %lld shared by both branches, %lld bytes saved by sharing\n", (long long)kv.blocksUsed,
                (long long)kv.blocksShared, (long long)kv.bytesSavedBySharing);
    return stopped ? kInterruptedExit : 0;
}

}  // namespace dlab::cli
