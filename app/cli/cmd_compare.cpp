// decoding-lab-cli compare: one prefill, several decoding runs forked from it, one row each.
#include "cmd_compare.h"

#include "cmd_grammar.h"

#include <cstdio>
#include <fstream>
#include <string>

#include "commands.h"
#include "core/error.h"
#include "core/json_writer.h"
#include "generate/chat_prompt.h"
#include "generate/compare.h"
#include "generate/compare_trace.h"
#include "generate/session.h"
#include "interrupt.h"
#include "tokenizer/utf8.h"

namespace dlab::cli {

namespace {

// The text on one table line: newlines and '|' escaped, at most `max` bytes (whole UTF-8 characters).
std::string cell(const std::string& text, size_t max) {
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        if (out.size() >= max && (c & 0xC0) != 0x80) { out += "…"; break; }
        if (c == '\n') out += "\\n";
        else if (c == '|') out += "\\|";
        else if (c == '\r' || c == '\t') out += ' ';
        else out += static_cast<char>(c);
    }
    return out;
}

// A diverse beam run's best hypothesis of every group (the table shows only the best of all).
void printGroups(const CompareResult& r, const Tokenizer& tok) {
    for (const RunResult& run : r.runs) {
        if (run.spec.kind != RunKind::Beam || run.beamOptions.groups < 2) continue;
        std::printf("\n%s, the best hypothesis of each group:\n", run.spec.text.c_str());
        for (int g = 0; g < run.beamOptions.groups; ++g) {
            for (const BeamHypothesis& h : run.beam.hypotheses) {
                if (h.group != g) continue;
                std::printf("  group %d: score %.3f, log-prob %.3f%s | %s\n", g, h.score, h.logProb, h.ended ? " (ended)" : "",
                            cell(utf8::sanitize(tok.decode(h.tokens)), 80).c_str());
                break;
            }
        }
    }
}

void printTable(const CompareResult& r, int threads) {
    std::printf("prompt: %zu tokens, prefilled once in %.1f ms (%d threads)\n\n", r.prompt.size(), r.prefillMs, threads);
    std::printf("| run | tokens | log-prob | tok/s | ms/step | passes (tokens evaluated) | distinct-1 | distinct-2 | repeats | KV blocks (shared) | saved within | text |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---|\n");
    for (const RunResult& run : r.runs) {
        const std::string rep = run.repetition.found
                                    ? std::to_string(run.repetition.period) + "-token loop x" + std::to_string(run.repetition.repeats)
                                    : "no";
        std::printf("| %s | %zu%s | %.3f | %.1f | %.2f | %d (%lld) | %.3f | %.3f | %s | %lld (%lld) | %.1f KiB | %s |\n", run.spec.text.c_str(),
                    run.tokens.size(), run.ended ? "+end" : "", run.logProb, run.tokensPerSecond, run.msPerStep,
                    run.forwardCalls, (long long)run.tokensEvaluated, run.distinct1,
                    run.distinct2, rep.c_str(), (long long)run.kvBlocks, (long long)run.kvBlocksShared,
                    run.kvBytesSavedWithin / 1024.0, cell(run.text, 60).c_str());
    }
    const KvStats& kv = r.kvPeak;
    std::printf("\nKV pool at its peak: %lld of %lld blocks in use (%lld positions, %.1f KiB each), %lld shared; "
                "sharing saved %.1f KiB (%.1f KiB in use, %.1f KiB without sharing)\n",
                (long long)kv.blocksUsed, (long long)kv.blocksTotal, (long long)kv.blockSize, kv.bytesPerBlock / 1024.0,
                (long long)kv.blocksShared, kv.bytesSavedBySharing / 1024.0, kv.bytesInUse / 1024.0,
                (kv.bytesInUse + kv.bytesSavedBySharing) / 1024.0);
}

void printJson(const CompareResult& r, int threads, const TokenText& pieceOf) {
    JsonWriter j;
    j.beginObject();
    j.field("threads", threads);
    writeCompareSummary(j, r, pieceOf);
    j.endObject();
    std::printf("%s\n", j.str().c_str());
}

}  // namespace

int runCompare(Args& args) {
    const std::string path = modelPathOption(args);
    const int threads = threadsOption(args);
    const BackendOption backendKind = backendOption(args);
    const auto prompt = args.value("--prompt");
    const bool chat = args.flag("--chat");
    const int maxTokens = static_cast<int>(args.integer("--max-tokens", 32, 1, 1 << 20));
    const int64_t ctxOption = args.integer("--ctx", 0, 0, 1 << 24);
    const KvType kvType = parseKvType(args.value("--kv-type", "f16"));
    const int64_t blockSize = args.integer("--block-size", 16, 1, 4096);
    const bool json = args.flag("--json");
    const auto tracePath = args.value("--trace");
    const int topN = static_cast<int>(args.integer("--top-n", 8, 0, 1 << 16));
    std::vector<RunSpec> runs;
    for (const std::string& spec : args.values("--run")) runs.push_back(parseRunSpec(spec));
    const auto constraint = readConstraintOption(args, "compare", false);  // --json is compare's output format
    args.finish();
    if (!prompt) throw Error("compare: --prompt is required");
    if (runs.empty()) throw Error("compare: give at least one --run (greedy, beam:k=4, sample:t=0.7,p=0.9,seed=1)");

    auto model = Model::load(path);
    const Tokenizer& tok = model->tokenizer();
    const std::vector<TokenId> ids = chat ? chatPromptTokens(*model, {{"user", *prompt}})
                                          : tok.encode(*prompt, tok.addsBosByDefault(), false);
    const int64_t nCtx = ctxOption > 0 ? ctxOption : defaultSessionContext(model->hparams());
    checkPromptFitsContext("compare", ids.size(), nCtx, ctxOption > 0, maxTokens);
    checkKvFitsMemory("compare", model->hparams(), nCtx, kvType);
    std::ofstream trace;
    if (tracePath) {
        trace.open(*tracePath, std::ios::binary | std::ios::trunc);
        if (!trace) throw Error(*tracePath + ": cannot write the trace file");
    }
    auto backend = openBackend(*model, backendKind, threads);
    const std::atomic<bool>* interrupt = installInterruptHandler();
    backend->setCancelFlag(interrupt);
    CompareOptions options;
    options.maxTokens = maxTokens;
    options.kvType = kvType;
    options.contextLimit = nCtx;
    options.blockSize = blockSize;
    options.recordTopN = topN;
    options.beamRecordTopN = tracePath ? topN : 0;  // the trees' detail only goes into the trace
    options.beamRecordKvBlocks = tracePath.has_value();
    options.cancel = interrupt;
    if (constraint) options.constraint = compileConstraint(*constraint, tok, "compare");
    const CompareResult r = compareRuns(*model, *backend, ids, runs, options);
    const TokenText pieceOf = [&tok](TokenId t) { return tok.tokenToPiece(t, true); };
    if (tracePath) {
        trace << compareResultJsonl(r, pieceOf);
        if (!trace.flush()) throw Error(*tracePath + ": cannot write the trace file");
    }
    if (json) printJson(r, threads, pieceOf);
    else {
        printTable(r, threads);
        printGroups(r, tok);
    }
    if (interrupted() || r.stopped) {  // Ctrl-C: the last run is partial, later ones did not start
        std::fprintf(stderr, "[interrupted: the last run stopped early; %zu of %zu runs shown]\n", r.runs.size(), runs.size());
        return kInterruptedExit;
    }
    return 0;
}

}  // namespace dlab::cli
