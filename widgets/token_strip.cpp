#include "widgets/token_strip.h"

#include <QHelpEvent>
#include <QLocale>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QStaticText>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace dlab::widgets {

namespace {

constexpr int kMargin = 4;            // around the flow of chips
constexpr int kPadX = 3, kPadY = 1;   // text inside a chip
constexpr int kGapX = 2, kGapY = 3;   // between chips in a row / between rows
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

QColor mix(const QColor& from, const QColor& to, double t) {
    const double u = 1.0 - t;
    return QColor::fromRgbF(float(u * from.redF() + t * to.redF()), float(u * from.greenF() + t * to.greenF()),
                            float(u * from.blueF() + t * to.blueF()));
}

// WCAG relative luminance: the threshold 0.179 is where black and white text have equal contrast.
QColor readableTextOn(const QColor& bg) {
    auto lin = [](double c) { return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); };
    const double l = 0.2126 * lin(bg.redF()) + 0.7152 * lin(bg.greenF()) + 0.0722 * lin(bg.blueF());
    return l > 0.179 ? QColor(Qt::black) : QColor(Qt::white);
}

bool isDark(const QPalette& pal) { return pal.color(QPalette::Base).lightness() < 128; }

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
    return {fm.height() + 2 * kPadY, fm.ascent()};
}

int TokenStrip::layoutWidthFor(int width) const { return std::max(width, 2 * kMargin + kMinChip); }

void TokenStrip::ensureWidths() const {
    if (widths_.size() == tokens_.size()) return;
    const QFontMetrics fm(font());
    for (qsizetype i = widths_.size(); i < tokens_.size(); ++i) {
        // QStaticText keeps the shaped glyphs: repaints skip text shaping, the bulk of a chip's cost.
        QStaticText label(chipLabel(tokens_[i].text));
        label.setTextFormat(Qt::PlainText);
        label.setPerformanceHint(QStaticText::AggressiveCaching);
        labels_.append(label);
        widths_.append(std::max(kMinChip, fm.horizontalAdvance(label.text()) + 2 * kPadX));
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
    return rects.last().bottom() + 1 + kMargin;  // rows only grow downwards: the last chip is lowest
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
    hfwHeight_ = tokens_.isEmpty() ? 2 * kMargin + lineHeight : last.bottom() + 1 + kMargin;
    return hfwHeight_;
}

QSize TokenStrip::sizeHint() const {
    constexpr int kPreferredWidth = 400;
    return {kPreferredWidth, heightForWidth(kPreferredWidth)};
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

QColor TokenStrip::backgroundFor(double p) const {
    const QPalette& pal = palette();
    // Saturated teal-blue; a brighter one on dark bases so near-certain chips still stand out.
    const QColor accent = isDark(pal) ? QColor(0x3d, 0xa5, 0xd9) : QColor(0x1f, 0x6f, 0xb5);
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
    QList<TokenAlternative> rows = t.alternatives;
    const bool chosenListed =
        std::any_of(rows.cbegin(), rows.cend(), [&](const TokenAlternative& a) { return a.id == t.id; });
    if (!chosenListed) rows.append({t.id, t.text, t.p, -1.0});  // raw p unknown: shown as a dash
    std::stable_sort(rows.begin(), rows.end(),
                     [](const TokenAlternative& a, const TokenAlternative& b) { return a.p > b.p; });

    QString html = QStringLiteral("<p>%1%2</p><table cellspacing='0' cellpadding='2'>")
                       .arg(tr("Step %1").arg(t.step),
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

    auto it = std::lower_bound(rects_.cbegin(), rects_.cend(), dirty.top(),
                               [](const QRect& r, int y) { return r.bottom() < y; });
    for (; it != rects_.cend() && it->top() <= dirty.bottom(); ++it) {
        if (!it->intersects(dirty)) continue;
        const int i = int(it - rects_.cbegin());
        const StripToken& t = tokens_[i];
        const QRect& chip = *it;
        const bool inLoop = i >= highlightFirst_ && i < highlightFirst_ + highlightCount_;

        QColor bg = backgroundFor(t.p);
        if (inLoop) bg = mix(bg, kLoopColour, 0.35);
        painter.fillRect(chip, bg);
        if (inLoop) painter.fillRect(QRect(chip.left(), chip.bottom() - 1, chip.width(), 2), kLoopColour);
        if (t.forced) {
            painter.setPen(QPen(pal.color(QPalette::Text), 1.0, Qt::DashLine));
            painter.drawRect(chip.adjusted(0, 0, -1, -1));
        }
        if (i == hovered_) {
            painter.setPen(QPen(pal.color(QPalette::Highlight), 1.0));
            painter.drawRect(chip.adjusted(0, 0, -1, -1));
            painter.drawRect(chip.adjusted(1, 1, -2, -2));
        }

        painter.setPen(readableTextOn(bg));
        const QPoint topLeft(chip.x() + kPadX, chip.y() + kPadY);
        if (widths_[i] > chip.width()) {
            painter.drawText(topLeft + QPoint(0, ascent),
                             fm.elidedText(labels_[i].text(), Qt::ElideRight, chip.width() - 2 * kPadX));
        } else {
            painter.drawStaticText(topLeft, labels_[i]);
        }
    }
}

bool TokenStrip::event(QEvent* e) {
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
