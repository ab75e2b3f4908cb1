#pragma once
// One generation step as plain values: what the model saw, what the sampler chain did stage by
// stage, what was chosen, how the KV cache stood and what it cost. The CLI writes one JSON object
// per line (JSONL, schema in docs/trace-format.md); the GUI receives the same struct by signal.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sampling/snapshot.h"
#include "tokenizer/tokenizer.h"

namespace dlab {

struct KvStats;
struct AttentionWeights;

enum class Phase { Prefill, Decode };
const char* phaseName(Phase p);  // "prefill" | "decode"

// The KV cache after the step, as the trace reports it. The caller fills it (kvTraceStats()
// converts the paged pool's KvStats), so traces do not depend on how the cache is built.
struct KvTraceStats {
    int64_t positions = 0;       // cached positions of the traced sequence
    int64_t blocksUsed = 0;      // blocks referenced by any sequence
    int64_t blocksFree = 0;
    int64_t blocksShared = 0;    // referenced by more than one sequence
    int64_t bytesInUse = 0;      // K and V of the blocks in use, all layers
    int64_t bytesSaved = 0;      // what private copies of the shared blocks would add
    bool operator==(const KvTraceStats&) const = default;
};

// On request (GenerateOptions::traceAttention): what the step's forward pass attended to and how
// the pool's blocks stood afterwards.
struct StepAttention {
    int64_t nLayer = 0, nHeadKv = 0, nSlots = 0;
    std::vector<float> perKvGroup;   // (nLayer, nHeadKv, slots) weights averaged over each group's query heads
    struct Block {
        int32_t block = 0;
        int64_t filled = 0;          // positions holding data
        std::vector<int32_t> sequences;  // who references it (refcount = size)
        bool operator==(const Block&) const = default;
    };
    std::vector<Block> blocks;       // blocks in use, by index
    bool empty() const { return perKvGroup.empty(); }
    bool operator==(const StepAttention&) const = default;
};

struct StepTrace {
    int step = 0;                // 0 = prefill, then 1, 2, ... per generated token
    int seq = 0;                 // which sequence (beam, branch); 0 for single-sequence runs
    int64_t pos = 0;             // position of the chosen token (= positions cached before it)
    Phase phase = Phase::Decode;
    int evaluated = 0;           // tokens this step's forward pass evaluated (prefill: the prompt; decode: 1)
    TokenId chosen = -1;
    std::string text;            // the chosen token's bytes (may be part of a UTF-8 character)
    float chosenProbability = 0.0f;  // in the final distribution
    LogitSummary raw;            // the logits before any stage
    std::vector<StageSnapshot> stages;
    KvTraceStats kv;
    StepAttention attention;     // empty unless requested
    double forwardMs = 0.0;      // the forward pass that produced these logits
    double sampleMs = 0.0;       // the sampler chain and the draw
    // Exact, field by field (NaN never equals): a saved session's steps read back equal.
    bool operator==(const StepTrace&) const = default;
};

// Text of a token for candidate lists; empty function = candidates carry ids only.
using TokenText = std::function<std::string(TokenId)>;

// One StepTrace as one JSON object on one line, no trailing newline. Non-finite numbers are
// written as null; text that is not valid UTF-8 is written with U+FFFD in its place, and the raw
// bytes are always in "bytes" (hex). With tokenText, every snapshot candidate gets a "text" too.
std::string stepTraceJson(const StepTrace& trace, const TokenText& tokenText = {});

// The recorded weights (grouped by KV head) and the pool's blocks, in trace form.
StepAttention stepAttention(const AttentionWeights& weights, const KvStats& stats);

// The pool's statistics in trace form, for sequence `positions` long.
KvTraceStats kvTraceStats(const KvStats& stats, int64_t positions);

}  // namespace dlab
