#pragma once
// What a constraint cost, step by step: under the generated text, one small bar per generated
// token whose height is the probability mass the grammar forbade at that step (0 at the
// baseline, all of it at the top), in the distribution chart's "forbidden" colour. Hover a bar
// for the number and the most probable token the grammar took away. Painted by hand; every size
// derives from the font. The values are the grammar stage snapshots' (StepMask), nothing else.
#include <QList>
#include <QWidget>

#include "widgets/token_strip.h"

namespace dlab::widgets {

class MaskStrip : public QWidget {
    Q_OBJECT
public:
    explicit MaskStrip(QWidget* parent = nullptr);

    // One entry per generated token, in step order (a chip's StepMask; removed < 0: no constraint
    // at that step, drawn as a gap).
    void setSteps(const QList<StepMask>& steps);
    void appendStep(const StepMask& step);
    void clear() { setSteps({}); }
    const QList<StepMask>& steps() const { return steps_; }
    // The mass removed per step as drawn (-1 where no constraint applied).
    QList<double> values() const;
    // The mean and the largest share removed over the steps with a constraint (0 when none).
    double meanRemoved() const;
    double maxRemoved() const;

    // Bar `index`'s rectangle (empty when it is not drawn: too many steps for the width show the
    // latest ones), the bar under a point (-1: none) and its tooltip.
    QRect barRect(int index) const;
    int stepAt(const QPoint& pos) const;
    QString toolTipFor(int index) const;
    // Marks one bar (the token hovered in the text); -1 = none.
    void setHighlight(int index);
    int highlight() const { return highlight_; }
    void setLineScale(double scale);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void stepHovered(int index);   // -1 when the pointer leaves the bars

protected:
    bool event(QEvent* e) override;   // QEvent::ToolTip
    void paintEvent(QPaintEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void leaveEvent(QEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    struct Layout {
        int first = 0;      // first step drawn
        int pitch = 1;      // from one bar's left edge to the next one's
        int barWidth = 1;
        QRect area;         // where the bars stand (bottom = baseline)
    };
    Layout layoutFor() const;

    QList<StepMask> steps_;
    int highlight_ = -1;
    int hovered_ = -1;
    double lineScale_ = 1.0;
};

}  // namespace dlab::widgets
