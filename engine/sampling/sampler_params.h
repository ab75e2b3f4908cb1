#pragma once
// Every sampler setting in one plain struct. Each stage is off at its neutral value, so the
// defaults are exactly the classic temperature / top-k / top-p sampler.
// The first four fields stay first: SamplerParams{temperature, topK, topP, seed} is used widely.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tokenizer/tokenizer.h"

namespace dlab {

class Constraint;     // grammar/constraint.h: a compiled grammar or JSON Schema for one vocabulary
class BannedPhrases;  // safety/banned_phrases.h: phrases no output may contain

struct SamplerParams {
    float temperature = 0.8f;  // [0, 100]; 0 = greedy (exact argmax, ties to the lowest id)
    int topK = 40;             // 0 = off
    float topP = 0.95f;        // (0, 1]; 1 = off
    uint64_t seed = 0;

    float minP = 0.0f;      // [0, 1]; keep p >= minP * p_max; 0 = off
    float typicalP = 1.0f;  // (0, 1]; 1 = off

    float repeatPenalty = 1.0f;     // (0, 10]; 1 = off (CTRL / Hugging Face: positive logits / r, negative * r)
    float frequencyPenalty = 0.0f;  // [-2, 2]; OpenAI: logit -= count * f
    float presencePenalty = 0.0f;   // [-2, 2]; OpenAI: logit -= (count > 0) * p
    int penaltyLastN = 64;          // tokens looked back at by the three penalties; -1 = all, 0 = penalties off
    int noRepeatNgram = 0;          // n >= 1 bans any token that would repeat an n-gram; 0 = off
    std::vector<std::pair<TokenId, float>> logitBias;  // added to the logit; -inf bans the token

    // DRY ("don't repeat yourself"), as llama.cpp defines it.
    float dryMultiplier = 0.0f;  // >= 0; 0 = off
    float dryBase = 1.75f;       // >= 1
    int dryAllowedLength = 2;    // >= 0: repeats up to this length are free
    int dryPenaltyLastN = -1;    // -1 = whole history, 0 = off
    // Sequence breakers as token sequences: a head token and the tokens that must precede it
    // (most are single tokens). See dryBreakersFromStrings().
    std::vector<std::vector<TokenId>> dryBreakers;

    // XTC ("exclude top choices"), as llama.cpp defines it.
    float xtcProbability = 0.0f;  // [0, 1]; 0 = off
    float xtcThreshold = 0.1f;    // (0, 1]; above 0.5 it can never remove anything

    float topNSigma = 0.0f;  // >= 0; keep logits >= max - n * sigma; 0 = off

    // Mirostat (stage "mirostat" = llama.cpp's mirostat-v2, stage "mirostat-v1" = its mirostat):
    // target surprise tau (bits) and learning rate eta, shared by both versions.
    float mirostatTau = 0.0f;  // >= 0; 0 = off
    float mirostatEta = 0.1f;  // (0, 1]
    // Mirostat 1 only: how many of the most probable tokens estimate the Zipf exponent s_hat
    // (llama.cpp's m; 100 in llama.cpp and the paper). [1, 2^24]; more than the candidates left
    // uses all of them; 1 leaves no probability ratio to fit, so Mirostat 1 keeps one token.
    int mirostatM = 100;

    // "hf", "llama.cpp", "mirostat", "mirostat-v1", or a comma list of stage names (see stageOrderHelp()).
    std::string order = "hf";

    // Constrained decoding. When set, the chain runs stage "grammar" first (unless `order` places
    // it): only tokens that keep the generated text a valid prefix of the grammar survive, and
    // end-of-generation only where the grammar accepts. Shared, immutable to its users; compared
    // by identity.
    std::shared_ptr<const Constraint> constraint;
    // Phrases the output may never contain, however they are tokenized (stage "banned-phrases",
    // run right after "grammar" unless `order` places it).
    std::shared_ptr<const BannedPhrases> bannedPhrases;

    // Throws dlab::Error naming the option and its valid range.
    void validate() const;
    bool operator==(const SamplerParams&) const = default;
};

// The stage names of an order, with "penalties" expanded. Throws for an unknown name or order.
std::vector<std::string> resolveStageOrder(const std::string& order);
// One paragraph listing the named orders and the stage names, for --help texts and errors.
std::string stageOrderHelp();

}  // namespace dlab
