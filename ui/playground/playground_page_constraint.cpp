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
#include <QVBoxLayout>

#include "ui/playground/constraint_box.h"
#include "ui/playground/playground_page.h"
#include "ui_playground_page.h"
#include "widgets/mask_strip.h"
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
    QFont bold = font();
    bold.setBold(true);
    constrainedTitle_ = new QLabel(left);
    constrainedTitle_->setObjectName(QStringLiteral("constrainedTitle"));
    constrainedTitle_->setFont(bold);
    constrainedTitle_->hide();
    leftLayout->addWidget(constrainedTitle_);
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
    row->addWidget(maskStrip_, 1);
    row->addWidget(maskSummary_);
    maskRow_->hide();
    leftLayout->addWidget(maskRow_);
    textSplit_->addWidget(left);

    unconstrainedColumn_ = new QWidget(textSplit_);
    unconstrainedColumn_->setObjectName(QStringLiteral("unconstrainedColumn"));
    auto* rightLayout = new QVBoxLayout(unconstrainedColumn_);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->setSpacing(2);
    unconstrainedTitle_ = new QLabel(unconstrainedColumn_);
    unconstrainedTitle_->setObjectName(QStringLiteral("unconstrainedTitle"));
    unconstrainedTitle_->setFont(bold);
    auto* area = new QScrollArea(unconstrainedColumn_);
    area->setObjectName(QStringLiteral("unconstrainedArea"));
    area->setWidgetResizable(true);
    unconstrainedStrip_ = new widgets::TokenStrip;
    unconstrainedStrip_->setObjectName(QStringLiteral("unconstrainedStrip"));
    unconstrainedStrip_->setBranchingEnabled(false);
    area->setWidget(unconstrainedStrip_);
    unconstrainedNote_ = new widgets::TextLine(unconstrainedColumn_);
    unconstrainedNote_->setObjectName(QStringLiteral("unconstrainedNote"));
    unconstrainedNote_->setLines(2);
    rightLayout->addWidget(unconstrainedTitle_);
    rightLayout->addWidget(area, 1);
    rightLayout->addWidget(unconstrainedNote_);
    unconstrainedColumn_->hide();
    textSplit_->addWidget(unconstrainedColumn_);
    textSplit_->setStretchFactor(0, 1);
    textSplit_->setStretchFactor(1, 1);
    text->insertWidget(at, textSplit_, 1);
    // Hovering a token marks its step's bar.
    connect(strip_, &widgets::TokenStrip::tokenHovered, maskStrip_, &widgets::MaskStrip::setHighlight);
}

void PlaygroundPage::requestConstraint() {
    ++constraintRequest_;
    if (modelReady_) emit constraintRequested(constraintBox_->choice(), constraintRequest_);
}

void PlaygroundPage::showConstraintStatus(const ConstraintStatus& status) {
    if (status.request != constraintRequest_) return;   // an older choice's answer
    constraintBox_->showStatus(status);
    constraintOn_ = status.on;
    fitControlsWidth();
    updateConstraintViews();
    if (replay_) return;
    if (sessionStarted_ && !status.fitsSession) {
        // The text so far breaks the new grammar: no step of it could be re-sampled under it.
        restart();
        ui_->chosenLabel->setText(tr("The text generated so far does not fit the new constraint: the playground starts "
                                     "over from the prompt. Press Step."));
        return;
    }
    if (currentStep_ >= 0 && !running_ && !stepInFlight_) {
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
    constrainedTitle_->setVisible(comparing);
    constrainedTitle_->setText(tr("With the constraint (%1)").arg(constraintBox_->status().description));
    unconstrainedTitle_->setText(tr("Without it (same prompt, settings and seed)"));
    QString note;
    const QList<widgets::StripToken>& shadow = unconstrainedStrip_->tokens();
    if (shadow.isEmpty())
        note = tr("Generated step by step beside the constrained text.");
    else if (unconstrainedMisfit_ >= 0 && unconstrainedMisfit_ < shadow.size())
        note = tr("Leaves the constraint at token %1 (\u201c%2\u201d, highlighted): the grammar would have forbidden it.")
                   .arg(unconstrainedMisfit_ + 1)
                   .arg(printableToken(shadow[unconstrainedMisfit_].text.toStdString()));
    else if (unconstrainedEnded_)
        note = tr("Ended with a text the constraint accepts.");
    else
        note = tr("So far this text would fit the constraint too.");
    unconstrainedNote_->setText(note);
}

}  // namespace dlab::ui
