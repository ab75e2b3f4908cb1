// decoding-lab-cli generate: stream a continuation (or a chat answer) to stdout.
#include <cstdio>
#include <fstream>

#include "cmd_grammar.h"
#include "cmd_sample.h"
#include "commands.h"
#include "interrupt.h"
#include "core/error.h"
#include "generate/session.h"
#include "generate/generator.h"
#include "generate/beam_trace.h"
#include "generate/chat_prompt.h"
#include "generate/model_beam_scorer.h"
#include "generate/repetition.h"
#include "safety/banned_phrases.h"
#include "sampling/dry_breakers.h"

namespace dlab::cli {

int runGenerate(Args& args) {
    const std::string path = modelPathOption(args);
    const int threads = threadsOption(args);
    const BackendOption backendKind = backendOption(args);
    const auto prompt = args.value("--prompt");
    const bool chat = args.flag("--chat");
    const auto system = args.value("--system");
    GenerateOptions opt;
    opt.maxTokens = static_cast<int>(args.integer("--max-tokens", 128, 1, 1 << 20));
    readSamplerOptions(args, opt.sampler);  // --temperature, --top-k, --top-p, --seed, penalties, --order, ...
    const int64_t ctxOption = args.integer("--ctx", 0, 0, 1 << 24);
    const KvType kvType = parseKvType(args.value("--kv-type", "f16"));
    const bool noBos = args.flag("--no-bos");
    const bool quiet = args.flag("--quiet");
    const std::string strategy = args.value("--strategy", "sample");
    BeamOptions beam;
    beam.width = static_cast<int>(args.integer("--beams", 4, 1, 64));
    beam.lengthPenalty = args.number("--length-penalty", 1.0);
    beam.earlyStopping = parseEarlyStopping(args.value("--early-stopping", "false"));
    beam.nBest = static_cast<int>(args.integer("--n-best", 0, 0, 64));
    beam.groups = static_cast<int>(args.integer("--beam-groups", 1, 1, 64));
    beam.diversityPenalty = args.number("--diversity-penalty", 0.0);
    const auto tracePath = args.value("--trace");
    const bool noKvCache = args.flag("--no-kv-cache");  // recompute the whole prefix every step (the lesson)
    opt.traceTopN = static_cast<int>(args.integer("--top-n", 64, 1, 1 << 20));
    opt.traceAttention = args.flag("--trace-attention");
    const std::vector<std::string> banned = args.values("--ban");  // phrases the output may never contain
    const bool banIgnoreCase = args.flag("--ban-ignore-case");
    const auto constraint = readConstraintOption(args, "generate");
    args.finish();
    if (strategy == "beam" && !banned.empty()) throw Error("generate: --ban applies to greedy and sampled runs, not --strategy beam");
    if (banIgnoreCase && banned.empty()) throw Error("generate: --ban-ignore-case needs at least one --ban PHRASE");
    if (opt.traceAttention && !tracePath) throw Error("generate: --trace-attention writes into the trace; give --trace FILE.jsonl too");
    if (strategy != "greedy" && strategy != "sample" && strategy != "beam")
        throw Error("generate: --strategy must be greedy, sample or beam; got '" + strategy + "'");
    if (strategy == "greedy") opt.sampler.temperature = 0.0f;
    if (beam.nBest > beam.width) throw Error("generate: --n-best must be at most --beams");
    if (strategy != "beam" && (beam.groups != 1 || beam.diversityPenalty != 0.0))
        throw Error("generate: --beam-groups and --diversity-penalty need --strategy beam");
    if (strategy == "beam" && opt.traceAttention)
        throw Error("generate: --trace-attention traces greedy and sampled runs, not --strategy beam");
    if (strategy == "beam") {
        // The repetition options beam search applies (HF's repetition_penalty and
        // no_repeat_ngram_size, over the whole history); the sampling ones do not apply.
        beam.repeatPenalty = opt.sampler.repeatPenalty;
        beam.noRepeatNgram = opt.sampler.noRepeatNgram;
        beam.maxNewTokens = opt.maxTokens;
        try {
            beam.validate();
        } catch (const Error& e) {
            throw Error(std::string("generate: ") + e.what() + " (--beams, --beam-groups, --diversity-penalty)");
        }
    }
    if (!prompt) throw Error("generate: --prompt is required");
    if (system && !chat) throw Error("generate: --system needs --chat");
    opt.sampler.validate();

    auto model = Model::load(path);
    const Tokenizer& tok = model->tokenizer();
    if (opt.sampler.dryMultiplier > 0.0f && opt.sampler.dryBreakers.empty())
        opt.sampler.dryBreakers = dryBreakersFromStrings(defaultDryBreakers(), tok);
    if (constraint) {
        opt.sampler.constraint = compileConstraint(*constraint, tok, "generate");
        beam.constraint = opt.sampler.constraint;
    }
    if (!banned.empty()) opt.sampler.bannedPhrases = BannedPhrases::make(banned, tok, banIgnoreCase);
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

    const int64_t nCtx = ctxOption > 0 ? ctxOption : defaultSessionContext(model->hparams());
    checkPromptFitsContext("generate", ids.size(), nCtx, ctxOption > 0, strategy == "beam" ? opt.maxTokens : 1);
    checkKvFitsMemory("generate", model->hparams(), nCtx, kvType);
    const std::atomic<bool>* interrupt = installInterruptHandler();
    auto backend = openBackend(*model, backendKind, threads);
    backend->setRecomputePrefix(noKvCache);
    std::ofstream trace;
    if (tracePath) {
        trace.open(*tracePath, std::ios::binary | std::ios::trunc);
        if (!trace) throw Error(*tracePath + ": cannot write the trace file");
    }
    const TokenText pieceOf = [&tok](TokenId t) { return tok.tokenToPiece(t, true); };

    if (strategy == "beam") {
        beam.endTokens = endOfGenerationTokens(tok);
        if (trace) {  // the tree view's detail: each expanded node's next-token top N and KV blocks
            beam.recordTopN = opt.traceTopN;
            beam.recordKvBlocks = true;
        }
        const BeamResult r = beamSearchModel(*model, *backend, ids, beam, kvType, nCtx, {}, interrupt);
        if (trace) trace << beamResultJson(r, beam, pieceOf) << "\n";
        for (size_t i = 0; i < r.hypotheses.size(); ++i) {
            const BeamHypothesis& h = r.hypotheses[i];
            const std::string group = beam.groups > 1 ? " group " + std::to_string(h.group) : "";
            std::printf("#%zu score %.4f log-prob %.4f%s%s\n%s\n", i + 1, h.score, h.logProb, group.c_str(),
                        h.ended ? " (ended)" : "", tok.decode(h.tokens).c_str());
        }
        if (!quiet || interrupted())
            std::fprintf(stderr, "[%sbeam search: width %d, %d group%s, %d steps, %zu tree nodes]\n",
                         interrupted() ? "interrupted: " : "", beam.width, beam.groups, beam.groups == 1 ? "" : "s", r.steps,
                         r.tree.nodes.size());
        return interrupted() ? kInterruptedExit : 0;
    }

    if (trace) opt.onTrace = [&](const StepTrace& t) { trace << stepTraceJson(t, pieceOf) << "\n"; };
    KvCache cache(model->hparams(), nCtx, kvType);
    const auto result = generate(*model, *backend, cache, ids, opt, [](TokenId, const std::string& piece) {
        std::fwrite(piece.data(), 1, piece.size(), stdout);
        std::fflush(stdout);
        return true;
    }, interrupt);
    std::printf("\n");
    const bool stopped = result.stop == StopReason::Cancelled;
    if (stopped && result.tokens.empty() && result.prefillMs == 0.0) {
        std::fprintf(stderr, "[interrupted during the prompt (%d tokens): nothing generated | %s]\n",
                     result.promptTokens, runsOn(*backend).c_str());
    } else if (!quiet || stopped) {
        const double tps = result.decodeMs > 0 ? 1000.0 * result.tokens.size() / result.decodeMs : 0.0;
        std::fprintf(stderr, "[%sprompt %d tokens in %.1f ms | %zu tokens at %.1f tokens/s | stop: %s | %s]\n",
                     stopped ? "interrupted: " : "", result.promptTokens, result.prefillMs, result.tokens.size(), tps,
                     stopReasonName(result.stop), runsOn(*backend).c_str());
        const RepetitionSpan rep = findRepetition(result.tokens);
        if (rep.found)
            std::fprintf(stderr, "[repetition: the last %lld tokens repeat a %lld-token loop %lld times]\n",
                         (long long)rep.length, (long long)rep.period, (long long)rep.repeats);
    }
    return stopped ? kInterruptedExit : 0;
}

}  // namespace dlab::cli
