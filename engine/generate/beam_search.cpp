#include "generate/beam_search.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "core/error.h"
#include "sampling/candidates.h"

namespace dlab {

const char* earlyStoppingName(EarlyStopping e) {
    switch (e) {
        case EarlyStopping::Exact: return "true";
        case EarlyStopping::Heuristic: return "false";
        case EarlyStopping::Never: return "never";
    }
    return "?";
}

EarlyStopping parseEarlyStopping(const std::string& s) {
    if (s == "true") return EarlyStopping::Exact;
    if (s == "false") return EarlyStopping::Heuristic;
    if (s == "never") return EarlyStopping::Never;
    throw Error("unknown early-stopping mode '" + s + "' (use true, false or never)");
}

const char* beamNodeStatusName(BeamNodeStatus s) {
    switch (s) {
        case BeamNodeStatus::Kept: return "kept";
        case BeamNodeStatus::Pruned: return "pruned";
        case BeamNodeStatus::Finished: return "finished";
        case BeamNodeStatus::Evicted: return "evicted";
    }
    return "?";
}

const char* beamStopName(BeamStop s) {
    switch (s) {
        case BeamStop::EarlyStop: return "early-stop";
        case BeamStop::MaxTokens: return "max-tokens";
        case BeamStop::NoRunningBeams: return "no-running-beams";
        case BeamStop::Cancelled: return "cancelled";
        case BeamStop::Callback: return "stopped";
    }
    return "?";
}

double beamScore(double logProb, int length, double lengthPenalty) {
    if (length <= 0) return logProb;
    return logProb / std::pow(static_cast<double>(length), lengthPenalty);
}

namespace {

void validate(const BeamOptions& o, const std::vector<TokenId>& prompt) {
    if (o.width < 1) throw Error("the beam width must be at least 1 (got " + std::to_string(o.width) + ")");
    if (o.maxNewTokens < 1)
        throw Error("beam search needs max new tokens >= 1 (got " + std::to_string(o.maxNewTokens) + ")");
    if (o.nBest < 0 || o.nBest > o.width)
        throw Error("the n-best count must be between 1 and the beam width " + std::to_string(o.width) + " (got " +
                    std::to_string(o.nBest) + ")");
    if (!std::isfinite(o.lengthPenalty)) throw Error("the length penalty must be a finite number");
    if (prompt.empty()) throw Error("the prompt is empty; give at least one token of text");
}

// log sum exp(logits) in double (log-probabilities are summed over many steps and compared
// across beams, so they get more precision than a float normaliser gives).
double logSumExp(std::span<const float> logits) {
    float m = -std::numeric_limits<float>::infinity();
    for (float x : logits) {
        if (std::isnan(x) || x == std::numeric_limits<float>::infinity())
            throw Error("the model produced a NaN or +inf logit; beam search cannot rank its tokens");
        m = std::max(m, x);
    }
    if (m == -std::numeric_limits<float>::infinity())
        throw Error("every logit is -inf, so no token can follow; check the model or the logits source");
    double s = 0.0;
    for (float x : logits) s += std::exp(static_cast<double>(x) - m);
    return m + std::log(s);
}

// A running beam: its last node and the scorer's sequence holding its tokens.
struct Beam {
    int node;
    int seq;
};

// One proposal of a step: parent beam `slot` extended by `token`.
struct Proposal {
    double cum;
    double logProb;
    int slot;
    TokenId token;
};

// Best first: higher cumulative log-probability, then lower parent slot, then lower token id.
bool proposalBefore(const Proposal& a, const Proposal& b) {
    if (a.cum != b.cum) return a.cum > b.cum;
    if (a.slot != b.slot) return a.slot < b.slot;
    return a.token < b.token;
}

// The step's proposals, unsorted: each beam's best 2k tokens, which hold every one of its
// proposals that can make the global best 2k.
void propose(BeamScorer& scorer, const std::vector<Beam>& beams, const std::vector<BeamNode>& nodes, size_t k,
             std::vector<Candidate>& vocab, std::vector<Candidate>& top, std::vector<Proposal>& proposals) {
    proposals.clear();
    for (size_t slot = 0; slot < beams.size(); ++slot) {
        const std::span<const float> logits = scorer.logits(beams[slot].seq);
        const double lse = logSumExp(logits);
        vocab.resize(logits.size());
        for (size_t i = 0; i < logits.size(); ++i) vocab[i] = Candidate{static_cast<TokenId>(i), logits[i], 0.0f};
        selectTop(vocab.data(), vocab.size(), 2 * k, top);
        const double base = nodes[beams[slot].node].cumLogProb;
        for (const Candidate& c : top) {
            if (!std::isfinite(c.logit)) continue;
            const double lp = static_cast<double>(c.logit) - lse;
            proposals.push_back(Proposal{base + lp, lp, static_cast<int>(slot), c.id});
        }
    }
}

// Releases every scorer sequence still alive when the search ends, also on an exception.
class LiveSequences {
public:
    explicit LiveSequences(BeamScorer& s) : scorer_(s) {}
    ~LiveSequences() {
        for (int seq : live_) {
            try {
                scorer_.release(seq);
            } catch (...) {  // a destructor must not throw; the scorer reports its own trouble elsewhere
            }
        }
    }
    int add(int seq) { live_.insert(seq); return seq; }
    void release(int seq) { live_.erase(seq); scorer_.release(seq); }

private:
    BeamScorer& scorer_;
    std::set<int> live_;
};

// The heap of the k best finished hypotheses (k is small: a linear scan finds the worst).
class FinishedSet {
public:
    FinishedSet(std::vector<BeamNode>& nodes, size_t k) : nodes_(nodes), k_(k) {}
    void offer(int node) {
        if (ids_.size() < k_) {
            ids_.push_back(node);
            nodes_[node].status = BeamNodeStatus::Finished;
            return;
        }
        const size_t w = worstIndex();
        if (nodes_[node].score > nodes_[ids_[w]].score) {
            nodes_[ids_[w]].status = BeamNodeStatus::Evicted;
            ids_[w] = node;
            nodes_[node].status = BeamNodeStatus::Finished;
        } else {
            nodes_[node].status = BeamNodeStatus::Evicted;
        }
    }
    bool full() const { return ids_.size() >= k_; }
    double worstScore() const { return nodes_[ids_[worstIndex()]].score; }
    // Best score first, ties to the earlier node.
    std::vector<int> ranked() const {
        std::vector<int> r(ids_);
        std::sort(r.begin(), r.end(), [&](int a, int b) {
            return nodes_[a].score != nodes_[b].score ? nodes_[a].score > nodes_[b].score : a < b;
        });
        return r;
    }

private:
    // Lowest score; among equals the latest node.
    size_t worstIndex() const {
        size_t w = 0;
        for (size_t i = 1; i < ids_.size(); ++i) {
            const BeamNode& a = nodes_[ids_[i]];
            const BeamNode& b = nodes_[ids_[w]];
            if (a.score < b.score || (a.score == b.score && a.id > b.id)) w = i;
        }
        return w;
    }
    std::vector<BeamNode>& nodes_;
    size_t k_;
    std::vector<int> ids_;
};

// Can a running beam still beat the worst finished hypothesis? (HF's is_done, negated.)
bool improvementPossible(double bestRunningCum, int depth, const BeamOptions& o, double worstFinished) {
    double bound = 0.0;
    switch (o.earlyStopping) {
        case EarlyStopping::Exact: return false;
        case EarlyStopping::Heuristic: bound = beamScore(bestRunningCum, depth, o.lengthPenalty); break;
        case EarlyStopping::Never:
            // Log-probabilities only fall, so with alpha > 0 the best a beam can reach is its sum
            // so far spread over the longest length; with alpha <= 0, over the current one.
            bound = beamScore(bestRunningCum, o.lengthPenalty > 0.0 ? o.maxNewTokens : depth, o.lengthPenalty);
            break;
    }
    return bound > worstFinished;
}

}  // namespace

BeamResult beamSearch(BeamScorer& scorer, const std::vector<TokenId>& prompt, const BeamOptions& options,
                      const BeamStepCallback& onStep, const std::atomic<bool>* cancel) {
    validate(options, prompt);
    const size_t k = static_cast<size_t>(options.width);
    const size_t nBest = options.nBest > 0 ? static_cast<size_t>(options.nBest) : k;
    std::vector<TokenId> endTokens(options.endTokens);
    std::sort(endTokens.begin(), endTokens.end());
    auto isEnd = [&](TokenId t) { return std::binary_search(endTokens.begin(), endTokens.end(), t); };

    BeamResult r;
    std::vector<BeamNode>& nodes = r.tree.nodes;
    nodes.push_back(BeamNode{});
    nodes[0].beamSlot = 0;
    FinishedSet finished(nodes, k);
    LiveSequences live(scorer);
    std::vector<Beam> beams{{0, live.add(scorer.newSequence(prompt))}};

    std::vector<Candidate> vocab, top;
    std::vector<Proposal> proposals;
    bool stoppedEarly = false;  // cancel or callback: the running beams join the finished ones
    r.stop = BeamStop::MaxTokens;
    for (int depth = 1; depth <= options.maxNewTokens; ++depth) {
        if (cancel && cancel->load()) { r.stop = BeamStop::Cancelled; stoppedEarly = true; break; }

        // A scorer that runs a model may throw Cancelled mid-step; nothing has changed yet then.
        try {
            propose(scorer, beams, nodes, k, vocab, top, proposals);
        } catch (const Cancelled&) {
            r.stop = BeamStop::Cancelled;
            stoppedEarly = true;
            break;
        }
        std::sort(proposals.begin(), proposals.end(), proposalBefore);
        if (proposals.size() > 2 * k) proposals.resize(2 * k);

        // Walk the candidates best first: finish, keep or prune each.
        const bool last = depth == options.maxNewTokens;
        std::vector<Beam> next;  // seq filled in below
        std::vector<int> nextParentSlot;
        for (size_t rank = 0; rank < proposals.size(); ++rank) {
            const Proposal& p = proposals[rank];
            BeamNode n;
            n.id = static_cast<int>(nodes.size());
            n.parent = beams[p.slot].node;
            n.depth = depth;
            n.token = p.token;
            n.logProb = p.logProb;
            n.cumLogProb = p.cum;
            n.score = beamScore(p.cum, depth, options.lengthPenalty);
            n.status = BeamNodeStatus::Pruned;
            n.endToken = isEnd(p.token);
            n.candidateRank = static_cast<int>(rank);
            nodes.push_back(n);
            if ((n.endToken || last) && rank < k) {
                finished.offer(n.id);
            } else if (!n.endToken && !last && next.size() < k) {
                nodes[n.id].status = BeamNodeStatus::Kept;
                nodes[n.id].beamSlot = static_cast<int>(next.size());
                next.push_back(Beam{n.id, -1});
                nextParentSlot.push_back(p.slot);
            }
        }

        // Move the scorer's sequences along: a parent's last child takes over its sequence, the
        // others fork it first, and parents without children are released.
        std::vector<int> lastChild(beams.size(), -1);
        for (size_t i = 0; i < next.size(); ++i) lastChild[nextParentSlot[i]] = static_cast<int>(i);
        for (size_t slot = 0; slot < beams.size(); ++slot)
            if (lastChild[slot] < 0) live.release(beams[slot].seq);
        for (size_t i = 0; i < next.size(); ++i) {
            const int parentSeq = beams[nextParentSlot[i]].seq;
            next[i].seq = lastChild[nextParentSlot[i]] == static_cast<int>(i) ? parentSeq : live.add(scorer.fork(parentSeq));
        }
        for (const Beam& b : next) scorer.append(b.seq, nodes[b.node].token);
        beams = std::move(next);
        r.steps = depth;

        if (onStep && !onStep(r.tree, depth)) { r.stop = BeamStop::Callback; stoppedEarly = true; break; }
        if (beams.empty()) { r.stop = last ? BeamStop::MaxTokens : BeamStop::NoRunningBeams; break; }
        if (finished.full() &&
            !improvementPossible(nodes[beams[0].node].cumLogProb, depth, options, finished.worstScore())) {
            r.stop = BeamStop::EarlyStop;
            break;
        }
    }
    if (stoppedEarly)
        for (const Beam& b : beams) finished.offer(b.node);

    const std::vector<int> ranked = finished.ranked();
    for (size_t i = 0; i < ranked.size() && i < nBest; ++i) {
        BeamNode& leaf = nodes[ranked[i]];
        leaf.nBestRank = static_cast<int>(i);
        BeamHypothesis h;
        h.ended = leaf.endToken;
        h.logProb = leaf.cumLogProb;
        h.score = leaf.score;
        h.node = leaf.id;
        for (int at = leaf.endToken ? leaf.parent : leaf.id; at > 0; at = nodes[at].parent) h.tokens.push_back(nodes[at].token);
        std::reverse(h.tokens.begin(), h.tokens.end());
        r.hypotheses.push_back(std::move(h));
    }
    return r;
}

}  // namespace dlab
