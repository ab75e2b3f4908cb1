#include "ui/strategies/strategy_column.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QToolButton>
#include <QVBoxLayout>

#include "generate/run_spec.h"
#include "widgets/adaptive_row.h"
#include "widgets/eliding_label.h"
#include "widgets/token_strip.h"
#include "widgets/number_text.h"

namespace dlab::ui {

StrategyColumn::StrategyColumn(const QString& spec, QWidget* parent) : QFrame(parent) {
    setFrameShape(QFrame::StyledPanel);
    setObjectName(QStringLiteral("strategyColumn"));
    auto* layout = new QVBoxLayout(this);
    // The title with Edit and Remove beside it where the column is wide enough, above them where
    // it is not: three German columns beside the Lessons panel at 1024 px fit only so.
    header_ = new widgets::AdaptiveRow(this);
    header_->setObjectName(QStringLiteral("columnHeader"));
    title_ = new QLabel(header_);
    QFont bold = title_->font();
    bold.setBold(true);
    title_->setFont(bold);
    title_->setWordWrap(true);
    auto* buttons = new QWidget(header_);
    auto* buttonsLayout = new QHBoxLayout(buttons);
    buttonsLayout->setContentsMargins(0, 0, 0, 0);
    edit_ = new QToolButton(buttons);
    remove_ = new QToolButton(buttons);
    buttonsLayout->addWidget(edit_);
    buttonsLayout->addWidget(remove_);
    header_->addWidget(title_, 1);
    header_->addWidget(buttons, 0, Qt::AlignLeft | Qt::AlignVCenter);
    layout->addWidget(header_);
    specLabel_ = new widgets::ElidingLabel(this);   // a long spec ends in "…", whole in the tooltip
    layout->addWidget(specLabel_);
    figures_ = new QLabel(this);
    figures_->setWordWrap(true);
    figures_->setObjectName(QStringLiteral("columnFigures"));
    layout->addWidget(figures_);
    // The text and, for beam columns, the final beams scroll together: the beams never squeeze
    // the text into a few rows.
    auto* body = new QWidget;
    auto* bodyLayout = new QVBoxLayout(body);
    bodyLayout->setContentsMargins(0, 0, 0, 0);
    strip_ = new widgets::TokenStrip(body);
    strip_->setBranchingEnabled(false);
    strip_->setPreferredRows(4);
    bodyLayout->addWidget(strip_);
    beams_ = new QLabel(body);
    beams_->setWordWrap(true);
    beams_->setTextFormat(Qt::RichText);
    beams_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    beams_->setObjectName(QStringLiteral("columnBeams"));
    bodyLayout->addWidget(beams_);
    bodyLayout->addStretch(1);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(body);
    layout->addWidget(scroll, 1);
    connect(edit_, &QToolButton::clicked, this, &StrategyColumn::editRequested);
    connect(remove_, &QToolButton::clicked, this, &StrategyColumn::removeRequested);
    setSpec(spec);
    retranslate();
}

QString StrategyColumn::title(const QString& spec) {
    try {
        const RunSpec r = parseRunSpec(spec.toStdString());
        switch (r.kind) {
        case RunKind::Greedy: return tr("Greedy");
        case RunKind::Sample:
            return tr("Sampling T=%1, top-p %2").arg(widgets::shortNumberText(r.sampler.temperature), widgets::shortNumberText(r.sampler.topP));
        case RunKind::Beam:
            return r.beamGroups > 1 ? tr("Diverse beams k=%1, %2 groups").arg(r.beamWidth).arg(r.beamGroups)
                                    : tr("Beam search k=%1").arg(r.beamWidth);
        }
    } catch (const std::exception&) {
    }
    return spec;
}

void StrategyColumn::setSpec(const QString& spec) {
    spec_ = spec;
    title_->setText(title(spec));
    specLabel_->setText(spec);
    specLabel_->setToolTip(spec);
    clearResult();
}

void StrategyColumn::clearResult() {
    hasResult_ = false;
    result_ = {};
    depth_ = -1;
    strip_->clear();
    strip_->setHighlight(0, 0);
    beams_->clear();
    beams_->hide();
    showFigures();
}

void StrategyColumn::appendTokens(const QList<widgets::StripToken>& tokens) {
    strip_->appendTokens(tokens);
    showFigures();
}

void StrategyColumn::setProgress(int depth, int maxDepth) {
    depth_ = depth;
    maxDepth_ = maxDepth;
    showFigures();
}

void StrategyColumn::setResult(const ColumnResult& r) {
    result_ = r;
    hasResult_ = true;
    strip_->setTokens(r.tokens);
    strip_->setHighlight(r.repetition.found ? r.repetition.first : 0, r.repetition.found ? r.repetition.count : 0);
    showFigures();
}

void StrategyColumn::showFigures() {
    if (!hasResult_) {
        figures_->setText(depth_ >= 0 ? tr("searching: step %1 of at most %2").arg(depth_).arg(maxDepth_)
                                      : strip_->tokens().isEmpty() ? tr("not run yet") : tr("generating…"));
        return;
    }
    const ColumnResult& r = result_;
    QStringList lines;
    lines << tr("log-prob %1 · perplexity %2").arg(widgets::decimalText(r.logProb, 2)).arg(widgets::decimalText(r.perplexity, 2));
    lines << tr("%1 tokens/s · %2 ms per step").arg(widgets::decimalText(r.tokensPerSecond, 1)).arg(widgets::decimalText(r.msPerStep, 1));
    lines << tr("%n token(s) evaluated", nullptr, static_cast<int>(r.tokensEvaluated)) + QStringLiteral(" · ") +
                 tr("%n forward pass(es)", nullptr, r.forwardCalls);
    lines << tr("distinct-1 %1 · distinct-2 %2").arg(widgets::decimalText(r.distinct1, 2)).arg(widgets::decimalText(r.distinct2, 2));
    lines << tr("KV blocks %1 (%2 shared)").arg(r.kvBlocks).arg(r.kvBlocksShared);
    if (r.repetition.found)
        lines << tr("loop: a %n-token block repeated", nullptr, r.repetition.period) + QStringLiteral(" ×%1").arg(r.repetition.repeats);
    if (r.stopped) lines << tr("(stopped)");
    else if (r.ended) lines << tr("ended with an end-of-text token");
    figures_->setText(lines.join(QLatin1Char('\n')));
    if (r.hypotheses.size() > 1) {
        beams_->setText(beamsHtml(tr("<b>Final beams</b> (overlap %1, shared start %2 tokens):")
                                      .arg(widgets::decimalText(r.beamsOverlap, 2))
                                      .arg(widgets::decimalText(r.beamsSharedPrefix, 1)),
                                  r.hypotheses));
        beams_->show();
    }
}

QString StrategyColumn::beamsHtml(const QString& heading, const QList<BeamHypothesisView>& beams) {
    // The beams' common start once, then what each one adds: how alike they are is what shows.
    QString common = beams.isEmpty() ? QString() : beams.front().text;
    for (const BeamHypothesisView& h : beams) {
        int n = 0;
        while (n < common.size() && n < h.text.size() && common[n] == h.text[n]) ++n;
        common.truncate(n);
    }
    if (beams.size() < 2) common.clear();
    const int cut = std::max<int>(0, static_cast<int>(common.lastIndexOf(QLatin1Char(' '))));   // at a word boundary
    common.truncate(cut);
    QString html = heading;
    if (!common.isEmpty()) html += QStringLiteral("<br>") + tr("All %n begin with: <i>%1</i>", nullptr, static_cast<int>(beams.size())).arg(common.toHtmlEscaped());
    html += QStringLiteral("<ol style=\"margin-left:12px\">");
    for (const BeamHypothesisView& h : beams) {
        const QString rest = h.text.mid(common.size());
        html += QStringLiteral("<li>%1%2 <i>(%3)</i></li>")
                    .arg(common.isEmpty() ? QString() : QStringLiteral("…"), rest.toHtmlEscaped(),
                         tr("score %1").arg(widgets::decimalText(h.score, 3)));
    }
    return html + QStringLiteral("</ol>");
}

void StrategyColumn::setLineScale(double scale) { strip_->setLineScale(scale); }

void StrategyColumn::retranslate() {
    edit_->setText(tr("Edit…"));
    edit_->setToolTip(tr("Change this column's strategy and settings"));
    remove_->setText(tr("Remove"));
    remove_->setToolTip(tr("Remove this column"));
    title_->setText(title(spec_));
    showFigures();
}

int StrategyColumn::naturalHeaderHeight() const {
    const int width = header_->width() > 0 ? header_->width() : header_->sizeHint().width();
    const int height = header_->heightForWidth(width);
    return height >= 0 ? height : header_->sizeHint().height();
}

void StrategyColumn::setHeaderHeight(int height) {
    if (header_->minimumHeight() != height) header_->setMinimumHeight(height);
}

void StrategyColumn::changeEvent(QEvent* e) {
    if (e->type() == QEvent::LanguageChange) retranslate();
    QFrame::changeEvent(e);
}

}  // namespace dlab::ui
