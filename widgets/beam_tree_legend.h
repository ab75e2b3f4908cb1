#pragma once
// The beam tree's visual vocabulary: one style function per thing the tree draws (a node's state,
// the n-best paths, the KV badge, a beam group), used by BeamTreeView and by BeamTreeLegend, so
// the legend's swatches are the tree's colours in light and dark palettes alike.
//
// BeamTreeLegend draws a swatch per state (kept, pruned, finished, evicted), the n-best path and
// the KV badge, and one per group when the search had groups; entries flow onto more rows when
// narrow (heightForWidth).
#include <QColor>
#include <QPalette>
#include <QWidget>

#include "widgets/beam_tree_types.h"

namespace dlab::widgets {

struct BeamNodeStyle {
    QColor fill;
    QColor border;
    QColor text;
    Qt::PenStyle borderStyle = Qt::SolidLine;
    double borderWidth = 1.0;
};

BeamNodeStyle beamNodeStyle(BeamTreeNode::State state, const QPalette& pal);
QColor beamPathColour(const QPalette& pal);     // n-best path edges and their "#1" badges
QColor beamEdgeColour(const QPalette& pal);     // an ordinary parent-child edge
QColor kvBadgeColour(const QPalette& pal);      // the KV-blocks badge
QColor beamGroupColour(int group, const QPalette& pal);  // stripe and tint of group `group` (>= 0)

class BeamTreeLegend : public QWidget {
    Q_OBJECT
public:
    explicit BeamTreeLegend(QWidget* parent = nullptr);

    // Groups of a diverse beam search (<= 1: no group entries).
    void setGroupCount(int groups);
    int groupCount() const { return groups_; }
    // The entries' labels, in drawing order (for tests and accessibility).
    QStringList labels() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

protected:
    void paintEvent(QPaintEvent* e) override;

private:
    enum class Swatch { Kept, Pruned, Finished, Evicted, Path, Kv, Group };
    struct Entry {
        Swatch swatch;
        int group;
        QString label;
    };
    QList<Entry> entries() const;
    // Top-left of each entry when flowed into `width`; returns the height used.
    int flow(int width, QList<QPoint>* origins) const;
    int entryWidth(const Entry& e) const;
    void paintSwatch(QPainter& p, const QRect& r, const Entry& e) const;

    int groups_ = 1;
};

}  // namespace dlab::widgets
