#pragma once
// The Strategies page: one prompt, several decoding strategies side by side as columns (greedy,
// beam k=4 and sampling T=0.7 p=0.9 to start; add, edit, remove), run together on the engine's
// compare runner (one prefill, every column forked from its KV blocks), streamed column by column
// with Stop; then the lesson's comparison table filled from measurements of this run; and the
// beam panel: the search drawn as the engine's tree, beside diverse beam search. Export: the
// columns, the table, the tree and the node chart as PNG or SVG, the runs as the CLI's JSONL.
#include <QStringList>

#include <functional>

#include "ui/app/page.h"
#include "ui/strategies/strategy_types.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
class QHBoxLayout;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableView;
class QToolButton;
class QWidget;
QT_END_NAMESPACE

namespace dlab::ui {

class BeamTreePanel;
class ComparisonTableModel;
class StrategiesController;
class StrategyColumn;

class StrategiesPage : public Page {
    Q_OBJECT
public:
    explicit StrategiesPage(QWidget* parent = nullptr);
    ~StrategiesPage() override;

    static QStringList defaultSpecs();   // greedy, beam k=4, sampling T=0.7 p=0.9

    QString pageId() const override { return QStringLiteral("strategies"); }
    QString title() const override;
    QString toolTip() const override;
    void attachEngine(EngineContext* engine) override;
    void setModelReady(bool ready) override;
    PageStatus status() const override { return status_; }
    void saveSettings(QSettings& settings) const override;
    void restoreSettings(QSettings& settings) override;
    void setLineScale(double scale) override;

    StrategiesController* controller() const { return controller_; }   // lives on the engine thread
    QStringList specs() const;
    void setSpecs(const QStringList& specs);
    void addColumn(const QString& spec);
    void removeColumn(int index);
    void setColumnSpec(int index, const QString& spec);
    QList<StrategyColumn*> columns() const { return columns_; }
    ComparisonTableModel* tableModel() const { return table_; }
    QTableView* tableView() const { return tableView_; }
    BeamTreePanel* beamPanel() const { return beamPanel_; }
    QTabWidget* viewTabs() const { return tabs_; }
    QPlainTextEdit* promptEdit() const { return prompt_; }
    QSpinBox* maxTokensSpin() const { return maxTokens_; }
    QCheckBox* measureTableCheck() const { return measure_; }
    QPushButton* runButton() const { return run_; }
    QPushButton* stopButton() const { return stop_; }
    QLabel* statusLabel() const { return status_label_; }
    bool running() const { return running_; }
    bool measuring() const { return measuring_; }
    bool searching() const { return searching_; }

    // Export (the Export menu's entries; a path's suffix .png or .svg picks the format). Throw
    // std::runtime_error with a sentence naming the path when it cannot be written.
    void exportColumns(const QString& path);
    void exportTable(const QString& path);
    void exportTree(const QString& path);
    void exportNodeChart(const QString& path);

public slots:
    void run();
    void stop();
    void searchTree();
    void exportTrace(const QString& path);   // asynchronous: traceExported() or errorOccurred()

signals:
    void runRequested(const dlab::ui::StrategiesRequest& request);
    void treeRequested(const QString& prompt, const QString& plainSpec, const QString& diverseSpec, int maxTokens);
    void traceRequested(const QString& path);
    void stopRequested();
    void runDone();          // the columns and (if asked) the table are in, or Stop
    void treeDone();
    void traceExported(const QString& path);

protected:
    void changeEvent(QEvent* e) override;
    bool eventFilter(QObject* watched, QEvent* e) override;   // the columns' resizes

private:
    // Every column's title as tall as the tallest ("Sampling T=0,7, / Top-p 0,9" on two lines),
    // so the figures and the texts of all columns start level.
    void alignColumnTitles();
    bool aligning_ = false;
    void build();
    void retranslate();
    void updateEnabled();
    void editColumn(StrategyColumn* column);
    void showColumn(const ColumnResult& r);
    void onRunFinished(bool stopped);
    void onTable(const TableResult& t);
    void showExportMenu();
    void retranslateTableNote();
    void fitTableHeader();   // what the table shows, or why it is empty
    // The line under the prompt, re-rendered in the new language when it changes.
    void setStatus(std::function<QString()> text);

    StrategiesController* controller_ = nullptr;
    QPlainTextEdit* prompt_ = nullptr;
    QSpinBox* maxTokens_ = nullptr;
    QCheckBox* measure_ = nullptr;
    QPushButton* run_ = nullptr;
    QPushButton* stop_ = nullptr;
    QPushButton* add_ = nullptr;
    QToolButton* export_ = nullptr;
    QLabel* promptLabel_ = nullptr;
    QLabel* maxLabel_ = nullptr;
    QLabel* status_label_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    QWidget* columnsHost_ = nullptr;
    QHBoxLayout* columnsLayout_ = nullptr;
    QList<StrategyColumn*> columns_;
    ComparisonTableModel* table_ = nullptr;
    QTableView* tableView_ = nullptr;
    QLabel* tableNote_ = nullptr;
    BeamTreePanel* beamPanel_ = nullptr;
    PageStatus status_;
    std::function<QString()> statusText_;
    bool modelReady_ = false;
    bool running_ = false;
    bool measuring_ = false;
    bool searching_ = false;
    bool searchAgain_ = false;
    bool tableStopped_ = false;  // the last run was stopped before its table   // searchTree() was asked during a search
    int promptTokens_ = 0;
    double prefillMs_ = 0.0;
    qint64 kvPeak_ = 0, kvSaved_ = 0;
};

}  // namespace dlab::ui
