#include "widgets/token_strip.h"

#include <QHelpEvent>
#include <QLocale>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollArea>
#include <QScrollBar>
#include <QFontDatabase>
#include <QStaticText>
#include <QToolTip>

#include <algorithm>
#include <cmath>

#include "widgets/palette_colors.h"

namespace dlab::widgets {

namespace {

constexpr int kMargin = 2;            // around the flow of chips; = kGapY, so a row scrolled to the top
                                      // shows nothing of the row above
// Chips touch: the text reads as text ("adored", not "ad ored"); a one-pixel separator over the
// glyphs' side bearing shows where one token ends. Special tokens and id chips get room.
constexpr int kPadX = 0, kPadY = 1;   // text inside an ordinary chip
constexpr int kBoxPadX = 3;           // inside a framed (special) chip or one with its id
constexpr int kGapX = 0, kGapY = 2;   // between chips in a row / between rows
constexpr int kMinChip = 8;           // an empty chip (a partial UTF-8 byte) still needs a target

const QChar kReturnGlyph(0x21B5);     // ↵
const QChar kTabGlyph(0x21E5);        // ⇥
const QChar kSpaceGlyph(0x2423);      // ␣ (only where a space would otherwise vanish)

// Newlines and tabs would be invisible (or break the painter's single line): show a glyph.
// Other C0 controls get their Unicode "control picture" (U+2400 + code).
QString chipLabel(const QString& text) {
    QString out;
    out.reserve(text.size());
    for (int i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (c == u'\r' && i + 1 < text.size() && text[i + 1] == u'\n') continue;
        if (c == u'\n' || c == u'\r') out += kReturnGlyph;
        else if (c == u'\t') out += kTabGlyph;
        else if (c.unicode() < 0x20) out += QChar(0x2400 + c.unicode());
        else if (c.unicode() == 0x7f) out += QChar(0x2421);
        else out += c;
    }
    return out;
}

// Tooltips and menus trim and collapse whitespace, so edge spaces are shown as ␣.
QString listedText(const QString& text) {
    QString s = chipLabel(text);
    int lead = 0;
    while (lead < s.size() && s[lead] == u' ') s[lead++] = kSpaceGlyph;
    for (int i = s.size() - 1; i >= lead && s[i] == u' '; --i) s[i] = kSpaceGlyph;
    return s;
}

bool isLineBreakOnly(const QString& text) {
    return !text.isEmpty() && std::all_of(text.cbegin(), text.cend(), [](QChar c) { return c == u'\n' || c == u'\r'; });
}

const QColor kLoopColour(0xe0, 0x5a, 0x00);  // the highlighted span: orange-red in both palettes

}  // namespace

TokenStrip::TokenStrip(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);  // hover outline and tokenHovered without a pressed button
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);  // QScrollArea (widgetResizable) asks heightForWidth only then
    setSizePolicy(policy);
}

// --- content ----------------------------------------------------------------------------------

void TokenStrip::setTokens(const QList<StripToken>& tokens) {
    tokens_ = tokens;
    hovered_ = -1;
    labels_.clear();
    widths_.clear();
    invalidateLayout();
    updateGeometry();
    update();
}

void TokenStrip::appendToken(const StripToken& token) {
    const bool laidOut = layoutWidth_ == layoutWidthFor(width()) && rects_.size() == tokens_.size();
    const int oldHeight = laidOut ? contentHeight(rects_) : -1;
    tokens_.append(token);
    ensureLayout();  // at an unchanged width this places only the new chip
    if (contentHeight(rects_) != oldHeight) updateGeometry();
    updateChip(int(tokens_.size()) - 1);
}

void TokenStrip::appendTokens(const QList<StripToken>& tokens) {
    for (const StripToken& t : tokens) appendToken(t);
}

void TokenStrip::clear() {
    setTokens({});
    setHighlight(0, 0);
}

QString TokenStrip::text() const {
    QString s;
    for (const StripToken& t : tokens_) s += t.text;
    return s;
}

void TokenStrip::setHighlight(int first, int count) {
    first = std::max(0, first);
    count = std::max(0, count);
    if (first == highlightFirst_ && count == highlightCount_) return;
    highlightFirst_ = first;
    highlightCount_ = count;
    update();
}

// --- layout -----------------------------------------------------------------------------------

TokenStrip::Metrics TokenStrip::metrics() const {
    const QFontMetrics fm(font());
    const int text = fm.height() + 2 * kPadY;
    const int ids = showIds_ ? QFontMetrics(idFont()).height() : 0;
    return {text + ids, fm.ascent(), text};
}

QFont TokenStrip::idFont() const {
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() > 0 ? f.pointSizeF() * 0.8 : 8.0);
    return f;
}

QFont TokenStrip::specialFont() const {
    QFont f = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    if (font().pointSizeF() > 0) f.setPointSizeF(font().pointSizeF() * 0.9);
    else f.setPixelSize(font().pixelSize());
    return f;
}

int TokenStrip::rowPitch() const { return metrics().lineHeight + kGapY; }

void TokenStrip::setShowIds(bool show) {
    if (show == showIds_) return;
    showIds_ = show;
    invalidateMetrics();
    updateGeometry();
    update();
}

void TokenStrip::setLineScale(double scale) {
    scale = std::clamp(scale, 0.5, 6.0);
    if (scale == lineScale_) return;
    lineScale_ = scale;
    update();
}

void TokenStrip::setPreferredRows(int rows) {
    preferredRows_ = std::max(1, rows);
    updateGeometry();
}

// --- whole rows in a scroll area ------------------------------------------------------------------

int TokenStrip::viewportHeight() const {
    const QWidget* vp = parentWidget();
    auto* area = vp ? qobject_cast<const QAbstractScrollArea*>(vp->parentWidget()) : nullptr;
    return area && area->viewport() == vp ? vp->height() : -1;
}

// Rows sit at kMargin + r * pitch. Scrolled by whole pitches, the viewport's first row is whole;
// a height that exceeds the viewport by whole pitches makes the last scroll position whole too.
int TokenStrip::alignedHeight(int content) const {
    const int view = viewportHeight();
    if (view <= 0 || content <= view) return content;
    const int pitch = rowPitch();
    const int over = content - view;
    return view + (over + pitch - 1) / pitch * pitch;
}

void TokenStrip::attachToScrollArea() {
    QScrollBar* bar = nullptr;
    if (viewportHeight() >= 0) bar = static_cast<QAbstractScrollArea*>(parentWidget()->parentWidget())->verticalScrollBar();
    if (bar == scrollBar_) return;
    if (scrollBar_) disconnect(scrollBar_, nullptr, this, nullptr);
    scrollBar_ = bar;
    if (bar) {
        connect(bar, &QScrollBar::valueChanged, this, &TokenStrip::snapScroll);
        connect(bar, &QScrollBar::rangeChanged, this, [this] { snapScroll(scrollBar_->value()); });
    }
}

void TokenStrip::snapScroll(int value) {
    if (!scrollBar_) return;
    const int pitch = rowPitch();
    scrollBar_->setSingleStep(pitch);
    if (value == scrollBar_->maximum() || value % pitch == 0) return;
    scrollBar_->setValue(std::min(scrollBar_->maximum(), (value + pitch / 2) / pitch * pitch));
}

int TokenStrip::layoutWidthFor(int width) const { return std::max(width, 2 * kMargin + kMinChip); }

void TokenStrip::ensureWidths() const {
    if (widths_.size() == tokens_.size()) return;
    const QFontMetrics fm(font());
    for (qsizetype i = widths_.size(); i < tokens_.size(); ++i) {
        // QStaticText keeps the shaped glyphs: repaints skip text shaping, the bulk of a chip's cost.
        const StripToken& t = tokens_[i];
        QStaticText label(chipLabel(t.text));
        label.setTextFormat(Qt::PlainText);
        label.setPerformanceHint(QStaticText::AggressiveCaching);
        labels_.append(label);
        // Rounded up: elidedText() measures in fractional pixels, and a shortfall of half a pixel
        // would elide "<|im_start|>" in its own chip.
        int w = t.special ? int(std::ceil(QFontMetricsF(specialFont()).horizontalAdvance(label.text()))) + 1
                          : fm.horizontalAdvance(label.text());
        if (showIds_) w = std::max(w, QFontMetrics(idFont()).horizontalAdvance(QString::number(t.id)));
        const int pad = t.special || showIds_ ? kBoxPadX : kPadX;
        widths_.append(std::max(kMinChip, w + 2 * pad));
    }
}

TokenStrip::FlowCursor TokenStrip::startCursor() const { return {kMargin, kMargin, 0}; }

QRect TokenStrip::placeChip(FlowCursor& cursor, int index, int availableRight, int lineHeight) const {
    // A chip wider than the row is clipped (and its text elided) rather than overflowing.
    int w = std::min(widths_[index], availableRight - kMargin);
    if (cursor.pendingBreaks > 0) {
        cursor.y += cursor.pendingBreaks * (lineHeight + kGapY);
        cursor.x = kMargin;
    } else if (cursor.x > kMargin && cursor.x + w > availableRight) {
        // A bare ↵ ends the row it is on: squeezed into the margin rather than left alone on a row.
        const int room = availableRight + kMargin - cursor.x;
        if (isLineBreakOnly(tokens_[index].text) && room >= kMinChip / 2) {
            w = std::min(w, room);
        } else {
            cursor.y += lineHeight + kGapY;
            cursor.x = kMargin;
        }
    }
    const QRect r(cursor.x, cursor.y, w, lineHeight);
    cursor.x += w + kGapX;
    cursor.pendingBreaks = int(tokens_[index].text.count(u'\n'));
    return r;
}

void TokenStrip::ensureLayout() const {
    ensureWidths();
    const int w = layoutWidthFor(width());
    if (w != layoutWidth_) {
        rects_.clear();
        layoutWidth_ = w;
        cursor_ = startCursor();
    }
    if (rects_.size() == tokens_.size()) return;
    const int lineHeight = metrics().lineHeight;
    for (qsizetype i = rects_.size(); i < tokens_.size(); ++i)
        rects_.append(placeChip(cursor_, int(i), w - kMargin, lineHeight));
}

int TokenStrip::contentHeight(const QList<QRect>& rects) const {
    if (rects.isEmpty()) return 2 * kMargin + metrics().lineHeight;
    return alignedHeight(rects.last().bottom() + 1 + kMargin);  // rows only grow downwards: the last chip is lowest
}

void TokenStrip::invalidateLayout() {
    rects_.clear();
    layoutWidth_ = -1;
    hfwWidth_ = -1;
}

void TokenStrip::invalidateMetrics() {
    widths_.clear();
    labels_.clear();
    invalidateLayout();
}

int TokenStrip::heightForWidth(int width) const {
    const int w = layoutWidthFor(width);
    hfwWidth_ = -1;  // the viewport's height (row alignment) may have changed since
    if (w == layoutWidthFor(this->width())) {
        ensureLayout();
        return contentHeight(rects_);
    }
    if (hfwWidth_ == w && hfwCount_ == tokens_.size()) return hfwHeight_;
    // A layout asking about another width: flow once without touching the cached rectangles.
    ensureWidths();
    const int lineHeight = metrics().lineHeight;
    FlowCursor c = startCursor();
    QRect last;
    for (qsizetype i = 0; i < tokens_.size(); ++i) last = placeChip(c, int(i), w - kMargin, lineHeight);
    hfwWidth_ = w;
    hfwCount_ = int(tokens_.size());
    hfwHeight_ = tokens_.isEmpty() ? 2 * kMargin + lineHeight : alignedHeight(last.bottom() + 1 + kMargin);
    return hfwHeight_;
}

QSize TokenStrip::sizeHint() const {
    // A few lines of text whatever the content: the strip is the page's main output, and a scroll
    // area around it (or a splitter) gives it more.
    return {QFontMetrics(font()).averageCharWidth() * 60, 2 * kMargin + preferredRows_ * rowPitch() - kGapY};
}

QSize TokenStrip::minimumSizeHint() const {
    return {2 * kMargin + 4 * kMinChip, 2 * kMargin + metrics().lineHeight};
}

int TokenStrip::tokenAt(const QPoint& pos) const {
    ensureLayout();
    // Rows run top to bottom, so bottoms never decrease: binary-search the first row at pos.y.
    auto it = std::lower_bound(rects_.cbegin(), rects_.cend(), pos.y(),
                               [](const QRect& r, int y) { return r.bottom() < y; });
    for (; it != rects_.cend() && it->top() <= pos.y(); ++it)
        if (it->contains(pos)) return int(it - rects_.cbegin());
    return -1;
}

QRect TokenStrip::tokenRect(int index) const {
    if (index < 0 || index >= tokens_.size()) return {};
    ensureLayout();
    return rects_[index];
}

// --- colours and text -------------------------------------------------------------------------

QColor TokenStrip::backgroundFor(double p) const { return backgroundFor(p, palette()); }

QColor TokenStrip::backgroundFor(double p, const QPalette& pal) {
    if (p < 0.0) return pal.color(QPalette::AlternateBase);   // no probability: a prompt token
    // Saturated teal-blue; a brighter one on dark bases so near-certain chips still stand out.
    const QColor accent = probabilityAccent(pal);
    // Even p = 0 keeps a faint tint: the chip must stay visible as a target.
    const double strength = 0.08 + 0.84 * std::clamp(p, 0.0, 1.0);
    return mix(pal.color(QPalette::Base), accent, strength);
}

QString TokenStrip::percent(double p) const {
    if (p > 0.0 && p < 0.0005) return tr("< %1 %").arg(locale().toString(0.1, 'f', 1));
    return tr("%1 %").arg(locale().toString(p * 100.0, 'f', 1));
}

QString TokenStrip::toolTipFor(int index) const {
    if (index < 0 || index >= tokens_.size()) return {};
    const StripToken& t = tokens_[index];
    if (t.step < 0)   // a prompt token: no step chose it
        return QStringLiteral("<p>%1</p>").arg(tr("Prompt token %1 of %2 · id %3%4")
                                                   .arg(index + 1)
                                                   .arg(tokens_.size())
                                                   .arg(t.id)
                                                   .arg(t.special ? QStringLiteral(" · ") + tr("special (control) token") : QString()));
    QList<TokenAlternative> rows = t.alternatives;
    const bool chosenListed =
        std::any_of(rows.cbegin(), rows.cend(), [&](const TokenAlternative& a) { return a.id == t.id; });
    if (!chosenListed) rows.append({t.id, t.text, t.p, -1.0});  // raw p unknown: shown as a dash
    std::stable_sort(rows.begin(), rows.end(),
                     [](const TokenAlternative& a, const TokenAlternative& b) { return a.p > b.p; });

    QString html = QStringLiteral("<p>%1%2</p><table cellspacing='0' cellpadding='2'>")
                       .arg(tr("Step %1").arg(t.step + 1),   // counted from 1 on screen
                            t.forced ? QStringLiteral(" &middot; ") + tr("chosen by you") : QString());
    html += QStringLiteral("<tr><th align='left'>%1</th><th align='right'>%2</th><th align='right'>%3</th>"
                           "<th></th></tr>")
                .arg(tr("token"), tr("p"), tr("raw p"));
    for (const TokenAlternative& a : rows) {
        const bool chosen = a.id == t.id;
        const QString raw = a.rawP < 0.0 ? QStringLiteral("&mdash;") : QStringLiteral("(%1)").arg(percent(a.rawP));
        QString row = QStringLiteral("<tr><td>%1</td><td align='right'>%2</td><td align='right'>%3</td><td>%4</td></tr>")
                          .arg(listedText(a.text).toHtmlEscaped(), percent(a.p), raw,
                               chosen ? QStringLiteral("&larr; ") + tr("chosen") : QString());
        if (chosen) row.replace(QStringLiteral("<td"), QStringLiteral("<td style='font-weight:bold'"));
        html += row;
    }
    html += QStringLiteral("</table>");
    if (t.mask.removed >= 0.0)
        html += QStringLiteral("<p>%1</p>").arg(tr("The grammar forbade %n token(s) here, %1 of the probability.", nullptr, t.mask.forbidden)
                                                     .arg(percent(t.mask.removed)));
    return html;
}

QMenu* TokenStrip::alternativesMenu(int index) {
    if (!branching_ || index < 0 || index >= tokens_.size()) return nullptr;
    const StripToken& t = tokens_[index];
    auto* menu = new QMenu(this);
    menu->addSection(tr("Continue with"));
    int offered = 0;
    for (const TokenAlternative& a : t.alternatives) {
        if (a.id == t.id) continue;
        // Text after '\t' is QMenu's right-aligned shortcut column: the percentages line up.
        QString label = listedText(a.text);
        label.replace(u'&', QStringLiteral("&&"));
        QAction* action = menu->addAction(label + u'\t' + percent(a.p));
        action->setData(a.id);
        ++offered;
    }
    if (offered == 0) {
        delete menu;
        return nullptr;
    }
    connect(menu, &QMenu::triggered, this, [this, step = t.step](QAction* action) {
        if (action->data().isValid()) emit alternativeChosen(step, action->data().toInt());
    });
    return menu;
}

// --- events -----------------------------------------------------------------------------------

void TokenStrip::updateChip(int index) {
    if (index < 0 || index >= tokens_.size()) return;
    update(tokenRect(index).adjusted(-2, -2, 2, 2));  // outlines are drawn inside, AA may bleed a pixel
}

void TokenStrip::paintEvent(QPaintEvent* e) {
    ensureLayout();
    // Square chips, no antialiasing: rounded, antialiased chips cost ~5x more per chip to fill,
    // and a streamed answer repaints a screenful of them every few tokens.
    QPainter painter(this);
    const QFontMetrics fm(font());
    const int ascent = fm.ascent();
    const QRect dirty = e->rect();
    const QPalette& pal = palette();

    // In a scroll area only whole rows are drawn: a row the viewport cuts at the bottom (its height
    // is rarely a whole number of rows) stays blank until scrolled in, never half a line of text.
    const QRect visible = viewportHeight() >= 0 ? QRect(mapFrom(parentWidget(), QPoint(0, 0)), parentWidget()->size()) : rect();
    auto it = std::lower_bound(rects_.cbegin(), rects_.cend(), dirty.top(),
                               [](const QRect& r, int y) { return r.bottom() < y; });
    for (; it != rects_.cend() && it->top() <= dirty.bottom(); ++it) {
        if (!it->intersects(dirty)) continue;
        if (it->bottom() > visible.bottom() || it->top() < visible.top()) continue;
        const int i = int(it - rects_.cbegin());
        const StripToken& t = tokens_[i];
        const QRect& chip = *it;
        const bool inLoop = i >= highlightFirst_ && i < highlightFirst_ + highlightCount_;

        QColor bg = backgroundFor(t.p);
        if (inLoop) bg = mix(bg, kLoopColour, 0.35);
        painter.fillRect(chip, bg);
        const QColor ink = readableTextOn(bg);
        const int line = std::max(1, int(std::lround(lineScale_)));
        // The thin separator between two tokens of a row, over the glyphs' side bearing.
        if (chip.left() > kMargin && !t.special) {
            QColor sep = ink;
            sep.setAlphaF(0.28f);
            painter.fillRect(QRect(chip.left(), chip.top() + 1, 1, chip.height() - 2), sep);
        }
        if (inLoop) painter.fillRect(QRect(chip.left(), chip.bottom() + 1 - 2 * line, chip.width(), 2 * line), kLoopColour);
        if (t.special) {
            painter.setPen(QPen(ink, line));
            painter.drawRect(chip.adjusted(line / 2, line / 2, -1 - (line - 1) / 2, -1 - (line - 1) / 2));
        }
        if (t.forced) {
            painter.setPen(QPen(pal.color(QPalette::Text), line, Qt::DashLine));
            painter.drawRect(chip.adjusted(0, 0, -1, -1));
        }
        if (i == hovered_) {
            painter.setPen(QPen(pal.color(QPalette::Highlight), 2 * line));
            painter.drawRect(chip.adjusted(line, line, -line, -line));
        }

        painter.setPen(ink);
        const int pad = t.special || showIds_ ? kBoxPadX : kPadX;
        const QPoint topLeft(chip.x() + pad, chip.y() + kPadY);
        if (t.special) {
            const QFont special = specialFont();
            const QFontMetrics sfm(special);
            painter.setFont(special);
            const int baseline = chip.y() + kPadY + (metrics().textHeight - 2 * kPadY + sfm.ascent() - sfm.descent()) / 2;
            painter.drawText(QPoint(topLeft.x(), baseline),
                             sfm.elidedText(labels_[i].text(), Qt::ElideRight, chip.width() - 2 * pad));
            painter.setFont(font());
        } else if (widths_[i] > chip.width()) {
            painter.drawText(topLeft + QPoint(0, ascent),
                             fm.elidedText(labels_[i].text(), Qt::ElideRight, chip.width() - 2 * pad));
        } else {
            painter.drawStaticText(topLeft, labels_[i]);
        }
        if (showIds_) {
            const QFont ids = idFont();
            painter.setFont(ids);
            QColor faint = ink;
            faint.setAlphaF(0.8f);
            painter.setPen(faint);
            painter.drawText(QRect(chip.left(), chip.top() + metrics().textHeight, chip.width(),
                                   chip.height() - metrics().textHeight),
                             Qt::AlignHCenter | Qt::AlignTop, QString::number(t.id));
            painter.setFont(font());
        }
    }
}

bool TokenStrip::event(QEvent* e) {
    if (e->type() == QEvent::ParentChange) attachToScrollArea();  // QScrollArea::setWidget reparents
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const int i = tokenAt(help->pos());
        if (i >= 0) QToolTip::showText(help->globalPos(), toolTipFor(i), this, tokenRect(i));
        else QToolTip::hideText();
        return true;
    }
    return QWidget::event(e);
}

void TokenStrip::mouseMoveEvent(QMouseEvent* e) {
    const int i = tokenAt(e->position().toPoint());
    if (i != hovered_) {
        const int old = hovered_;
        hovered_ = i;
        updateChip(old);
        updateChip(i);
        emit tokenHovered(i);
    }
    QWidget::mouseMoveEvent(e);
}

void TokenStrip::mousePressEvent(QMouseEvent* e) {
    if (e->button() == Qt::LeftButton) {
        const int i = tokenAt(e->position().toPoint());
        if (QMenu* menu = alternativesMenu(i)) {
            menu->setAttribute(Qt::WA_DeleteOnClose);
            menu->popup(mapToGlobal(tokenRect(i).bottomLeft()));
            e->accept();
            return;
        }
    }
    QWidget::mousePressEvent(e);
}

void TokenStrip::leaveEvent(QEvent* e) {
    if (hovered_ != -1) {
        updateChip(hovered_);
        hovered_ = -1;
        emit tokenHovered(-1);
    }
    QWidget::leaveEvent(e);
}

void TokenStrip::resizeEvent(QResizeEvent* e) {
    // The flow is re-laid lazily for the new width; only the height the parent should give changes.
    QWidget::resizeEvent(e);
    update();
}

void TokenStrip::changeEvent(QEvent* e) {
    switch (e->type()) {
    case QEvent::FontChange:
        invalidateMetrics();
        updateGeometry();
        update();
        break;
    case QEvent::PaletteChange:
    case QEvent::LanguageChange:  // colours and tooltip words are computed when painted / shown
        update();
        break;
    default:
        break;
    }
    QWidget::changeEvent(e);
}

}  // namespace dlab::widgets
