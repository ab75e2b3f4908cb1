#pragma once
// The strategies page's engine side, on the engine thread (a child of the EngineContext):
//   run()        the columns on the engine's compare runner (one prefill, forks sharing its KV
//                blocks), streamed column by column, then the lesson's table measured: every
//                column re-run with `seeds` seeds, and a wide beam (width 16, end tokens treated
//                as ordinary tokens) whose best n-token node is the reference log-prob;
//   searchTree() one beam search (and, when asked, a diverse one on the same prompt) with the
//                engine's node trace, per-node next-token top 20 and KV blocks recorded;
//   exportTrace() the last run as the CLI's compare JSONL.
// Stop goes to EngineContext::cancel(): the compare runner and the search check it between tokens.
#include <QObject>
#include <QString>

#include <memory>
#include <vector>

#include "tokenizer/tokenizer.h"

#include "ui/engine/engine_context.h"
#include "ui/strategies/strategy_types.h"

namespace dlab {
struct CompareResult;
struct RunResult;
struct BeamResult;
struct BeamOptions;
}

namespace dlab::ui {

class StrategiesController : public QObject {
    Q_OBJECT
public:
    explicit StrategiesController(EngineContext* engine);
    ~StrategiesController() override;

    static constexpr int kAlternatives = 8;   // per chip
    static constexpr int kTreeTopN = 20;      // bars of a clicked node's distribution

public slots:
    void run(const dlab::ui::StrategiesRequest& request);
    // plainSpec / diverseSpec: beam run specs ("beam:k=4,lp=1"); diverseSpec empty = plain only.
    void searchTree(const QString& prompt, const QString& plainSpec, const QString& diverseSpec, int maxTokens);
    void exportTrace(const QString& path);

signals:
    // After the columns: the prompt (prefilled once), its prefill time and the KV pool at its peak.
    void runMeasured(int promptTokens, double prefillMs, qint64 kvPeakBytes, qint64 kvSavedBytes);
    void columnTokens(int column, const QList<dlab::widgets::StripToken>& tokens);   // streamed chips
    void columnProgress(int column, int depth, int maxDepth);                        // beam columns
    void columnDone(const dlab::ui::ColumnResult& result);
    void runFinished(bool stopped);
    void tableProgress(int done, int total);
    void tableReady(const dlab::ui::TableResult& table);
    void treeProgress(int depth, int maxDepth);
    void treeReady(const dlab::ui::TreeResult& plain, const dlab::ui::TreeResult& diverse);   // diverse.tree empty when not asked
    void traceExported(const QString& path);
    void failed(const QString& message);

private:
    // The prompt's tokens; throws dlab::Error for an empty prompt or one that leaves no room for maxTokens.
    std::vector<TokenId> encode(const QString& prompt, int maxTokens) const;
    ColumnResult columnOf(int column, const RunResult& run) const;
    TreeResult treeOf(const BeamResult& result, const BeamOptions& options, double ms) const;
    TableResult measureTable(const std::vector<TokenId>& prompt, const StrategiesRequest& request,
                             const std::vector<RunResult>& runs);

    EngineContext& engine_;
    std::unique_ptr<CompareResult> last_;   // the last run, for exportTrace()
};

}  // namespace dlab::ui
