#include "ui/strategies/strategies_page.h"

#include <algorithm>

#include <QApplication>
#include <QCheckBox>
#include <QEvent>
#include <QFileDialog>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QShortcut>
#include <QStyle>
#include <QStyledItemDelegate>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <functional>
#include <stdexcept>
#include <utility>

#include "generate/run_spec.h"
#include "ui/engine/engine_context.h"
#include "ui/strategies/beam_tree_panel.h"
#include "ui/strategies/column_editor.h"
#include "ui/strategies/comparison_table_model.h"
#include "ui/strategies/strategies_controller.h"
#include "ui/strategies/strategy_column.h"
#include "widgets/front_tab_sizing.h"
#include "widgets/distribution_chart.h"
#include "widgets/image_export.h"
#include "widgets/number_text.h"
#include "widgets/text_box_lines.h"

namespace dlab::ui {

namespace {
// The comparison table's cells hold several wrapped lines: a little room above and below them, so
// a four-line cell does not touch the grid lines. A word wider than its column ("brainstorming"
// in presentation mode on a narrow window) may break inside: Qt's item views wrap only between
// words and elided it.
class PaddedCellDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override {
        QSize s = QStyledItemDelegate::sizeHint(option, index);
        s.rheight() += option.fontMetrics.height() / 2;
        return s;
    }

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override {
        QStyledItemDelegate::initStyleOption(option, index);
        if (!(option->features & QStyleOptionViewItem::WrapText) || option->rect.width() <= 0) return;
        const QStyle* style = option->widget ? option->widget->style() : QApplication::style();
        const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, option->widget) + 1;
        const int room = option->rect.width() - 2 * margin;
        QStringList lines = option->text.split(u'\n');
        for (QString& line : lines) {
            QStringList words = line.split(u' ');
            for (QString& word : words) {
                if (option->fontMetrics.horizontalAdvance(word) <= room) continue;
                QString breakable;   // a zero-width space between the letters: a break anywhere
                for (const QChar c : word) breakable += breakable.isEmpty() ? QString(c) : QString(QChar(0x200b)) + c;
                word = breakable;
            }
            line = words.join(u' ');
        }
        option->text = lines.join(u'\n');
    }
};
}  // namespace

namespace {
bool isSvg(const QString& path) { return path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive); }

void exportWidget(QWidget* w, const QString& path, const QString& title) {
    if (isSvg(path)) widgets::exportWidgetSvg(w, path, title);
    else widgets::exportWidgetPng(w, path);
}

void registerTypes() {
    qRegisterMetaType<dlab::ui::StrategiesRequest>();
    qRegisterMetaType<dlab::ui::ColumnResult>();
    qRegisterMetaType<dlab::ui::TableResult>();
    qRegisterMetaType<dlab::ui::TreeResult>();
    qRegisterMetaType<dlab::widgets::BeamTreeData>();
}
}  // namespace

StrategiesPage::StrategiesPage(QWidget* parent) : Page(parent) {
    registerTypes();
    build();
    setSpecs(defaultSpecs());
    retranslate();
    updateEnabled();
}

StrategiesPage::~StrategiesPage() = default;

QStringList StrategiesPage::defaultSpecs() {
    return {QStringLiteral("greedy"), QStringLiteral("beam:k=4"), QStringLiteral("sample:t=0.7,p=0.9,seed=1")};
}

QString StrategiesPage::title() const { return tr("&Strategies"); }

QString StrategiesPage::toolTip() const {
    return tr("Greedy, beam search and sampling side by side on one prompt, the comparison table measured, and the beam-search tree");
}

void StrategiesPage::build() {
    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    promptLabel_ = new QLabel(this);
    prompt_ = new QPlainTextEdit(this);
    prompt_->setObjectName(QStringLiteral("strategiesPrompt"));
    prompt_->setPlainText(QStringLiteral("The best way to learn a new language is"));
    widgets::keepTextBoxLines(prompt_, 3);   // whole lines in every language's font
    promptLabel_->setBuddy(prompt_);
    top->addWidget(promptLabel_);
    top->addWidget(prompt_, 1);
    auto* buttons = new QVBoxLayout;
    auto* row1 = new QHBoxLayout;
    maxLabel_ = new QLabel(this);
    maxTokens_ = new QSpinBox(this);
    maxTokens_->setRange(1, 256);
    maxTokens_->setValue(32);
    maxLabel_->setBuddy(maxTokens_);
    run_ = new QPushButton(this);
    run_->setObjectName(QStringLiteral("strategiesRun"));
    stop_ = new QPushButton(this);
    row1->addWidget(maxLabel_);
    row1->addWidget(maxTokens_);
    row1->addWidget(run_);
    row1->addWidget(stop_);
    auto* row2 = new QHBoxLayout;
    measure_ = new QCheckBox(this);
    measure_->setChecked(true);
    add_ = new QPushButton(this);
    export_ = new QToolButton(this);
    export_->setPopupMode(QToolButton::InstantPopup);
    row2->addWidget(measure_);
    row2->addWidget(add_);
    row2->addWidget(export_);
    buttons->addLayout(row1);
    buttons->addLayout(row2);
    top->addLayout(buttons);
    layout->addLayout(top);
    status_label_ = new QLabel(this);
    status_label_->setWordWrap(true);
    status_label_->setObjectName(QStringLiteral("strategiesStatus"));
    layout->addWidget(status_label_);

    tabs_ = new QTabWidget(this);
    tabs_->setObjectName(QStringLiteral("strategiesTabs"));
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    columnsHost_ = new QWidget;
    columnsLayout_ = new QHBoxLayout(columnsHost_);
    columnsLayout_->setContentsMargins(0, 0, 0, 0);
    scroll->setWidget(columnsHost_);
    tabs_->addTab(scroll, QString());
    auto* tablePage = new QWidget;
    auto* tableLayout = new QVBoxLayout(tablePage);
    table_ = new ComparisonTableModel(this);
    connect(table_, &QAbstractItemModel::modelReset, this, [this] {
        if (tableNote_) retranslateTableNote();
    });
    tableView_ = new QTableView(tablePage);
    tableView_->setObjectName(QStringLiteral("comparisonTable"));
    tableView_->setModel(table_);
    tableView_->setWordWrap(true);
    tableView_->setItemDelegate(new PaddedCellDelegate(tableView_));
    tableView_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    // Long headings ("Finds the likeliest text?" in German) wrap instead of being cut.
    tableView_->horizontalHeader()->setDefaultAlignment(Qt::Alignment(Qt::AlignCenter | Qt::TextWordWrap));
    connect(tableView_->horizontalHeader(), &QHeaderView::sectionResized, this, [this] { fitTableHeader(); });
    tableView_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    tableView_->verticalHeader()->hide();
    tableNote_ = new QLabel(tablePage);
    tableNote_->setWordWrap(true);
    tableLayout->addWidget(tableView_, 1);
    tableLayout->addWidget(tableNote_);
    tabs_->addTab(tablePage, QString());
    beamPanel_ = new BeamTreePanel;
    tabs_->addTab(beamPanel_, QString());
    widgets::sizeToFrontTab(tabs_);   // the page is as wide as the tab in front needs
    layout->addWidget(tabs_, 1);

    connect(run_, &QPushButton::clicked, this, &StrategiesPage::run);
    connect(stop_, &QPushButton::clicked, this, &StrategiesPage::stop);
    connect(add_, &QPushButton::clicked, this, [this] {
        ColumnEditor editor(QString(), this);
        if (editor.exec() == QDialog::Accepted) addColumn(editor.spec());
    });
    connect(export_, &QToolButton::pressed, this, &StrategiesPage::showExportMenu);
    connect(beamPanel_, &BeamTreePanel::searchRequested, this, &StrategiesPage::searchTree);
    connect(maxTokens_, &QSpinBox::valueChanged, this, &Page::settingsChanged);
    connect(prompt_, &QPlainTextEdit::textChanged, this, &Page::settingsChanged);
    connect(measure_, &QCheckBox::toggled, this, &Page::settingsChanged);
    // F5 runs, Esc stops, while the page is in front (the shortcuts of a hidden page do not fire).
    connect(frontShortcut(QKeySequence(Qt::Key_F5)), &QShortcut::activated, this, &StrategiesPage::run);
    connect(frontShortcut(QKeySequence(Qt::Key_Escape)), &QShortcut::activated, this, &StrategiesPage::stop);
}

void StrategiesPage::attachEngine(EngineContext* engine) {
    auto* c = new StrategiesController(engine);
    controller_ = c;
    connect(this, &StrategiesPage::runRequested, c, &StrategiesController::run);
    connect(this, &StrategiesPage::treeRequested, c, &StrategiesController::searchTree);
    connect(this, &StrategiesPage::traceRequested, c, &StrategiesController::exportTrace);
    connect(this, &StrategiesPage::stopRequested, this, [engine] { engine->cancel(); });
    connect(c, &StrategiesController::columnTokens, this, [this](int column, const QList<widgets::StripToken>& t) {
        if (column >= 0 && column < columns_.size()) columns_[column]->appendTokens(t);
    });
    connect(c, &StrategiesController::columnProgress, this, [this](int column, int depth, int maxDepth) {
        if (column >= 0 && column < columns_.size()) columns_[column]->setProgress(depth, maxDepth);
    });
    connect(c, &StrategiesController::columnDone, this, &StrategiesPage::showColumn);
    connect(c, &StrategiesController::runMeasured, this, [this](int promptTokens, double prefillMs, qint64 kv, qint64 saved) {
        promptTokens_ = promptTokens;
        prefillMs_ = prefillMs;
        kvPeak_ = kv;
        kvSaved_ = saved;
        status_.contextUsed = promptTokens + maxTokens_->value();
        status_.kvBytes = kv;
        emit statusChanged();
    });
    connect(c, &StrategiesController::runFinished, this, &StrategiesPage::onRunFinished);
    connect(c, &StrategiesController::tableProgress, this, [this](int done, int total) {
        setStatus([=, this] {
            return tr("Measuring the comparison table: %1 of %2 (each column again with three seeds, then a "
                      "width-16 beam)…").arg(done).arg(total);
        });
    });
    connect(c, &StrategiesController::tableReady, this, &StrategiesPage::onTable);
    connect(c, &StrategiesController::treeProgress, beamPanel_, &BeamTreePanel::setProgress);
    connect(c, &StrategiesController::treeReady, this, [this](const TreeResult& plain, const TreeResult& diverse) {
        searching_ = false;
        beamPanel_->showTrees(plain, diverse);
        updateEnabled();
        emit treeDone();
        if (std::exchange(searchAgain_, false)) searchTree();
    });
    connect(c, &StrategiesController::traceExported, this, &StrategiesPage::traceExported);
    connect(c, &StrategiesController::traceExported, this,
            [this](const QString& path) { setStatus([=, this] { return tr("Saved the runs as a JSONL trace: %1").arg(path); }); });
    connect(c, &StrategiesController::failed, this, [this](const QString& m) {
        if (running_) {   // the run is over (its runFinished finds nothing left to do)
            running_ = measuring_ = false;
            setStatus([=, this] { return tr("The run failed: %1").arg(m); });
            updateEnabled();
            emit runDone();
        }
        if (searching_) {
            searching_ = searchAgain_ = false;
            beamPanel_->setBusy(false);
            updateEnabled();
            emit treeDone();
        }
        emit errorOccurred(m);
    });
}

QStringList StrategiesPage::specs() const {
    QStringList out;
    for (const StrategyColumn* c : columns_) out << c->spec();
    return out;
}

void StrategiesPage::setSpecs(const QStringList& specs) {
    while (!columns_.isEmpty()) removeColumn(0);
    for (const QString& s : specs) addColumn(s);
}

void StrategiesPage::addColumn(const QString& spec) {
    auto* c = new StrategyColumn(spec, columnsHost_);
    columns_ << c;
    columnsLayout_->addWidget(c, 1);
    c->installEventFilter(this);
    connect(c, &StrategyColumn::editRequested, this, [this, c] { editColumn(c); });
    connect(c, &StrategyColumn::removeRequested, this, [this, c] { removeColumn(static_cast<int>(columns_.indexOf(c))); });
    table_->clear();
    updateEnabled();
    emit settingsChanged();
}

bool StrategiesPage::eventFilter(QObject* watched, QEvent* e) {
    if ((e->type() == QEvent::Resize || e->type() == QEvent::LayoutRequest) && !aligning_ &&
        columns_.contains(qobject_cast<StrategyColumn*>(watched))) {
        aligning_ = true;   // once per burst of events
        QMetaObject::invokeMethod(this, &StrategiesPage::alignColumnTitles, Qt::QueuedConnection);
    }
    return Page::eventFilter(watched, e);
}

void StrategiesPage::alignColumnTitles() {
    aligning_ = false;
    int tallest = 0;
    for (const StrategyColumn* c : columns_) tallest = std::max(tallest, c->naturalHeaderHeight());
    for (StrategyColumn* c : columns_) c->setHeaderHeight(tallest);
}

void StrategiesPage::removeColumn(int index) {
    if (index < 0 || index >= columns_.size() || running_) return;
    StrategyColumn* c = columns_.takeAt(index);
    c->deleteLater();
    c->hide();
    table_->clear();
    updateEnabled();
    emit settingsChanged();
}

void StrategiesPage::setColumnSpec(int index, const QString& spec) {
    if (index < 0 || index >= columns_.size()) return;
    columns_[index]->setSpec(spec);
    table_->clear();
    emit settingsChanged();
}

void StrategiesPage::editColumn(StrategyColumn* column) {
    if (running_) return;
    ColumnEditor editor(column->spec(), this);
    if (editor.exec() == QDialog::Accepted) setColumnSpec(static_cast<int>(columns_.indexOf(column)), editor.spec());
}

void StrategiesPage::run() {
    if (!modelReady_ || running_ || columns_.isEmpty() || !isVisible()) return;
    running_ = true;
    measuring_ = measure_->isChecked();
    for (StrategyColumn* c : columns_) c->clearResult();
    table_->clear();
    tableStopped_ = false;
    retranslateTableNote();
    const int n = static_cast<int>(columns_.size());
    setStatus([=, this] { return tr("Running %n column(s) on one prefill of the prompt…", nullptr, n); });
    updateEnabled();
    StrategiesRequest r;
    r.prompt = prompt_->toPlainText();
    r.specs = specs();
    r.maxTokens = maxTokens_->value();
    r.measureTable = measure_->isChecked();
    emit runRequested(r);
}

void StrategiesPage::stop() {
    searchAgain_ = false;
    if (running_ || searching_) emit stopRequested();
}

void StrategiesPage::searchTree() {
    if (searching_) {
        searchAgain_ = true;   // the controls changed during the search: once more with them when it ends
        return;
    }
    if (!modelReady_ || running_) return;
    searching_ = true;
    beamPanel_->setBusy(true);
    updateEnabled();
    emit treeRequested(prompt_->toPlainText(), beamPanel_->plainSpec(), beamPanel_->diverseSpec(), beamPanel_->maxTokens());
}

void StrategiesPage::exportTrace(const QString& path) { emit traceRequested(path); }

void StrategiesPage::showColumn(const ColumnResult& r) {
    if (r.column < 0 || r.column >= columns_.size()) return;
    columns_[r.column]->setResult(r);
    status_.tokensPerSecond = r.tokensPerSecond;
    emit statusChanged();
}

void StrategiesPage::onRunFinished(bool stopped) {
    if (!running_) return;
    if (stopped || !measuring_) {
        running_ = measuring_ = false;
        const int prompt = promptTokens_;
        const double prefill = prefillMs_, peak = kvPeak_ / 1024.0, saved = kvSaved_ / 1024.0;
        setStatus([=, this] {
            return stopped ? tr("Stopped.")
                           : tr("Prompt: %n token(s), prefilled once in %1 ms; every column forked from its "
                                "KV blocks. KV pool at its peak: %2 KiB, sharing saved %3 KiB.",
                                nullptr, prompt)
                                 .arg(widgets::decimalText(prefill, 1))
                                 .arg(widgets::decimalText(peak, 0))
                                 .arg(widgets::decimalText(saved, 0));
        });
        updateEnabled();
        emit runDone();
        return;
    }
    setStatus([this] { return tr("Columns done; measuring the comparison table…"); });
}

void StrategiesPage::onTable(const TableResult& t) {
    running_ = measuring_ = false;
    if (!t.stopped) table_->setResult(t);
    tableStopped_ = t.stopped;
    retranslateTableNote();
    tableView_->resizeRowsToContents();
    const bool stopped = t.stopped;
    const int seeds = t.rows.isEmpty() ? 0 : t.rows.front().seedRuns, wide = t.wideBeam;
    const double wideMs = t.wideBeamMs;
    setStatus([=, this] {
        return stopped ? tr("Stopped while measuring the table.")
                       : tr("Table measured: every column re-run with %n seed(s); the width-%1 beam took %2 ms.", nullptr, seeds)
                             .arg(wide)
                             .arg(widgets::decimalText(wideMs, 0));
    });
    updateEnabled();
    emit runDone();
}

void StrategiesPage::updateEnabled() {
    const bool busy = running_ || searching_;
    run_->setEnabled(modelReady_ && !busy && !columns_.isEmpty());
    stop_->setEnabled(busy);
    add_->setEnabled(!running_);
    prompt_->setReadOnly(busy);
    beamPanel_->setBusy(busy);
}

void StrategiesPage::setModelReady(bool ready) {
    if (running_ || searching_) emit stopRequested();
    modelReady_ = ready;
    running_ = measuring_ = searching_ = searchAgain_ = false;
    for (StrategyColumn* c : columns_) c->clearResult();
    table_->clear();
    beamPanel_->setModelReady(ready);
    status_ = {};
    status_.contextToolTip = tr("Positions each column may use: the prompt and its new tokens");
    emit statusChanged();
    setStatus({});
    updateEnabled();
}

void StrategiesPage::setStatus(std::function<QString()> text) {
    statusText_ = std::move(text);
    status_label_->setText(statusText_ ? statusText_() : QString());
}

// Each export brings its view to the front first: a widget in a hidden tab has no size of its own.
void StrategiesPage::exportColumns(const QString& path) {
    tabs_->setCurrentIndex(0);
    exportWidget(columnsHost_, path, tr("Strategies side by side"));
}

void StrategiesPage::exportTable(const QString& path) {
    tabs_->setCurrentIndex(1);
    exportWidget(tableView_, path, tr("Comparison table"));
}

void StrategiesPage::exportTree(const QString& path) {
    tabs_->setCurrentWidget(beamPanel_);
    beamPanel_->exportTree(path);
}

void StrategiesPage::exportNodeChart(const QString& path) {
    if (beamPanel_->chart()->bars().isEmpty())
        throw std::runtime_error(tr("There is no node distribution to export: click a node in the beam tree first.").toStdString());
    tabs_->setCurrentWidget(beamPanel_);
    exportWidget(beamPanel_->chart(), path, tr("Next-token distribution"));
}

void StrategiesPage::showExportMenu() {
    QMenu menu(this);
    const auto save = [this](const QString& what, const std::function<void(const QString&)>& write, bool trace = false) {
        const QString filter = trace ? tr("JSON Lines (*.jsonl)") : tr("PNG image (*.png);;SVG image (*.svg)");
        QString chosen;
        const QString path = widgets::withFilterSuffix(QFileDialog::getSaveFileName(this, what, QString(), filter, &chosen), chosen);
        if (path.isEmpty()) return;
        try {
            write(path);
            if (!trace) setStatus([=, this] { return tr("Saved %1").arg(path); });
        } catch (const std::exception& e) {
            emit errorOccurred(QString::fromUtf8(e.what()));
        }
    };
    menu.addAction(tr("Columns as an image…"), this, [=, this] { save(tr("Export the columns"), [this](const QString& p) { exportColumns(p); }); });
    menu.addAction(tr("Comparison table as an image…"), this, [=, this] { save(tr("Export the table"), [this](const QString& p) { exportTable(p); }); });
    menu.addAction(tr("Beam tree as an image…"), this, [=, this] { save(tr("Export the tree"), [this](const QString& p) { exportTree(p); }); });
    menu.addAction(tr("Node distribution chart as an image…"), this,
                   [=, this] { save(tr("Export the chart"), [this](const QString& p) { exportNodeChart(p); }); });
    menu.addSeparator();
    menu.addAction(tr("Runs as a JSONL trace…"), this,
                   [=, this] { save(tr("Export the trace"), [this](const QString& p) { exportTrace(p); }, true); });
    menu.exec(export_->mapToGlobal(QPoint(0, export_->height())));
    export_->setDown(false);
}

void StrategiesPage::saveSettings(QSettings& s) const {
    s.setValue(QStringLiteral("strategies/specs"), specs());
    s.setValue(QStringLiteral("strategies/prompt"), prompt_->toPlainText());
    s.setValue(QStringLiteral("strategies/maxTokens"), maxTokens_->value());
    s.setValue(QStringLiteral("strategies/measureTable"), measure_->isChecked());
    s.setValue(QStringLiteral("strategies/viewTab"), tabs_->currentIndex());
}

void StrategiesPage::restoreSettings(QSettings& s) {
    QStringList saved = s.value(QStringLiteral("strategies/specs")).toStringList();
    // A hand-edited spec that does not parse is dropped, not run.
    QStringList valid;
    for (const QString& spec : saved) {
        try {
            valid << QString::fromStdString(runSpecText(parseRunSpec(spec.toStdString())));
        } catch (const std::exception&) {
        }
    }
    if (!valid.isEmpty()) setSpecs(valid);
    if (s.contains(QStringLiteral("strategies/prompt"))) prompt_->setPlainText(s.value(QStringLiteral("strategies/prompt")).toString());
    maxTokens_->setValue(s.value(QStringLiteral("strategies/maxTokens"), 32).toInt());
    measure_->setChecked(s.value(QStringLiteral("strategies/measureTable"), true).toBool());
    tabs_->setCurrentIndex(s.value(QStringLiteral("strategies/viewTab"), 0).toInt());
}

void StrategiesPage::setLineScale(double scale) {
    for (StrategyColumn* c : columns_) c->setLineScale(scale);
    beamPanel_->setLineScale(scale);
}

void StrategiesPage::retranslate() {
    promptLabel_->setText(tr("&Prompt"));
    maxLabel_->setText(tr("&Max tokens"));
    run_->setText(tr("&Run all"));
    run_->setToolTip(tr("Run every column on the prompt (F5)"));
    stop_->setText(tr("Stop"));
    stop_->setToolTip(tr("Stop the run or the search (Esc)"));
    measure_->setText(tr("Measure the &table"));
    measure_->setToolTip(tr("After the columns: each column again with three seeds, and a width-16 beam for the likeliest text"));
    add_->setText(tr("&Add column…"));
    export_->setText(tr("E&xport"));
    tabs_->setTabText(0, tr("Columns"));
    tabs_->setTabText(1, tr("Comparison table"));
    tabs_->setTabText(2, tr("Beam tree"));
    retranslateTableNote();
    table_->retranslate();
    if (statusText_) status_label_->setText(statusText_());
    fitTableHeader();
}

void StrategiesPage::fitTableHeader() {
    // As many lines as the most wrapped heading needs at its column's width, at least two
    // (QHeaderView does not grow for wrapped text: beside the Lessons panel the German "Findet den
    // wahrscheinlichsten Text?" took three lines and lost its first and last).
    QHeaderView* h = tableView_->horizontalHeader();
    const QFontMetrics fm = h->fontMetrics();
    const int margin = h->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, h);
    int lines = 2;
    for (int c = 0; c < h->count() && tableView_->model(); ++c) {
        const QString text = tableView_->model()->headerData(c, Qt::Horizontal).toString();
        const int width = std::max(1, h->sectionSize(c) - 2 * margin - 4);
        const int height = fm.boundingRect(QRect(0, 0, width, 100000), Qt::TextWordWrap | Qt::AlignCenter, text).height();
        lines = std::max(lines, (height + fm.lineSpacing() - 1) / std::max(1, fm.lineSpacing()));
    }
    const int wanted = lines * fm.lineSpacing() + 2 * margin + 4;
    if (h->minimumHeight() != wanted) h->setMinimumHeight(wanted);
}

void StrategiesPage::retranslateTableNote() {
    QString note = tr("Every cell is measured in this run: deterministic? each column re-run with three seeds; diverse? "
                      "the bigram overlap of those runs (and of the final beams); likeliest text? the column's log-prob "
                      "against the best a width-16 beam finds for as many tokens; speed: the time per step and the "
                      "tokens evaluated per step against greedy. Hover a cell for its numbers.");
    if (table_->rowCount() == 0)
        note.prepend((tableStopped_ ? tr("Stopped before the table was measured.")
                                    : tr("Run all with “Measure the table” ticked fills this table.")) +
                     QLatin1Char(' '));
    tableNote_->setText(note);
}

void StrategiesPage::changeEvent(QEvent* e) {
    if (e->type() == QEvent::LanguageChange) retranslate();
    else if (e->type() == QEvent::FontChange || e->type() == QEvent::StyleChange) fitTableHeader();
    Page::changeEvent(e);
}

}  // namespace dlab::ui
