#pragma once
// Generated text as a strip of token chips. Tokens run on as continuous text (thin separators,
// no gaps, so words read as words); each chip's background shows how probable the chosen token
// was (pale = unlikely, saturated = near certain; ProbabilityLegend explains the ramp); hovering a chip shows its best
// alternatives with their probabilities; clicking a chip opens a menu of those alternatives and
// choosing one emits alternativeChosen(step, id) (the playground branches the generation there).
// A span of chips can be highlighted (the repetition detector's loop).
//
// Painted by hand (no child widget per token) with a cached flow layout, so a 2,000-token answer
// appends and repaints in well under a frame. heightForWidth() makes it usable inside a
// QScrollArea or a layout. Qt only: callers hand in plain StripToken values.
#include <QList>
#include <QMetaType>
#include <QStaticText>
#include <QString>
#include <QWidget>

#include <QPointer>

QT_BEGIN_NAMESPACE
class QMenu;
class QScrollBar;
QT_END_NAMESPACE

namespace dlab::widgets {

struct TokenAlternative {
    int id = -1;
    QString text;         // printable token text
    double p = 0.0;       // probability in the final (after-chain) distribution; 0 when removed
    double rawP = 0.0;    // probability under the raw logits
};

// What a constraint's grammar stage did at the step that chose a token (MaskStrip draws it under
// the text, the chip's tooltip says it).
struct StepMask {
    double removed = -1.0;  // probability mass the grammar forbade at this step; < 0: no constraint
    int forbidden = 0;      // tokens it forbade
    QString best;           // the most probable of them (printable); "" if none
    double bestP = 0.0;     // its probability in the distribution the grammar was given
};

struct StripToken {
    int step = -1;        // the step that chose it (the branch point for alternativeChosen); -1: a prompt token
    int id = -1;
    QString text;         // the token's text as it reads in the output (may be empty for a partial UTF-8 byte)
    double p = 0.0;       // probability of the chosen token in the final distribution; < 0: none (prompt)
    bool forced = false;  // put there by the user (a branch), not sampled
    bool special = false; // a control token (<|im_start|>): drawn framed, in a monospace font
    QList<TokenAlternative> alternatives;  // best few of the final distribution, most probable first
    StepMask mask;        // the constraint's share of this step (removed < 0: none)
};

class TokenStrip : public QWidget {
    Q_OBJECT
public:
    explicit TokenStrip(QWidget* parent = nullptr);

    void setTokens(const QList<StripToken>& tokens);
    void appendToken(const StripToken& token);
    void appendTokens(const QList<StripToken>& tokens);
    void clear();
    const QList<StripToken>& tokens() const { return tokens_; }
    // The strip's text: every token's text concatenated.
    QString text() const;

    // Highlights chips [first, first + count) (count 0 = none), e.g. a detected loop.
    void setHighlight(int first, int count);
    int highlightFirst() const { return highlightFirst_; }
    int highlightCount() const { return highlightCount_; }

    // Each chip shows its token id under its text (the prompt as tokens).
    void setShowIds(bool show);
    bool showIds() const { return showIds_; }
    // Thickness factor for outlines (presentation mode), 1 = normal.
    void setLineScale(double scale);
    double lineScale() const { return lineScale_; }
    // Rows the strip asks for in sizeHint() (it grows beyond with its container), >= 1.
    void setPreferredRows(int rows);
    int preferredRows() const { return preferredRows_; }
    // Distance from one row's top to the next one's: a scroll area around the strip scrolls by
    // whole rows, so no row is ever cut at the top or, at the end, at the bottom.
    int rowPitch() const;

    // Whether clicking offers alternatives (the chat's finished answers may not branch).
    void setBranchingEnabled(bool enabled) { branching_ = enabled; }
    bool branchingEnabled() const { return branching_; }

    // Index of the chip at a point in widget coordinates, or -1.
    int tokenAt(const QPoint& pos) const;
    // The chip's rectangle in widget coordinates (laid out for the current width).
    QRect tokenRect(int index) const;
    // The hover text of chip `index` (what the tooltip shows); exposed for tests.
    QString toolTipFor(int index) const;
    // The chip's background colour for probability p (also used by the legend).
    QColor backgroundFor(double p) const;
    static QColor backgroundFor(double p, const QPalette& palette);
    // The menu a click on chip `index` pops up: one action per alternative other than the chosen
    // token (text and percentage, the token id as the action's data); triggering one emits
    // alternativeChosen(step, id). Parented to the strip; nullptr when branching is off or there is
    // nothing to offer. Public so tests can drive it without a blocking exec().
    QMenu* alternativesMenu(int index);

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void alternativeChosen(int step, int tokenId);
    void tokenHovered(int index);   // -1 when the pointer leaves the chips

protected:
    bool event(QEvent* e) override;           // QEvent::ToolTip
    void paintEvent(QPaintEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void leaveEvent(QEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    void changeEvent(QEvent* e) override;     // palette / font / language changes; parent: scroll area

private:
    // Where the next chip goes while flowing chips into rows.
    struct FlowCursor {
        int x = 0, y = 0;
        int pendingBreaks = 0;  // newlines in the previous chip: rows to skip before the next one
    };
    struct Metrics {        // font-derived sizes, taken fresh where needed
        int lineHeight = 0;  // a whole row: text (and id line)
        int ascent = 0;
        int textHeight = 0;  // the text line alone
    };
    QFont idFont() const;
    QFont specialFont() const;
    void attachToScrollArea();
    void snapScroll(int value);
    int viewportHeight() const;
    int alignedHeight(int content) const;
    Metrics metrics() const;
    int layoutWidthFor(int width) const;
    void ensureWidths() const;
    void ensureLayout() const;
    FlowCursor startCursor() const;
    QRect placeChip(FlowCursor& cursor, int index, int availableRight, int lineHeight) const;
    int contentHeight(const QList<QRect>& rects) const;
    void invalidateLayout();
    void invalidateMetrics();
    void updateChip(int index);
    QString percent(double p) const;

    QList<StripToken> tokens_;
    int highlightFirst_ = 0, highlightCount_ = 0;
    bool branching_ = true;
    int hovered_ = -1;
    bool showIds_ = false;
    double lineScale_ = 1.0;
    int preferredRows_ = 6;
    QPointer<QScrollBar> scrollBar_;  // the enclosing scroll area's, snapped to whole rows
    // (implementation detail: cached chip widths and the laid-out rectangles per width)
    mutable QList<QStaticText> labels_;  // chip text with newlines / tabs made visible, glyphs cached
    mutable QList<int> widths_;       // chip widths in the current font
    mutable QList<QRect> rects_;      // chips laid out for layoutWidth_ (may lag tokens_ by appends)
    mutable int layoutWidth_ = -1;
    mutable FlowCursor cursor_;       // after the last laid-out chip, so an append places one chip
    mutable int hfwWidth_ = -1, hfwCount_ = -1, hfwHeight_ = 0;  // last heightForWidth() at another width
};

}  // namespace dlab::widgets

Q_DECLARE_METATYPE(dlab::widgets::TokenAlternative)
Q_DECLARE_METATYPE(dlab::widgets::StripToken)
