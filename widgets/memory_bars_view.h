#pragma once
// "Does it fit?" as bars: one horizontal bar per memory (this machine's RAM; GPUs of 24, 40, 80,
// 141 GiB), its capacity as an outline, the model's weights and the KV cache stacked inside from the left; whatever runs past
// the capacity is drawn beyond the outline in a warning colour. All bars share one scale, so the
// GPUs compare by length. The segments carry their GB where the text fits, the note ("20
// sequences fit") stands at the right, a legend on top names the colours.
//
// Draws the numbers it is given (the page's figures come from the engine's KV arithmetic); the
// only sums are the lengths on screen.
#include <QList>
#include <QWidget>

#include <optional>
#include <vector>

namespace dlab::widgets {

struct MemoryBar {
    QString label;                  // "24 GB"
    double capacityBytes = 0, weightsBytes = 0, kvBytes = 0;
    QString note;                   // "20 sequences fit"; may be empty
};

class MemoryBarsView : public QWidget {
    Q_OBJECT
public:
    explicit MemoryBarsView(QWidget* parent = nullptr);

    // Throws std::invalid_argument for a negative or non-finite byte count (naming the bar).
    void setBars(std::vector<MemoryBar> bars);
    const std::vector<MemoryBar>& bars() const { return bars_; }

    // Where bar i's parts are drawn (widget coordinates); overflow is null when the bar fits.
    struct BarGeometry {
        QRect label, capacity, weights, kv, overflow, note;
    };
    BarGeometry barGeometry(int index) const;
    QString tooltipAt(QPoint pos) const;
    QColor weightsColor() const;
    QColor kvColor() const;
    QColor overflowColor() const;
    // "12.3 GiB": how the view writes a byte count. Binary units, as the KV lesson's numbers are
    // (Llama 2 7B at 4,096 tokens: 2 GiB) and as the cards hold them (an A100 40GB has 40 GiB).
    QString gigabytes(double bytes) const;
    // Every text the last paint drew, as landed (tests: nothing clipped, nothing overlapping).
    const QList<QRect>& lastTextRects() const { return textRects_; }
    // The labels, legend entries and notes the last paint had to shorten ("…").
    const QStringList& elidedTexts() const { return elided_; }

    // The legend wraps on a narrow view: the height follows the width.
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool event(QEvent* e) override;     // QEvent::ToolTip
    void paintEvent(QPaintEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    struct LegendItem {
        QRect swatch, text;
        int kind;                        // 0 capacity, 1 weights, 2 KV, 3 over
        QString label;
    };
    struct Layout {
        QSize size;
        std::vector<LegendItem> legend;
        std::vector<BarGeometry> bars;
    };
    const Layout& layout() const;
    int legendBottom(int width, std::vector<LegendItem>* items) const;

    std::vector<MemoryBar> bars_;
    mutable std::optional<Layout> layout_;
    QList<QRect> textRects_;
    QStringList elided_;
};

}  // namespace dlab::widgets
