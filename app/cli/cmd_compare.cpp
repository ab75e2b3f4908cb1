// decoding-lab-cli compare: one prefill, several decoding runs forked from it, one row each.
#include "cmd_compare.h"

#include <cstdio>
#include <string>

#include "commands.h"
#include "core/error.h"
#include "core/json_writer.h"
#include "generate/chat_prompt.h"
#include "generate/compare.h"
#include "generate/session.h"
#include "interrupt.h"

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

void printTable(const CompareResult& r, int threads) {
    std::printf("prompt: %zu tokens, prefilled once in %.1f ms (%d threads)\n\n", r.prompt.size(), r.prefillMs, threads);
    std::printf("| run | tokens | log-prob | tok/s | distinct-1 | distinct-2 | repeats | KV blocks (shared) | saved within | text |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---|---:|---:|---|\n");
    for (const RunResult& run : r.runs) {
        const std::string rep = run.repetition.found
                                    ? std::to_string(run.repetition.period) + "-token loop x" + std::to_string(run.repetition.repeats)
                                    : "no";
        std::printf("| %s | %zu%s | %.3f | %.1f | %.3f | %.3f | %s | %lld (%lld) | %.1f KiB | %s |\n", run.spec.text.c_str(),
                    run.tokens.size(), run.ended ? "+end" : "", run.logProb, run.tokensPerSecond, run.distinct1,
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

void printJson(const CompareResult& r, int threads) {
    JsonWriter j;
    j.beginObject();
    j.field("promptTokens", static_cast<int64_t>(r.prompt.size())).field("prefillMs", r.prefillMs).field("threads", threads);
    j.key("runs").beginArray();
    for (const RunResult& run : r.runs) {
        j.beginObject();
        j.field("spec", run.spec.text).field("kind", runKindName(run.spec.kind)).field("text", run.text);
        j.key("tokens").beginArray();
        for (TokenId t : run.tokens) j.value(static_cast<int64_t>(t));
        j.endArray();
        j.field("ended", run.ended).field("logProb", run.logProb).field("ms", run.ms);
        j.field("tokensPerSecond", run.tokensPerSecond).field("forwardCalls", run.forwardCalls);
        j.field("distinct1", run.distinct1).field("distinct2", run.distinct2);
        j.key("repetition").beginObject().field("found", run.repetition.found).field("period", run.repetition.period);
        j.field("repeats", run.repetition.repeats).field("length", run.repetition.length).endObject();
        j.field("kvBlocks", run.kvBlocks).field("kvBlocksShared", run.kvBlocksShared);
        j.field("kvBytesSavedWithin", run.kvBytesSavedWithin);
        j.endObject();
    }
    j.endArray();
    const KvStats& kv = r.kvPeak;
    j.key("kvPeak").beginObject();
    j.field("type", kvTypeName(kv.type)).field("blockSize", kv.blockSize).field("bytesPerBlock", kv.bytesPerBlock);
    j.field("blocksTotal", kv.blocksTotal).field("blocksUsed", kv.blocksUsed).field("blocksShared", kv.blocksShared);
    j.field("bytesInUse", kv.bytesInUse).field("bytesSavedBySharing", kv.bytesSavedBySharing);
    j.endObject();
    j.endObject();
    std::printf("%s\n", j.str().c_str());
}

}  // namespace

int runCompare(Args& args) {
    const std::string path = modelPathOption(args);
    const int threads = threadsOption(args);
    const auto prompt = args.value("--prompt");
    const bool chat = args.flag("--chat");
    const int maxTokens = static_cast<int>(args.integer("--max-tokens", 32, 1, 1 << 20));
    const int64_t ctxOption = args.integer("--ctx", 0, 0, 1 << 24);
    const KvType kvType = parseKvType(args.value("--kv-type", "f16"));
    const int64_t blockSize = args.integer("--block-size", 16, 1, 4096);
    const bool json = args.flag("--json");
    std::vector<RunSpec> runs;
    for (const std::string& spec : args.values("--run")) runs.push_back(parseRunSpec(spec));
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
    auto backend = makeCpuBackend(*model, threads);
    backend->setCancelFlag(installInterruptHandler());
    const CompareResult r = compareRuns(*model, *backend, ids, runs, maxTokens, kvType, nCtx, blockSize);
    if (json) printJson(r, threads);
    else printTable(r, threads);
    if (interrupted()) {  // a beam run ends early on Ctrl-C instead of throwing: its row is partial
        std::fprintf(stderr, "[interrupted: the last run stopped early]\n");
        return kInterruptedExit;
    }
    return 0;
}

}  // namespace dlab::cli
