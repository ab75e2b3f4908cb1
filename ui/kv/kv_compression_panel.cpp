#include "ui/kv/kv_compression_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QStyle>
#include <QTableWidget>
#include <QScopeGuard>
#include <QTimer>
#include <QVBoxLayout>

#include <stdexcept>

#include "ui/kv/kv_blocks_panel.h"
#include "widgets/adaptive_row.h"
#include "widgets/line_chart_view.h"
#include "widgets/number_text.h"

namespace dlab::ui {

namespace {
void fitHeader(QTableWidget* t) {
    QHeaderView* h = t->horizontalHeader();
    const int margin = 2 * h->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, h);
    const QFontMetrics fm(h->font());
    int need = fm.height();
    for (int i = 0; i < h->count(); ++i) {
        const QString text = t->model()->headerData(i, Qt::Horizontal).toString();
        const int room = std::max(1, h->sectionSize(i) - margin);
        need = std::max(need, fm.boundingRect(QRect(0, 0, room, 10000), Qt::TextWordWrap, text).height());
    }
    const int height = need + margin + 6;
    if (h->minimumHeight() != height) h->setMinimumHeight(height);
}

QTableWidget* makeTable(QWidget* parent, const char* name) {
    auto* t = new QTableWidget(parent);
    t->setObjectName(QLatin1String(name));
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->verticalHeader()->hide();
    t->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    t->horizontalHeader()->setDefaultAlignment(Qt::Alignment(Qt::AlignCenter | Qt::TextWordWrap));
    t->setWordWrap(true);
    // The wrapped headings ("mean KL from f32") get the lines they need at the columns' widths:
    // QHeaderView does not grow for wrapped text by itself.
    // Deferred: a stretched header hands out its sections' widths after the resize that caused it.
    QObject::connect(t->horizontalHeader(), &QHeaderView::sectionResized, t,
                     [t] { QTimer::singleShot(0, t, [t] { fitHeader(t); }); });
    QObject::connect(t->horizontalHeader(), &QHeaderView::geometriesChanged, t,
                     [t] { QTimer::singleShot(0, t, [t] { fitHeader(t); }); });
    t->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    t->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    t->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    return t;
}

void setCell(QTableWidget* t, int row, int col, const QString& text) {
    auto* item = new QTableWidgetItem(text);
    item->setTextAlignment(col == 0 ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter);
    t->setItem(row, col, item);
}

// KL spans orders of magnitude: three significant digits ("0.003", "0.0123"), the exponent form
// only below 0.0001 ("1.23e-05"), as the eviction table's "0.1177" reads.
QString sci(double x) { return x == 0.0 ? QStringLiteral("0") : widgets::shortNumberText(x, 3); }
}  // namespace

KvCompressionPanel::KvCompressionPanel(QWidget* parent) : QWidget(parent) {
    // The two experiments side by side, or one above the other in a narrow window.
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* layout = new widgets::AdaptiveRow(this);
    layout->setObjectName(QStringLiteral("kvCompressionRow"));
    outer->addWidget(layout);

    typesBox_ = new QGroupBox(this);
    auto* tl = new QVBoxLayout(typesBox_);
    auto* trow = new QHBoxLayout;
    typeStepsLabel_ = new QLabel(typesBox_);
    typeSteps_ = new QSpinBox(typesBox_);
    typeSteps_->setRange(2, 512);
    typeSteps_->setValue(64);
    typeStepsLabel_->setBuddy(typeSteps_);
    exact_ = new QCheckBox(typesBox_);
    runTypes_ = new QPushButton(typesBox_);
    runTypes_->setObjectName(QStringLiteral("kvRunTypes"));
    trow->addWidget(typeStepsLabel_);
    trow->addWidget(typeSteps_);
    trow->addWidget(exact_);
    trow->addStretch(1);
    trow->addWidget(runTypes_);
    tl->addLayout(trow);
    typesTable_ = makeTable(typesBox_, "kvTypesTable");
    typesTable_->setColumnCount(6);
    typesTable_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);   // names on one line
    tl->addWidget(typesTable_);
    klChart_ = new widgets::LineChartView(typesBox_);
    klChart_->setObjectName(QStringLiteral("kvKlChart"));
    klChart_->setLogY(true);
    tl->addWidget(klChart_, 1);
    typesNote_ = new QLabel(typesBox_);
    typesNote_->setWordWrap(true);
    tl->addWidget(typesNote_);
    layout->addWidget(typesBox_, 1);

    evictBox_ = new QGroupBox(this);
    auto* el = new QVBoxLayout(evictBox_);
    auto* form = new QGridLayout;
    textLabel_ = new QLabel(evictBox_);
    text_ = new QComboBox(evictBox_);
    text_->setObjectName(QStringLiteral("kvEvictionText"));
    text_->setSizeAdjustPolicy(QComboBox::AdjustToContents);   // its text changes with the language and the file
    text_->addItem(QString());   // the built-in text
    text_->addItem(QString());   // Open a text file…
    textLabel_->setBuddy(text_);
    tokensLabel_ = new QLabel(evictBox_);
    tokens_ = new QSpinBox(evictBox_);
    tokens_->setRange(32, 8192);
    tokens_->setValue(512);
    tokensLabel_->setBuddy(tokens_);
    cacheLabel_ = new QLabel(evictBox_);
    cache_ = new QSpinBox(evictBox_);
    cache_->setRange(8, 4096);
    cache_->setValue(128);
    cacheLabel_->setBuddy(cache_);
    sinksLabel_ = new QLabel(evictBox_);
    sinks_ = new QSpinBox(evictBox_);
    sinks_->setRange(1, 64);
    sinks_->setValue(4);
    sinksLabel_->setBuddy(sinks_);
    runEvict_ = new QPushButton(evictBox_);
    runEvict_->setObjectName(QStringLiteral("kvRunEviction"));
    form->addWidget(textLabel_, 0, 0);
    form->addWidget(text_, 0, 1, 1, 7);
    form->addWidget(tokensLabel_, 1, 0);
    form->addWidget(tokens_, 1, 1);
    form->addWidget(cacheLabel_, 1, 2);
    form->addWidget(cache_, 1, 3);
    form->addWidget(sinksLabel_, 1, 4);
    form->addWidget(sinks_, 1, 5);
    form->setColumnStretch(6, 1);
    form->addWidget(runEvict_, 1, 7);
    el->addLayout(form);
    evictTable_ = makeTable(evictBox_, "kvEvictionTable");
    evictTable_->setColumnCount(5);
    evictTable_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    el->addWidget(evictTable_);
    lossChart_ = new widgets::LineChartView(evictBox_);
    lossChart_->setObjectName(QStringLiteral("kvLossChart"));
    el->addWidget(lossChart_, 1);
    evictNote_ = new QLabel(evictBox_);
    evictNote_->setWordWrap(true);
    el->addWidget(evictNote_);
    layout->addWidget(evictBox_, 1);

    connect(runTypes_, &QPushButton::clicked, this, [this] { emit typesRequested(typeSteps_->value(), exact_->isChecked()); });
    connect(runEvict_, &QPushButton::clicked, this, [this] {
        try {
            emit evictionRequested(evictionText(), tokens_->value(), cache_->value(), sinks_->value());
        } catch (const std::exception& e) {
            emit errorOccurred(QString::fromUtf8(e.what()));
        }
    });
    connect(text_, &QComboBox::activated, this, [this](int index) {
        if (index == 1) chooseFile();
    });
    retranslate();
    updateEnabled();
}

QString KvCompressionPanel::evictionText() const {
    const QString path = file_.isEmpty() ? QStringLiteral(":/texts/gpl-3.0.txt") : file_;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        throw std::runtime_error(tr("Cannot read the text file '%1': %2").arg(path, f.errorString()).toStdString());
    const QByteArray bytes = f.readAll();
    const QString text = QString::fromUtf8(bytes);
    if (text.toUtf8() != bytes) throw std::runtime_error(tr("The text file '%1' is not UTF-8 text.").arg(path).toStdString());
    return text;
}

void KvCompressionPanel::setEvictionFile(const QString& path) {
    file_ = path;
    retranslate();
}

void KvCompressionPanel::chooseFile() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open a long text"), QString(), tr("Text files (*.txt *.md);;All files (*)"));
    setEvictionFile(path);
}

void KvCompressionPanel::setBusy(bool busy) {
    busy_ = busy;
    updateEnabled();
}

void KvCompressionPanel::setModelReady(bool ready) {
    ready_ = ready;
    updateEnabled();
}

void KvCompressionPanel::updateEnabled() {
    runTypes_->setEnabled(ready_ && !busy_);
    runEvict_->setEnabled(ready_ && !busy_);
}

void KvCompressionPanel::showTypesProgress(int done, int total) {
    typesNote_->setText(tr("Measuring: run %1 of %2…").arg(done).arg(total));
}

void KvCompressionPanel::showEvictionProgress(qint64 done, qint64 total) {
    evictNote_->setText(tr("Reading the text: %1 of %2 tokens, every policy in turn…").arg(done).arg(total));
}

void KvCompressionPanel::showTypes(const KvTypesView& v) {
    types_ = v;
    hasTypes_ = true;
    retranslate();
}

void KvCompressionPanel::showEviction(const KvEvictionView& v) {
    eviction_ = v;
    hasEviction_ = true;
    retranslate();
}

void KvCompressionPanel::retranslate() {
    typesBox_->setTitle(tr("KV cache dtype"));
    typeStepsLabel_->setText(tr("Steps:"));
    exact_->setText(tr("Exact arith&metic"));
    exact_->setToolTip(tr("f32 weights and activations (about 4 bytes per parameter more memory, several times slower): the KL then "
                          "comes from the cache alone"));
    runTypes_->setText(tr("&Compare dtypes"));
    const auto fitHeaders = qScopeGuard([this] {
        fitHeader(typesTable_);
        fitHeader(evictTable_);
    });
    typesTable_->setHorizontalHeaderLabels({tr("dtype"), tr("bytes / position"), tr("mean KL"), tr("max KL"),
                                            tr("top-1 agrees"), tr("ms / step")});
    klChart_->setTitles(tr("KL divergence from the f32 cache per step"), tr("step"), tr("nats"));
    klChart_->setEmptyText(tr("Compare dtypes to draw how far each cache type moves the next-token distribution."));
    if (hasTypes_) {
        typesTable_->setRowCount(static_cast<int>(types_.rows.size()));
        QList<widgets::LineSeriesData> series;
        for (int i = 0; i < types_.rows.size(); ++i) {
            const KvTypeRow& r = types_.rows[i];
            setCell(typesTable_, i, 0, r.type);
            setCell(typesTable_, i, 1, widgets::integerText(r.bytesPerPosition));
            setCell(typesTable_, i, 2, sci(r.meanKl));
            setCell(typesTable_, i, 3, sci(r.maxKl));
            setCell(typesTable_, i, 4, QStringLiteral("%1 %").arg(widgets::decimalText(100.0 * r.top1Agreement, 1)));
            setCell(typesTable_, i, 5, widgets::decimalText(r.msPerStep, 2));
            if (r.type == QLatin1String("f32")) continue;   // zero everywhere: nothing to draw on a log axis
            widgets::LineSeriesData s;
            s.name = r.type;
            for (int k = 0; k < r.kl.size(); ++k) s.points << QPointF(k, r.kl[k]);
            series << s;
        }
        klChart_->setSeries(series);
        typesNote_->setText(types_.exact ? tr("Exact arithmetic: the differences come from how the cache stores K and V alone.")
                                         : tr("The fast path (quantized activations, as llama.cpp) amplifies the cache's rounding; "
                                              "tick Exact arithmetic to measure the cache's own share."));
    } else {
        typesTable_->setRowCount(0);
        typesNote_->setText(tr("The f32 run picks a greedy text; f16 and q8_0 caches read the same tokens, so each step compares two "
                               "distributions over the same context."));
    }

    evictBox_->setTitle(tr("Long context: eviction"));
    textLabel_->setText(tr("Text:"));
    text_->setItemText(0, file_.isEmpty() ? tr("Built in: the GNU GPL v3 (a long English text)") : QFileInfo(file_).fileName());
    text_->setItemText(1, tr("Open a text file…"));
    tokensLabel_->setText(tr("T&okens:"));
    cacheLabel_->setText(tr("C&ache:"));
    sinksLabel_->setText(tr("S&inks:"));
    runEvict_->setText(tr("Ru&n eviction"));
    evictTable_->setHorizontalHeaderLabels({tr("policy"), tr("positions kept"), tr("KV bytes"), tr("perplexity"), tr("mean KL")});
    lossChart_->setTitles(tr("Loss per token (mean of the last 32)"), tr("token"), tr("nats"));
    lossChart_->setEmptyText(tr("Run eviction to draw each cache policy's loss per token."));
    if (hasEviction_) {
        evictTable_->setRowCount(static_cast<int>(eviction_.rows.size()));
        QList<widgets::LineSeriesData> series;
        for (int i = 0; i < eviction_.rows.size(); ++i) {
            const KvEvictionRow& r = eviction_.rows[i];
            // Named here, in the current language, from the policy's numbers.
            const QString name = r.window == 0   ? tr("full cache")
                                 : r.sinks > 0   ? tr("%1 sinks + %2 recent").arg(r.sinks).arg(r.window)
                                                 : tr("%1 recent, no sinks").arg(r.window);
            setCell(evictTable_, i, 0, name);
            setCell(evictTable_, i, 1, widgets::integerText(r.maxSlots));
            setCell(evictTable_, i, 2, widgets::byteText(double(r.bytesPeak)));
            setCell(evictTable_, i, 3, widgets::decimalText(r.perplexity, 2));
            setCell(evictTable_, i, 4, widgets::decimalText(r.meanKl, 4));
            widgets::LineSeriesData s;
            s.name = name;
            s.dashed = i > 0;
            double window = 0;
            for (int k = 0; k < r.nll.size(); ++k) {
                window += r.nll[k];
                if (k >= 32) window -= r.nll[k - 32];
                if (k >= 31) s.points << QPointF(k + 1, window / 32.0);
            }
            series << s;
        }
        lossChart_->setSeries(series);
        evictNote_->setText(tr("Perplexity over tokens %1–%2, after the bounded caches first fill.%3 Keeping the first tokens "
                               "(attention sinks) matters: most attention goes to them whatever they say.")
                                .arg(eviction_.scoreFrom + 1)
                                .arg(eviction_.tokens - 1)
                                .arg(eviction_.cancelled ? QLatin1Char(' ') + tr("(Stopped early: partial results.)") : QString()));
    } else {
        evictTable_->setRowCount(0);
        evictNote_->setText(tr("Reads the text one token at a time through three caches: the full one, the first tokens plus a recent "
                               "window (StreamingLLM), and the window alone. Kept keys keep their positions."));
    }
}

void KvCompressionPanel::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::LanguageChange) retranslate();
    if (e->type() == QEvent::FontChange || e->type() == QEvent::StyleChange || e->type() == QEvent::LanguageChange)
        for (QTableWidget* t : {typesTable_, evictTable_}) fitHeader(t);
}

}  // namespace dlab::ui
