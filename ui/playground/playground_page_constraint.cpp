// The playground page's constrained decoding: the constraint selector in the controls, the strip
// under the text with the probability mass the grammar removed at each step, and the same prompt
// generated without the constraint beside the text ("Compare with unconstrained"). The chart's
// forbidden marks and the waterfall's grammar panel come with every StepView (step_views.cpp).
// The rest of the page is playground_page.cpp.
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QStyle>
#include <QVBoxLayout>

#include "ui/playground/constraint_box.h"
#include "ui/playground/playground_page.h"
#include "ui_playground_page.h"
#include "widgets/mask_strip.h"
#include "widgets/probability_legend.h"
#include "widgets/text_line.h"
#include "widgets/token_strip.h"

namespace dlab::ui {

namespace {
// "12.5 %"; "< 0.1 %" and "> 99.9 %" where one decimal would round a share to nothing or to all.
QString percentText(double x) {
    const QLocale loc;
    if (x > 0.0 && x < 0.0005) return PlaygroundPage::tr("< %1 %").arg(loc.toString(0.1, 'f', 1));
    if (x < 1.0 && x > 0.9995) return PlaygroundPage::tr("> %1 %").arg(loc.toString(99.9, 'f', 1));
    return PlaygroundPage::tr("%1 %").arg(loc.toString(x * 100.0, 'f', 1));
}
}  // namespace

void PlaygroundPage::buildConstraintViews() {
    // The selector: right above the sampler (the grammar is the chain's first stage).
    constraintBox_ = new ConstraintBox(ui_->controlsPanel);
    ui_->controlsLayout->insertWidget(ui_->controlsLayout->indexOf(ui_->samplerBox), constraintBox_);
    connect(constraintBox_, &ConstraintBox::choiceChanged, this, [this] {
        requestConstraint();
        fitControlsWidth();
        emit settingsChanged();
    });
    connect(constraintBox_, &ConstraintBox::compareChanged, this, [this](bool on) {
        emit compareRequested(on);
        updateConstraintViews();
        emit settingsChanged();
    });

    // The text box: the strip and the mask strip under it on the left, the unconstrained text on
    // the right (hidden unless comparing).
    QVBoxLayout* text = ui_->textLayout;
    const int at = text->indexOf(ui_->stripArea);
    text->removeWidget(ui_->stripArea);
    textSplit_ = new QSplitter(Qt::Horizontal, ui_->textBox);
    textSplit_->setObjectName(QStringLiteral("textSplit"));
    textSplit_->setChildrenCollapsible(false);
    auto* left = new QWidget(textSplit_);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->setSpacing(2);
    leftLayout->addWidget(ui_->stripArea, 1);
    maskRow_ = new QWidget(left);
    maskRow_->setObjectName(QStringLiteral("maskRow"));
    auto* row = new QHBoxLayout(maskRow_);
    row->setContentsMargins(0, 0, 0, 0);
    maskLabel_ = new QLabel(maskRow_);
    maskStrip_ = new widgets::MaskStrip(maskRow_);
    maskStrip_->setObjectName(QStringLiteral("maskStrip"));
    maskSummary_ = new QLabel(maskRow_);
    maskSummary_->setObjectName(QStringLiteral("maskSummary"));
    row->addWidget(maskLabel_);
    row->addWidget(maskStrip_);
    row->addWidget(maskSummary_);
    row->addStretch(1);   // the mean stays beside the bars
    maskRow_->hide();
    leftLayout->addWidget(maskRow_);
    maskColumn_ = leftLayout;
    for (int i = 0; i < text->count() && !legendRow_; ++i)
        if (auto* l = qobject_cast<QHBoxLayout*>(text->itemAt(i)->layout()); l && l->indexOf(legend_) >= 0) legendRow_ = l;
    ui_->textBox->installEventFilter(this);
    textSplit_->addWidget(left);

    unconstrainedColumn_ = new QWidget(textSplit_);
    unconstrainedColumn_->setObjectName(QStringLiteral("unconstrainedColumn"));
    auto* rightLayout = new QVBoxLayout(unconstrainedColumn_);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->setSpacing(2);
    auto* area = new QScrollArea(unconstrainedColumn_);
    area->setObjectName(QStringLiteral("unconstrainedArea"));
    area->setWidgetResizable(true);
    unconstrainedStrip_ = new widgets::TokenStrip;
    unconstrainedStrip_->setObjectName(QStringLiteral("unconstrainedStrip"));
    unconstrainedStrip_->setBranchingEnabled(false);
    area->setWidget(unconstrainedStrip_);
    // Its heading says what it is and where it leaves the grammar (the text box's title and the
    // left column are the constrained text): one row less than a title and a note.
    unconstrainedNote_ = new widgets::TextLine(unconstrainedColumn_);
    unconstrainedNote_->setObjectName(QStringLiteral("unconstrainedNote"));
    unconstrainedNote_->setLines(2);
    rightLayout->addWidget(unconstrainedNote_);
    rightLayout->addWidget(area, 1);
    unconstrainedColumn_->hide();
    textSplit_->addWidget(unconstrainedColumn_);
    textSplit_->setStretchFactor(0, 1);
    textSplit_->setStretchFactor(1, 1);
    text->insertWidget(at, textSplit_, 1);
    // Two rows of tokens at least (a scroll area's own minimum is taller), one for the text without
    // the constraint under its two-line heading: the text box still fits a 1024×700 window.
    ui_->stripArea->setMinimumHeight(2 * strip_->rowPitch() + 2 * ui_->stripArea->frameWidth());
    area->setMinimumHeight(unconstrainedStrip_->rowPitch() + 2 * area->frameWidth());
    // Hovering a token marks its step's bar.
    connect(strip_, &widgets::TokenStrip::tokenHovered, maskStrip_, &widgets::MaskStrip::setHighlight);
}

namespace {
// A box layout's spacing between items (-1 there means the style's).
int spacingOf(const QLayout* l, const QWidget* w) {
    return l->spacing() >= 0 ? l->spacing() : w->style()->pixelMetric(QStyle::PM_LayoutHorizontalSpacing, nullptr, w);
}

// The width a row's items take without `except`: visible widgets (and hidden ones that keep
// their room) at their size hint, with the spacing between them.
int rowWidthWithout(QBoxLayout* row, const QWidget* except, const QWidget* owner) {
    int width = 0, items = 0;
    for (int i = 0; i < row->count(); ++i) {
        QWidget* w = row->itemAt(i)->widget();
        if (!w || w == except) continue;
        if (!w->isVisibleTo(w->parentWidget()) && !w->sizePolicy().retainSizeWhenHidden()) continue;
        width += w->sizeHint().width();
        ++items;
    }
    return width + std::max(0, items - 1) * spacingOf(row, owner);
}
}  // namespace

void PlaygroundPage::placeMaskRow() {
    if (!maskRow_ || !legendRow_ || !captionRow_) return;
    // Where the mask strip goes: beside the shading legend under the text, else in the caption
    // row's free room above it, else under the constrained text (a row of the strip's height).
    // Each place only where the room is there without it: the text keeps its rows.
    const QMargins m = ui_->textLayout->contentsMargins();
    const int room = ui_->textBox->contentsRect().width() - m.left() - m.right();
    const int spacing = spacingOf(maskRow_->layout(), maskRow_);
    const QFontMetrics fm(maskSummary_->font());
    const int need = maskLabel_->sizeHint().width() + maskStrip_->minimumSizeHint().width() +
                     fm.horizontalAdvance(tr("mean %1").arg(tr("%1 %").arg(QLocale().toString(100.0, 'f', 1)))) + 3 * spacing;
    QBoxLayout* current = legendRow_->indexOf(maskRow_) >= 0 ? static_cast<QBoxLayout*>(legendRow_)
                          : captionRow_->indexOf(maskRow_) >= 0 ? static_cast<QBoxLayout*>(captionRow_)
                                                                 : static_cast<QBoxLayout*>(maskColumn_);
    // Staying in a row needs the room it has (its minimum keeps it whole there, so a window
    // shrunk to that minimum moves it out and can shrink further); moving in wants some to spare.
    const auto fits = [&](QBoxLayout* row) {
        const int width = need + 2 * spacingOf(row, ui_->textBox) + rowWidthWithout(row, maskRow_, ui_->textBox);
        return row == current ? width < room : width + fm.averageCharWidth() * 2 <= room;
    };
    QBoxLayout* target = fits(legendRow_) ? static_cast<QBoxLayout*>(legendRow_)
                         : fits(captionRow_) ? static_cast<QBoxLayout*>(captionRow_)
                                             : static_cast<QBoxLayout*>(maskColumn_);
    if (target == current) return;
    for (QBoxLayout* l : {static_cast<QBoxLayout*>(legendRow_), static_cast<QBoxLayout*>(captionRow_), static_cast<QBoxLayout*>(maskColumn_)})
        l->removeWidget(maskRow_);
    // In a row with others it takes what they leave, at least its whole label, bars and mean.
    maskRow_->setMinimumWidth(target == maskColumn_ ? 0 : need);
    legendRow_->setStretchFactor(legend_, target == legendRow_ ? 0 : 1);
    for (int i = 0; i < captionRow_->count(); ++i)   // the caption row's own stretch gives way to it
        if (captionRow_->itemAt(i)->spacerItem()) captionRow_->setStretch(i, target == captionRow_ ? 0 : 1);
    if (target == legendRow_) legendRow_->insertWidget(0, maskRow_, 1);
    else if (target == captionRow_) captionRow_->insertWidget(captionRow_->indexOf(restoreSetupButton_) + 1, maskRow_, 1);
    else maskColumn_->addWidget(maskRow_);
}

void PlaygroundPage::requestConstraint() {
    ++constraintRequest_;
    constraintEpoch_ = sessionEpoch_;
    if (modelReady_) emit constraintRequested(constraintBox_->choice(), constraintRequest_);
}

void PlaygroundPage::showConstraintStatus(const ConstraintStatus& status) {
    if (status.request != constraintRequest_) return;   // an older choice's answer
    constraintBox_->showStatus(status);
    constraintOn_ = status.on;
    fitControlsWidth();
    updateConstraintViews();
    if (replay_) return;
    // (A session started after the request was made already runs under the new constraint.)
    if (sessionStarted_ && !status.fitsSession && constraintEpoch_ == sessionEpoch_) {
        // The text so far breaks the new grammar: no step of it could be re-sampled under it.
        restart();
        ui_->chosenLabel->setText(tr("The text generated so far does not fit the new constraint: the playground starts "
                                     "over from the prompt. Press Step."));
        return;
    }
    if (currentStep_ >= 0 && !running_ && !stepInFlight_ && constraintEpoch_ == sessionEpoch_) {
        // The current step re-sampled under the new constraint (or without one).
        if (resampleInFlight_) resamplePending_ = true;
        else sendResample();
    }
}

void PlaygroundPage::showUnconstrained(const QList<widgets::StripToken>& chips, bool reset, int misfit, bool ended) {
    if (replay_) return;
    if (reset) unconstrainedStrip_->setTokens(chips);
    else unconstrainedStrip_->appendTokens(chips);
    unconstrainedMisfit_ = misfit;
    unconstrainedEnded_ = ended;
    // The first token the grammar would have forbidden, highlighted like a loop.
    unconstrainedStrip_->setHighlight(std::max(0, misfit), misfit >= 0 ? 1 : 0);
    if (auto* area = unconstrainedColumn_->findChild<QScrollArea*>(QStringLiteral("unconstrainedArea")))
        area->verticalScrollBar()->setValue(area->verticalScrollBar()->maximum());   // follow its end
    updateConstraintViews();
}

void PlaygroundPage::syncMaskStrip() {
    QList<widgets::StepMask> steps;
    bool any = false;
    for (const widgets::StripToken& t : strip_->tokens()) {
        steps << t.mask;
        any = any || t.mask.removed >= 0.0;
    }
    maskStrip_->setSteps(any ? steps : QList<widgets::StepMask>{});
    updateConstraintViews();
}

QString PlaygroundPage::maskSummaryText() const { return maskSummary_->text(); }
QString PlaygroundPage::unconstrainedNoteText() const { return unconstrainedNote_->text(); }

void PlaygroundPage::updateConstraintViews() {
    if (!maskRow_) return;
    // The mask strip while a constraint is in force or a step of the text was made under one.
    const bool masked = !maskStrip_->steps().isEmpty();
    maskRow_->setVisible(constraintOn_ || masked);
    maskLabel_->setText(tr("Removed by the grammar"));
    maskLabel_->setToolTip(tr("For each generated token, the share of the probability the grammar forbade at that "
                              "step: the price of the constraint. Hover a bar for the number and the best token it took away."));
    maskStrip_->setToolTip(QString());
    maskSummary_->setText(masked ? tr("mean %1").arg(percentText(maskStrip_->meanRemoved())) : QString());
    maskSummary_->setToolTip(masked ? tr("The grammar removed %1 of the probability on average over these steps, %2 at most.")
                                          .arg(percentText(maskStrip_->meanRemoved()), percentText(maskStrip_->maxRemoved()))
                                    : QString());

    const bool comparing = constraintOn_ && constraintBox_->compareUnconstrained();
    unconstrainedColumn_->setVisible(comparing);
    // A short heading (two lines of half the text box at 1024 px), the whole story in its tooltip.
    QString note, tip;
    const QList<widgets::StripToken>& shadow = unconstrainedStrip_->tokens();
    const QString what = tr("The same prompt with the same settings and seed, generated step by step beside the constrained "
                            "text but without the constraint.");
    if (shadow.isEmpty()) {
        note = tr("Without the constraint (same prompt, settings and seed)");
        tip = what;
    } else if (unconstrainedMisfit_ >= 0 && unconstrainedMisfit_ < shadow.size()) {
        const QString token = printableToken(shadow[unconstrainedMisfit_].text.toStdString());
        note = tr("Without the constraint: leaves it at token %1 (\u201c%2\u201d)").arg(unconstrainedMisfit_ + 1).arg(token);
        tip = what + QLatin1Char(' ') +
              tr("Its token %1 (\u201c%2\u201d, highlighted) is one the grammar forbids there: from it on, this text no longer fits "
                 "the constraint.")
                  .arg(unconstrainedMisfit_ + 1)
                  .arg(token);
    } else if (unconstrainedEnded_) {
        note = tr("Without the constraint: ended, and fits it");
        tip = what + QLatin1Char(' ') + tr("It ended with a text the constraint accepts.");
    } else {
        note = tr("Without the constraint: fits it so far");
        tip = what + QLatin1Char(' ') + tr("Every token so far is one the grammar would have allowed too.");
    }
    unconstrainedNote_->setText(note);
    unconstrainedNote_->setToolTip(tip);
}

}  // namespace dlab::ui
