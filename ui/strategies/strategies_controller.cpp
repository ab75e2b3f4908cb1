#include "ui/strategies/strategies_controller.h"

#include <QFile>
#include <QSaveFile>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/error.h"
#include "core/stopwatch.h"
#include "generate/compare.h"
#include "generate/compare_trace.h"
#include "generate/model_beam_scorer.h"
#include "generate/run_spec.h"
#include "generate/session.h"
#include "generate/strategy_metrics.h"
#include "model/model.h"
#include "ui/engine/step_views.h"
#include "ui/strategies/beam_tree_data.h"

namespace dlab::ui {

namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kBatch = std::chrono::milliseconds(30);


QString qs(const std::string& s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

RepetitionView repetitionView(const RepetitionSpan& r) {
    RepetitionView v;
    if (!r.found) return v;
    v.found = true;
    v.first = static_cast<int>(r.start);
    v.count = static_cast<int>(r.length);
    v.period = r.period;
    v.repeats = r.repeats;
    return v;
}

// The chip of one chosen token; `before` are the run's earlier tokens (they set the UTF-8 state).
widgets::StripToken chipOf(const Tokenizer& tok, int step, const RunToken& t, const std::vector<TokenId>& before) {
    widgets::StripToken chip;
    chip.step = step;
    chip.id = t.token;
    // Coloured by the model's own probability of the token (log softmax of the raw logits), in every
    // column alike: after the sampler greedy's choice is always 100 %, so that would compare nothing.
    chip.p = std::exp(t.logProb);
    chip.special = tok.tokenType(t.token) == TokenType::Control || tok.isEndOfGeneration(t.token);
    chip.text = chip.special ? qs(tok.tokenToPiece(t.token, true))
                             : tokenTexts(tok, before, std::span(&t.token, 1)).front();
    for (const RunAlternative& a : t.alternatives) {
        widgets::TokenAlternative alt;
        alt.id = a.token;
        alt.text = printableToken(tok.tokenToPiece(a.token, true));
        alt.p = a.finalP;
        alt.rawP = a.p;
        chip.alternatives << alt;
    }
    return chip;
}

QList<widgets::StripToken> chipsOf(const Tokenizer& tok, const std::vector<RunToken>& steps) {
    QList<widgets::StripToken> out;
    std::vector<TokenId> before;
    for (size_t i = 0; i < steps.size(); ++i) {
        out << chipOf(tok, static_cast<int>(i), steps[i], before);
        before.push_back(steps[i].token);
    }
    return out;
}

std::vector<std::vector<TokenId>> hypothesisTokens(const BeamResult& r) {
    std::vector<std::vector<TokenId>> out;
    for (const BeamHypothesis& h : r.hypotheses) out.push_back(h.tokens);
    return out;
}

// How alike a search's final beams are; a single beam counts as overlap 1 (nothing differs).
PairwiseSimilarity beamsSimilarity(const BeamResult& r) {
    PairwiseSimilarity s = pairwiseSimilarity(hypothesisTokens(r));
    if (s.pairs == 0) s.meanOverlap = 1.0;
    return s;
}

QList<BeamHypothesisView> hypothesesOf(const Tokenizer& tok, const BeamResult& r) {
    QList<BeamHypothesisView> out;
    for (const BeamHypothesis& h : r.hypotheses) {
        BeamHypothesisView v;
        v.text = qs(tok.decode(h.tokens, false));
        for (TokenId t : h.tokens) v.tokens << t;
        v.logProb = h.logProb;
        v.score = h.score;
        v.ended = h.ended;
        out << v;
    }
    return out;
}

}  // namespace

StrategiesController::StrategiesController(EngineContext* engine) : QObject(engine), engine_(*engine) {
    connect(engine, &EngineContext::aboutToReplaceModel, this, [this] { last_.reset(); }, Qt::DirectConnection);
}

StrategiesController::~StrategiesController() = default;

std::vector<TokenId> StrategiesController::encode(const QString& prompt, int maxTokens) const {
    const Tokenizer& tok = engine_.model().tokenizer();
    std::vector<TokenId> ids = tok.encode(prompt.toStdString(), tok.addsBosByDefault(), false);
    if (ids.empty()) throw Error(tr("The prompt is empty: write a few words for every strategy to continue.").toStdString());
    // Said here in the page's words (the engine's message names the CLI's options).
    const int64_t context = defaultSessionContext(engine_.model().hparams());
    const int64_t need = static_cast<int64_t>(ids.size()) + maxTokens;
    if (need > context)
        throw Error(tr("The prompt (%1 tokens) and %2 new tokens need %3 positions, but the model's context holds %4: "
                       "lower Max tokens or shorten the prompt.")
                        .arg(ids.size())
                        .arg(maxTokens)
                        .arg(need)
                        .arg(context)
                        .toStdString());
    return ids;
}

ColumnResult StrategiesController::columnOf(int column, const RunResult& r) const {
    const Tokenizer& tok = engine_.model().tokenizer();
    ColumnResult c;
    c.column = column;
    c.spec = qs(runSpecText(r.spec));
    c.kind = QString::fromLatin1(runKindName(r.spec.kind));
    c.tokens = chipsOf(tok, r.steps);
    c.text = qs(r.text);
    c.ended = r.ended;
    c.stopped = r.stopped;
    c.logProb = r.logProb;
    c.scoredTokens = static_cast<int>(r.steps.size());
    c.perplexity = c.scoredTokens > 0 ? std::exp(-r.logProb / c.scoredTokens) : 0.0;
    c.ms = r.ms;
    c.tokensPerSecond = r.tokensPerSecond;
    c.forwardCalls = r.forwardCalls;
    c.tokensEvaluated = r.tokensEvaluated;
    c.decodeSteps = r.decodeSteps;
    c.msPerStep = r.msPerStep;
    c.distinct1 = r.distinct1;
    c.distinct2 = r.distinct2;
    c.repetition = repetitionView(r.repetition);
    c.kvBlocks = r.kvBlocks;
    c.kvBlocksShared = r.kvBlocksShared;
    c.kvBytesSavedWithin = r.kvBytesSavedWithin;
    if (r.spec.kind == RunKind::Beam) {
        c.hypotheses = hypothesesOf(tok, r.beam);
        const PairwiseSimilarity s = beamsSimilarity(r.beam);
        c.beamsOverlap = s.meanOverlap;
        c.beamsSharedPrefix = s.meanSharedPrefix;
    }
    return c;
}

void StrategiesController::run(const StrategiesRequest& request) {
    engine_.beginWork();
    if (!engine_.hasModel()) {
        emit failed(tr("No model is loaded."));
        emit runFinished(false);
        return;
    }
    try {
        std::vector<RunSpec> specs;
        for (const QString& s : request.specs) specs.push_back(parseRunSpec(s.toStdString()));
        if (specs.empty()) throw Error(tr("Add at least one column (a strategy) to compare.").toStdString());
        const std::vector<TokenId> prompt = encode(request.prompt, request.maxTokens);
        const Tokenizer& tok = engine_.model().tokenizer();

        CompareOptions o;
        o.maxTokens = request.maxTokens;
        o.contextLimit = defaultSessionContext(engine_.model().hparams());
        o.recordTopN = kAlternatives;
        o.beamRecordTopN = kAlternatives;
        o.cancel = engine_.cancelFlag();
        // Greedy and sampled columns stream their chips in batches (at most one signal per 30 ms).
        std::vector<TokenId> before;
        QList<widgets::StripToken> pending;
        int pendingRun = -1, step = 0;
        Clock::time_point sentAt = Clock::now();
        const auto flush = [&] {
            if (!pending.isEmpty()) emit columnTokens(pendingRun, pending);
            pending.clear();
            sentAt = Clock::now();
        };
        o.onToken = [&](int run, const RunToken& t) {
            if (run != pendingRun) {
                flush();
                pendingRun = run;
                before.clear();
                step = 0;
            }
            pending << chipOf(tok, step++, t, before);
            before.push_back(t.token);
            if (Clock::now() - sentAt >= kBatch) flush();
        };
        o.onBeamStep = [&](int run, const BeamTree&, int depth) {
            emit columnProgress(run, depth, request.maxTokens);
            return true;
        };
        o.onRunDone = [&](int run, const RunResult& r) {
            flush();
            emit columnDone(columnOf(run, r));
        };
        CompareResult result = compareRuns(engine_.model(), engine_.backend(), prompt, specs, o);
        emit runMeasured(static_cast<int>(prompt.size()), result.prefillMs, result.kvPeak.bytesInUse,
                         result.kvPeak.bytesSavedBySharing);
        last_ = std::make_unique<CompareResult>(result);
        emit runFinished(result.stopped);
        if (result.stopped || !request.measureTable) return;
        TableResult table = measureTable(prompt, request, result.runs);
        emit tableReady(table);
    } catch (const Cancelled&) {
        emit runFinished(true);
    } catch (const std::exception& e) {
        emit failed(QString::fromUtf8(e.what()));
        emit runFinished(false);
    }
}

TableResult StrategiesController::measureTable(const std::vector<TokenId>& prompt, const StrategiesRequest& request,
                                               const std::vector<RunResult>& runs) {
    TableResult table;
    table.wideBeam = request.wideBeam;
    const int seeds = std::max(2, request.seeds);
    const int total = static_cast<int>(runs.size()) * seeds + request.maxTokens;
    int done = 0;
    emit tableProgress(done, total);

    // deterministic? diverse?: every column again with `seeds` seeds, all forked from one prefill.
    std::vector<RunSpec> again;
    for (const RunResult& r : runs)
        for (int s = 0; s < seeds; ++s) {
            RunSpec spec = r.spec;
            spec.sampler.seed = r.spec.sampler.seed + 1000003ULL * static_cast<uint64_t>(s + 1);
            again.push_back(spec);
        }
    CompareOptions o;
    o.maxTokens = request.maxTokens;
    o.contextLimit = defaultSessionContext(engine_.model().hparams());
    o.recordTopN = 0;
    o.beamRecordTopN = 0;
    o.beamRecordKvBlocks = false;
    o.cancel = engine_.cancelFlag();
    o.onRunDone = [&](int, const RunResult&) { emit tableProgress(++done, total); };
    const CompareResult reruns = compareRuns(engine_.model(), engine_.backend(), prompt, again, o);
    if (reruns.stopped) {
        table.stopped = true;
        return table;
    }

    // finds the highest-probability sequence?: a wide beam without end tokens reaches every depth,
    // so its best node at depth n is the likeliest n-token continuation it found.
    int longest = 1;
    for (const RunResult& r : runs) longest = std::max(longest, static_cast<int>(r.tokens.size()));
    BeamOptions wide;
    wide.width = request.wideBeam;
    wide.maxNewTokens = longest;
    wide.lengthPenalty = 0.0;
    wide.earlyStopping = EarlyStopping::Never;
    const auto w0 = Clock::now();
    const BeamResult wideResult = beamSearchModel(
        engine_.model(), engine_.backend(), prompt, wide, KvType::F16, defaultSessionContext(engine_.model().hparams()),
        [&](const BeamTree&, int depth) {
            emit tableProgress(done + depth, total);
            return true;
        },
        engine_.cancelFlag());
    table.wideBeamMs = msSince(w0);
    if (wideResult.stop == BeamStop::Cancelled) {
        table.stopped = true;
        return table;
    }
    std::vector<double> bestAt(static_cast<size_t>(longest) + 1, -INFINITY);
    bestAt[0] = 0.0;
    for (const BeamNode& n : wideResult.tree.nodes)
        if (n.depth > 0 && n.depth <= longest) bestAt[static_cast<size_t>(n.depth)] = std::max(bestAt[static_cast<size_t>(n.depth)], n.cumLogProb);

    auto tokensPerStep = [](const RunResult& r) {
        return r.decodeSteps > 0 ? static_cast<double>(r.tokensEvaluated) / r.decodeSteps : 0.0;
    };
    const RunResult* greedy = nullptr;   // the first greedy column: what the speed cells compare with
    for (const RunResult& r : runs)
        if (r.spec.kind == RunKind::Greedy) { greedy = &r; break; }
    const double greedyTps = greedy ? greedy->tokensPerSecond : 0.0;
    const double greedyMs = greedy ? greedy->msPerStep : 0.0;
    const double greedyTokens = greedy ? tokensPerStep(*greedy) : 0.0;
    for (size_t i = 0; i < runs.size(); ++i) {
        const RunResult& r = runs[i];
        TableRow row;
        row.column = static_cast<int>(i);
        row.spec = qs(runSpecText(r.spec));
        row.kind = QString::fromLatin1(runKindName(r.spec.kind));
        std::vector<std::vector<TokenId>> outs;
        for (int s = 0; s < seeds; ++s) {
            const RunResult& rr = reruns.runs[i * static_cast<size_t>(seeds) + static_cast<size_t>(s)];
            outs.push_back(rr.tokens);
            row.seedTexts << qs(rr.text);
        }
        row.seedRuns = seeds;
        const PairwiseSimilarity sim = pairwiseSimilarity(outs);
        row.seedsIdentical = sim.allIdentical;
        row.seedsOverlap = sim.meanOverlap;
        row.seedsSharedPrefix = sim.meanSharedPrefix;
        row.pooledDistinct2 = pooledDistinctN(outs, 2);
        if (r.spec.kind == RunKind::Beam) row.beamsOverlap = beamsSimilarity(r.beam).meanOverlap;
        row.looped = r.repetition.found;
        row.length = static_cast<int>(r.tokens.size());
        for (const RunToken& t : r.steps)
            if (!t.end) row.logProb += t.logProb;
        row.bestLogProb = bestAt[static_cast<size_t>(row.length)];
        row.gap = row.bestLogProb - row.logProb;
        row.tokensPerSecond = r.tokensPerSecond;
        row.speedVsGreedy = greedyTps > 0.0 && r.tokensPerSecond > 0.0 ? greedyTps / r.tokensPerSecond : 0.0;
        row.msPerStep = r.msPerStep;
        row.greedyMsPerStep = greedyMs;
        row.stepTimeVsGreedy = greedyMs > 0.0 ? r.msPerStep / greedyMs : 0.0;
        row.tokensPerStep = tokensPerStep(r);
        row.greedyTokensPerStep = greedyTokens;
        row.tokensEvaluatedVsGreedy = greedyTokens > 0.0 ? row.tokensPerStep / greedyTokens : 0.0;
        row.forwardCalls = r.forwardCalls;
        table.rows << row;
    }
    emit tableProgress(total, total);
    return table;
}

TreeResult StrategiesController::treeOf(const BeamResult& r, const BeamOptions& options, double ms) const {
    const Tokenizer& tok = engine_.model().tokenizer();
    TreeResult out;
    out.tree = beamTreeData(r, options, [&tok](const BeamNode& n) { return n.token >= 0 ? qs(tok.tokenToPiece(n.token, true)) : QString(); });
    for (const BeamNode& n : r.tree.nodes) {
        if (!n.next.empty()) {
            QList<widgets::DistributionBar> bars;
            for (const BeamNextToken& t : n.next) {
                widgets::DistributionBar bar;
                bar.id = t.token;
                bar.label = printableToken(tok.tokenToPiece(t.token, true));
                bar.before = bar.after = std::exp(t.logProb);
                bars << bar;
            }
            out.nextBars.insert(n.id, bars);
            out.nextEntropy.insert(n.id, n.nextEntropy);
        }
    }
    out.hypotheses = hypothesesOf(tok, r);
    const PairwiseSimilarity s = beamsSimilarity(r);
    out.beamsOverlap = s.meanOverlap;
    out.beamsSharedPrefix = s.meanSharedPrefix;
    out.pooledDistinct2 = pooledDistinctN(hypothesisTokens(r), 2);
    out.ms = ms;
    out.diverse = options.groups > 1;
    out.stop = QString::fromLatin1(beamStopName(r.stop));
    return out;
}

void StrategiesController::searchTree(const QString& prompt, const QString& plainSpec, const QString& diverseSpec, int maxTokens) {
    engine_.beginWork();
    if (!engine_.hasModel()) {
        emit failed(tr("No model is loaded."));
        return;
    }
    try {
        const std::vector<TokenId> ids = encode(prompt, maxTokens);
        const auto search = [&](const QString& spec, int offset, int total) {
            BeamOptions o = beamOptionsOf(parseRunSpec(spec.toStdString()));
            o.maxNewTokens = maxTokens;
            o.endTokens = endOfGenerationTokens(engine_.model().tokenizer());
            o.recordTopN = kTreeTopN;
            o.recordKvBlocks = true;
            const auto t0 = Clock::now();
            const BeamResult r = beamSearchModel(
                engine_.model(), engine_.backend(), ids, o, KvType::F16, defaultSessionContext(engine_.model().hparams()),
                [&](const BeamTree&, int depth) {
                    emit treeProgress(offset + depth, total);
                    return true;
                },
                engine_.cancelFlag());
            TreeResult t = treeOf(r, o, msSince(t0));
            t.label = spec;
            return t;
        };
        const bool both = !diverseSpec.isEmpty();
        const TreeResult plain = search(plainSpec, 0, both ? 2 * maxTokens : maxTokens);
        const TreeResult diverse = both ? search(diverseSpec, maxTokens, 2 * maxTokens) : TreeResult{};
        emit treeReady(plain, diverse);
    } catch (const std::exception& e) {
        emit failed(QString::fromUtf8(e.what()));
    }
}

void StrategiesController::exportTrace(const QString& path) {
    if (!last_ || !engine_.hasModel()) {
        emit failed(tr("Run the strategies first: there is nothing to export yet."));
        return;
    }
    const Tokenizer& tok = engine_.model().tokenizer();
    const std::string jsonl = compareResultJsonl(*last_, [&tok](TokenId t) { return tok.tokenToPiece(t, false); });
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(jsonl.data(), static_cast<qint64>(jsonl.size())) != static_cast<qint64>(jsonl.size()) ||
        !f.commit()) {
        emit failed(tr("Cannot write the trace to %1: %2").arg(path, f.errorString()));
        return;
    }
    emit traceExported(path);
}

}  // namespace dlab::ui
