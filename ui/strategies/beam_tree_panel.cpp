#include "ui/strategies/beam_tree_panel.h"

#include <algorithm>

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QShowEvent>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>

#include "ui/strategies/strategy_column.h"
#include "widgets/flow_layout.h"
#include "widgets/beam_tree_legend.h"
#include "widgets/beam_tree_view.h"
#include "widgets/distribution_chart.h"
#include "widgets/image_export.h"
#include "widgets/number_text.h"

namespace dlab::ui {

BeamTreePanel::BeamTreePanel(QWidget* parent) : QWidget(parent) {
    build();
    retranslate();
}

void BeamTreePanel::build() {
    auto* outer = new QHBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->setObjectName(QStringLiteral("beamSplitter"));
    outer->addWidget(split);

    // Left: the search's settings, the final beams, the clicked node's distribution.
    auto* side = new QWidget;
    side_ = side;
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 6, 0);
    controlsTitle_ = new QLabel(side);
    controlsTitle_->setWordWrap(true);
    sideLayout->addWidget(controlsTitle_);
    auto* grid = new QGridLayout;
    width_ = new QSpinBox(side);
    width_->setRange(1, 16);
    width_->setValue(4);
    lengthPenalty_ = new QDoubleSpinBox(side);
    lengthPenalty_->setRange(-3.0, 3.0);
    lengthPenalty_->setSingleStep(0.2);
    lengthPenalty_->setDecimals(1);
    lengthPenalty_->setValue(1.0);
    early_ = new QComboBox(side);
    early_->addItem(QString(), QStringLiteral("false"));
    early_->addItem(QString(), QStringLiteral("true"));
    early_->addItem(QString(), QStringLiteral("never"));
    maxTokens_ = new QSpinBox(side);
    maxTokens_->setRange(1, 64);
    maxTokens_->setValue(16);
    diverse_ = new QCheckBox(side);
    diverse_->setChecked(true);
    groups_ = new QSpinBox(side);
    groups_->setRange(2, 16);
    groups_->setValue(2);
    diversity_ = new QDoubleSpinBox(side);
    diversity_->setRange(0.0, 10.0);
    diversity_->setSingleStep(0.5);
    diversity_->setDecimals(1);
    diversity_->setValue(1.0);
    widthLabel_ = new QLabel(side);
    lpLabel_ = new QLabel(side);
    earlyLabel_ = new QLabel(side);
    maxLabel_ = new QLabel(side);
    groupsLabel_ = new QLabel(side);
    dpLabel_ = new QLabel(side);
    int row = 0;
    for (auto [label, field] : std::initializer_list<std::pair<QLabel*, QWidget*>>{
             {widthLabel_, width_}, {lpLabel_, lengthPenalty_}, {earlyLabel_, early_}, {maxLabel_, maxTokens_}}) {
        label->setBuddy(field);
        grid->addWidget(label, row, 0);
        grid->addWidget(field, row++, 1);
    }
    grid->addWidget(diverse_, row++, 0, 1, 2);
    for (auto [label, field] : std::initializer_list<std::pair<QLabel*, QWidget*>>{{groupsLabel_, groups_}, {dpLabel_, diversity_}}) {
        label->setBuddy(field);
        grid->addWidget(label, row, 0);
        grid->addWidget(field, row++, 1);
    }
    sideLayout->addLayout(grid);
    search_ = new QPushButton(side);
    search_->setObjectName(QStringLiteral("searchButton"));
    sideLayout->addWidget(search_);
    beams_ = new QLabel(side);
    beams_->setWordWrap(true);
    beams_->setTextFormat(Qt::RichText);
    beams_->setObjectName(QStringLiteral("treeBeams"));
    beams_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    sideLayout->addWidget(beams_);
    sideLayout->addStretch(1);
    auto* sideScroll = new QScrollArea;
    sideScroll->setWidgetResizable(true);
    sideScroll->setFrameShape(QFrame::NoFrame);
    sideScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    sideScroll->setWidget(side);
    sideScroll_ = sideScroll;
    split->addWidget(sideScroll);

    // Right: which tree, the stepping controls, the tree and its legend; under them the clicked
    // node's distribution.
    auto* rightSplit = new QSplitter(Qt::Vertical);
    rightSplit->setObjectName(QStringLiteral("treeChartSplitter"));
    rightSplit->setChildrenCollapsible(false);
    auto* right = new QWidget;
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(6, 0, 0, 0);
    // Two toggle buttons, not radio buttons: which tree is shown must be plain in dark mode and
    // on a projector.
    showPlain_ = new QToolButton(right);
    showDiverse_ = new QToolButton(right);
    for (QToolButton* b : {showPlain_, showDiverse_}) {
        b->setCheckable(true);
        b->setAutoRaise(false);
    }
    showPlain_->setChecked(true);
    auto* which = new QButtonGroup(this);
    which->addButton(showPlain_);
    which->addButton(showDiverse_);
    back_ = new QToolButton(right);
    play_ = new QToolButton(right);
    forward_ = new QToolButton(right);
    fit_ = new QToolButton(right);
    zoomIn_ = new QToolButton(right);
    zoomOut_ = new QToolButton(right);
    depthLabel_ = new QLabel(right);
    // One flow of three groups: in a narrow window (beside the Lessons panel at 1024 px) the
    // groups wrap one by one; two flows side by side asked for both groups' width at once.
    auto* bar = new widgets::FlowLayout;
    bar->addGroup({showPlain_, showDiverse_});
    bar->addGroup({back_, play_, forward_, depthLabel_});
    bar->addGroup({fit_, zoomOut_, zoomIn_});
    rightLayout->addLayout(bar);
    view_ = new widgets::BeamTreeView(right);
    view_->setObjectName(QStringLiteral("beamTreeView"));
    view_->installEventFilter(this);
    rightLayout->addWidget(view_, 1);
    legend_ = new widgets::BeamTreeLegend(right);
    rightLayout->addWidget(legend_);
    rightSplit->addWidget(right);
    auto* nodePane = new QWidget;
    auto* nodeLayout = new QVBoxLayout(nodePane);
    nodeLayout->setContentsMargins(6, 0, 0, 0);
    nodeInfo_ = new QLabel(nodePane);
    nodeInfo_->setWordWrap(true);
    nodeInfo_->setObjectName(QStringLiteral("nodeInfo"));
    nodeLayout->addWidget(nodeInfo_);
    chart_ = new widgets::DistributionChart(nodePane);
    chart_->setSingleDistribution(true);
    chart_->setMinimumHeight(150);
    nodeLayout->addWidget(chart_, 1);
    rightSplit->addWidget(nodePane);
    rightSplit->setStretchFactor(0, 3);
    rightSplit->setStretchFactor(1, 1);
    rightSplit->setSizes({3000, 2000});   // proportions: the tree gets three fifths
    split->addWidget(rightSplit);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setSizes({300, 900});

    rerun_ = new QTimer(this);
    rerun_->setSingleShot(true);
    rerun_->setInterval(300);
    connect(rerun_, &QTimer::timeout, this, &BeamTreePanel::searchRequested);
    connect(search_, &QPushButton::clicked, this, &BeamTreePanel::searchRequested);
    connect(width_, &QSpinBox::valueChanged, this, &BeamTreePanel::onControlsEdited);
    connect(lengthPenalty_, &QDoubleSpinBox::valueChanged, this, &BeamTreePanel::onControlsEdited);
    connect(early_, &QComboBox::currentIndexChanged, this, &BeamTreePanel::onControlsEdited);
    connect(maxTokens_, &QSpinBox::valueChanged, this, &BeamTreePanel::onControlsEdited);
    connect(diverse_, &QCheckBox::toggled, this, &BeamTreePanel::onControlsEdited);
    connect(groups_, &QSpinBox::valueChanged, this, &BeamTreePanel::onControlsEdited);
    connect(diversity_, &QDoubleSpinBox::valueChanged, this, &BeamTreePanel::onControlsEdited);
    connect(showPlain_, &QToolButton::toggled, this, &BeamTreePanel::showSelected);
    connect(back_, &QToolButton::clicked, view_, &widgets::BeamTreeView::stepBack);
    connect(forward_, &QToolButton::clicked, view_, &widgets::BeamTreeView::stepForward);
    connect(play_, &QToolButton::clicked, this, [this] { view_->isPlaying() ? view_->pause() : view_->play(); });
    connect(fit_, &QToolButton::clicked, view_, &widgets::BeamTreeView::fitToView);
    connect(zoomIn_, &QToolButton::clicked, view_, &widgets::BeamTreeView::zoomIn);
    connect(zoomOut_, &QToolButton::clicked, view_, &widgets::BeamTreeView::zoomOut);
    connect(view_, &widgets::BeamTreeView::playingChanged, this, [this] { retranslate(); });
    connect(view_, &widgets::BeamTreeView::revealedDepthChanged, this, [this] { retranslate(); });
    connect(view_, &widgets::BeamTreeView::nodeClicked, this, &BeamTreePanel::showNode);
}

QString BeamTreePanel::plainSpec() const {
    return QStringLiteral("beam:k=%1,lp=%2,es=%3")
        .arg(width_->value())
        .arg(lengthPenalty_->value())
        .arg(early_->currentData().toString());
}

QString BeamTreePanel::diverseSpec() const {
    if (!diverse_->isChecked()) return {};
    // The groups must divide the width: the nearest count that does, at least 2.
    int g = std::min(groups_->value(), width_->value());
    while (g > 1 && width_->value() % g != 0) --g;
    if (g < 2) return {};
    return plainSpec() + QStringLiteral(",g=%1,dp=%2").arg(g).arg(diversity_->value());
}

int BeamTreePanel::maxTokens() const { return maxTokens_->value(); }

QAbstractButton* BeamTreePanel::showDiverseButton() const { return showDiverse_; }

void BeamTreePanel::onControlsEdited() {
    groups_->setEnabled(diverse_->isChecked());
    diversity_->setEnabled(diverse_->isChecked());
    retranslate();
    if (modelReady_ && (plain_.tree.nodes.size() > 0 || busy_)) rerun_->start();   // re-run a search already shown
}

void BeamTreePanel::setModelReady(bool ready) {
    modelReady_ = ready;
    autoSearched_ = false;
    plain_ = diverseTree_ = {};
    view_->clear();
    chart_->clear();
    beams_->clear();
    nodeInfo_->clear();
    setBusy(false);
}

void BeamTreePanel::setBusy(bool busy) {
    busy_ = busy;
    search_->setEnabled(modelReady_ && !busy);
}

void BeamTreePanel::setProgress(int depth, int maxDepth) {
    // Both searches (plain and diverse) together: a share, not a step count that exceeds Max tokens.
    search_->setText(tr("Searching… %1 %").arg(maxDepth > 0 ? 100 * depth / maxDepth : 0));
}

const TreeResult& BeamTreePanel::shown() const { return showDiverse_->isChecked() && !diverseTree_.tree.nodes.isEmpty() ? diverseTree_ : plain_; }

void BeamTreePanel::showTrees(const TreeResult& plain, const TreeResult& diverse) {
    plain_ = plain;
    diverseTree_ = diverse;
    setBusy(false);
    showDiverse_->setEnabled(!diverse.tree.nodes.isEmpty());
    if (diverse.tree.nodes.isEmpty()) showPlain_->setChecked(true);
    showSelected();
    showBeams();
    retranslate();
}

void BeamTreePanel::showSelected() {
    const TreeResult& t = shown();
    view_->setTree(t.tree);
    view_->setRevealedDepth(view_->maxDepth());
    fitPending_ = true;
    if (view_->isVisible()) fitTree();
    legend_->setGroupCount(t.tree.groups);
    chart_->clear();
    selected_ = -1;
    retranslate();
    // The root's distribution (what follows the prompt) until a node is clicked.
    if (!t.tree.nodes.isEmpty()) {
        view_->setSelectedNode(0);
        showNode(0);
    }
}

void BeamTreePanel::showNode(int id) {
    const TreeResult& t = shown();
    if (id < 0 || id >= t.tree.nodes.size()) return;
    selected_ = id;
    const widgets::BeamTreeNode& n = t.tree.nodes[id];
    const auto bars = t.nextBars.find(id);
    if (bars == t.nextBars.end()) {
        chart_->clear();
        nodeInfo_->setText(n.state == widgets::BeamTreeNode::State::Pruned
                               ? tr("“%1” was cut at its step (rank %2, p %3): it was never expanded.")
                                     .arg(view_->nodeLabel(id))
                                     .arg(n.candidateRank + 1)
                                     .arg(widgets::decimalText(std::exp(n.logProb), 3))
                               : tr("“%1” was not expanded (the search ended there).").arg(view_->nodeLabel(id)));
        return;
    }
    chart_->setBars(bars->mid(0, kChartBars));
    nodeInfo_->setText(tr("After “%1” (path log-prob %2, score %3): the model's next-token distribution, entropy %4 bits")
                           .arg(n.parent < 0 ? tr("the prompt") : view_->nodeLabel(id))
                           .arg(widgets::decimalText(n.cumLogProb, 3))
                           .arg(widgets::decimalText(n.score, 3))
                           .arg(widgets::decimalText(t.nextEntropy.value(id) / std::log(2.0), 2)));
}

void BeamTreePanel::showBeams() {
    QString html;
    for (const TreeResult* t : {&plain_, &diverseTree_}) {
        if (t->tree.nodes.isEmpty()) continue;
        QString heading = QStringLiteral("<p><b>%1</b><br>").arg(t->diverse ? tr("Diverse beams (%n group(s))", nullptr, t->tree.groups)
                                                                            : tr("Beam search"));
        heading += tr("final beams: overlap %1 · shared start %2 tokens · distinct-2 %3 · %4 ms")
                       .arg(widgets::decimalText(t->beamsOverlap, 2))
                       .arg(widgets::decimalText(t->beamsSharedPrefix, 1))
                       .arg(widgets::decimalText(t->pooledDistinct2, 2))
                       .arg(widgets::decimalText(t->ms, 0));
        html += StrategyColumn::beamsHtml(heading + QStringLiteral("</p>"), t->hypotheses);
    }
    beams_->setText(html);
}

void BeamTreePanel::exportTree(const QString& path) {
    const int depth = view_->revealedDepth();
    view_->setRevealedDepth(view_->maxDepth());
    try {
        if (path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive))
            widgets::exportSceneSvg(view_->scene(), path, tr("Beam search tree"));
        else
            widgets::exportScenePng(view_->scene(), path, 1.0);
    } catch (...) {
        view_->setRevealedDepth(depth);
        throw;
    }
    view_->setRevealedDepth(depth);
}

void BeamTreePanel::fitSideWidth() {
    if (!side_ || !sideScroll_) return;
    // The labels wrap; the fields and check boxes decide: the column never cuts them.
    int need = 0;
    for (QWidget* w : std::initializer_list<QWidget*>{width_, lengthPenalty_, early_, maxTokens_, groups_, diversity_})
        need = std::max(need, w->sizeHint().width());
    int labels = 0;
    for (QLabel* l : {widthLabel_, lpLabel_, earlyLabel_, maxLabel_, groupsLabel_, dpLabel_}) labels = std::max(labels, l->sizeHint().width());
    need = std::max({labels + need + 12, diverse_->sizeHint().width(), search_->sizeHint().width()});
    sideScroll_->setMinimumWidth(need + side_->layout()->contentsMargins().left() + side_->layout()->contentsMargins().right() +
                                 sideScroll_->style()->pixelMetric(QStyle::PM_ScrollBarExtent) + 4);
}

void BeamTreePanel::setLineScale(double scale) { chart_->setLineScale(scale); }

void BeamTreePanel::retranslate() {
    controlsTitle_->setText(tr("<b>Beam search on the prompt above</b>"));
    widthLabel_->setText(tr("&Width k"));
    lpLabel_->setText(tr("&Length penalty α"));
    lpLabel_->setToolTip(tr("score = log-prob / length^α: above 0 favours longer hypotheses, below 0 shorter ones"));
    earlyLabel_->setText(tr("Earl&y stopping"));
    early_->setItemText(0, tr("heuristic"));
    early_->setItemText(1, tr("when k have finished"));
    early_->setItemText(2, tr("never (exact)"));
    early_->setToolTip(tr("Hugging Face's early_stopping: heuristic (False, the default) stops when no running beam can "
                          "beat the finished ones at its length; \"when k have finished\" (True) as soon as k hypotheses ended; "
                          "never: only when none could at any length"));
    maxLabel_->setText(tr("Max toke&ns"));
    diverse_->setText(tr("&Diverse beams too"));
    diverse_->setToolTip(tr("Diverse (group) beam search, Vijayakumar et al. 2016, beside plain beams: the width split into "
                            "groups; a group loses the diversity penalty for each earlier group that chose the same token "
                            "at this step"));
    groupsLabel_->setText(tr("&Groups"));
    dpLabel_->setText(tr("D&iversity penalty"));
    if (!busy_) search_->setText(tr("Sear&ch"));
    showPlain_->setText(tr("Beam search"));
    showDiverse_->setText(tr("Diverse beams"));
    back_->setText(tr("◀"));
    back_->setToolTip(tr("One expansion back (←)"));
    forward_->setText(tr("▶"));
    forward_->setToolTip(tr("One expansion forward (→)"));
    play_->setText(view_->isPlaying() ? tr("Pause") : tr("Play"));
    play_->setToolTip(tr("Play the search one expansion at a time (Space)"));
    fit_->setText(tr("Fit"));
    fit_->setToolTip(tr("The whole tree in view (0)"));
    zoomIn_->setText(QStringLiteral("+"));
    zoomIn_->setToolTip(tr("Zoom in (Ctrl+wheel)"));
    zoomOut_->setText(QStringLiteral("−"));
    zoomOut_->setToolTip(tr("Zoom out (Ctrl+wheel)"));
    if (selected_ < 0)
        nodeInfo_->setText(view_->maxDepth() > 0 ? tr("Click a node in the tree to see the distribution it was expanded from.")
                                                 : tr("The tree appears here: Search runs a beam search on the prompt above."));
    else
        showNode(selected_);   // its sentence in the new language (it stayed German after a switch)
    depthLabel_->setText(view_->maxDepth() > 0 ? tr("step %1 / %2").arg(view_->revealedDepth()).arg(view_->maxDepth()) : QString());
    fitSideWidth();
}

// The whole tree when it is readable so; otherwise readable (text drawn), the root at the left
// edge and the best hypothesis' path in view as far as it fits: a search is read from its root,
// the rest a scroll or a Fit away.
void BeamTreePanel::fitTree() {
    view_->fitToView();
    fitPending_ = false;
    if (view_->zoomFactor() >= 0.75) return;
    view_->resetZoom();
    view_->zoomOut();
    const widgets::BeamTreeData& t = view_->tree();
    const QRectF root = view_->nodeRect(0);
    if (root.isNull()) return;
    QRectF best = root;
    for (const widgets::BeamTreeNode& n : t.nodes)
        if (n.nBestRank == 0) {
            best = view_->nodeRect(n.id);
            break;
        }
    const double z = view_->zoomFactor();
    const QSizeF visible(view_->viewport()->width() / z, view_->viewport()->height() / z);
    const double margin = 16.0 / z;
    // x: the root's left edge a margin from the view's; y: halfway to the best leaf when both fit,
    // else as near the best leaf as keeps the root in view.
    const double x = root.left() - margin + visible.width() / 2.0;
    const double halfway = (root.center().y() + best.center().y()) / 2.0;
    const double reach = std::max(0.0, visible.height() / 2.0 - root.height() / 2.0 - margin);
    const double y = std::clamp(halfway, root.center().y() - reach, root.center().y() + reach);
    view_->centerOn(QPointF(x, y));
}

void BeamTreePanel::showEvent(QShowEvent* e) {
    QWidget::showEvent(e);
    // The first time the tree is looked at, it is searched: an empty canvas teaches nothing.
    if (modelReady_ && !busy_ && plain_.tree.nodes.isEmpty() && !autoSearched_) {
        autoSearched_ = true;
        QTimer::singleShot(0, this, &BeamTreePanel::searchRequested);
    }
    if (fitPending_) QTimer::singleShot(0, this, [this] {
        if (fitPending_ && view_->isVisible()) fitTree();
    });
}

bool BeamTreePanel::eventFilter(QObject* watched, QEvent* e) {
    if (watched == view_ && e->type() == QEvent::Resize && fitPending_ && view_->isVisible()) fitTree();
    return QWidget::eventFilter(watched, e);
}

void BeamTreePanel::changeEvent(QEvent* e) {
    if (e->type() == QEvent::LanguageChange) {
        retranslate();
        showBeams();
    } else if (e->type() == QEvent::FontChange || e->type() == QEvent::StyleChange) {
        // Once every field has its new font: presentation mode tells the widgets in no set order,
        // so the panel may hear of it before its fields.
        QTimer::singleShot(0, this, &BeamTreePanel::fitSideWidth);
    }
    QWidget::changeEvent(e);
}

}  // namespace dlab::ui
