#pragma once
// The KV cache page: one prompt run into a fresh paged pool (with continuations forked from it,
// sharing its blocks), and the cache shown five ways, every number from that run:
//   Growth       bytes per step, which rows were reused or computed, time per step and in total
//                with the cache beside the no-cache mode on the same tokens;
//   Heatmap      layers (× KV heads) by positions: attention received, bytes, sharing, norms,
//                quantization error;
//   Blocks       every sequence's block table and the pool, beside a contiguous allocator;
//   Compression  the KV dtypes' KL from f32, and sink + window eviction on a long text;
//   Calculator   the memory formula for presets and the loaded model on 24–141 GiB GPUs.
// Export: the tab in front as PNG or SVG.
#include <functional>
#include <optional>

#include "ui/app/page.h"
#include "ui/kv/kv_types.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QToolButton;
QT_END_NAMESPACE

namespace dlab::ui {

class KvBlocksPanel;
class KvCalculatorPanel;
class KvCompressionPanel;
class KvController;
class KvGrowthPanel;
class KvHeatmapPanel;

class KvPage : public Page {
    Q_OBJECT
public:
    explicit KvPage(QWidget* parent = nullptr);
    ~KvPage() override;

    static QString defaultPrompt();

    QString pageId() const override { return QStringLiteral("kv"); }
    QString title() const override;
    QString toolTip() const override;
    void attachEngine(EngineContext* engine) override;
    void setModelReady(bool ready) override;
    PageStatus status() const override { return status_; }
    void saveSettings(QSettings& settings) const override;
    void restoreSettings(QSettings& settings) override;
    // Lessons set up the memory calculator (lesson_setup.h, the calc* keys) and bring its tab to
    // the front; "Restore my settings" puts back the calculator and the tab.
    bool acceptsLessons() const override { return true; }
    void applyLesson(const QVariantMap& setup) override;
    void restoreBeforeLesson() override;
    bool hasSetupBeforeLesson() const override { return beforeLesson_.has_value(); }

    KvController* controller() const { return controller_; }
    KvRunRequest request() const;          // what Run sends
    const KvRunView& lastRun() const { return *lastRun_; }
    bool running() const { return running_; }
    bool busy() const { return running_ || timingNoCache_ || comparing_ || evicting_; }

    QPlainTextEdit* promptEdit() const { return prompt_; }
    QSpinBox* stepsSpin() const { return steps_; }
    QSpinBox* sequencesSpin() const { return sequences_; }
    QComboBox* dtypeCombo() const { return dtype_; }
    QComboBox* blockSizeCombo() const { return blockSize_; }
    QCheckBox* noCacheCheck() const { return noCache_; }
    QPushButton* runButton() const { return run_; }
    QPushButton* stopButton() const { return stop_; }
    QLabel* statusLabel() const { return statusLabel_; }
    QTabWidget* tabs() const { return tabs_; }
    KvGrowthPanel* growthPanel() const { return growth_; }
    KvHeatmapPanel* heatmapPanel() const { return heatmap_; }
    KvBlocksPanel* blocksPanel() const { return blocks_; }
    KvCompressionPanel* compressionPanel() const { return compression_; }
    KvCalculatorPanel* calculatorPanel() const { return calculator_; }

    // The tab in front as an image (.png or .svg by the suffix); throws std::runtime_error naming the path.
    void exportCurrentTab(const QString& path);

public slots:
    void run();
    void stop();

signals:
    void runRequested(const dlab::ui::KvRunRequest& request);
    void typesRequested(const QString& prompt, int steps, bool exact);
    void evictionRequested(const QString& text, int tokens, int cacheSize, int sinks);
    void shapeRequested();
    void poolRequested(const QString& source);
    void stopRequested();
    void runDone();          // the run is in (its no-cache timings may follow)
    void noCacheDone();
    void typesDone();
    void evictionDone();

protected:
    void changeEvent(QEvent* e) override;
    bool eventFilter(QObject* watched, QEvent* e) override;   // the status label's resize

private:
    void build();
    // `make(quote)` with as much of `quote` (whole words, then "…") as keeps the status within its
    // two lines at the label's current width.
    QString fitQuote(const std::function<QString(const QString&)>& make, const QString& quote) const;
    void retranslate();
    void updateEnabled();
    void showRun(const KvRunPtr& run);
    void setStatus(std::function<QString()> text);   // empty: the hint shown before any run
    QString idleStatusText() const;
    void showExportDialog();

    KvController* controller_ = nullptr;
    QLabel* promptLabel_ = nullptr;
    QPlainTextEdit* prompt_ = nullptr;
    QLabel* stepsLabel_ = nullptr;
    QSpinBox* steps_ = nullptr;
    QLabel* sequencesLabel_ = nullptr;
    QSpinBox* sequences_ = nullptr;
    QLabel* dtypeLabel_ = nullptr;
    QComboBox* dtype_ = nullptr;
    QLabel* blockSizeLabel_ = nullptr;
    QComboBox* blockSize_ = nullptr;
    QCheckBox* noCache_ = nullptr;
    QPushButton* run_ = nullptr;
    QPushButton* stop_ = nullptr;
    QToolButton* export_ = nullptr;
    QLabel* statusLabel_ = nullptr;
    struct BeforeLesson {
        int tab = 0;
        QVariantMap calculator;
    };
    std::optional<BeforeLesson> beforeLesson_;
    QTabWidget* tabs_ = nullptr;
    KvGrowthPanel* growth_ = nullptr;
    KvHeatmapPanel* heatmap_ = nullptr;
    KvBlocksPanel* blocks_ = nullptr;
    KvCompressionPanel* compression_ = nullptr;
    KvCalculatorPanel* calculator_ = nullptr;
    KvRunPtr lastRun_ = std::make_shared<KvRunView>();
    PageStatus status_;
    std::function<QString()> statusText_;
    bool modelReady_ = false, running_ = false, timingNoCache_ = false, comparing_ = false, evicting_ = false;
};

}  // namespace dlab::ui
