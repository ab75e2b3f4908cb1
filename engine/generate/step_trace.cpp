#include "generate/step_trace.h"

#include <cmath>

#include "core/json_writer.h"
#include "core/number_text.h"
#include "model/attention_weights.h"
#include "model/kv_stats.h"
#include "tokenizer/utf8.h"

namespace dlab {

const char* phaseName(Phase p) { return p == Phase::Prefill ? "prefill" : "decode"; }

namespace {

void writeText(JsonWriter& w, std::string_view bytes) {
    w.field("text", utf8::sanitize(bytes));
    w.field("bytes", hexBytes(bytes));
}

void writeCandidates(JsonWriter& w, const std::vector<Candidate>& top, const TokenText& tokenText, const char* key = "top") {
    w.key(key).beginArray();
    for (const Candidate& c : top) {
        w.beginObject().field("id", c.id).field("logit", shortestDecimal(c.logit)).field("p", shortestDecimal(c.p));
        if (tokenText) w.field("text", utf8::sanitize(tokenText(c.id)));
        w.endObject();
    }
    w.endArray();
}

}  // namespace

std::string stepTraceJson(const StepTrace& t, const TokenText& tokenText) {
    JsonWriter w;
    w.beginObject();
    w.field("step", t.step).field("seq", t.seq).field("pos", t.pos).field("phase", phaseName(t.phase));
    w.field("evaluated", t.evaluated);
    w.field("chosen", t.chosen);
    writeText(w, t.text);
    w.field("p", shortestDecimal(t.chosenProbability));

    w.key("raw").beginObject();
    w.field("vocab", t.raw.vocab).field("finite", t.raw.finite).field("maxLogit", shortestDecimal(t.raw.maxLogit));
    w.field("logSumExp", t.raw.logSumExp).field("entropy", shortestDecimal(t.raw.entropy));
    w.endObject();

    w.key("stages").beginArray();
    for (const StageSnapshot& s : t.stages) {
        w.beginObject();
        w.field("stage", s.stage).field("kept", s.kept).field("massKept", shortestDecimal(s.massKept));
        if (s.inputMassKept) w.field("inputMassKept", shortestDecimal(*s.inputMassKept));
        w.field("entropy", shortestDecimal(s.entropy));
        w.field("changed", s.changed);
        writeCandidates(w, s.top, tokenText);
        if (s.forbiddenCount >= 0) {  // masking stages: grammar, banned-phrases
            w.field("forbiddenCount", s.forbiddenCount);
            writeCandidates(w, s.forbidden, tokenText, "forbidden");
        }
        w.endObject();
    }
    w.endArray();

    w.key("kv").beginObject();
    w.field("positions", t.kv.positions).field("blocksUsed", t.kv.blocksUsed).field("blocksFree", t.kv.blocksFree);
    w.field("blocksShared", t.kv.blocksShared).field("bytesInUse", t.kv.bytesInUse).field("bytesSaved", t.kv.bytesSaved);
    w.endObject();

    if (!t.attention.empty()) {
        const StepAttention& a = t.attention;
        w.key("attention").beginObject();
        w.field("layers", a.nLayer).field("kvHeads", a.nHeadKv).field("slots", a.nSlots);
        w.key("perKvGroup").beginArray();  // [layer][kv head][slot]
        for (int64_t l = 0; l < a.nLayer; ++l) {
            w.beginArray();
            for (int64_t h = 0; h < a.nHeadKv; ++h) {
                w.beginArray();
                const float* row = a.perKvGroup.data() + (l * a.nHeadKv + h) * a.nSlots;
                for (int64_t s = 0; s < a.nSlots; ++s) w.value(shortestDecimal(row[s]));
                w.endArray();
            }
            w.endArray();
        }
        w.endArray();
        w.key("blocks").beginArray();
        for (const StepAttention::Block& b : a.blocks) {
            w.beginObject().field("block", b.block).field("filled", b.filled).field("refs", static_cast<int64_t>(b.sequences.size()));
            w.key("sequences").beginArray();
            for (int32_t q : b.sequences) w.value(q);
            w.endArray().endObject();
        }
        w.endArray();
        w.endObject();
    }
    w.field("forwardMs", t.forwardMs).field("sampleMs", t.sampleMs);
    w.endObject();
    return w.str();
}

StepAttention stepAttention(const AttentionWeights& w, const KvStats& s) {
    StepAttention a;
    a.nLayer = w.nLayer;
    a.nHeadKv = w.nHeadKv;
    a.nSlots = w.nSlots;
    a.perKvGroup = w.perKvGroup();
    for (const KvBlockStats& b : s.blocks) a.blocks.push_back({b.block, b.filled, b.sequences});
    return a;
}

KvTraceStats kvTraceStats(const KvStats& s, int64_t positions) {
    KvTraceStats k;
    k.positions = positions;
    k.blocksUsed = s.blocksUsed;
    k.blocksFree = s.blocksFree;
    k.blocksShared = s.blocksShared;
    k.bytesInUse = s.bytesInUse;
    k.bytesSaved = s.bytesSavedBySharing;
    return k;
}

}  // namespace dlab
