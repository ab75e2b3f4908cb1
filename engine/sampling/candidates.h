#pragma once
// The working set that every sampler stage reads and edits (llama.cpp's llama_token_data_array):
// the surviving candidates of one step, flags that let later stages skip work, and the step's
// random state; plus History, what the penalties look at.
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "sampling/rng.h"
#include "tokenizer/tokenizer.h"

namespace dlab {

struct Candidate {
    TokenId id;
    float logit;  // after the stages applied so far; -inf = removed
    float p;      // softmax over the survivors, valid where a stage or snapshot says so
    bool operator==(const Candidate&) const = default;   // exact (a saved session reads back equal)
};

// "a beats b": higher logit first, ties to the lower id. A strict total order, so every selection
// (top-k, snapshots, the draw) is the same on every run and every platform.
inline bool ranksAbove(const Candidate& a, const Candidate& b) {
    return a.logit > b.logit || (a.logit == b.logit && a.id < b.id);
}

// What came before this step. Repetition, no-repeat-n-gram and DRY look at all of `tokens`
// (prompt + generated, as Hugging Face and llama.cpp do); frequency and presence penalties only
// at the generated part (OpenAI's definition).
struct History {
    std::span<const TokenId> tokens;  // (n_prompt + n_generated), oldest first
    size_t promptLength = 0;          // how many of `tokens` are the prompt

    std::span<const TokenId> generated() const {
        return promptLength >= tokens.size() ? std::span<const TokenId>() : tokens.subspan(promptLength);
    }
};

// Everything random or adaptive that carries from one step to the next. Copy it before a step to
// re-run that step later with other settings (the GUI's sliders): the result depends only on the
// logits, the history, the settings and this state.
struct SamplerState {
    explicit SamplerState(uint64_t seed = 0) : rng(seed) {}
    SamplingRng rng;
    float mirostatMu = std::numeric_limits<float>::quiet_NaN();  // NaN: not started (Mirostat sets 2·tau)
};

class CandidateArray {
public:
    // The full vocabulary in id order (the caller has rejected NaN and +inf logits).
    void reset(std::span<const float> logits, SamplerState* state);

    size_t size() const { return items_.size(); }
    bool empty() const { return items_.empty(); }
    Candidate& operator[](size_t i) { return items_[i]; }
    const Candidate& operator[](size_t i) const { return items_[i]; }
    Candidate* begin() { return items_.data(); }
    Candidate* end() { return items_.data() + items_.size(); }
    const Candidate* begin() const { return items_.data(); }
    const Candidate* end() const { return items_.data() + items_.size(); }

    // Flags (cleared by the mutators below).
    bool sorted() const { return sortedPrefix_ == items_.size(); }  // whole array ordered by ranksAbove
    // items [0, sortedPrefix) are the best of the array, in order (everything after ranks below).
    size_t sortedPrefix() const { return sortedPrefix_; }
    bool identity() const { return identity_; }                      // items[i].id == i, full vocabulary
    bool probsValid() const { return probsValid_; }                  // p = softmax over survivors
    bool changed() const { return changed_; }
    void clearChanged() { changed_ = false; }
    void markChanged() { changed_ = true; }

    // A stage that edited logits in place calls this.
    void logitsChanged() { sortedPrefix_ = 0; probsValid_ = false; changed_ = true; }
    // A stage that reordered items (same set, same logits) calls this.
    void orderChanged() { sortedPrefix_ = 0; identity_ = false; }
    // Keep items [0, n).
    void truncate(size_t n);
    // Drop items [0, k) (XTC removes the top choices).
    void dropFront(size_t k);
    // Keep the items for which keep(c) holds, in their current order.
    template <typename Keep>
    void filter(Keep keep) {
        size_t w = 0, prefix = 0;
        bool droppedFinite = false;  // dropping only -inf items leaves the distribution as it was
        for (size_t r = 0; r < items_.size(); ++r) {
            if (keep(items_[r])) {
                if (r < sortedPrefix_) ++prefix;
                items_[w++] = items_[r];
            } else {
                droppedFinite = droppedFinite || items_[r].logit != -std::numeric_limits<float>::infinity();
            }
        }
        if (w == items_.size()) return;
        // Kept items keep their order, so the kept part of a sorted prefix is still the best, in order.
        sortedPrefix_ = prefix;
        identity_ = false;
        probsValid_ = false;
        changed_ = changed_ || droppedFinite;
        items_.resize(w);
    }

    // Makes items [0, k) the k best (by ranksAbove) in order, keeping the rest behind them. Uses a
    // bounded selection when k is small, so a 150k vocabulary is never fully sorted to find 40.
    void sortTop(size_t k);
    // Keeps only the k best, in order.
    void keepTop(size_t k);
    // Writes p = softmax over the finite survivors; returns the log of the normaliser (logsumexp).
    double softmax();
    // The largest finite logit (-inf when none).
    float maxLogit() const;

    void setProbsValid() { probsValid_ = true; }
    SamplerState& state() { return *state_; }
    SamplingRng& rng() { return state_->rng; }
    int vocabSize() const { return vocab_; }

private:
    std::vector<Candidate> items_;
    std::vector<Candidate> scratch_;
    size_t sortedPrefix_ = 0;
    bool identity_ = false;
    bool probsValid_ = false;
    bool changed_ = false;
    int vocab_ = 0;
    SamplerState* state_ = nullptr;
};

// The k best of [first, first + n) by ranksAbove, best first, into `out` (a bounded heap: one pass,
// O(n + k log k) for the usual case).
void selectTop(const Candidate* first, size_t n, size_t k, std::vector<Candidate>& out);

}  // namespace dlab
