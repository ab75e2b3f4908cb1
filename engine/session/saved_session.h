#pragma once
// A recorded session as plain values: what a page generated, step by step, with everything its
// views read, so the session can be replayed without the model (session_file.h writes and reads
// it; docs/trace-format.md, "Session file", has the JSON). Every number a replay shows comes from
// here: the traces, the raw logits the views read and the token pieces that label them.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <optional>

#include "generate/step_trace.h"
#include "grammar/constraint.h"
#include "sampling/sampler_params.h"

namespace dlab {

inline constexpr const char* kSessionFormat = "decoding-lab-session";
inline constexpr int kSessionVersion = 1;
// Raw logits kept per step: the best this many by raw logit (at least every chart bar the views
// can ask for) plus the raw logit of every candidate the last stage lists.
inline constexpr int kSavedRawLogits = 64;

// A token as a replay labels it: it has no tokenizer, only these pieces.
struct SavedToken {
    TokenId id = 0;
    std::string piece;       // tokenToPiece(id, false): the bytes it adds to the text (may end mid-character)
    std::string rendered;    // tokenToPiece(id, true): its label (control tokens by name)
    bool control = false;    // TokenType::Control
    bool endOfGeneration = false;
    bool operator==(const SavedToken&) const = default;
};

// The pieces and kind of `id` as `tok` has them.
SavedToken savedToken(const Tokenizer& tok, TokenId id);

struct TokenLogit {
    TokenId id = 0;
    float logit = 0.0f;      // raw, before any stage; -inf allowed
    bool operator==(const TokenLogit&) const = default;
};

// One step as recorded: its trace and what its views read beyond it.
struct SavedStep {
    StepTrace trace;
    SamplerParams sampler;               // the settings it was drawn with (a forced step: those its probabilities are under)
    std::vector<TokenLogit> rawLogits;   // see savedRawLogits()
    bool forced = false;                 // a branch put the token here; it was not sampled
    // The grammar it was drawn under (sampler.constraint's spec): written with the step, read back
    // here; the reader has no vocabulary to compile it, whoever replays the step does.
    std::optional<ConstraintSpec> constraint;
    bool operator==(const SavedStep&) const = default;
};

// The raw logits a step's views read, from the step's full logits (nVocab): the best
// kSavedRawLogits by raw logit (ties to the lower id, as the views rank them) and then each
// candidate of the last stage not among them, in the last stage's order.
std::vector<TokenLogit> savedRawLogits(std::span<const float> logits, const std::vector<StageSnapshot>& stages);

// The step's logits as a replay sees them: raw.vocab entries, the saved ones at their ids and
// -inf elsewhere. The best n by logit (n <= kSavedRawLogits) are the recorded step's best n.
std::vector<float> replayLogits(const SavedStep& step);

struct SavedBranch {
    int id = 0;
    int parent = -1;                     // -1: the first branch
    int forkStep = -1;                   // the parent's step it replaced; -1 for the first branch
    std::vector<SavedStep> steps;        // every step of the branch, those shared with the parent included
    bool operator==(const SavedBranch&) const = default;
};

// The model the session was recorded on (a replay needs none; these say which it was).
struct SavedModel {
    std::string name;                    // as the user knows it (the file name)
    std::string arch;                    // "llama", "qwen2", "gpt2"
    int64_t vocab = 0;                   // logits per step; every token id is below it
    TokenId bos = -1;                    // -1: none
    bool operator==(const SavedModel&) const = default;
};

struct SavedSession {
    std::string format = kSessionFormat;
    int version = kSessionVersion;
    std::string page = "playground";     // the page that recorded it (Page::pageId)
    SavedModel model;
    std::string prompt;
    std::vector<TokenId> promptTokens;   // as the model saw it (BOS included)
    SamplerParams sampler;               // the page's settings when it was saved
    std::vector<SavedBranch> branches;   // at least one
    int currentBranch = 0;               // the id of the branch the page showed
    std::vector<SavedToken> tokens;      // every id the session shows, ascending, once each
    std::string pagePayload = "{}";      // a JSON object as text: what else the page keeps
    bool operator==(const SavedSession&) const = default;

    const SavedBranch* branch(int id) const;   // nullptr if there is none with that id
};

// Every token id the session shows, ascending, once each: the prompt, the chosen tokens, the
// stages' candidates and the raw logits' ids (what `tokens` must label).
std::vector<TokenId> shownTokenIds(const SavedSession& session);

}  // namespace dlab
