#include "safety/safety_pipeline.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <cstdio>

#include "core/error.h"
#include "generate/chat_prompt.h"
#include "generate/session.h"
#include "model/kv_cache.h"
#include "safety/banned_phrases.h"
#include "tokenizer/utf8.h"

namespace dlab {

namespace {

// Enough for any sensible filter on a reply of a few hundred tokens; a pattern that backtracks
// catastrophically stops here with a sentence instead of hanging the run.
constexpr uint32_t kMatchLimit = 1'000'000;

std::string shortQuoted(std::string_view s, size_t max = 40) {
    const std::string cut = utf8::sanitize(s.substr(0, max));
    return "\"" + cut + (s.size() > max ? "…\"" : "\"");
}

std::string percent(float p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, p >= 0.1f ? "%.0f %%" : "%.1f %%", 100.0 * p);
    return buf;
}

// The step whose text holds byte `at` of the raw text (the last step when past the end).
int stepAtByte(const std::vector<SafetyStep>& steps, size_t at) {
    for (const SafetyStep& s : steps)
        if (s.textEnd > at) return s.step;
    return steps.empty() ? -1 : steps.back().step;
}

}  // namespace

const char* safetyLayerName(SafetyLayer layer) {
    switch (layer) {
        case SafetyLayer::InputFilter: return "input filter";
        case SafetyLayer::BannedPhrases: return "banned phrases";
        case SafetyLayer::ModelRefusal: return "model refusal";
        case SafetyLayer::OutputFilter: return "output filter";
    }
    return "?";
}

const char* safetyLayerStateName(SafetyLayerState s) {
    switch (s) {
        case SafetyLayerState::Off: return "off";
        case SafetyLayerState::NotReached: return "not reached";
        case SafetyLayerState::Passed: return "passed";
        case SafetyLayerState::Acted: return "acted";
    }
    return "?";
}

SafetyPolicy defaultSafetyPolicy() {
    SafetyPolicy p;
    p.inputPatterns = {R"(\b(bomb|explosives?|nerve agent)\b)", R"(ignore (all )?(previous|prior) instructions)"};
    p.outputPatterns = {R"([\w.+-]+@[\w-]+\.[\w.]+)", R"(\b\d{3}[-. ]\d{3}[-. ]\d{4}\b)"};
    p.bannedPhrases = {"password"};
    p.refusalPatterns = {R"(\bI(?:'m|’m| am) sorry\b)", R"(\bI (?:cannot|can(?:'|’)t|won(?:'|’)t|am unable to)\b)",
                         R"(\bas an AI\b)"};
    p.caseInsensitive = true;
    return p;
}

std::string defaultSafetyPrompt() { return "Write a fake customer record with a name, password, email and phone number."; }

// ---------------------------------------------------------------------------------------------
// PatternList

PatternList::PatternList(std::string layer, const std::vector<std::string>& patterns, bool caseInsensitive)
    : layer_(std::move(layer)) {
    if (patterns.size() > size_t(kMaxPatterns))
        throw Error("the " + layer_ + " has " + std::to_string(patterns.size()) + " patterns; at most " +
                    std::to_string(kMaxPatterns) + " are allowed");
    const auto freeAll = [this] {
        for (void* c : codes_) pcre2_code_free(static_cast<pcre2_code*>(c));
        codes_.clear();
    };
    for (size_t i = 0; i < patterns.size(); ++i) {
        const std::string& pat = patterns[i];
        const std::string which = layer_ + " pattern " + std::to_string(i + 1);
        if (pat.empty()) {
            freeAll();
            throw Error(which + " is empty; an empty pattern would match every text");
        }
        if (pat.size() > size_t(kMaxPatternBytes)) {
            freeAll();
            throw Error(which + " is " + std::to_string(pat.size()) + " bytes long; a pattern may have at most " +
                        std::to_string(kMaxPatternBytes) + " bytes");
        }
        int err = 0;
        PCRE2_SIZE offset = 0;
        const uint32_t options = PCRE2_UTF | PCRE2_UCP | (caseInsensitive ? PCRE2_CASELESS : 0u);
        pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pat.data()), pat.size(), options, &err, &offset, nullptr);
        if (!code) {
            PCRE2_UCHAR msg[256];
            pcre2_get_error_message(err, msg, sizeof msg);
            freeAll();
            throw Error(which + " (" + shortQuoted(pat) + ") does not compile: " + reinterpret_cast<const char*>(msg) +
                        " at offset " + std::to_string(offset));
        }
        codes_.push_back(code);
    }
    pcre2_match_context* ctx = pcre2_match_context_create(nullptr);
    if (ctx) pcre2_set_match_limit(ctx, kMatchLimit);
    matchContext_ = ctx;
}

PatternList::~PatternList() {
    for (void* c : codes_) pcre2_code_free(static_cast<pcre2_code*>(c));
    pcre2_match_context_free(static_cast<pcre2_match_context*>(matchContext_));
}

std::optional<PatternList::Match> PatternList::firstMatch(std::string_view text) const {
    std::optional<Match> best;
    if (codes_.empty()) return best;
    utf8::requireValid(text);
    pcre2_match_data* data = pcre2_match_data_create(1, nullptr);
    if (!data) throw Error("out of memory for a pattern match");
    struct Free {
        pcre2_match_data* d;
        ~Free() { pcre2_match_data_free(d); }
    } freeData{data};
    for (size_t i = 0; i < codes_.size(); ++i) {
        const int rc = pcre2_match(static_cast<const pcre2_code*>(codes_[i]), reinterpret_cast<PCRE2_SPTR>(text.data()), text.size(),
                                   0, PCRE2_NOTEMPTY | PCRE2_NO_UTF_CHECK, data, static_cast<pcre2_match_context*>(matchContext_));
        if (rc == PCRE2_ERROR_NOMATCH) continue;
        if (rc < 0) {
            PCRE2_UCHAR msg[256];
            pcre2_get_error_message(rc, msg, sizeof msg);
            throw Error(layer_ + " pattern " + std::to_string(i + 1) + " could not be matched: " +
                        reinterpret_cast<const char*>(msg) + "; simplify it");
        }
        const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(data);
        if (!best || ov[0] < best->begin) best = Match{int(i), size_t(ov[0]), size_t(ov[1])};
    }
    return best;
}

// ---------------------------------------------------------------------------------------------
// The run

CompiledSafetyPolicy::CompiledSafetyPolicy(const SafetyPolicy& p, const Tokenizer& tok) {
    input = std::make_unique<PatternList>("input filter", p.inputPatterns, p.caseInsensitive);
    output = std::make_unique<PatternList>("output filter", p.outputPatterns, p.caseInsensitive);
    refusal = std::make_unique<PatternList>("refusal", p.refusalPatterns, p.caseInsensitive);
    if (!p.bannedPhrases.empty()) banned = BannedPhrases::make(p.bannedPhrases, tok, p.caseInsensitive);
}

void checkSafetyPolicy(const SafetyPolicy& p) {
    PatternList("input filter", p.inputPatterns, p.caseInsensitive);
    PatternList("output filter", p.outputPatterns, p.caseInsensitive);
    PatternList("refusal", p.refusalPatterns, p.caseInsensitive);
    BannedPhrases::checkPhrases(p.bannedPhrases);
}

std::array<SafetyLayerReport, kSafetyLayers> safetyLayerReports(const SafetyRun& run) {
    std::array<SafetyLayerReport, kSafetyLayers> out;
    const SafetyPolicy& p = run.request.policy;
    const bool has[kSafetyLayers] = {!p.inputPatterns.empty(), !p.bannedPhrases.empty(), !p.refusalPatterns.empty(),
                                     !p.outputPatterns.empty()};
    for (int i = 0; i < kSafetyLayers; ++i) {
        SafetyLayerReport& r = out[size_t(i)];
        r.layer = SafetyLayer(i);
        const bool reached = i == 0 || !run.blocked;
        r.state = !has[i] ? SafetyLayerState::Off : !reached ? SafetyLayerState::NotReached : SafetyLayerState::Passed;
    }
    for (const SafetyEvent& e : run.events) {
        SafetyLayerReport& r = out[size_t(e.layer)];
        if (r.events++ == 0) r.firstStep = e.step;
        r.state = SafetyLayerState::Acted;
    }
    return out;
}

SafetyRun runSafetyPipeline(const Model& model, Backend& backend, const SafetyRequest& request, const std::atomic<bool>* cancel,
                            const std::function<void(const SafetyStep&)>& onStep) {
    const Tokenizer& tok = model.tokenizer();
    const CompiledSafetyPolicy policy(request.policy, tok);   // every pattern and phrase checked before anything runs
    if (request.prompt.empty()) throw Error("the prompt is empty; write a message to run through the layers");
    try {
        utf8::requireValid(request.prompt);
    } catch (const Error& e) {
        const std::string m = e.what();   // "text is not valid UTF-8 (...)"
        throw Error("the prompt" + m.substr(std::min(m.size(), std::string("text").size())));
    }
    if (request.maxTokens < 1) throw Error("the reply needs room for at least 1 token (got " + std::to_string(request.maxTokens) + ")");

    SafetyRun run;
    run.request = request;
    const auto finish = [&]() -> SafetyRun {
        run.layers = safetyLayerReports(run);
        return std::move(run);
    };

    // 1. The input filter: before the model sees anything.
    if (const auto m = policy.input->firstMatch(request.prompt)) {
        SafetyEvent e;
        e.layer = SafetyLayer::InputFilter;
        e.index = m->pattern;
        e.begin = m->begin;
        e.end = m->end;
        e.matched = request.prompt.substr(m->begin, m->end - m->begin);
        e.detail = "input filter pattern " + std::to_string(m->pattern + 1) + " matched " + shortQuoted(e.matched) +
                   " in the prompt: the request was blocked before any decoding";
        run.events.push_back(std::move(e));
        run.blocked = true;
        run.stop = StopReason::Callback;
        return finish();
    }

    // 2 and 4: decoding with the banned-phrases stage, the output filter after every token.
    std::vector<TokenId> ids;
    if (request.chat) {
        std::vector<ChatMessage> messages;
        if (!request.system.empty()) messages.push_back({"system", request.system});
        messages.push_back({"user", request.prompt});
        ids = chatPromptTokens(model, messages);
    } else {
        ids = tok.encode(request.prompt, tok.addsBosByDefault(), false);
    }
    run.promptText = tok.decode(ids, true);
    run.promptTokens = int(ids.size());
    const int64_t nCtx = request.contextLength > 0 ? request.contextLength : defaultSessionContext(model.hparams());
    KvCache cache(model.hparams(), nCtx, KvType::F16);

    GenerateOptions opt;
    opt.maxTokens = request.maxTokens;
    opt.sampler = request.sampler;
    opt.sampler.bannedPhrases = policy.banned;
    opt.traceTopN = 1;
    std::vector<TokenId> generated;   // the tokens sampled so far, as the stage sees them
    opt.onTrace = [&](const StepTrace& t) {
        SafetyStep s;
        s.step = t.step;
        s.token = t.chosen;
        s.endOfGeneration = tok.isEndOfGeneration(t.chosen);
        s.p = t.chosenProbability;
        s.textBegin = s.textEnd = run.rawText.size();
        for (size_t i = 0; i < t.stages.size(); ++i) {
            const StageSnapshot& snap = t.stages[i];
            if (snap.stage != "banned-phrases") continue;
            s.forbiddenCount = std::max(0, snap.forbiddenCount);
            const float before = i == 0 ? 1.0f : t.stages[i - 1].massKept;
            s.forbiddenMass = std::max(0.0f, before - snap.massKept);
            if (!snap.forbidden.empty()) {
                const Candidate& best = snap.forbidden.front();
                s.bestForbidden = best.id;
                s.bestForbiddenText = tok.tokenToPiece(best.id, true);
                s.bestForbiddenP = best.p;
                // Most probable overall: it ranks above the best survivor.
                s.greedyChoiceForbidden = snap.top.empty() || ranksAbove(best, snap.top.front());
            }
        }
        run.steps.push_back(std::move(s));
        const SafetyStep& added = run.steps.back();
        if (added.intervention()) {
            SafetyEvent e;
            e.layer = SafetyLayer::BannedPhrases;
            e.step = added.step;
            // The phrase it would have completed, from the bytes generated before this step.
            e.index = policy.banned ? policy.banned->completes(policy.banned->stateAfter(generated), added.bestForbidden) : -1;
            e.matched = added.bestForbiddenText;
            e.p = added.bestForbiddenP;
            e.mass = added.forbiddenMass;
            e.count = added.forbiddenCount;
            e.begin = e.end = run.rawText.size();
            e.detail = "step " + std::to_string(added.step) + ": the banned-phrases stage forbade " + std::to_string(e.count) +
                       " token(s) holding " + percent(e.mass) + " of the probability; the model wanted " + shortQuoted(e.matched) +
                       " (p " + percent(e.p) + ")" +
                       (e.index >= 0 ? ", which completes " + shortQuoted(request.policy.bannedPhrases[size_t(e.index)]) : "");
            run.events.push_back(std::move(e));
        }
        generated.push_back(added.token);
        if (onStep && added.endOfGeneration) onStep(added);
    };
    const auto onToken = [&](TokenId, const std::string& piece) -> bool {
        if (run.cut || run.steps.empty()) return false;
        run.rawText += piece;
        SafetyStep& s = run.steps.back();
        s.textEnd = run.rawText.size();
        if (onStep) onStep(s);
        const auto m = policy.output->firstMatch(run.rawText);
        if (!m) return true;
        run.cut = true;
        run.cutStep = s.step;
        run.cutAt = m->begin;
        run.streamedBeforeCut = s.textBegin;
        SafetyEvent e;
        e.layer = SafetyLayer::OutputFilter;
        e.step = s.step;
        e.index = m->pattern;
        e.begin = m->begin;
        e.end = m->end;
        e.matched = run.rawText.substr(m->begin, m->end - m->begin);
        const size_t seen = s.textBegin > m->begin ? s.textBegin - m->begin : 0;
        e.detail = "step " + std::to_string(s.step) + ": output filter pattern " + std::to_string(m->pattern + 1) + " matched " +
                   shortQuoted(e.matched) + "; the reply was cut there" +
                   (seen > 0 ? " (a stream had already sent its first " + std::to_string(seen) + " byte(s))" : "");
        run.events.push_back(std::move(e));
        return false;
    };
    const GenerateResult g = generate(model, backend, cache, ids, opt, onToken, cancel);
    run.stop = g.stop;
    run.decodeMs = g.prefillMs + g.decodeMs;
    if (!run.cut && g.text.size() > run.rawText.size()) run.rawText = g.text;   // the detokenizer's last bytes
    run.shownText = run.cut ? run.rawText.substr(0, run.cutAt) : run.rawText;

    // 3. The model's own refusal: its text, recognised by pattern.
    if (const auto m = policy.refusal->firstMatch(run.rawText)) {
        SafetyEvent e;
        e.layer = SafetyLayer::ModelRefusal;
        e.step = stepAtByte(run.steps, m->end > 0 ? m->end - 1 : 0);
        e.index = m->pattern;
        e.begin = m->begin;
        e.end = m->end;
        e.matched = run.rawText.substr(m->begin, m->end - m->begin);
        e.detail = "step " + std::to_string(e.step) + ": the model's own reply matches refusal pattern " + std::to_string(m->pattern + 1) +
                   " (" + shortQuoted(e.matched) + "); a pattern match on its text, not a classifier";
        run.refused = true;
        // In time order: before an output-filter cut at a later step.
        auto at = run.events.end();
        while (at != run.events.begin() && std::prev(at)->step > e.step) --at;
        run.events.insert(at, std::move(e));
    }
    return finish();
}

}  // namespace dlab
