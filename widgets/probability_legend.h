#pragma once
// The key to the token strip's shading: the colour ramp from 0 % to 100 % with one line saying
// what it shows. Painted by hand from the same colour function as the strip (light and dark),
// sized from the font (presentation mode enlarges it with the application font).
#include <QWidget>

namespace dlab::widgets {

class ProbabilityLegend : public QWidget {
    Q_OBJECT
public:
    explicit ProbabilityLegend(QWidget* parent = nullptr);

    // The caption before the ramp ("Shading: probability of the chosen token").
    QString caption() const;
    QString shortCaption() const;   // "Shading:", where the caption does not fit
    // The tooltip: what the shading means, in one sentence.
    QString explanation() const;
    // Whether the last paint had to elide a caption (narrower than even the short one needs).
    bool elided() const { return elided_; }
    QString shownCaption() const { return shown_; }   // as last painted: the caption, its short form

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    int rampWidth() const;
    mutable bool elided_ = false;
    mutable QString shown_;
};

}  // namespace dlab::widgets
