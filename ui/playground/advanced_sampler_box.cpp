#include "ui/playground/advanced_sampler_box.h"

#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

#include "ui/playground/logit_bias_text.h"
#include "ui/playground/stage_order_model.h"
#include "widgets/sampler_waterfall.h"

namespace dlab::ui {

namespace {
// The stages this box holds, in the order their groups appear.
const char* const kStages[] = {"typical", "top-n-sigma", "xtc", "dry", "mirostat", "mirostat-v1", "no-repeat-ngram", "logit-bias"};
// The two Mirostats share τ and η (one SamplerParams field each) and exclude each other.
bool isMirostat(const QString& stage) { return stage.startsWith(QLatin1String("mirostat")); }
}  // namespace

AdvancedSamplerBox::AdvancedSamplerBox(StageOrderModel* stages, QWidget* parent) : QWidget(parent), stages_(stages) {
    const SamplerParams d;
    knobs_ = {
        {"typicalP", "typical", 0.01, 1.0, 0.01, 2, 0.9, d.typicalP},
        {"topNSigma", "top-n-sigma", 0.1, 5.0, 0.1, 1, 1.0, d.topNSigma},
        {"xtcProbability", "xtc", 0.01, 1.0, 0.05, 2, 0.5, d.xtcProbability},
        {"xtcThreshold", "xtc", 0.01, 1.0, 0.01, 2, 0.1, d.xtcThreshold},
        {"dryMultiplier", "dry", 0.05, 5.0, 0.05, 2, 0.8, d.dryMultiplier},
        {"dryBase", "dry", 1.0, 4.0, 0.05, 2, d.dryBase, d.dryBase},
        {"dryAllowedLength", "dry", 0, 20, 1, 0, d.dryAllowedLength, d.dryAllowedLength},
        {"dryPenaltyLastN", "dry", -1, 4096, 16, 0, d.dryPenaltyLastN, d.dryPenaltyLastN},
        {"mirostatTau", "mirostat", 0.1, 10.0, 0.1, 1, 5.0, d.mirostatTau},
        {"mirostatEta", "mirostat", 0.01, 1.0, 0.01, 2, d.mirostatEta, d.mirostatEta},
        {"mirostatTau", "mirostat-v1", 0.1, 10.0, 0.1, 1, 5.0, d.mirostatTau},
        {"mirostatEta", "mirostat-v1", 0.01, 1.0, 0.01, 2, d.mirostatEta, d.mirostatEta},
        {"mirostatM", "mirostat-v1", 1, 1000, 10, 0, d.mirostatM, d.mirostatM},
        {"noRepeatNgram", "no-repeat-ngram", 1, 10, 1, 0, 3, d.noRepeatNgram},
        {"penaltyLastN", "", -1, 4096, 16, 0, d.penaltyLastN, d.penaltyLastN},
    };
    build();
    retranslate();
    syncGroupsFromModel();
    connect(stages_, &StageOrderModel::orderChanged, this, &AdvancedSamplerBox::syncGroupsFromModel);
    connect(stages_, &QAbstractItemModel::modelReset, this, &AdvancedSamplerBox::syncGroupsFromModel);
    connect(stages_, &QAbstractItemModel::dataChanged, this, &AdvancedSamplerBox::syncGroupsFromModel);
}

void AdvancedSamplerBox::addKnob(Knob& k, QWidget* box, QFormLayout* form) {
    k.spin = new QDoubleSpinBox(box);
    k.spin->setObjectName(QString::fromLatin1(k.field));
    k.spin->setRange(k.min, k.max);
    k.spin->setSingleStep(k.step);
    k.spin->setDecimals(k.decimals);
    k.spin->setValue(k.start);
    k.label = new QLabel(box);
    form->addRow(k.label, k.spin);
    connect(k.spin, &QDoubleSpinBox::valueChanged, this, [this] { emit edited(); });
}

void AdvancedSamplerBox::build() {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    for (const char* stageName : kStages) {
        const QString stage = QString::fromLatin1(stageName);
        auto* box = new QGroupBox(this);
        box->setCheckable(true);
        box->setObjectName(QStringLiteral("stage-") + stage);
        auto* form = new QFormLayout(box);
        form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
        for (Knob& k : knobs_)
            if (stage == QLatin1String(k.stage)) addKnob(k, box, form);
        if (stage == QLatin1String("logit-bias")) {
            biasEdit_ = new QLineEdit(box);
            biasEdit_->setObjectName(QStringLiteral("logitBias"));
            biasHint_ = new QLabel(box);
            biasHint_->setWordWrap(true);
            form->addRow(biasEdit_);
            form->addRow(biasHint_);
            connect(biasEdit_, &QLineEdit::textEdited, this, &AdvancedSamplerBox::onBiasEdited);
        }
        if (stage == QLatin1String("mirostat")) {
            mirostatNote_ = new QLabel(box);
            mirostatNote_->setWordWrap(true);
            form->addRow(mirostatNote_);
        }
        connect(box, &QGroupBox::toggled, this, [this, stage](bool on) {
            if (syncing_) return;
            // One Mirostat at a time (the engine refuses an order with both).
            if (on && isMirostat(stage))
                for (const auto& [other, otherBox] : groups_)
                    if (other != stage && isMirostat(other)) stages_->setEnabled(other, false);
            stages_->setEnabled(stage, on);   // orderChanged() re-samples through the page
        });
        groups_.emplace_back(stage, box);
        outer->addWidget(box);
    }
    // The penalty window belongs to the three penalties of the basic view, so it has no tick.
    auto* window = new QGroupBox(this);
    window->setObjectName(QStringLiteral("penaltyWindow"));
    auto* form = new QFormLayout(window);
    for (Knob& k : knobs_)
        if (!*k.stage) addKnob(k, window, form);
    groups_.emplace_back(QString(), window);
    outer->addWidget(window);
}

void AdvancedSamplerBox::retranslate() {
    for (auto& [stage, box] : groups_) {
        if (stage.isEmpty()) {
            box->setTitle(tr("Penalty window"));
            continue;
        }
        box->setTitle(widgets::stageTitle(stage));
        box->setToolTip(widgets::stageExplanation(stage));
    }
    const auto text = [](const char* field) -> std::pair<QString, QString> {
        const QString f = QString::fromLatin1(field);
        if (f == QLatin1String("typicalP"))
            return {tr("p"), tr("Keeps the tokens whose surprise is closest to the distribution's entropy until their "
                                "probabilities add up to p (1 = off).")};
        if (f == QLatin1String("topNSigma"))
            return {tr("n (σ)"), tr("Keeps the tokens whose logit is within n standard deviations of the best logit.")};
        if (f == QLatin1String("xtcProbability"))
            return {tr("Probability"), tr("How often XTC acts: at each step, with this probability, it removes every token "
                                          "above the threshold except the least likely of them.")};
        if (f == QLatin1String("xtcThreshold"))
            return {tr("Threshold"), tr("Tokens at least this likely count as top choices (above 0.5 at most one can, so "
                                        "nothing is removed).")};
        if (f == QLatin1String("dryMultiplier"))
            return {tr("Multiplier"), tr("Strength of the DRY penalty on a token that would extend a repeated sequence.")};
        if (f == QLatin1String("dryBase"))
            return {tr("Base"), tr("The penalty grows as base^(length − allowed length) with the repeat's length.")};
        if (f == QLatin1String("dryAllowedLength"))
            return {tr("Allowed length"), tr("Repeats up to this many tokens are not penalised.")};
        if (f == QLatin1String("dryPenaltyLastN"))
            return {tr("Look back"), tr("How many recent tokens DRY searches for repeats (−1 = the whole text).")};
        if (f == QLatin1String("mirostatTau"))
            return {tr("Target surprise τ (bits)"), tr("The surprise per token Mirostat steers towards: lower is more "
                                                       "focused, higher more varied.")};
        if (f == QLatin1String("mirostatEta"))
            return {tr("Learning rate η"), tr("How fast Mirostat corrects its cut-off after each token.")};
        if (f == QLatin1String("mirostatM"))
            return {tr("Tokens for the fit m"), tr("How many of the most likely tokens Mirostat 1 uses to estimate how "
                                                    "fast the probabilities fall off.")};
        if (f == QLatin1String("noRepeatNgram"))
            return {tr("n"), tr("Bans any token that would repeat an n-gram already in the text.")};
        if (f == QLatin1String("penaltyLastN"))
            return {tr("Last n tokens"), tr("How many recent tokens the repetition, frequency and presence penalties "
                                            "look at (−1 = the whole text, 0 = penalties off).")};
        return {f, QString()};
    };
    for (Knob& k : knobs_) {
        const auto [label, tip] = text(k.field);
        k.label->setText(label);
        k.label->setToolTip(tip);
        k.spin->setToolTip(tip);
    }
    for (Knob& k : knobs_)
        if (QLatin1String(k.field) == QLatin1String("dryPenaltyLastN") || QLatin1String(k.field) == QLatin1String("penaltyLastN"))
            k.spin->setSpecialValueText(tr("all"));
    biasEdit_->setPlaceholderText(tr("e.g. 198:-2, 13:ban"));
    biasEdit_->setToolTip(tr("Token ids (the Candidates table shows them) with a number added to their logit; "
                             "“ban” removes the token. Right-click a candidate to ban it."));
    biasHint_->setText(biasError_.isEmpty() ? tr("TOKEN_ID:BIAS, separated by commas.") : biasError_);
    mirostatNote_->setText(tr("Mirostat replaces top-k and top-p: use it with its order preset (Mirostat 1 or 2, as "
                              "llama.cpp's mirostat and mirostat-v2)."));
}

void AdvancedSamplerBox::changeEvent(QEvent* e) {
    if (e->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(e);
}

void AdvancedSamplerBox::syncGroupsFromModel() {
    syncing_ = true;
    for (auto& [stage, box] : groups_)
        if (!stage.isEmpty() && box->isChecked() != stages_->isEnabled(stage)) box->setChecked(stages_->isEnabled(stage));
    syncing_ = false;
}

double AdvancedSamplerBox::valueOf(const char* field) const {
    // A field may have a knob in two groups (the Mirostats' τ and η): the ticked group's counts.
    double neutral = 0.0;
    for (const Knob& k : knobs_) {
        if (QLatin1String(k.field) != QLatin1String(field)) continue;
        if (!*k.stage || stages_->isEnabled(QString::fromLatin1(k.stage))) return k.spin->value();
        neutral = k.neutral;
    }
    return neutral;
}

void AdvancedSamplerBox::apply(SamplerParams& p) const {
    p.typicalP = static_cast<float>(valueOf("typicalP"));
    p.topNSigma = static_cast<float>(valueOf("topNSigma"));
    p.xtcProbability = static_cast<float>(valueOf("xtcProbability"));
    p.xtcThreshold = static_cast<float>(valueOf("xtcThreshold"));
    p.dryMultiplier = static_cast<float>(valueOf("dryMultiplier"));
    p.dryBase = static_cast<float>(valueOf("dryBase"));
    p.dryAllowedLength = static_cast<int>(std::lround(valueOf("dryAllowedLength")));
    p.dryPenaltyLastN = static_cast<int>(std::lround(valueOf("dryPenaltyLastN")));
    p.mirostatTau = static_cast<float>(valueOf("mirostatTau"));
    p.mirostatEta = static_cast<float>(valueOf("mirostatEta"));
    p.mirostatM = static_cast<int>(std::lround(valueOf("mirostatM")));
    p.noRepeatNgram = static_cast<int>(std::lround(valueOf("noRepeatNgram")));
    p.penaltyLastN = static_cast<int>(std::lround(valueOf("penaltyLastN")));
    if (stages_->isEnabled(QStringLiteral("logit-bias"))) p.logitBias = bias_;
}

QVariantMap AdvancedSamplerBox::values() const {
    QVariantMap m;
    for (const Knob& k : knobs_) {
        const QString field = QString::fromLatin1(k.field);
        const bool ticked = *k.stage && stages_->isEnabled(QString::fromLatin1(k.stage));
        if (m.contains(field) && !ticked) continue;   // a shared field: the ticked group's value
        m.insert(field, k.decimals == 0 ? QVariant(qRound(k.spin->value())) : QVariant(k.spin->value()));
    }
    m.insert(QStringLiteral("logitBias"), formatLogitBias(bias_));
    return m;
}

void AdvancedSamplerBox::setValues(const QVariantMap& setup) {
    for (Knob& k : knobs_) {
        const auto it = setup.find(QString::fromLatin1(k.field));
        if (it == setup.end()) continue;
        const QSignalBlocker block(k.spin);
        // A lesson's "off" value (typical-p 1) leaves the knob where it would do something.
        if (it->toDouble() != k.neutral || !*k.stage) k.spin->setValue(it->toDouble());
    }
    const auto bias = setup.find(QStringLiteral("logitBias"));
    if (bias != setup.end()) {
        biasEdit_->setText(bias->toString());
        onBiasEdited();
    }
}

QStringList AdvancedSamplerBox::stagesSwitchedOnBy(const QVariantMap& setup) const {
    QStringList on, seenStages, seenFields;
    for (const Knob& k : knobs_) {
        const QString stage = QString::fromLatin1(k.stage), field = QString::fromLatin1(k.field);
        if (stage.isEmpty() || seenStages.contains(stage)) continue;
        seenStages << stage;
        // A field the first Mirostat's switch already took (τ) does not switch the second one.
        const bool shared = seenFields.contains(field);
        seenFields << field;
        const auto it = setup.find(field);
        if (shared || it == setup.end() || it->toDouble() == k.neutral) continue;
        const bool otherMirostatOn = isMirostat(stage) && std::any_of(groups_.begin(), groups_.end(), [&](const auto& g) {
                                         return g.first != stage && isMirostat(g.first) && stages_->isEnabled(g.first);
                                     });
        if (!otherMirostatOn) on << stage;
    }
    if (!setup.value(QStringLiteral("logitBias")).toString().isEmpty()) on << QStringLiteral("logit-bias");
    return on;
}

void AdvancedSamplerBox::reset() {
    for (Knob& k : knobs_) {
        const QSignalBlocker block(k.spin);
        k.spin->setValue(k.start);
    }
    biasEdit_->clear();
    onBiasEdited();
}

void AdvancedSamplerBox::setVocabularySize(int n) {
    vocabSize_ = n;
    onBiasEdited();
}

void AdvancedSamplerBox::banToken(int id) {
    auto entries = bias_;
    bool found = false;
    for (auto& e : entries)
        if (e.first == id) {
            e.second = -std::numeric_limits<float>::infinity();
            found = true;
        }
    if (!found) entries.emplace_back(id, -std::numeric_limits<float>::infinity());
    biasEdit_->setText(formatLogitBias(entries));
    onBiasEdited();
    stages_->setEnabled(QStringLiteral("logit-bias"), true);
}

void AdvancedSamplerBox::onBiasEdited() {
    const LogitBiasParse parse = parseLogitBias(biasEdit_->text(), vocabSize_);
    biasError_ = parse.error;
    if (parse.error.isEmpty()) bias_ = parse.entries;   // a bad entry keeps the last good list in use
    biasEdit_->setProperty("invalid", !parse.error.isEmpty());
    QPalette pal = biasEdit_->palette();
    pal.setColor(QPalette::Text, parse.error.isEmpty() ? palette().color(QPalette::Text) : QColor(0xd0, 0x30, 0x30));
    biasEdit_->setPalette(pal);
    biasHint_->setText(biasError_.isEmpty() ? tr("TOKEN_ID:BIAS, separated by commas.") : biasError_);
    emit edited();
}

QGroupBox* AdvancedSamplerBox::group(const QString& stage) const {
    for (const auto& [s, box] : groups_)
        if (s == stage) return box;
    return nullptr;
}

QDoubleSpinBox* AdvancedSamplerBox::knob(const QString& field) const {
    for (const Knob& k : knobs_)
        if (QLatin1String(k.field) == field) return k.spin;
    return nullptr;
}

void AdvancedSamplerBox::saveSettings(QSettings& s) const {
    s.beginGroup(QStringLiteral("advanced"));
    for (const Knob& k : knobs_) s.setValue(QString::fromLatin1(k.field), k.spin->value());
    s.setValue(QStringLiteral("logitBias"), biasEdit_->text());
    s.endGroup();
}

void AdvancedSamplerBox::restoreSettings(QSettings& s) {
    s.beginGroup(QStringLiteral("advanced"));
    for (Knob& k : knobs_) {
        bool ok = false;
        const double v = s.value(QString::fromLatin1(k.field)).toDouble(&ok);
        const QSignalBlocker block(k.spin);
        if (ok) k.spin->setValue(v);   // QDoubleSpinBox clamps a hand-edited value into range
    }
    biasEdit_->setText(s.value(QStringLiteral("logitBias")).toString());
    s.endGroup();
    onBiasEdited();
}

}  // namespace dlab::ui
