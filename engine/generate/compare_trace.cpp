#include "generate/compare_trace.h"

#include "generate/beam_trace.h"
#include "tokenizer/utf8.h"

namespace dlab {

namespace {

void writeKvPeak(JsonWriter& w, const KvStats& kv) {
    w.key("kvPeak").beginObject();
    w.field("type", kvTypeName(kv.type)).field("blockSize", kv.blockSize).field("bytesPerBlock", kv.bytesPerBlock);
    w.field("blocksTotal", kv.blocksTotal).field("blocksUsed", kv.blocksUsed).field("blocksShared", kv.blocksShared);
    w.field("bytesInUse", kv.bytesInUse).field("bytesSavedBySharing", kv.bytesSavedBySharing);
    w.endObject();
}

void writeTokens(JsonWriter& w, const char* key, const std::vector<TokenId>& tokens) {
    w.key(key).beginArray();
    for (TokenId t : tokens) w.value(static_cast<int64_t>(t));
    w.endArray();
}

void writeText(JsonWriter& w, const TokenText& tokenText, TokenId t) {
    if (tokenText) w.field("text", utf8::sanitize(tokenText(t)));
}

// What --json and the trace both say about a run.
void writeRunSummary(JsonWriter& w, const RunResult& run) {
    w.field("spec", run.spec.text).field("canonical", runSpecText(run.spec)).field("kind", runKindName(run.spec.kind));
    w.field("text", run.text);
    writeTokens(w, "tokens", run.tokens);
    w.field("ended", run.ended).field("stopped", run.stopped).field("logProb", run.logProb).field("ms", run.ms);
    w.field("tokensPerSecond", run.tokensPerSecond).field("forwardCalls", run.forwardCalls);
    w.field("tokensEvaluated", run.tokensEvaluated).field("decodeSteps", run.decodeSteps).field("msPerStep", run.msPerStep);
    w.field("distinct1", run.distinct1).field("distinct2", run.distinct2);
    w.key("repetition").beginObject().field("found", run.repetition.found).field("period", run.repetition.period);
    w.field("repeats", run.repetition.repeats).field("length", run.repetition.length).endObject();
    w.field("kvBlocks", run.kvBlocks).field("kvBlocksShared", run.kvBlocksShared);
    w.field("kvBytesSavedWithin", run.kvBytesSavedWithin);
}

void writeSteps(JsonWriter& w, const RunResult& run, const TokenText& tokenText, bool alternatives) {
    w.key("steps").beginArray();
    for (const RunToken& t : run.steps) {
        w.beginObject().field("token", t.token);
        writeText(w, tokenText, t.token);
        w.field("logProb", t.logProb).field("p", t.p).field("end", t.end);
        if (alternatives) {
            w.key("alternatives").beginArray();
            for (const RunAlternative& a : t.alternatives) {
                w.beginObject().field("id", a.token);
                writeText(w, tokenText, a.token);
                w.field("p", a.p).field("finalP", a.finalP).endObject();
            }
            w.endArray();
        }
        w.endObject();
    }
    w.endArray();
}

void writeHypotheses(JsonWriter& w, const BeamResult& beam, const TokenText& tokenText) {
    w.key("hypotheses").beginArray();
    for (const BeamHypothesis& h : beam.hypotheses) {
        w.beginObject();
        writeTokens(w, "tokens", h.tokens);
        if (tokenText) {
            std::string text;
            for (TokenId t : h.tokens) text += tokenText(t);
            w.field("text", utf8::sanitize(text));
        }
        w.field("ended", h.ended).field("logProb", h.logProb).field("searchLogProb", h.searchLogProb);
        w.field("score", h.score).field("group", h.group).field("node", h.node);
        w.endObject();
    }
    w.endArray();
}

}  // namespace

void writeCompareSummary(JsonWriter& w, const CompareResult& r, const TokenText& tokenText) {
    w.field("promptTokens", static_cast<int64_t>(r.prompt.size())).field("prefillMs", r.prefillMs);
    w.field("stopped", r.stopped);
    w.key("runs").beginArray();
    for (const RunResult& run : r.runs) {
        w.beginObject();
        writeRunSummary(w, run);
        writeSteps(w, run, {}, false);
        if (run.spec.kind == RunKind::Beam) writeHypotheses(w, run.beam, tokenText);
        w.endObject();
    }
    w.endArray();
    writeKvPeak(w, r.kvPeak);
}

std::string compareResultJsonl(const CompareResult& r, const TokenText& tokenText) {
    std::string out;
    {
        JsonWriter w;
        w.beginObject().field("type", "compare");
        writeTokens(w, "prompt", r.prompt);
        if (tokenText) {
            std::string text;
            for (TokenId t : r.prompt) text += tokenText(t);
            w.field("promptText", utf8::sanitize(text));
        }
        w.field("promptTokens", static_cast<int64_t>(r.prompt.size())).field("prefillMs", r.prefillMs);
        w.field("runs", static_cast<int64_t>(r.runs.size())).field("stopped", r.stopped);
        writeKvPeak(w, r.kvPeak);
        w.endObject();
        out += w.str() + "\n";
    }
    for (size_t i = 0; i < r.runs.size(); ++i) {
        const RunResult& run = r.runs[i];
        JsonWriter w;
        w.beginObject().field("type", "run").field("run", static_cast<int64_t>(i));
        writeRunSummary(w, run);
        writeSteps(w, run, tokenText, true);
        if (run.spec.kind == RunKind::Beam) {
            w.key("beam");
            writeBeamResult(w, run.beam, run.beamOptions, tokenText);
        }
        w.endObject();
        out += w.str() + "\n";
    }
    return out;
}

}  // namespace dlab
