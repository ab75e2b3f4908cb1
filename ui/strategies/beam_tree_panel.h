#pragma once
// The strategies page's beam panel: a beam search on the page's prompt drawn as the engine's own
// tree (widgets::BeamTreeView), with the controls that re-run it (width, length penalty, early
// stopping, and diverse beam search's groups and penalty beside plain beams), stepping and
// playing the search one expansion at a time, the distribution a clicked node was expanded from
// (the playground's chart), the final beams with how alike they are, and PNG / SVG export.
#include <QWidget>

#include "ui/strategies/strategy_types.h"

QT_BEGIN_NAMESPACE
class QAbstractButton;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTimer;
class QToolButton;
QT_END_NAMESPACE

namespace dlab::widgets {
class BeamTreeLegend;
class BeamTreeView;
class DistributionChart;
}  // namespace dlab::widgets

namespace dlab::ui {

class BeamTreePanel : public QWidget {
    Q_OBJECT
public:
    explicit BeamTreePanel(QWidget* parent = nullptr);

    static constexpr int kChartBars = 12;   // of a node's recorded top 20: the labels stay readable

    QString plainSpec() const;     // "beam:k=4,lp=1,es=false" from the controls
    QString diverseSpec() const;   // "" when diverse beams are not asked for
    int maxTokens() const;
    void setModelReady(bool ready);
    void setBusy(bool busy);
    void showTrees(const TreeResult& plain, const TreeResult& diverse);
    void setProgress(int depth, int maxDepth);
    void setLineScale(double scale);

    widgets::BeamTreeView* view() const { return view_; }
    widgets::DistributionChart* chart() const { return chart_; }
    QSpinBox* widthSpin() const { return width_; }
    QSpinBox* maxTokensSpin() const { return maxTokens_; }
    QDoubleSpinBox* lengthPenaltySpin() const { return lengthPenalty_; }
    QComboBox* earlyStoppingCombo() const { return early_; }
    QCheckBox* diverseCheck() const { return diverse_; }
    QSpinBox* groupsSpin() const { return groups_; }
    QDoubleSpinBox* diversityPenaltySpin() const { return diversity_; }
    QPushButton* searchButton() const { return search_; }
    QLabel* beamsLabel() const { return beams_; }
    QLabel* nodeLabel() const { return nodeInfo_; }
    QAbstractButton* showDiverseButton() const;
    const TreeResult& plain() const { return plain_; }
    const TreeResult& diverse() const { return diverseTree_; }
    const TreeResult& shown() const;

    void exportTree(const QString& path);    // .png or .svg, the whole tree; throws std::runtime_error

signals:
    void searchRequested();                  // the controls changed or Search was pressed

protected:
    void changeEvent(QEvent* e) override;
    void showEvent(QShowEvent* e) override;
    bool eventFilter(QObject* watched, QEvent* e) override;   // the view's first real size: fit the tree

private:
    void build();
    void retranslate();
    void showSelected();                     // the plain or the diverse tree in the view
    void showNode(int id);
    void showBeams();
    void onControlsEdited();
    void fitSideWidth();
    void fitTree();                     // the settings column as wide as its widest row needs

    widgets::BeamTreeView* view_ = nullptr;
    widgets::BeamTreeLegend* legend_ = nullptr;
    widgets::DistributionChart* chart_ = nullptr;
    QSpinBox* width_ = nullptr;
    QDoubleSpinBox* lengthPenalty_ = nullptr;
    QComboBox* early_ = nullptr;
    QSpinBox* maxTokens_ = nullptr;
    QCheckBox* diverse_ = nullptr;
    QSpinBox* groups_ = nullptr;
    QDoubleSpinBox* diversity_ = nullptr;
    QPushButton* search_ = nullptr;
    QToolButton* showPlain_ = nullptr;
    QToolButton* showDiverse_ = nullptr;
    QToolButton *back_ = nullptr, *play_ = nullptr, *forward_ = nullptr, *fit_ = nullptr, *zoomIn_ = nullptr, *zoomOut_ = nullptr;
    QLabel* depthLabel_ = nullptr;
    QLabel* beams_ = nullptr;
    QLabel* nodeInfo_ = nullptr;
    QLabel* controlsTitle_ = nullptr;
    QLabel *widthLabel_, *lpLabel_, *earlyLabel_, *maxLabel_, *groupsLabel_, *dpLabel_;
    QWidget* side_ = nullptr;
    QWidget* sideScroll_ = nullptr;
    QTimer* rerun_ = nullptr;                // the controls' edits, coalesced
    TreeResult plain_, diverseTree_;
    bool modelReady_ = false;
    bool busy_ = false;
    bool fitPending_ = false;
    bool autoSearched_ = false;              // searched once on first show for this model
    int selected_ = -1;                      // the node whose distribution the chart shows                // a new tree waits for the view to have its size
};

}  // namespace dlab::ui
