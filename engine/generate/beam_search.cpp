#include "generate/beam_search.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "core/error.h"
#include "generate/beam_processors.h"
#include "sampling/candidates.h"
#include "sampling/stage.h"

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

void BeamOptions::validate() const {
    if (width < 1) throw Error("the beam width must be at least 1 (got " + std::to_string(width) + ")");
    if (maxNewTokens < 1)
        throw Error("beam search needs max new tokens >= 1 (got " + std::to_string(maxNewTokens) + ")");
    if (nBest < 0 || nBest > width)
        throw Error("the n-best count must be between 1 and the beam width " + std::to_string(width) + " (got " +
                    std::to_string(nBest) + ")");
    if (!std::isfinite(lengthPenalty)) throw Error("the length penalty must be a finite number");
    if (groups < 1) throw Error("the number of beam groups must be at least 1 (got " + std::to_string(groups) + ")");
    if (width % groups != 0)
        throw Error("the beam width " + std::to_string(width) + " is not divisible by the " + std::to_string(groups) +
                    " beam groups; each group keeps width / groups beams, so use a width that is a multiple of " +
                    std::to_string(groups));
    if (!(diversityPenalty >= 0.0) || !std::isfinite(diversityPenalty))
        throw Error("the diversity penalty must be 0 (off) or a positive number (got " + std::to_string(diversityPenalty) + ")");
    if (diversityPenalty > 0.0 && groups < 2)
        throw Error("a diversity penalty needs at least 2 beam groups (with one group there is no earlier group to "
                    "differ from); set the groups to 2 or more, or the penalty to 0");
    if (!(repeatPenalty > 0.0f && repeatPenalty <= 10.0f))
        throw Error("the beam repetition penalty must be greater than 0 and at most 10 (1 = off; got " +
                    std::to_string(repeatPenalty) + ")");
    if (noRepeatNgram < 0)
        throw Error("the beam no-repeat-n-gram size must be 0 (off) or at least 1 (got " + std::to_string(noRepeatNgram) + ")");
    if (recordTopN < 0)
        throw Error("the recorded next-token count must be 0 (off) or more (got " + std::to_string(recordTopN) + ")");
}

namespace {

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

// One proposal of a step: parent beam `slot` (in its group) extended by `token`.
struct Proposal {
    double cum;     // the parent's cumSearchLogProb + search
    double logProb; // the model's log p(token)
    double search;  // after the processors
    double penalty; // the diversity processor's part
    int slot;
    TokenId token;
};

// Best first: higher cumulative log-probability, then lower parent slot, then lower token id.
bool proposalBefore(const Proposal& a, const Proposal& b) {
    if (a.cum != b.cum) return a.cum > b.cum;
    if (a.slot != b.slot) return a.slot < b.slot;
    return a.token < b.token;
}

// The proposals of one group's beams, unsorted: each beam's best 2k tokens (k = the group's
// width), which hold every one of its proposals that can make the group's best 2k. Evaluating a
// beam's sequence also records its node's detail (BeamNode::evaluated, next, kvBlocks).
class Proposer {
public:
    Proposer(BeamScorer& scorer, const BeamOptions& o, const std::vector<TokenId>& prompt)
        : scorer_(scorer), o_(o), prompt_(prompt), processors_(o) {
        processors_.setPromptLength(prompt.size());
    }

    void propose(const std::vector<Beam>& beams, std::vector<BeamNode>& nodes, size_t k,
                 const std::vector<TokenCount>& chosen, std::vector<Proposal>& proposals) {
        proposals.clear();
        const bool processed = processors_.active(chosen);
        for (size_t slot = 0; slot < beams.size(); ++slot) {
            const std::span<const float> logits = scorer_.logits(beams[slot].seq);
            const double lse = logSumExp(logits);
            BeamNode& parent = nodes[beams[slot].node];
            if (!parent.evaluated) record(parent, beams[slot].seq, logits, lse);
            const double base = parent.cumSearchLogProb;
            if (!processed) {
                fillVocab(logits);
                selectTop(vocab_.data(), vocab_.size(), 2 * k, top_);
                for (const Candidate& c : top_) {
                    if (!std::isfinite(c.logit)) continue;
                    const double lp = static_cast<double>(c.logit) - lse;
                    proposals.push_back(Proposal{base + lp, lp, lp, 0.0, static_cast<int>(slot), c.id});
                }
                continue;
            }
            if (processors_.needsHistory()) historyOf(nodes, beams[slot].node);
            processors_.apply(logits, lse, chosen, history_, scores_);
            for (TokenId id : topByScore(2 * k)) {
                const double lp = static_cast<double>(logits[static_cast<size_t>(id)]) - lse;
                const double search = scores_[static_cast<size_t>(id)];
                proposals.push_back(Proposal{base + search, lp, search, processors_.diversityPenalty(chosen, id),
                                             static_cast<int>(slot), id});
            }
        }
    }

private:
    void fillVocab(std::span<const float> logits) {
        vocab_.resize(logits.size());
        for (size_t i = 0; i < logits.size(); ++i) vocab_[i] = Candidate{static_cast<TokenId>(i), logits[i], 0.0f};
    }

    void record(BeamNode& n, int seq, std::span<const float> logits, double lse) {
        n.evaluated = true;
        if (o_.recordKvBlocks) n.kvBlocks = scorer_.kvBlocks(seq);
        if (o_.recordTopN <= 0) return;
        fillVocab(logits);
        selectTop(vocab_.data(), vocab_.size(), static_cast<size_t>(o_.recordTopN), top_);
        n.next.clear();
        for (const Candidate& c : top_)
            if (std::isfinite(c.logit)) n.next.push_back(BeamNextToken{c.id, static_cast<double>(c.logit) - lse});
        // H = -sum p log p = lse - sum p * logit.
        double weighted = 0.0;
        for (float l : logits)
            if (std::isfinite(l)) weighted += std::exp(static_cast<double>(l) - lse) * static_cast<double>(l);
        n.nextEntropy = std::max(0.0, lse - weighted);
    }

    // prompt + the generated tokens on the path to `node`.
    void historyOf(const std::vector<BeamNode>& nodes, int node) {
        history_.assign(prompt_.begin(), prompt_.end());
        const size_t at = history_.size();
        for (int i = node; i > 0; i = nodes[i].parent) history_.push_back(nodes[i].token);
        std::reverse(history_.begin() + static_cast<std::ptrdiff_t>(at), history_.end());
    }

    // The m best finite scores_ (higher first, ties to the lower id).
    const std::vector<TokenId>& topByScore(size_t m) {
        best_.clear();
        auto before = [&](TokenId a, TokenId b) {
            const double sa = scores_[static_cast<size_t>(a)], sb = scores_[static_cast<size_t>(b)];
            return sa != sb ? sa > sb : a < b;
        };
        for (size_t i = 0; i < scores_.size(); ++i) {
            if (!std::isfinite(scores_[i])) continue;
            const TokenId id = static_cast<TokenId>(i);
            if (best_.size() == m && !before(id, best_.back())) continue;
            best_.insert(std::upper_bound(best_.begin(), best_.end(), id, before), id);
            if (best_.size() > m) best_.pop_back();
        }
        return best_;
    }

    BeamScorer& scorer_;
    const BeamOptions& o_;
    const std::vector<TokenId>& prompt_;
    BeamProcessors processors_;
    std::vector<Candidate> vocab_, top_;
    std::vector<double> scores_;     // (nVocab) processed log-probs of one beam
    std::vector<TokenId> history_;   // (prompt + depth) one beam's tokens
    std::vector<TokenId> best_;
};

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
    const std::vector<int>& ids() const { return ids_; }

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

// One group of diverse beam search (the whole search when groups = 1).
struct Group {
    std::vector<Beam> beams;  // running, in rank order
    FinishedSet finished;
    bool earlyDone = false;   // its early stopping fired
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
    options.validate();
    if (prompt.empty()) throw Error("the prompt is empty; give at least one token of text");
    const size_t nGroups = static_cast<size_t>(options.groups);
    const size_t k = static_cast<size_t>(options.width) / nGroups;  // beams per group
    const size_t nBest = options.nBest > 0 ? static_cast<size_t>(options.nBest) : static_cast<size_t>(options.width);
    std::vector<TokenId> endTokens(options.endTokens);
    std::sort(endTokens.begin(), endTokens.end());
    auto isEnd = [&](TokenId t) { return std::binary_search(endTokens.begin(), endTokens.end(), t); };

    BeamResult r;
    std::vector<BeamNode>& nodes = r.tree.nodes;
    nodes.push_back(BeamNode{});
    nodes[0].beamSlot = 0;
    LiveSequences live(scorer);
    std::vector<Group> groups;
    for (size_t g = 0; g < nGroups; ++g) groups.push_back(Group{{}, FinishedSet(nodes, k), false});
    groups[0].beams.push_back(Beam{0, live.add(scorer.newSequence(prompt))});

    Proposer proposer(scorer, options, prompt);
    std::vector<Proposal> proposals;
    std::vector<int> stepSeqs;  // the sequences whose logits a step reads
    bool stoppedEarly = false;  // cancel or callback: the running beams join the finished ones
    r.stop = BeamStop::MaxTokens;
    for (int depth = 1; depth <= options.maxNewTokens; ++depth) {
        if (cancel && cancel->load()) { r.stop = BeamStop::Cancelled; stoppedEarly = true; break; }
        const bool last = depth == options.maxNewTokens;
        std::vector<TokenId> chosen;  // tokens the groups so far chose at this step

        // A scorer that runs a model may throw Cancelled mid-step: the groups that moved keep
        // their new beams, the others their old ones, and all of them join the finished.
        try {
            // Every running beam's logits are read this step, in every group (a group's diversity
            // penalty depends on what the earlier groups chose, their logits do not): announce them
            // all at once, so a scorer over a model evaluates them in one batched forward pass.
            stepSeqs.clear();
            for (const Group& grp : groups)
                for (const Beam& b : grp.beams) stepSeqs.push_back(b.seq);
            scorer.prefetch(stepSeqs);
            if (depth == 1 && nGroups > 1) {
                // Every group starts from the prompt: evaluate it once, then fork it per group.
                const int rootSeq = groups[0].beams[0].seq;
                scorer.logits(rootSeq);
                for (size_t g = 1; g < nGroups; ++g) groups[g].beams.push_back(Beam{0, live.add(scorer.fork(rootSeq))});
            }
            for (size_t g = 0; g < nGroups; ++g) {
                Group& grp = groups[g];
                if (grp.beams.empty()) continue;
                proposer.propose(grp.beams, nodes, k, countTokens(chosen), proposals);
                std::sort(proposals.begin(), proposals.end(), proposalBefore);
                if (proposals.size() > 2 * k) proposals.resize(2 * k);

                // Walk the candidates best first: finish, keep or prune each.
                std::vector<Beam> next;  // seq filled in below
                std::vector<int> nextParentSlot;
                for (size_t rank = 0; rank < proposals.size(); ++rank) {
                    const Proposal& p = proposals[rank];
                    const BeamNode& parent = nodes[grp.beams[p.slot].node];
                    BeamNode n;
                    n.id = static_cast<int>(nodes.size());
                    n.parent = parent.id;
                    n.depth = depth;
                    n.token = p.token;
                    n.logProb = p.logProb;
                    n.cumLogProb = parent.cumLogProb + p.logProb;
                    n.searchLogProb = p.search;
                    n.cumSearchLogProb = p.cum;
                    n.score = beamScore(p.cum, depth, options.lengthPenalty);
                    n.status = BeamNodeStatus::Pruned;
                    n.endToken = isEnd(p.token);
                    n.candidateRank = static_cast<int>(rank);
                    n.group = static_cast<int>(g);
                    n.diversityPenalty = p.penalty;
                    nodes.push_back(std::move(n));
                    const BeamNode& added = nodes.back();
                    if ((added.endToken || last) && rank < k) {
                        if (!added.endToken) chosen.push_back(added.token);  // ended by length: still chosen
                        grp.finished.offer(added.id);
                    } else if (!added.endToken && !last && next.size() < k) {
                        nodes.back().status = BeamNodeStatus::Kept;
                        nodes.back().beamSlot = static_cast<int>(g * k + next.size());
                        chosen.push_back(added.token);
                        next.push_back(Beam{added.id, -1});
                        nextParentSlot.push_back(p.slot);
                    }
                }

                // Move the scorer's sequences along: a parent's last child takes over its sequence,
                // the others fork it first, and parents without children are released.
                std::vector<int> lastChild(grp.beams.size(), -1);
                for (size_t i = 0; i < next.size(); ++i) lastChild[nextParentSlot[i]] = static_cast<int>(i);
                for (size_t slot = 0; slot < grp.beams.size(); ++slot)
                    if (lastChild[slot] < 0) live.release(grp.beams[slot].seq);
                for (size_t i = 0; i < next.size(); ++i) {
                    const int parentSeq = grp.beams[nextParentSlot[i]].seq;
                    next[i].seq =
                        lastChild[nextParentSlot[i]] == static_cast<int>(i) ? parentSeq : live.add(scorer.fork(parentSeq));
                }
                for (const Beam& b : next) scorer.append(b.seq, nodes[b.node].token);
                grp.beams = std::move(next);
            }
        } catch (const Cancelled&) {
            r.stop = BeamStop::Cancelled;
            stoppedEarly = true;
            break;
        }

        if (onStep && !onStep(r.tree, depth)) { r.stop = BeamStop::Callback; stoppedEarly = true; break; }
        bool running = false, early = false;
        for (Group& grp : groups) {
            if (!grp.beams.empty() && grp.finished.full() &&
                !improvementPossible(nodes[grp.beams[0].node].cumSearchLogProb, depth, options, grp.finished.worstScore())) {
                grp.earlyDone = true;
                for (const Beam& b : grp.beams) live.release(b.seq);
                grp.beams.clear();
            }
            running = running || !grp.beams.empty();
            early = early || grp.earlyDone;
        }
        if (!running) {
            r.stop = last ? BeamStop::MaxTokens : early ? BeamStop::EarlyStop : BeamStop::NoRunningBeams;
            break;
        }
    }
    if (stoppedEarly)
        for (Group& grp : groups)
            for (const Beam& b : grp.beams) grp.finished.offer(b.node);
    r.steps = nodes.back().depth;

    // HF's finalize: every group's finished hypotheses in one ranking; best score first, ties to the earlier node.
    std::vector<int> ranked;
    for (const Group& grp : groups) ranked.insert(ranked.end(), grp.finished.ids().begin(), grp.finished.ids().end());
    std::sort(ranked.begin(), ranked.end(), [&](int a, int b) {
        return nodes[a].score != nodes[b].score ? nodes[a].score > nodes[b].score : a < b;
    });
    for (size_t i = 0; i < ranked.size() && i < nBest; ++i) {
        BeamNode& leaf = nodes[ranked[i]];
        leaf.nBestRank = static_cast<int>(i);
        BeamHypothesis h;
        h.ended = leaf.endToken;
        h.logProb = leaf.cumLogProb;
        h.searchLogProb = leaf.cumSearchLogProb;
        h.score = leaf.score;
        h.node = leaf.id;
        h.group = std::max(leaf.group, 0);
        for (int at = leaf.endToken ? leaf.parent : leaf.id; at > 0; at = nodes[at].parent) h.tokens.push_back(nodes[at].token);
        std::reverse(h.tokens.begin(), h.tokens.end());
        r.hypotheses.push_back(std::move(h));
    }
    return r;
}

}  // namespace dlab
