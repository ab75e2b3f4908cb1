#include "ui/kv/kv_calculator_panel.h"

#include <QComboBox>
#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

#include "model/kv_memory.h"
#include "ui/kv/kv_blocks_panel.h"
#include "widgets/memory_bars_view.h"
#include "widgets/number_text.h"

namespace dlab::ui {

namespace {
constexpr int kLoaded = -1;   // the model combo's data for the loaded model (presets: their index)
const double kGiB = double(1LL << 30);
}  // namespace

KvCalculatorPanel::KvCalculatorPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    auto* form = new QGridLayout;
    auto add = [&](QLabel*& label, QWidget* w, int row, int col) {
        label = new QLabel(this);
        label->setBuddy(w);
        form->addWidget(label, row, col);
        form->addWidget(w, row, col + 1);
    };
    model_ = new QComboBox(this);
    model_->setObjectName(QStringLiteral("kvCalcModel"));
    model_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    for (size_t i = 0; i < kvPresets().size(); ++i) model_->addItem(QString::fromStdString(kvPresets()[i].name), int(i));
    context_ = new QSpinBox(this);
    context_->setObjectName(QStringLiteral("kvCalcContext"));
    context_->setRange(1, 1 << 20);
    context_->setValue(4096);
    context_->setGroupSeparatorShown(true);
    batch_ = new QSpinBox(this);
    batch_->setObjectName(QStringLiteral("kvCalcBatch"));
    batch_->setRange(1, 4096);
    batch_->setValue(1);
    dtype_ = new QComboBox(this);
    dtype_->setObjectName(QStringLiteral("kvCalcDtype"));
    for (const char* t : {"f16", "f32", "q8_0"}) dtype_->addItem(QLatin1String(t), QLatin1String(t));
    layout_ = new QComboBox(this);
    layout_->setObjectName(QStringLiteral("kvCalcLayout"));
    layout_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    layout_->addItem(QString(), int(KvHeadLayout::AsTrained));
    layout_->addItem(QString(), int(KvHeadLayout::Mha));
    layout_->addItem(QString(), int(KvHeadLayout::Mqa));
    weights_ = new QComboBox(this);
    weights_->setObjectName(QStringLiteral("kvCalcWeights"));
    weights_->addItem(QStringLiteral("f16 / bf16"), 2.0);
    weights_->addItem(QStringLiteral("q8_0"), 34.0 / 32.0);
    weights_->addItem(QStringLiteral("q4_0"), 18.0 / 32.0);
    // Two settings a row: three made the tab 856 px wide, too wide beside the Lessons panel (whose
    // KV lesson opens this tab) on a 1024-pixel screen.
    add(modelLabel_, model_, 0, 0);
    add(contextLabel_, context_, 0, 2);
    add(layoutLabel_, layout_, 1, 0);
    add(batchLabel_, batch_, 1, 2);
    add(weightsLabel_, weights_, 2, 0);
    add(dtypeLabel_, dtype_, 2, 2);
    form->setColumnStretch(1, 2);
    form->setColumnStretch(3, 1);
    layout->addLayout(form);
    formula_ = new QLabel(this);
    formula_->setWordWrap(true);
    layout->addWidget(formula_);
    result_ = new QLabel(this);
    result_->setWordWrap(true);
    result_->setObjectName(QStringLiteral("kvCalcResult"));
    layout->addWidget(result_);
    bars_ = new widgets::MemoryBarsView(this);
    bars_->setObjectName(QStringLiteral("kvMemoryBars"));
    layout->addWidget(bars_);
    layout->addStretch(1);
    for (QComboBox* c : {model_, dtype_, layout_, weights_}) connect(c, &QComboBox::currentIndexChanged, this, &KvCalculatorPanel::recompute);
    for (QSpinBox* s : {context_, batch_}) connect(s, &QSpinBox::valueChanged, this, &KvCalculatorPanel::recompute);
    retranslate();
}

void KvCalculatorPanel::setLoadedModel(const KvModelShape& shape) {
    loaded_ = shape;
    const bool had = hasLoaded_;
    hasLoaded_ = true;
    if (!had) model_->insertItem(0, QString(), kLoaded);
    retranslate();
    if (!had) model_->setCurrentIndex(0);
}

namespace {
const char* attentionKey(int layout) {
    return layout == int(KvHeadLayout::Mha) ? "mha" : layout == int(KvHeadLayout::Mqa) ? "mqa" : "as-trained";
}
}  // namespace

void KvCalculatorPanel::applySetup(const QVariantMap& setup) {
    if (setup.contains(QStringLiteral("calcModel"))) {
        const QString key = setup.value(QStringLiteral("calcModel")).toString();
        int data = kLoaded;
        for (size_t i = 0; i < kvPresets().size(); ++i)
            if (key == QString::fromStdString(kvPresets()[i].key)) data = int(i);
        const int index = model_->findData(data);
        if (index >= 0) model_->setCurrentIndex(index);   // "loaded" before a model is in: unchanged
    }
    if (setup.contains(QStringLiteral("calcContext"))) context_->setValue(setup.value(QStringLiteral("calcContext")).toInt());
    if (setup.contains(QStringLiteral("calcSequences"))) batch_->setValue(setup.value(QStringLiteral("calcSequences")).toInt());
    if (setup.contains(QStringLiteral("calcDtype"))) {
        const int index = dtype_->findData(setup.value(QStringLiteral("calcDtype")).toString());
        if (index >= 0) dtype_->setCurrentIndex(index);
    }
    if (setup.contains(QStringLiteral("calcAttention"))) {
        for (int i = 0; i < layout_->count(); ++i)
            if (setup.value(QStringLiteral("calcAttention")).toString() == QLatin1String(attentionKey(layout_->itemData(i).toInt())))
                layout_->setCurrentIndex(i);
    }
}

QVariantMap KvCalculatorPanel::setup() const {
    const int data = model_->currentData().toInt();
    return {{QStringLiteral("calcModel"), data == kLoaded ? QStringLiteral("loaded") : QString::fromStdString(kvPresets()[std::max(0, data)].key)},
            {QStringLiteral("calcContext"), context_->value()},
            {QStringLiteral("calcSequences"), batch_->value()},
            {QStringLiteral("calcDtype"), dtype_->currentData().toString()},
            {QStringLiteral("calcAttention"), QLatin1String(attentionKey(layout_->currentData().toInt()))}};
}

KvShape KvCalculatorPanel::shape() const {
    KvShape s;
    const int data = model_->currentData().toInt();
    if (data == kLoaded && hasLoaded_) {
        s.name = loaded_.name.toStdString();
        s.key = "loaded";
        s.nLayer = loaded_.nLayer;
        s.nHead = loaded_.nHead;
        s.nHeadKv = loaded_.nHeadKv;
        s.headDim = loaded_.headDim;
        s.nCtxTrain = loaded_.nCtxTrain;
        s.parameters = loaded_.parameters;
        s.weightBytes = loaded_.weightBytes;
    } else {
        s = kvPresets()[std::max(0, data)];
    }
    return withHeadLayout(s, KvHeadLayout(layout_->currentData().toInt()));
}

KvCalculatorPanel::Result KvCalculatorPanel::result() const {
    Result r;
    const KvShape s = shape();
    const KvType type = parseKvType(dtype_->currentData().toString().toStdString());
    r.bytesPerPosition = double(kvBytesPerPosition(s, type));
    r.bytesPerSequence = double(kvCacheBytes(s, context_->value(), type, 1));
    r.kvBytes = double(kvCacheBytes(s, context_->value(), type, batch_->value()));
    r.weightsBytes = weightsBytes(s, weights_->currentData().toDouble());
    for (int gib : gpuSizesGiB()) {
        r.kvOnlyFit << sequencesThatFit(gib * kGiB, 0, r.bytesPerSequence);
        r.withWeightsFit << sequencesThatFit(gib * kGiB, r.weightsBytes, r.bytesPerSequence);
    }
    r.ramBytes = physicalMemoryBytes();
    r.ramKvOnlyFit = sequencesThatFit(r.ramBytes, 0, r.bytesPerSequence);
    r.ramWithWeightsFit = sequencesThatFit(r.ramBytes, r.weightsBytes, r.bytesPerSequence);
    return r;
}

void KvCalculatorPanel::recompute() {
    const Result r = result();
    const KvShape s = shape();
    const bool fromFile = s.weightBytes > 0;
    weights_->setEnabled(!fromFile);
    result_->setText(tr("<b>%1 per position</b> (2 × %2 layers × %3 KV heads × %4 × %5 bytes), <b>%6 per sequence</b> of %7 "
                        "positions, <b>%8 for %n sequence(s)</b>. Weights: %9%10.",
                        nullptr, batch_->value())
                         .arg(widgets::byteText(r.bytesPerPosition))
                         .arg(s.nLayer)
                         .arg(s.nHeadKv)
                         .arg(s.headDim)
                         .arg(kvBytesPerValue(parseKvType(dtype_->currentData().toString().toStdString())))
                         .arg(widgets::byteText(r.bytesPerSequence))
                         .arg(widgets::integerText(context_->value()))
                         .arg(widgets::byteText(r.kvBytes))
                         .arg(widgets::byteText(r.weightsBytes))
                         .arg(fromFile ? tr(" (the file's tensors)") : QString()));
    std::vector<widgets::MemoryBar> bars;
    // The note: sequences that fit, and the share this choice takes (a small model's segments are
    // slivers beside 141 GiB; the share says how small).
    const auto bar = [&](const QString& label, double capacity, qint64 fit, qint64 kvOnly) {
        widgets::MemoryBar b;
        b.label = label;
        b.capacityBytes = capacity;
        b.weightsBytes = r.weightsBytes;
        b.kvBytes = r.kvBytes;
        const double share = 100.0 * (r.weightsBytes + r.kvBytes) / capacity;
        b.note = tr("%1 fit (KV only: %2) · %3 % used")
                     .arg(widgets::integerText(fit), widgets::integerText(kvOnly),
                          share < 10.0 ? widgets::decimalText(share, 1) : widgets::integerText(qint64(std::llround(share))));
        bars.push_back(b);
    };
    if (r.ramBytes > 0) bar(tr("RAM %1").arg(widgets::byteText(r.ramBytes)), r.ramBytes, r.ramWithWeightsFit, r.ramKvOnlyFit);
    const auto& sizes = gpuSizesGiB();
    for (size_t i = 0; i < sizes.size(); ++i)
        bar(tr("GPU %1 GiB").arg(sizes[i]), sizes[i] * kGiB, r.withWeightsFit[static_cast<int>(i)], r.kvOnlyFit[static_cast<int>(i)]);
    bars_->setBars(std::move(bars));
}

void KvCalculatorPanel::retranslate() {
    modelLabel_->setText(tr("&Model:"));
    contextLabel_->setText(tr("C&ontext:"));
    batchLabel_->setText(tr("Seque&nces:"));
    dtypeLabel_->setText(tr("&KV dtype:"));
    layoutLabel_->setText(tr("&Attention:"));
    weightsLabel_->setText(tr("&Weights:"));
    layout_->setItemText(0, tr("as trained"));
    layout_->setItemText(1, tr("MHA (a K/V head per query head)"));
    layout_->setItemText(2, tr("MQA (one K/V head)"));
    if (hasLoaded_) model_->setItemText(0, tr("The loaded model (%1 layers, %2 KV heads)").arg(loaded_.nLayer).arg(loaded_.nHeadKv));
    formula_->setText(tr("A formula, not a measurement: KV bytes = 2 (K and V) × layers × KV heads × head dim × positions × bytes "
                         "per value × sequences. The bars put it beside the weights in this computer's memory (RAM, where the CPU engine "
                         "runs) and on GPUs of 24, 40, 80 and 141 GiB; \"fit\" counts the sequences of this context that fit after "
                         "the weights."));
    recompute();
}

void KvCalculatorPanel::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::LanguageChange) retranslate();
}

}  // namespace dlab::ui
