#pragma once
// The serving page's layered defence, run for real on the loaded model, each layer for what it is:
//   1. input filter     regular expressions (PCRE2) over the user's prompt; a match blocks the
//                       request before anything is decoded;
//   2. banned phrases   the "banned-phrases" sampler stage during decoding: a phrase can never
//                       appear, however the tokenizer would split it; where the stage removed
//                       probability the model gave, the step and what the model wanted are kept;
//   3. model refusal    nothing is added: it is the model's own text. The run only says whether
//                       the reply matches one of the refusal patterns (a pattern match on the text,
//                       not a classifier: a refusal worded otherwise is not seen, and a pattern can
//                       match text that is no refusal);
//   4. output filter    regular expressions over the streamed output after every token; at the
//                       first step one matches, generation stops and the text from the match on is
//                       withheld (what was streamed before that step had already been sent).
// The patterns and phrases are the user's (SafetyPolicy). The result is a plain value struct.
#include <array>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "generate/generator.h"
#include "model/backend.h"
#include "model/model.h"
#include "sampling/sampler_params.h"

namespace dlab {

class BannedPhrases;

enum class SafetyLayer { InputFilter = 0, BannedPhrases = 1, ModelRefusal = 2, OutputFilter = 3 };
constexpr int kSafetyLayers = 4;
const char* safetyLayerName(SafetyLayer layer);   // "input filter", "banned phrases", ...

struct SafetyPolicy {
    std::vector<std::string> inputPatterns;     // PCRE2, matched against the prompt
    std::vector<std::string> outputPatterns;    // PCRE2, matched against the output after each token
    std::vector<std::string> bannedPhrases;     // plain text (safety/banned_phrases.h)
    std::vector<std::string> refusalPatterns;   // PCRE2, matched against the reply when it is done
    bool caseInsensitive = true;                // PCRE2_CASELESS (Unicode) and ASCII-folded phrases
    bool operator==(const SafetyPolicy&) const = default;
};

// The lesson's defaults (resources/lessons/07-safety-pipeline.json): a few examples of each kind,
// and a prompt on which SmolLM2-135M-Instruct makes two layers act (tests/test_safety_realmodel.cpp).
SafetyPolicy defaultSafetyPolicy();
std::string defaultSafetyPrompt();

// One layer's compiled regular expressions. Throws dlab::Error with one sentence naming the
// layer, the pattern's number (1-based) and PCRE2's message with the offset; also for an empty
// pattern, more than kMaxPatterns or a pattern over kMaxPatternBytes.
class PatternList {
public:
    static constexpr int kMaxPatterns = 64;
    static constexpr int kMaxPatternBytes = 1000;

    PatternList(std::string layer, const std::vector<std::string>& patterns, bool caseInsensitive);
    ~PatternList();
    PatternList(const PatternList&) = delete;
    PatternList& operator=(const PatternList&) = delete;

    struct Match {
        int pattern = -1;              // 0-based
        size_t begin = 0, end = 0;     // byte offsets in the text
    };
    // The earliest match of any pattern in `text` (valid UTF-8; ties to the lower pattern number).
    // Throws dlab::Error naming the pattern when PCRE2 gives up (its match limit).
    std::optional<Match> firstMatch(std::string_view text) const;
    bool empty() const { return codes_.empty(); }
    int size() const { return int(codes_.size()); }

private:
    std::string layer_;
    std::vector<void*> codes_;   // pcre2_code_8*
    void* matchContext_ = nullptr;
};

struct SafetyRequest {
    std::string prompt;           // the user's message
    std::string system;           // chat only: a system message ("" = the template's own default)
    bool chat = true;             // through the model's chat template (chat_prompt.h)
    SafetyPolicy policy;
    SamplerParams sampler = greedySampler();
    int maxTokens = 96;
    int64_t contextLength = 0;    // 0 = defaultSessionContext
    static SamplerParams greedySampler() {
        SamplerParams p;
        p.temperature = 0.0f;
        return p;
    }
};

// A step counts as a banned-phrase intervention when the stage removed at least this much of the
// probability the model gave (1 %): tokens such as " killer" are forbidden at almost every step
// with a probability of 1e-9, which changes nothing anyone could see.
constexpr float kBannedPhraseNoticeMass = 0.01f;

// One generated token and what the layers did at its step.
struct SafetyStep {
    int step = 0;                  // StepTrace numbering: 0 = sampled from the prompt's logits
    TokenId token = -1;
    bool endOfGeneration = false;  // the token ended the reply (adds no text)
    float p = 0.0f;                // of the token in the final distribution
    size_t textBegin = 0, textEnd = 0;   // the text this step added to rawText (may be empty mid-character)
    // The banned-phrases stage at this step (from its StageSnapshot).
    int forbiddenCount = 0;        // candidates it removed
    float forbiddenMass = 0.0f;    // their probability in the distribution that entered it
    TokenId bestForbidden = -1;    // the most probable of them (-1: none)
    std::string bestForbiddenText; // its bytes
    float bestForbiddenP = 0.0f;
    bool greedyChoiceForbidden = false;   // that token was the most probable one: greedy would have picked it
    bool intervention() const { return forbiddenMass >= kBannedPhraseNoticeMass; }
};

struct SafetyEvent {
    SafetyLayer layer = SafetyLayer::InputFilter;
    int step = -1;                 // the step it acted at; -1 = before decoding (the input filter)
    int index = -1;                // the pattern's or phrase's number in its list (0-based)
    std::string matched;           // the text the pattern matched / the banned-phrases stage's best forbidden token
    size_t begin = 0, end = 0;     // of `matched`: in the prompt (input filter) or in rawText
    float p = 0.0f;                // banned phrases: the probability of the best forbidden token
    float mass = 0.0f;             // banned phrases: the probability removed
    int count = 0;                 // banned phrases: candidates removed
    std::string detail;            // one English sentence (the CLI prints it)
};

enum class SafetyLayerState { Off, NotReached, Passed, Acted };
const char* safetyLayerStateName(SafetyLayerState s);   // "off", "not reached", "passed", "acted"

struct SafetyLayerReport {
    SafetyLayer layer = SafetyLayer::InputFilter;
    SafetyLayerState state = SafetyLayerState::Off;
    int firstStep = -1;            // the first event's step (-1 before decoding or none)
    int events = 0;
};

struct SafetyRun {
    SafetyRequest request;
    std::string promptText;        // what the model read (the chat template filled in), empty when blocked
    int promptTokens = 0;
    bool blocked = false;          // the input filter stopped the request: nothing was decoded
    bool refused = false;          // a refusal pattern matched the reply
    bool cut = false;              // the output filter stopped the reply
    int cutStep = -1;
    size_t cutAt = 0;              // byte in rawText where the withheld part begins
    size_t streamedBeforeCut = 0;  // bytes of rawText sent before the cut step (a stream had shown them)
    std::string rawText;           // everything the model generated (up to the cut step)
    std::string shownText;         // what the user is finally shown: rawText up to cutAt (all of it without a cut)
    std::vector<SafetyStep> steps;
    std::vector<SafetyEvent> events;   // in the order they happened
    std::array<SafetyLayerReport, kSafetyLayers> layers;
    StopReason stop = StopReason::MaxTokens;
    double decodeMs = 0.0;
    const SafetyLayerReport& layer(SafetyLayer l) const { return layers[size_t(l)]; }
};

// The policy compiled for one model: throws dlab::Error for the first bad pattern or phrase.
struct CompiledSafetyPolicy {
    CompiledSafetyPolicy(const SafetyPolicy& policy, const Tokenizer& tok);
    std::unique_ptr<PatternList> input, output, refusal;
    std::shared_ptr<const BannedPhrases> banned;   // nullptr when there are no phrases
};

// Every pattern and phrase of the policy checked without a model: throws what
// CompiledSafetyPolicy would.
void checkSafetyPolicy(const SafetyPolicy& policy);

// Runs the request through the four layers on the model. Throws dlab::Error for a bad pattern or
// phrase (before anything runs), an empty or non-UTF-8 prompt, or one that does not fit the
// context. `cancel` is checked between steps (stop = Cancelled, what ran is kept); onStep sees
// each step as it is decided.
SafetyRun runSafetyPipeline(const Model& model, Backend& backend, const SafetyRequest& request,
                            const std::atomic<bool>* cancel = nullptr,
                            const std::function<void(const SafetyStep&)>& onStep = {});

// The layer reports of a run from its events (runSafetyPipeline fills them in; tests recompute).
std::array<SafetyLayerReport, kSafetyLayers> safetyLayerReports(const SafetyRun& run);

}  // namespace dlab
