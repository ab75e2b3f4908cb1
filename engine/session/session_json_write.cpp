// sessionJson(): a SavedSession as one JSON document (the reader is session_json_read.cpp).
#include <cmath>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/number_text.h"
#include "generate/run_spec.h"
#include "grammar/constraint.h"
#include "session/session_file.h"

namespace dlab {

namespace {

using Out = nlohmann::ordered_json;   // fields in the order written, so a person can read the file

// A float as its shortest decimal form ("0.1", not 0.10000000149011612; core/number_text.h).
// -inf -> null.
Out floatValue(float f) {
    if (std::isinf(f) && f < 0) return nullptr;
    return shortestDecimal(f);
}


Out samplerValue(const SamplerParams& p) {
    RunSpec spec;
    spec.kind = RunKind::Sample;
    spec.sampler = p;
    Out o;
    o["spec"] = runSpecText(spec);
    if (!p.logitBias.empty()) {
        Out bias = Out::array();
        for (const auto& [id, b] : p.logitBias) bias.push_back({{"id", id}, {"bias", floatValue(b)}});
        o["logitBias"] = std::move(bias);
    }
    if (!p.dryBreakers.empty()) o["dryBreakers"] = p.dryBreakers;
    return o;
}

Out candidates(const std::vector<Candidate>& top) {
    Out a = Out::array();
    for (const Candidate& c : top) a.push_back({{"id", c.id}, {"logit", floatValue(c.logit)}, {"p", floatValue(c.p)}});
    return a;
}

Out attentionValue(const StepAttention& at) {
    Out o;
    o["layers"] = at.nLayer;
    o["kvHeads"] = at.nHeadKv;
    o["slots"] = at.nSlots;
    Out layers = Out::array();   // [layer][kv head][slot]
    for (int64_t l = 0; l < at.nLayer; ++l) {
        Out heads = Out::array();
        for (int64_t h = 0; h < at.nHeadKv; ++h) {
            Out row = Out::array();
            const size_t at0 = static_cast<size_t>((l * at.nHeadKv + h) * at.nSlots);
            for (int64_t s = 0; s < at.nSlots && at0 + static_cast<size_t>(s) < at.perKvGroup.size(); ++s)
                row.push_back(floatValue(at.perKvGroup[at0 + static_cast<size_t>(s)]));
            heads.push_back(std::move(row));
        }
        layers.push_back(std::move(heads));
    }
    o["perKvGroup"] = std::move(layers);
    Out blocks = Out::array();
    for (const StepAttention::Block& b : at.blocks) blocks.push_back({{"block", b.block}, {"filled", b.filled}, {"sequences", b.sequences}});
    o["blocks"] = std::move(blocks);
    return o;
}

Out stepValue(const SavedStep& s) {
    const StepTrace& t = s.trace;
    Out o;
    o["step"] = t.step;
    o["seq"] = t.seq;
    o["pos"] = t.pos;
    o["phase"] = phaseName(t.phase);
    o["evaluated"] = t.evaluated;
    o["chosen"] = t.chosen;
    o["bytes"] = hexBytes(t.text);
    o["p"] = floatValue(t.chosenProbability);
    o["raw"] = {{"vocab", t.raw.vocab}, {"finite", t.raw.finite}, {"maxLogit", floatValue(t.raw.maxLogit)},
                {"logSumExp", t.raw.logSumExp}, {"entropy", floatValue(t.raw.entropy)}};
    Out stages = Out::array();
    for (const StageSnapshot& st : t.stages) {
        Out one = {{"stage", st.stage}, {"kept", st.kept}, {"massKept", floatValue(st.massKept)},
                   {"entropy", floatValue(st.entropy)}, {"changed", st.changed}, {"top", candidates(st.top)}};
        if (st.inputMassKept) one["inputMassKept"] = floatValue(*st.inputMassKept);
        if (st.forbiddenCount >= 0) {  // masking stages: grammar, banned-phrases
            one["forbiddenCount"] = st.forbiddenCount;
            one["forbidden"] = candidates(st.forbidden);
        }
        stages.push_back(std::move(one));
    }
    o["stages"] = std::move(stages);
    o["kv"] = {{"positions", t.kv.positions}, {"blocksUsed", t.kv.blocksUsed}, {"blocksFree", t.kv.blocksFree},
               {"blocksShared", t.kv.blocksShared}, {"bytesInUse", t.kv.bytesInUse}, {"bytesSaved", t.kv.bytesSaved}};
    if (!t.attention.empty()) o["attention"] = attentionValue(t.attention);
    o["forwardMs"] = t.forwardMs;
    o["sampleMs"] = t.sampleMs;
    o["sampler"] = samplerValue(s.sampler);
    const ConstraintSpec* spec = s.sampler.constraint ? &s.sampler.constraint->spec() : s.constraint ? &*s.constraint : nullptr;
    if (spec) o["constraint"] = {{"kind", constraintKindName(spec->kind)}, {"source", spec->source}, {"text", spec->text}};
    Out raw = Out::array();
    for (const TokenLogit& r : s.rawLogits) raw.push_back({{"id", r.id}, {"logit", floatValue(r.logit)}});
    o["rawLogits"] = std::move(raw);
    if (s.forced) o["forced"] = true;
    return o;
}

}  // namespace

std::string sessionJson(const SavedSession& s) {
    Out doc;
    doc["format"] = s.format;
    doc["version"] = s.version;
    doc["page"] = s.page;
    doc["model"] = {{"name", s.model.name}, {"arch", s.model.arch}, {"vocab", s.model.vocab}, {"bos", s.model.bos}};
    doc["prompt"] = s.prompt;
    doc["promptTokens"] = s.promptTokens;
    doc["sampler"] = samplerValue(s.sampler);
    Out branches = Out::array();
    for (const SavedBranch& b : s.branches) {
        Out steps = Out::array();
        for (const SavedStep& step : b.steps) steps.push_back(stepValue(step));
        branches.push_back({{"id", b.id}, {"parent", b.parent}, {"forkStep", b.forkStep}, {"steps", std::move(steps)}});
    }
    doc["branches"] = std::move(branches);
    doc["currentBranch"] = s.currentBranch;
    Out tokens = Out::array();
    for (const SavedToken& t : s.tokens) {
        Out o = {{"id", t.id}, {"bytes", hexBytes(t.piece)}};
        if (t.rendered != t.piece) o["rendered"] = hexBytes(t.rendered);
        if (t.control) o["control"] = true;
        if (t.endOfGeneration) o["endOfGeneration"] = true;
        tokens.push_back(std::move(o));
    }
    doc["tokens"] = std::move(tokens);
    Out payload = Out::parse(s.pagePayload.empty() ? std::string_view("{}") : std::string_view(s.pagePayload), nullptr, false);
    if (!payload.is_object()) throw Error("a session's pagePayload must be a JSON object; the page gave \"" + s.pagePayload.substr(0, 40) + "\"");
    doc["pagePayload"] = std::move(payload);
    try {
        return doc.dump() + "\n";
    } catch (const nlohmann::json::exception&) {
        throw Error("the session holds text that is not valid UTF-8 (the prompt, a name or a stage); it cannot be saved as JSON");
    }
}

}  // namespace dlab
