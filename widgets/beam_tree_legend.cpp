#include "widgets/beam_tree_legend.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>

#include "widgets/palette_colors.h"

namespace dlab::widgets {

// --- the shared colours -----------------------------------------------------------------------
// Each state keeps the palette's own base and text and adds one hue, brighter on a dark base, so
// text stays readable on every fill (the fills are at most a quarter of the hue).

BeamNodeStyle beamNodeStyle(BeamTreeNode::State state, const QPalette& pal) {
    const bool dark = hasDarkBase(pal);
    const QColor base = pal.color(QPalette::Base), text = pal.color(QPalette::Text);
    BeamNodeStyle s;
    s.text = text;
    switch (state) {
        case BeamTreeNode::State::Root:
            s.fill = mix(base, text, 0.10);
            s.border = mix(base, text, 0.70);
            break;
        case BeamTreeNode::State::Kept: {
            const QColor hue = probabilityAccent(pal);  // the app's one blue
            s.fill = mix(base, hue, dark ? 0.28 : 0.14);
            s.border = hue;
            break;
        }
        case BeamTreeNode::State::Pruned:
            // Faded: a dashed outline and greyed text on the bare base.
            s.fill = base;
            s.border = mix(base, text, 0.45);
            s.text = mix(base, text, 0.60);
            s.borderStyle = Qt::DashLine;
            break;
        case BeamTreeNode::State::Finished: {
            const QColor hue = dark ? QColor(0x5c, 0xd0, 0x7a) : QColor(0x1e, 0x80, 0x48);
            s.fill = mix(base, hue, dark ? 0.26 : 0.15);
            s.border = hue;
            s.borderWidth = 2.5;
            break;
        }
        case BeamTreeNode::State::Evicted:
            s.fill = mix(base, text, dark ? 0.16 : 0.12);
            s.border = mix(base, text, 0.40);
            s.text = mix(base, text, 0.55);
            s.borderWidth = 1.5;
            break;
    }
    return s;
}

QColor beamPathColour(const QPalette& pal) { return hasDarkBase(pal) ? QColor(0xff, 0x9a, 0x3c) : QColor(0xd9, 0x48, 0x0f); }

QColor beamEdgeColour(const QPalette& pal) { return mix(pal.color(QPalette::Base), pal.color(QPalette::Text), 0.45); }

QColor kvBadgeColour(const QPalette& pal) { return hasDarkBase(pal) ? QColor(0xb0, 0x90, 0xff) : QColor(0x6a, 0x3f, 0xc8); }

QColor beamGroupColour(int group, const QPalette& pal) {
    // Tableau 10, its blue, green and orange (kept, finished, the path) last or left out; the first
    // two (the usual two groups) as far apart as the rest allow.
    static const QColor light[] = {QColor(0x76, 0xb7, 0xb2), QColor(0xe1, 0x57, 0x59), QColor(0xed, 0xc9, 0x48),
                                   QColor(0xb0, 0x7a, 0xa1), QColor(0x9c, 0x75, 0x5f), QColor(0xff, 0x9d, 0xa7),
                                   QColor(0x79, 0x70, 0x6e), QColor(0x4e, 0x79, 0xa7)};
    const QColor c = light[std::max(0, group) % 8];
    return hasDarkBase(pal) ? c.lighter(115) : c.darker(115);
}

// --- the legend -------------------------------------------------------------------------------

namespace {
constexpr int kSwatchW = 26, kGap = 5, kSpacing = 14, kPad = 3;
}

BeamTreeLegend::BeamTreeLegend(QWidget* parent) : QWidget(parent) {
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);  // Fixed would cap it at one row
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

void BeamTreeLegend::setGroupCount(int groups) {
    groups = std::max(1, groups);
    if (groups == groups_) return;
    groups_ = groups;
    updateGeometry();
    update();
}

QList<BeamTreeLegend::Entry> BeamTreeLegend::entries() const {
    QList<Entry> e{
        {Swatch::Kept, -1, tr("kept (running beam)")},
        {Swatch::Pruned, -1, tr("pruned (#rank, p when cut)")},
        {Swatch::Finished, -1, tr("finished (#n-best rank)")},
        {Swatch::Evicted, -1, tr("evicted (pushed out of the best)")},
        {Swatch::Path, -1, tr("n-best path")},
        {Swatch::Kv, -1, tr("KV blocks \u21c4 shared with another beam")},
    };
    if (groups_ > 1)
        for (int g = 0; g < groups_; ++g) e.append({Swatch::Group, g, tr("group %1").arg(g + 1)});
    return e;
}

QStringList BeamTreeLegend::labels() const {
    QStringList out;
    for (const Entry& e : entries()) out << e.label;
    return out;
}

int BeamTreeLegend::entryWidth(const Entry& e) const {
    return kSwatchW + kGap + fontMetrics().horizontalAdvance(e.label);
}

int BeamTreeLegend::flow(int width, QList<QPoint>* origins) const {
    const int lineH = fontMetrics().height() + 2 * kPad;
    int x = 0, y = 0;
    for (const Entry& e : entries()) {
        const int w = entryWidth(e);
        if (x > 0 && x + w > width) {
            x = 0;
            y += lineH;
        }
        if (origins) origins->append(QPoint(x, y));
        x += w + kSpacing;
    }
    return y + lineH;
}

QSize BeamTreeLegend::sizeHint() const {
    int w = 0;
    for (const Entry& e : entries()) w += entryWidth(e) + kSpacing;
    return {w, fontMetrics().height() + 2 * kPad};
}

QSize BeamTreeLegend::minimumSizeHint() const {
    int w = 0;
    for (const Entry& e : entries()) w = std::max(w, entryWidth(e));
    return {w, fontMetrics().height() + 2 * kPad};
}

int BeamTreeLegend::heightForWidth(int width) const { return flow(width, nullptr); }

void BeamTreeLegend::paintSwatch(QPainter& p, const QRect& r, const Entry& e) const {
    const QPalette& pal = palette();
    auto box = [&](BeamTreeNode::State s) {
        const BeamNodeStyle st = beamNodeStyle(s, pal);
        p.setBrush(st.fill);
        p.setPen(QPen(st.border, st.borderWidth, st.borderStyle));
        p.drawRoundedRect(QRectF(r).adjusted(1, 1, -1, -1), 3, 3);
        return st;
    };
    switch (e.swatch) {
        case Swatch::Kept: box(BeamTreeNode::State::Kept); break;
        case Swatch::Pruned: box(BeamTreeNode::State::Pruned); break;
        case Swatch::Finished: {
            const BeamNodeStyle st = box(BeamTreeNode::State::Finished);
            p.fillRect(QRectF(r.right() - 5, r.top() + 2, 3, r.height() - 4), st.border);  // the end marker
            break;
        }
        case Swatch::Evicted: {
            const BeamNodeStyle st = box(BeamTreeNode::State::Evicted);
            p.setPen(QPen(st.text, 1.2));
            p.drawLine(QPointF(r.left() + 4, r.center().y() + 0.5), QPointF(r.right() - 4, r.center().y() + 0.5));
            break;
        }
        case Swatch::Path:
            p.setPen(QPen(beamPathColour(pal), 3.5, Qt::SolidLine, Qt::RoundCap));
            p.drawLine(QPointF(r.left() + 2, r.center().y() + 0.5), QPointF(r.right() - 2, r.center().y() + 0.5));
            break;
        case Swatch::Kv: {
            const QColor c = kvBadgeColour(pal);
            p.setPen(Qt::NoPen);
            p.setBrush(c);
            p.drawRoundedRect(QRectF(r).adjusted(0, 2, 0, -2), 5, 5);
            QFont f = font();
            f.setPointSizeF(f.pointSizeF() * 0.75);
            p.setFont(f);
            p.setPen(readableTextOn(c));
            p.drawText(r, Qt::AlignCenter, QStringLiteral("KV"));
            p.setFont(font());
            break;
        }
        case Swatch::Group: {
            const BeamNodeStyle st = box(BeamTreeNode::State::Kept);
            const QColor g = beamGroupColour(e.group, pal);
            p.setBrush(mix(st.fill, g, 0.30));
            p.setPen(QPen(st.border, st.borderWidth));
            p.drawRoundedRect(QRectF(r).adjusted(1, 1, -1, -1), 3, 3);
            p.fillRect(QRectF(r.left() + 1.5, r.top() + 1.5, 4, r.height() - 3), g);
            break;
        }
    }
}

void BeamTreeLegend::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    QList<QPoint> origins;
    flow(width(), &origins);
    const QList<Entry> es = entries();
    const int lineH = fontMetrics().height() + 2 * kPad;
    for (int i = 0; i < es.size(); ++i) {
        const QPoint o = origins[i];
        paintSwatch(p, QRect(o.x(), o.y() + kPad, kSwatchW, lineH - 2 * kPad), es[i]);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(o.x() + kSwatchW + kGap, o.y(), entryWidth(es[i]) - kSwatchW - kGap, lineH),
                   Qt::AlignVCenter | Qt::AlignLeft, es[i].label);
    }
}

}  // namespace dlab::widgets
