#include "generate/model_beam_scorer.h"

#include <algorithm>
#include <string>

#include "core/error.h"

namespace dlab {

ModelBeamScorer::ModelBeamScorer(Backend& backend, KvBlockPool& pool) : backend_(backend), pool_(pool) {}

ModelBeamScorer::ModelBeamScorer(Backend& backend, KvBlockPool& pool, SeqId root, std::vector<float> rootLogits,
                                 std::function<void()> afterForward)
    : backend_(backend), pool_(pool), afterForward_(std::move(afterForward)), hasRoot_(true), next_(1) {
    Seq s;
    s.kv = root;
    s.logits = std::move(rootLogits);
    seqs_.emplace(0, std::move(s));
}

ModelBeamScorer::~ModelBeamScorer() {
    for (auto& [id, s] : seqs_)
        if (pool_.contains(s.kv)) pool_.freeSequence(s.kv);
}

ModelBeamScorer::Seq& ModelBeamScorer::at(int seq) {
    auto it = seqs_.find(seq);
    if (it == seqs_.end()) throw Error("beam search used sequence " + std::to_string(seq) + " after releasing it (a bug in the caller)");
    return it->second;
}

const ModelBeamScorer::Seq& ModelBeamScorer::at(int seq) const { return const_cast<ModelBeamScorer*>(this)->at(seq); }

int ModelBeamScorer::newSequence(const std::vector<TokenId>& prompt) {
    if (prompt.empty()) throw Error("the prompt is empty; give at least one token of text");
    if (hasRoot_) {
        if (rootTaken_ || !seqs_.count(0)) throw Error("a prefilled beam scorer runs one search; make a new scorer for the next");
        if (prompt != pool_.tokens(seqs_.at(0).kv))
            throw Error("beam search was given a prompt other than the one evaluated in the shared KV sequence (a bug in the caller)");
        rootTaken_ = true;
        return 0;
    }
    Seq s;
    s.kv = pool_.newSequence();
    s.pending = prompt;
    seqs_.emplace(next_, std::move(s));
    return next_++;
}

int ModelBeamScorer::fork(int seq) {
    const Seq& parent = at(seq);
    Seq child;
    child.kv = pool_.fork(parent.kv, pool_.length(parent.kv));  // shares every block, copies none
    child.pending = parent.pending;
    child.logits = parent.logits;
    seqs_.emplace(next_, std::move(child));
    return next_++;
}

void ModelBeamScorer::append(int seq, TokenId token) { at(seq).pending.push_back(token); }

void ModelBeamScorer::release(int seq) {
    auto it = seqs_.find(seq);
    if (it == seqs_.end()) return;
    pool_.freeSequence(it->second.kv);
    seqs_.erase(it);
}

std::span<const float> ModelBeamScorer::logits(int seq) {
    Seq& s = at(seq);
    if (!s.pending.empty()) {
        const std::span<const float> out = backend_.forward(s.pending, pool_, s.kv, false);
        ++forwardCalls_;
        tokensEvaluated_ += static_cast<int64_t>(s.pending.size());
        s.logits.assign(out.begin(), out.end());
        s.pending.clear();
        if (afterForward_) afterForward_();
    }
    return s.logits;
}

void ModelBeamScorer::prefetch(std::span<const int> seqs) {
    if (!batched_) return;
    std::vector<Seq*> todo;
    std::vector<Backend::BatchItem> items;
    int64_t tokens = 0;
    for (int seq : seqs) {
        Seq& s = at(seq);
        if (s.pending.empty() || std::find(todo.begin(), todo.end(), &s) != todo.end()) continue;
        todo.push_back(&s);
        items.push_back(Backend::BatchItem{s.kv, s.pending, false});
        tokens += static_cast<int64_t>(s.pending.size());
    }
    if (items.empty()) return;
    const std::vector<std::span<const float>> out = backend_.forwardBatch(items, pool_);  // throws changing nothing
    ++forwardCalls_;
    tokensEvaluated_ += tokens;
    for (size_t i = 0; i < todo.size(); ++i) {
        todo[i]->logits.assign(out[i].begin(), out[i].end());
        todo[i]->pending.clear();
    }
    if (afterForward_) afterForward_();
}

std::vector<int32_t> ModelBeamScorer::kvBlocks(int seq) const {
    const std::span<const int32_t> table = pool_.blockTable(at(seq).kv);
    return {table.begin(), table.end()};
}

SeqId ModelBeamScorer::kvSequence(int seq) const { return at(seq).kv; }

std::vector<SeqId> ModelBeamScorer::kvSequences() const {
    std::vector<SeqId> ids;
    for (const auto& [id, s] : seqs_) ids.push_back(s.kv);
    return ids;
}

int64_t beamPoolBlocks(int64_t promptTokens, int maxNewTokens, int width, int64_t blockSize) {
    const int64_t perBeam = KvBlockPool::blocksFor(maxNewTokens, blockSize) + 1;
    return KvBlockPool::blocksFor(promptTokens, blockSize) + static_cast<int64_t>(width) * perBeam;
}

BeamResult beamSearchModel(const Model& model, Backend& backend, const std::vector<TokenId>& prompt,
                           const BeamOptions& options, KvType kvType, int64_t contextLimit,
                           const BeamStepCallback& onStep, const std::atomic<bool>* cancel) {
    const int64_t need = static_cast<int64_t>(prompt.size()) + options.maxNewTokens;
    if (need > contextLimit)
        throw Error("the prompt (" + std::to_string(prompt.size()) + " tokens) plus " + std::to_string(options.maxNewTokens) +
                    " new tokens need " + std::to_string(need) + " positions but the context holds " +
                    std::to_string(contextLimit) + " (raise --ctx, shorten the prompt or lower --max-tokens)");
    constexpr int64_t kBlockSize = 16;
    KvBlockPool pool(model.hparams(),
                     beamPoolBlocks(static_cast<int64_t>(prompt.size()), std::max(options.maxNewTokens, 1),
                                    std::max(options.width, 1), kBlockSize),
                     kvType, kBlockSize);
    pool.setContextLimit(contextLimit);
    ModelBeamScorer scorer(backend, pool);
    const ScopedCancelFlag flag(backend, cancel);
    return beamSearch(scorer, prompt, options, onStep, cancel);
}

std::vector<TokenId> endOfGenerationTokens(const Tokenizer& tokenizer) {
    std::vector<TokenId> out;
    for (TokenId id = 0; id < tokenizer.vocabSize(); ++id)
        if (tokenizer.isEndOfGeneration(id)) out.push_back(id);
    return out;
}

}  // namespace dlab
