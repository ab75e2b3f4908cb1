#include "generate/beam_trace.h"

#include "tokenizer/utf8.h"

namespace dlab {

namespace {

void writeNode(JsonWriter& w, const BeamNode& n, const TokenText& tokenText) {
    w.beginObject();
    w.field("id", n.id).field("parent", n.parent).field("depth", n.depth).field("token", n.token);
    if (tokenText && n.token >= 0) w.field("text", utf8::sanitize(tokenText(n.token)));
    w.field("logProb", n.logProb).field("cumLogProb", n.cumLogProb).field("score", n.score);
    w.field("searchLogProb", n.searchLogProb).field("cumSearchLogProb", n.cumSearchLogProb);
    w.field("status", beamNodeStatusName(n.status)).field("end", n.endToken);
    w.field("rank", n.candidateRank).field("slot", n.beamSlot).field("nBest", n.nBestRank);
    w.field("group", n.group).field("diversityPenalty", n.diversityPenalty).field("evaluated", n.evaluated);
    if (!n.next.empty()) {
        w.field("nextEntropy", n.nextEntropy);
        w.key("next").beginArray();
        for (const BeamNextToken& t : n.next) {
            w.beginObject().field("id", t.token);
            if (tokenText) w.field("text", utf8::sanitize(tokenText(t.token)));
            w.field("logProb", t.logProb).endObject();
        }
        w.endArray();
    }
    if (!n.kvBlocks.empty()) {
        w.key("kvBlocks").beginArray();
        for (int32_t b : n.kvBlocks) w.value(static_cast<int64_t>(b));
        w.endArray();
    }
    w.endObject();
}

}  // namespace

void writeBeamResult(JsonWriter& w, const BeamResult& r, const BeamOptions& o, const TokenText& tokenText) {
    w.beginObject();
    w.field("type", "beam");
    w.field("width", o.width).field("maxNewTokens", o.maxNewTokens).field("lengthPenalty", o.lengthPenalty);
    w.field("earlyStopping", earlyStoppingName(o.earlyStopping));
    w.field("groups", o.groups).field("diversityPenalty", o.diversityPenalty);
    w.field("repeatPenalty", o.repeatPenalty).field("noRepeatNgram", o.noRepeatNgram);
    w.field("recordTopN", o.recordTopN).field("recordKvBlocks", o.recordKvBlocks);
    w.key("endTokens").beginArray();
    for (TokenId t : o.endTokens) w.value(t);
    w.endArray();
    w.field("stop", beamStopName(r.stop)).field("steps", r.steps);

    w.key("nodes").beginArray();
    for (const BeamNode& n : r.tree.nodes) writeNode(w, n, tokenText);
    w.endArray();

    w.key("hypotheses").beginArray();
    for (const BeamHypothesis& h : r.hypotheses) {
        w.beginObject();
        w.key("tokens").beginArray();
        for (TokenId t : h.tokens) w.value(t);
        w.endArray();
        if (tokenText) {
            std::string text;
            for (TokenId t : h.tokens) text += tokenText(t);
            w.field("text", utf8::sanitize(text));
        }
        w.field("ended", h.ended).field("logProb", h.logProb).field("searchLogProb", h.searchLogProb);
        w.field("score", h.score).field("node", h.node).field("group", h.group);
        w.endObject();
    }
    w.endArray();
    w.endObject();
}

std::string beamResultJson(const BeamResult& r, const BeamOptions& o, const TokenText& tokenText) {
    JsonWriter w;
    writeBeamResult(w, r, o, tokenText);
    return w.str();
}

}  // namespace dlab
