#pragma once
// Compression and long context, measured on the loaded model:
//   KV dtype   f32 / f16 / q8_0 on the same greedy text (f32 picks the tokens, the others are
//              teacher-forced): bytes per position, KL from f32 per step, top-1 agreement; with
//              "exact arithmetic" the weights and activations are f32 too, so the KL is the cache's
//              alone (the fast path's activation quantization otherwise amplifies its rounding).
//   eviction   a long text read through a bounded cache: full, sinks + window (StreamingLLM),
//              plain window — perplexity after the cache first fills, and KL from the full cache.
#include <QWidget>

#include "ui/kv/kv_types.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableWidget;
QT_END_NAMESPACE

namespace dlab::widgets {
class LineChartView;
}

namespace dlab::ui {

class KvCompressionPanel : public QWidget {
    Q_OBJECT
public:
    explicit KvCompressionPanel(QWidget* parent = nullptr);

    void setBusy(bool busy);
    void setModelReady(bool ready);
    void showTypes(const KvTypesView& v);
    void showTypesProgress(int done, int total);
    void showEviction(const KvEvictionView& v);
    void showEvictionProgress(qint64 done, qint64 total);
    // The text the eviction experiment reads: the built-in one, or a file the user chose.
    QString evictionText() const;
    void setEvictionFile(const QString& path);   // "" = the built-in text

    QSpinBox* typeStepsSpin() const { return typeSteps_; }
    QCheckBox* exactCheck() const { return exact_; }
    QPushButton* typesButton() const { return runTypes_; }
    QTableWidget* typesTable() const { return typesTable_; }
    widgets::LineChartView* klChart() const { return klChart_; }
    QSpinBox* tokensSpin() const { return tokens_; }
    QSpinBox* cacheSpin() const { return cache_; }
    QSpinBox* sinksSpin() const { return sinks_; }
    QPushButton* evictButton() const { return runEvict_; }
    QTableWidget* evictionTable() const { return evictTable_; }
    widgets::LineChartView* lossChart() const { return lossChart_; }
    QLabel* typesNote() const { return typesNote_; }
    QLabel* evictionNote() const { return evictNote_; }

signals:
    void typesRequested(int steps, bool exact);
    void evictionRequested(const QString& text, int tokens, int cacheSize, int sinks);
    void errorOccurred(const QString& message);

protected:
    void changeEvent(QEvent* e) override;

private:
    void retranslate();
    void updateEnabled();
    void chooseFile();

    QGroupBox* typesBox_ = nullptr;
    QGroupBox* evictBox_ = nullptr;
    QLabel* typeStepsLabel_ = nullptr;
    QSpinBox* typeSteps_ = nullptr;
    QCheckBox* exact_ = nullptr;
    QPushButton* runTypes_ = nullptr;
    QTableWidget* typesTable_ = nullptr;
    widgets::LineChartView* klChart_ = nullptr;
    QLabel* typesNote_ = nullptr;
    QLabel* textLabel_ = nullptr;
    QComboBox* text_ = nullptr;
    QLabel* tokensLabel_ = nullptr;
    QSpinBox* tokens_ = nullptr;
    QLabel* cacheLabel_ = nullptr;
    QSpinBox* cache_ = nullptr;
    QLabel* sinksLabel_ = nullptr;
    QSpinBox* sinks_ = nullptr;
    QPushButton* runEvict_ = nullptr;
    QTableWidget* evictTable_ = nullptr;
    widgets::LineChartView* lossChart_ = nullptr;
    QLabel* evictNote_ = nullptr;
    QString file_;
    bool busy_ = false, ready_ = false;
    bool hasTypes_ = false, hasEviction_ = false;
    KvTypesView types_;
    KvEvictionView eviction_;
};

}  // namespace dlab::ui
