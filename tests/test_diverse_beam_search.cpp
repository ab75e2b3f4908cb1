// Diverse (group) beam search, the beam processors and the per-node detail, on fake models:
//   - a hand-computed two-group search (p = .4/.3/.2/.1 after every prefix, width 4, 2 groups,
//     diversity penalty 1): every node's group, penalty, search score and status, and the pooled
//     n-best;
//   - with penalty 0 every group is exactly an independent width-k/G search (on random tables);
//   - repetition penalty and no-repeat-n-gram look at the prompt too (HF's input_ids), and change
//     the search value but not the model log-prob;
//   - recorded next-token lists, entropies and KV blocks sit on the evaluated nodes only;
//   - bad options give sentences naming the numbers.
#include <QTest>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>

#include "core/error.h"
#include "generate/beam_search.h"
#include "table_beam_scorer.h"

using namespace dlab;

namespace {

// Sequences are token lists; logits come from table(tokens); kvBlocks(seq) reports {length}.
struct TableScorer : test::TableBeamScorer {
    explicit TableScorer(Table t) : TableBeamScorer(std::move(t), true) {}
};

// p = .4, .3, .2, .1 whatever came before.
const std::vector<float> kFixed{std::log(0.4f), std::log(0.3f), std::log(0.2f), std::log(0.1f)};
double lp(TokenId t) {
    double m = -INFINITY, s = 0.0;
    for (float x : kFixed) m = std::max(m, double(x));
    for (float x : kFixed) s += std::exp(double(x) - m);
    return double(kFixed[t]) - (m + std::log(s));
}

const std::vector<TokenId> kPrompt{7, 9};

std::vector<TokenId> pathOf(const BeamTree& t, int node) {
    std::vector<TokenId> out;
    for (int i = node; i > 0; i = t.nodes[i].parent) out.push_back(t.nodes[i].token);
    std::reverse(out.begin(), out.end());
    return out;
}

}  // namespace

class TestDiverseBeamSearch : public QObject {
    Q_OBJECT
private slots:
    // Width 4, 2 groups of 2, dp = 1, two steps, no end token, alpha 1.
    // Step 1, group 0 (no penalty): 0 (ln .4), 1 (ln .3) kept; 2, 3 pruned.
    // Step 1, group 1: 0 and 1 were chosen once: 2 (ln .2) > 0 (ln .4 - 1) > 1 (ln .3 - 1) > 3 (ln .1);
    //   kept 2 and 0 (slots 2, 3).
    // Step 2 (last), group 0: (0,0) ln .16, (0,1) ln .12 (slot 0 wins the tie with (1,0)), (1,0),
    //   (1,1) ln .09: the first two finish. Chosen by group 0: 0 and 1.
    // Step 2, group 1: from 2: t2 ln .2 + ln .2 = -3.219, t0 ln .2 + ln .4 - 1; from 0: t2 ties
    //   with that (lower slot first), t1 ln .2 + ln .3 - 1: (2,2) and (2,0) finish.
    void handComputedTwoGroups() {
        TableScorer scorer([](const std::vector<TokenId>&) { return kFixed; });
        BeamOptions o;
        o.width = 4;
        o.groups = 2;
        o.diversityPenalty = 1.0;
        o.maxNewTokens = 2;
        const BeamResult r = beamSearch(scorer, kPrompt, o);
        const auto& n = r.tree.nodes;
        using S = BeamNodeStatus;
        struct Want { int parent, depth; TokenId token; int group; double penalty; S status; int rank, slot; };
        const Want want[] = {
            {-1, 0, -1, -1, 0, S::Kept, -1, 0},
            // step 1, group 0
            {0, 1, 0, 0, 0, S::Kept, 0, 0}, {0, 1, 1, 0, 0, S::Kept, 1, 1},
            {0, 1, 2, 0, 0, S::Pruned, 2, -1}, {0, 1, 3, 0, 0, S::Pruned, 3, -1},
            // step 1, group 1
            {0, 1, 2, 1, 0, S::Kept, 0, 2}, {0, 1, 0, 1, 1, S::Kept, 1, 3},
            {0, 1, 1, 1, 1, S::Pruned, 2, -1}, {0, 1, 3, 1, 0, S::Pruned, 3, -1},
            // step 2, group 0
            {1, 2, 0, 0, 0, S::Finished, 0, -1}, {1, 2, 1, 0, 0, S::Finished, 1, -1},
            {2, 2, 0, 0, 0, S::Pruned, 2, -1}, {2, 2, 1, 0, 0, S::Pruned, 3, -1},
            // step 2, group 1
            {5, 2, 2, 1, 0, S::Finished, 0, -1}, {5, 2, 0, 1, 1, S::Finished, 1, -1},
            {6, 2, 2, 1, 0, S::Pruned, 2, -1}, {5, 2, 1, 1, 1, S::Pruned, 3, -1},
        };
        QCOMPARE(n.size(), std::size(want));
        for (size_t i = 0; i < n.size(); ++i) {
            const Want& w = want[i];
            const QByteArray at = "node " + QByteArray::number(qulonglong(i));
            QVERIFY2(n[i].parent == w.parent, at);
            QVERIFY2(n[i].depth == w.depth, at);
            QVERIFY2(n[i].token == w.token, at);
            QVERIFY2(n[i].group == w.group, at);
            QVERIFY2(n[i].diversityPenalty == w.penalty, at);
            QVERIFY2(n[i].status == w.status, at);
            QVERIFY2(n[i].candidateRank == w.rank, at);
            QVERIFY2(n[i].beamSlot == w.slot, at);
            if (i == 0) continue;
            const BeamNode& p = n[n[i].parent];
            QCOMPARE(n[i].logProb, lp(n[i].token));  // the model's value, untouched
            QCOMPARE(n[i].searchLogProb, lp(n[i].token) - w.penalty);  // the penalised value ...
            QCOMPARE(n[i].cumSearchLogProb, p.cumSearchLogProb + n[i].searchLogProb);  // ... enters the score
            QCOMPARE(n[i].cumLogProb, p.cumLogProb + n[i].logProb);
            QCOMPARE(n[i].score, n[i].cumSearchLogProb / n[i].depth);
        }
        // Pooled n-best: group 0's two, then group 1's (they paid the penalty).
        QCOMPARE(r.hypotheses.size(), size_t(4));
        const int wantNodes[] = {9, 10, 13, 14};
        const int wantGroups[] = {0, 0, 1, 1};
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(r.hypotheses[i].node, wantNodes[i]);
            QCOMPARE(r.hypotheses[i].group, wantGroups[i]);
            QCOMPARE(n[wantNodes[i]].nBestRank, i);
            QCOMPARE(r.hypotheses[i].tokens, pathOf(r.tree, wantNodes[i]));
            QCOMPARE(r.hypotheses[i].logProb, n[wantNodes[i]].cumLogProb);
            QCOMPARE(r.hypotheses[i].searchLogProb, n[wantNodes[i]].cumSearchLogProb);
        }
        QCOMPARE(r.hypotheses[3].tokens, (std::vector<TokenId>{2, 0}));
        QCOMPARE(r.hypotheses[3].logProb, lp(2) + lp(0));
        QCOMPARE(r.hypotheses[3].searchLogProb, lp(2) + (lp(0) - 1.0));
        QCOMPARE(r.hypotheses[2].score, (lp(2) + lp(2)) / 2);
        QCOMPARE(r.stop, BeamStop::MaxTokens);
        QCOMPARE(scorer.live(), size_t(0));

        // nBest 2 keeps the best two of the pool; group 1's hypotheses stay Finished, unranked.
        o.nBest = 2;
        TableScorer scorer2([](const std::vector<TokenId>&) { return kFixed; });
        const BeamResult r2 = beamSearch(scorer2, kPrompt, o);
        QCOMPARE(r2.hypotheses.size(), size_t(2));
        QCOMPARE(r2.hypotheses[1].node, 10);
        QCOMPARE(r2.tree.nodes[13].status, BeamNodeStatus::Finished);
        QCOMPARE(r2.tree.nodes[13].nBestRank, -1);
    }

    // Penalty 0: the groups do not see each other, so each is a width k/G search of its own.
    void zeroPenaltyGroupsAreIndependentSearches_data() {
        QTest::addColumn<int>("groups");
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("mode");
        QTest::newRow("2x2 heuristic") << 2 << 4 << int(EarlyStopping::Heuristic);
        QTest::newRow("3x1 exact") << 3 << 3 << int(EarlyStopping::Exact);
        QTest::newRow("2x3 never") << 2 << 6 << int(EarlyStopping::Never);
    }
    void zeroPenaltyGroupsAreIndependentSearches() {
        QFETCH(int, groups);
        QFETCH(int, width);
        QFETCH(int, mode);
        for (uint64_t seed = 1; seed <= 10; ++seed) {
            BeamOptions o;
            o.width = width;
            o.groups = groups;
            o.maxNewTokens = 6;
            o.endTokens = {1};
            o.earlyStopping = EarlyStopping(mode);
            TableScorer scorer(test::hashedTable(6, seed));
            const BeamResult r = beamSearch(scorer, kPrompt, o);
            BeamOptions one = o;
            one.width = width / groups;
            one.groups = 1;
            TableScorer scorer1(test::hashedTable(6, seed));
            const BeamResult ref = beamSearch(scorer1, kPrompt, one);
            for (int g = 0; g < groups; ++g) {
                std::vector<const BeamNode*> mine;
                for (const BeamNode& x : r.tree.nodes)
                    if (x.group == g) mine.push_back(&x);
                QCOMPARE(mine.size(), ref.tree.nodes.size() - 1);
                for (size_t i = 0; i < mine.size(); ++i) {
                    const BeamNode& a = *mine[i];
                    const BeamNode& b = ref.tree.nodes[i + 1];
                    QCOMPARE(a.token, b.token);
                    QCOMPARE(a.depth, b.depth);
                    QCOMPARE(a.cumLogProb, b.cumLogProb);
                    QCOMPARE(a.score, b.score);
                    QCOMPARE(a.status, b.status);
                    QCOMPARE(a.candidateRank, b.candidateRank);
                    QCOMPARE(a.beamSlot, b.beamSlot < 0 ? -1 : b.beamSlot + g * one.width);
                    QCOMPARE(pathOf(r.tree, a.id), pathOf(ref.tree, b.id));
                }
            }
            QCOMPARE(r.hypotheses.size(), size_t(width));
            for (size_t h = 0; h < r.hypotheses.size(); ++h) {
                // Each of the reference's hypotheses appears once per group, ranked together.
                const BeamHypothesis& x = r.hypotheses[h];
                QCOMPARE(x.score, ref.hypotheses[h / groups].score);
                QCOMPARE(x.group, int(h % groups));
            }
            QCOMPARE(scorer.live(), size_t(0));
        }
    }

    // The processors see the prompt: it holds token 0, the likeliest.
    void repetitionPenaltyCountsThePrompt() {
        TableScorer scorer([](const std::vector<TokenId>&) { return kFixed; });
        BeamOptions o;
        o.width = 1;
        o.maxNewTokens = 3;
        o.repeatPenalty = 2.0f;
        const std::vector<TokenId> prompt{5, 0};
        const BeamResult r = beamSearch(scorer, prompt, o);
        // Step 1: 0 is in the prompt: 2 ln .4 = -1.83 < ln .3 = -1.20, so 1. Step 2: 0 and 1 seen:
        // 2 ln .3 = -2.41 vs ln .2 = -1.61: 2. Step 3: all of 0, 1, 2 seen: 2 ln .4 -1.83 beats ln .1.
        QCOMPARE(r.hypotheses[0].tokens, (std::vector<TokenId>{1, 2, 0}));
        const BeamNode& last = r.tree.nodes[r.hypotheses[0].node];
        QCOMPARE(last.logProb, lp(0));
        QVERIFY(std::abs(last.searchLogProb - 2.0 * lp(0)) < 1e-6);
        QCOMPARE(r.hypotheses[0].logProb, lp(1) + lp(2) + lp(0));
        QVERIFY(std::abs(r.hypotheses[0].searchLogProb - (lp(1) + lp(2) + 2.0 * lp(0))) < 1e-6);
        // A node whose token is new keeps the exact value.
        QCOMPARE(r.tree.nodes[r.tree.nodes[last.parent].id].searchLogProb, lp(2));
    }

    void noRepeatNgramBansWhatThePromptHolds() {
        TableScorer scorer([](const std::vector<TokenId>&) { return kFixed; });
        BeamOptions o;
        o.width = 2;
        o.maxNewTokens = 3;
        o.noRepeatNgram = 1;  // no token twice
        const BeamResult r = beamSearch(scorer, {0}, o);
        for (const BeamNode& x : r.tree.nodes) QVERIFY(x.token != 0);  // banned from the start: never a candidate
        for (const BeamHypothesis& h : r.hypotheses) {
            std::vector<TokenId> t = h.tokens;
            std::sort(t.begin(), t.end());
            QVERIFY(std::adjacent_find(t.begin(), t.end()) == t.end());
        }
        QCOMPARE(r.hypotheses[0].tokens, (std::vector<TokenId>{1, 2, 3}));
        // A bigram ban: after "1 2" in the prompt, 2 cannot follow 1.
        o.noRepeatNgram = 2;
        o.width = 1;
        TableScorer scorer2([](const std::vector<TokenId>&) { return kFixed; });
        const BeamResult b = beamSearch(scorer2, {1, 0, 2, 0}, o);
        // Step 1 after "...0": 0 then... bigrams seen: (1,0) (0,2) (2,0): after 0, 2 is banned; 0 is free.
        QCOMPARE(b.hypotheses[0].tokens.front(), 0);
        // After "0 0": (0,0) is now seen, so the next 0 is banned, 2 is banned: 1 (ln .3).
        QCOMPARE(b.hypotheses[0].tokens[1], 1);
    }

    // The groups take turns choosing, but a beam's logits do not depend on what the other groups
    // chose: every step announces the beams of all groups in one prefetch() (so a model scorer
    // evaluates them in one batched pass) before any of their logits are read.
    void everyStepAnnouncesEveryGroupsBeams_data() {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("groups");
        QTest::addColumn<double>("penalty");
        QTest::addColumn<bool>("end");   // with an end token groups finish and stop at their own pace
        QTest::newRow("k=4 g=2 dp=1") << 4 << 2 << 1.0 << false;
        QTest::newRow("k=6 g=3 dp=0.5") << 6 << 3 << 0.5 << false;
        QTest::newRow("k=6 g=6 dp=2") << 6 << 6 << 2.0 << false;
        QTest::newRow("k=4 g=2 dp=1 eos") << 4 << 2 << 1.0 << true;
        QTest::newRow("k=6 g=3 dp=0.5 eos") << 6 << 3 << 0.5 << true;
    }
    void everyStepAnnouncesEveryGroupsBeams() {
        QFETCH(int, width);
        QFETCH(int, groups);
        QFETCH(double, penalty);
        QFETCH(bool, end);
        TableScorer scorer(test::hashedTable(9, 3, 0.5f));
        BeamOptions o;
        o.width = width;
        o.groups = groups;
        o.diversityPenalty = penalty;
        o.maxNewTokens = 5;
        if (end) o.endTokens = {0};
        const BeamResult r = beamSearch(scorer, kPrompt, o);
        QCOMPARE(scorer.unannounced, 0);
        // Step d expands the evaluated nodes of depth d - 1 of every group (the root, shared by all
        // groups, once at step 1, before they fork it).
        std::vector<size_t> running(size_t(r.steps), 0);
        for (const BeamNode& n : r.tree.nodes)
            if (n.evaluated) ++running[size_t(n.depth)];
        QCOMPARE(scorer.prefetchSizes, running);
        QCOMPARE(running[0], size_t(1));
        if (!end) {   // every group runs width / groups beams from step 2 to the end
            QCOMPARE(r.steps, o.maxNewTokens);
            for (size_t d = 1; d < running.size(); ++d) QCOMPARE(running[d], size_t(width));
        }
    }

    void recordsDetailOnEvaluatedNodesOnly() {
        TableScorer scorer([](const std::vector<TokenId>&) { return kFixed; });
        BeamOptions o;
        o.width = 2;
        o.maxNewTokens = 3;
        o.recordTopN = 3;
        o.recordKvBlocks = true;
        const BeamResult r = beamSearch(scorer, kPrompt, o);
        double entropy = 0.0;
        for (TokenId t = 0; t < 4; ++t) entropy -= std::exp(lp(t)) * lp(t);
        int evaluated = 0;
        for (const BeamNode& x : r.tree.nodes) {
            const bool expanded = x.id == 0 || (x.status == BeamNodeStatus::Kept && x.depth < r.steps);
            QCOMPARE(x.evaluated, expanded);
            if (!expanded) {
                QVERIFY(x.next.empty() && x.kvBlocks.empty());
                continue;
            }
            ++evaluated;
            QCOMPARE(x.next.size(), size_t(3));
            for (TokenId t = 0; t < 3; ++t) {
                QCOMPARE(x.next[t].token, t);
                QCOMPARE(x.next[t].logProb, lp(t));
            }
            QVERIFY(std::abs(x.nextEntropy - entropy) < 1e-9);
            QCOMPARE(x.kvBlocks, std::vector<int32_t>{int32_t(kPrompt.size()) + x.depth});
        }
        QCOMPARE(evaluated, 1 + 2 + 2);  // the root, and two beams at depths 1 and 2
        // Off by default.
        TableScorer scorer2([](const std::vector<TokenId>&) { return kFixed; });
        o.recordTopN = 0;
        o.recordKvBlocks = false;
        for (const BeamNode& x : beamSearch(scorer2, kPrompt, o).tree.nodes) QVERIFY(x.next.empty() && x.kvBlocks.empty());
    }

    void badOptionsNameTheNumbers_data() {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("groups");
        QTest::addColumn<double>("dp");
        QTest::addColumn<QString>("expected");
        QTest::newRow("not divisible") << 4 << 3 << 0.5 << "the beam width 4 is not divisible by the 3 beam groups";
        QTest::newRow("zero groups") << 4 << 0 << 0.0 << "the number of beam groups must be at least 1 (got 0)";
        QTest::newRow("negative penalty") << 4 << 2 << -1.0 << "the diversity penalty must be 0 (off) or a positive number";
        QTest::newRow("penalty, one group") << 4 << 1 << 0.5 << "a diversity penalty needs at least 2 beam groups";
    }
    void badOptionsNameTheNumbers() {
        QFETCH(int, width);
        QFETCH(int, groups);
        QFETCH(double, dp);
        QFETCH(QString, expected);
        BeamOptions o;
        o.width = width;
        o.groups = groups;
        o.diversityPenalty = dp;
        TableScorer scorer([](const std::vector<TokenId>&) { return kFixed; });
        try {
            beamSearch(scorer, kPrompt, o);
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY2(QString(e.what()).contains(expected), e.what());
        }
        QCOMPARE(scorer.live(), size_t(0));
    }
};

QTEST_APPLESS_MAIN(TestDiverseBeamSearch)
#include "test_diverse_beam_search.moc"
