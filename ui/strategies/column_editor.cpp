#include "ui/strategies/column_editor.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "generate/run_spec.h"

namespace dlab::ui {

namespace {
QDoubleSpinBox* doubleSpin(QWidget* parent, double lo, double hi, double step, int decimals, double value) {
    auto* s = new QDoubleSpinBox(parent);
    s->setRange(lo, hi);
    s->setSingleStep(step);
    s->setDecimals(decimals);
    s->setValue(value);
    return s;
}
QSpinBox* intSpin(QWidget* parent, int lo, int hi, int value) {
    auto* s = new QSpinBox(parent);
    s->setRange(lo, hi);
    s->setValue(value);
    return s;
}
enum Kind { Greedy, Sample, Beam, Diverse };
}  // namespace

ColumnEditor::ColumnEditor(const QString& spec, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Strategy"));
    auto* layout = new QVBoxLayout(this);
    form_ = new QFormLayout;
    layout->addLayout(form_);
    kind_ = new QComboBox(this);
    kind_->addItem(tr("Greedy"), Greedy);
    kind_->addItem(tr("Sampling"), Sample);
    kind_->addItem(tr("Beam search"), Beam);
    kind_->addItem(tr("Diverse beam search"), Diverse);
    form_->addRow(tr("Strategy"), kind_);
    temperature_ = doubleSpin(this, 0.0, 5.0, 0.05, 2, 0.7);
    topK_ = intSpin(this, 0, 1000, 0);
    topP_ = doubleSpin(this, 0.01, 1.0, 0.01, 2, 0.9);
    minP_ = doubleSpin(this, 0.0, 1.0, 0.01, 2, 0.0);
    seed_ = intSpin(this, 0, 1 << 30, 1);
    width_ = intSpin(this, 1, 64, 4);
    groups_ = intSpin(this, 1, 64, 2);
    diversity_ = doubleSpin(this, 0.0, 10.0, 0.1, 2, 1.0);
    lengthPenalty_ = doubleSpin(this, -5.0, 5.0, 0.1, 2, 1.0);
    early_ = new QComboBox(this);
    early_->addItem(tr("heuristic (HF default)"), QStringLiteral("false"));
    early_->addItem(tr("as soon as k are finished"), QStringLiteral("true"));
    early_->addItem(tr("never (exact)"), QStringLiteral("never"));
    repeat_ = doubleSpin(this, 0.1, 10.0, 0.05, 2, 1.0);
    noRepeat_ = intSpin(this, 0, 16, 0);
    form_->addRow(tr("Temperature"), temperature_);
    form_->addRow(tr("Top-k (0 = off)"), topK_);
    form_->addRow(tr("Top-p"), topP_);
    form_->addRow(tr("Min-p"), minP_);
    form_->addRow(tr("Seed"), seed_);
    form_->addRow(tr("Beam width k"), width_);
    form_->addRow(tr("Groups"), groups_);
    form_->addRow(tr("Diversity penalty"), diversity_);
    form_->addRow(tr("Length penalty α"), lengthPenalty_);
    form_->addRow(tr("Early stopping"), early_);
    form_->addRow(tr("Repetition penalty (1 = off)"), repeat_);
    form_->addRow(tr("No-repeat n-gram (0 = off)"), noRepeat_);

    specEdit_ = new QLineEdit(this);
    specEdit_->setObjectName(QStringLiteral("specEdit"));
    specEdit_->setToolTip(tr("The run spec, as decoding-lab-cli compare --run reads it; every key works here, e.g. "
                             "sample:t=0.8,dry=0.8,order=llama.cpp (DRY is a stage of the llama.cpp order) or beam:k=8,lp=0.6,es=never"));
    specEdit_->setMinimumWidth(specEdit_->fontMetrics().horizontalAdvance(QLatin1Char('m')) * 36);
    form_->addRow(tr("Run spec"), specEdit_);
    errorLabel_ = new QLabel(this);
    errorLabel_->setWordWrap(true);
    errorLabel_->setObjectName(QStringLiteral("specError"));
    layout->addWidget(errorLabel_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    for (QDoubleSpinBox* s : {temperature_, topP_, minP_, repeat_, lengthPenalty_, diversity_})
        connect(s, &QDoubleSpinBox::valueChanged, this, &ColumnEditor::fromFields);
    for (QSpinBox* s : {topK_, seed_, noRepeat_, width_, groups_}) connect(s, &QSpinBox::valueChanged, this, &ColumnEditor::fromFields);
    connect(early_, &QComboBox::currentIndexChanged, this, &ColumnEditor::fromFields);
    connect(kind_, &QComboBox::currentIndexChanged, this, [this] {
        showKind();
        fromFields();
    });
    connect(specEdit_, &QLineEdit::textEdited, this, &ColumnEditor::fromSpec);
    connect(this, &QDialog::finished, this, [] {});

    specEdit_->setText(spec.isEmpty() ? QStringLiteral("sample:t=0.7,p=0.9,seed=1") : spec);
    fromSpec();
    showKind();
    const auto okEnabled = [this, buttons] { buttons->button(QDialogButtonBox::Ok)->setEnabled(error().isEmpty()); };
    connect(specEdit_, &QLineEdit::textChanged, this, okEnabled);
    okEnabled();
}

QString ColumnEditor::spec() const { return canonical_; }

QString ColumnEditor::error() const { return errorLabel_->text(); }

void ColumnEditor::showKind() {
    const int k = kind_->currentData().toInt();
    const auto show = [this](QWidget* w, bool on) { form_->setRowVisible(w, on); };
    show(temperature_, k == Sample);
    show(topK_, k == Sample);
    show(topP_, k == Sample);
    show(minP_, k == Sample);
    show(seed_, k == Sample);
    show(width_, k == Beam || k == Diverse);
    show(groups_, k == Diverse);
    show(diversity_, k == Diverse);
    show(lengthPenalty_, k == Beam || k == Diverse);
    show(early_, k == Beam || k == Diverse);
    adjustSize();
}

void ColumnEditor::fromFields() {
    if (syncing_) return;
    // Start from what the spec says (keys the fields do not show stay), then set the fields'.
    RunSpec r;
    try {
        r = parseRunSpec(specEdit_->text().toStdString());
    } catch (const std::exception&) {
    }
    const int k = kind_->currentData().toInt();
    const RunKind kind = k == Greedy ? RunKind::Greedy : k == Sample ? RunKind::Sample : RunKind::Beam;
    if (r.kind != kind) {
        r = RunSpec{};
        r.kind = kind;
        if (kind == RunKind::Greedy) r.sampler.temperature = 0.0f;
    }
    r.sampler.repeatPenalty = static_cast<float>(repeat_->value());
    r.sampler.noRepeatNgram = noRepeat_->value();
    if (kind == RunKind::Sample) {
        r.sampler.temperature = static_cast<float>(temperature_->value());
        r.sampler.topK = topK_->value();
        r.sampler.topP = static_cast<float>(topP_->value());
        r.sampler.minP = static_cast<float>(minP_->value());
        r.sampler.seed = static_cast<uint64_t>(seed_->value());
    }
    if (kind == RunKind::Beam) {
        r.beamWidth = width_->value();
        r.lengthPenalty = lengthPenalty_->value();
        r.earlyStopping = parseEarlyStopping(early_->currentData().toString().toStdString());
        r.beamGroups = k == Diverse ? groups_->value() : 1;
        r.diversityPenalty = k == Diverse ? diversity_->value() : 0.0;
        r.beamRepeatPenalty = static_cast<float>(repeat_->value());
        r.beamNoRepeatNgram = noRepeat_->value();
    }
    const QString text = QString::fromStdString(runSpecText(r));
    specEdit_->setText(text);
    fromSpec();
}

void ColumnEditor::fromSpec() {
    try {
        const RunSpec r = parseRunSpec(specEdit_->text().trimmed().toStdString());
        canonical_ = QString::fromStdString(runSpecText(r));
        errorLabel_->clear();
        syncing_ = true;
        const bool diverse = r.kind == RunKind::Beam && r.beamGroups > 1;
        kind_->setCurrentIndex(kind_->findData(r.kind == RunKind::Greedy ? Greedy : r.kind == RunKind::Sample ? Sample : diverse ? Diverse : Beam));
        if (r.kind == RunKind::Sample) {
            temperature_->setValue(r.sampler.temperature);
            topK_->setValue(r.sampler.topK);
            topP_->setValue(r.sampler.topP);
            minP_->setValue(r.sampler.minP);
            seed_->setValue(static_cast<int>(std::min<uint64_t>(r.sampler.seed, 1 << 30)));
        }
        if (r.kind == RunKind::Beam) {
            width_->setValue(r.beamWidth);
            lengthPenalty_->setValue(r.lengthPenalty);
            early_->setCurrentIndex(early_->findData(QString::fromLatin1(earlyStoppingName(r.earlyStopping))));
            if (diverse) {
                groups_->setValue(r.beamGroups);
                diversity_->setValue(r.diversityPenalty);
            }
            repeat_->setValue(r.beamRepeatPenalty);
            noRepeat_->setValue(r.beamNoRepeatNgram);
        } else {
            repeat_->setValue(r.sampler.repeatPenalty);
            noRepeat_->setValue(r.sampler.noRepeatNgram);
        }
        syncing_ = false;
        showKind();
    } catch (const std::exception& e) {
        syncing_ = false;
        canonical_.clear();
        errorLabel_->setText(QString::fromUtf8(e.what()));
    }
}

}  // namespace dlab::ui
