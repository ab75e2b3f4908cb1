#pragma once
// One column of the strategies page: its strategy (the run spec, with Edit and Remove), the
// measured figures of its run (log-prob, perplexity, tokens/s, distinct-1/2, KV blocks), the
// generated text as a token strip (the playground's widget: probability colouring, alternatives
// on hover) with the repetition detector's loop highlighted, and for beam columns the final beams
// with how alike they are.
#include <QFrame>
#include <QString>

#include "ui/strategies/strategy_types.h"

QT_BEGIN_NAMESPACE
class QLabel;
class QToolButton;
QT_END_NAMESPACE

namespace dlab::widgets {
class AdaptiveRow;
class ElidingLabel;
class TokenStrip;
}  // namespace dlab::widgets

namespace dlab::ui {

class StrategyColumn : public QFrame {
    Q_OBJECT
public:
    explicit StrategyColumn(const QString& spec, QWidget* parent = nullptr);

    QString spec() const { return spec_; }
    void setSpec(const QString& spec);
    void clearResult();                                        // a new run starts
    void appendTokens(const QList<widgets::StripToken>& tokens);
    void setProgress(int depth, int maxDepth);                 // beam columns while they search
    void setResult(const ColumnResult& result);
    bool hasResult() const { return hasResult_; }
    const ColumnResult& result() const { return result_; }
    widgets::TokenStrip* strip() const { return strip_; }
    QLabel* figuresLabel() const { return figures_; }
    QLabel* beamsLabel() const { return beams_; }
    void setLineScale(double scale);
    // The header's (title, Edit, Remove) height at its width, and the height to give it (the
    // row's tallest: see StrategiesPage::alignColumnTitles).
    int naturalHeaderHeight() const;
    void setHeaderHeight(int height);

    // "Greedy", "Beam k=4", "Sampling T=0.7, top-p 0.9" — a reader's name for a spec.
    static QString title(const QString& spec);
    // Final beams as HTML: their common start once, then what each one adds, with its score
    // (nothing cut: how alike the beams are is the point).
    static QString beamsHtml(const QString& heading, const QList<BeamHypothesisView>& beams);

signals:
    void editRequested();
    void removeRequested();

protected:
    void changeEvent(QEvent* e) override;

private:
    void retranslate();
    void showFigures();

    QString spec_;
    widgets::AdaptiveRow* header_ = nullptr;
    QLabel* title_ = nullptr;
    widgets::ElidingLabel* specLabel_ = nullptr;
    QToolButton* edit_ = nullptr;
    QToolButton* remove_ = nullptr;
    QLabel* figures_ = nullptr;
    QLabel* beams_ = nullptr;
    widgets::TokenStrip* strip_ = nullptr;
    ColumnResult result_;
    bool hasResult_ = false;
    int depth_ = -1, maxDepth_ = 0;
};

}  // namespace dlab::ui
