#include "generate/beam_trace.h"

#include "core/json_writer.h"
#include "tokenizer/utf8.h"

namespace dlab {

std::string beamResultJson(const BeamResult& r, const BeamOptions& o, const TokenText& tokenText) {
    JsonWriter w;
    w.beginObject();
    w.field("type", "beam");
    w.field("width", o.width).field("maxNewTokens", o.maxNewTokens).field("lengthPenalty", o.lengthPenalty);
    w.field("earlyStopping", earlyStoppingName(o.earlyStopping));
    w.key("endTokens").beginArray();
    for (TokenId t : o.endTokens) w.value(t);
    w.endArray();
    w.field("stop", beamStopName(r.stop)).field("steps", r.steps);

    w.key("nodes").beginArray();
    for (const BeamNode& n : r.tree.nodes) {
        w.beginObject();
        w.field("id", n.id).field("parent", n.parent).field("depth", n.depth).field("token", n.token);
        if (tokenText && n.token >= 0) w.field("text", utf8::sanitize(tokenText(n.token)));
        w.field("logProb", n.logProb).field("cumLogProb", n.cumLogProb).field("score", n.score);
        w.field("status", beamNodeStatusName(n.status)).field("end", n.endToken);
        w.field("rank", n.candidateRank).field("slot", n.beamSlot).field("nBest", n.nBestRank);
        w.endObject();
    }
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
        w.field("ended", h.ended).field("logProb", h.logProb).field("score", h.score).field("node", h.node);
        w.endObject();
    }
    w.endArray();
    w.endObject();
    return w.str();
}

}  // namespace dlab
