#include "ui/lessons/lesson_setup.h"

#include <QRegularExpression>

#include <climits>
#include <cmath>

#include "core/error.h"
#include "model/kv_memory.h"

namespace dlab::ui {

namespace {

enum class Kind { Text, WholeNumber, Seed, Number, Action, TextList, Flag, Choice };

struct KeySpec {
    const char* name;
    Kind kind;
};

// Sampler keys are SamplerParams' field names; their ranges are SamplerParams::validate()'s.
const KeySpec kKeys[] = {
    {"prompt", Kind::Text},          {"runLength", Kind::WholeNumber}, {"action", Kind::Action},
    {"temperature", Kind::Number},   {"topK", Kind::WholeNumber},      {"topP", Kind::Number},
    {"minP", Kind::Number},          {"typicalP", Kind::Number},       {"repeatPenalty", Kind::Number},
    {"frequencyPenalty", Kind::Number}, {"presencePenalty", Kind::Number},
    {"penaltyLastN", Kind::WholeNumber}, {"noRepeatNgram", Kind::WholeNumber},
    {"dryMultiplier", Kind::Number}, {"dryBase", Kind::Number},        {"dryAllowedLength", Kind::WholeNumber},
    {"xtcProbability", Kind::Number}, {"xtcThreshold", Kind::Number},  {"topNSigma", Kind::Number},
    {"mirostatTau", Kind::Number},   {"mirostatEta", Kind::Number},    {"seed", Kind::Seed},
    {"order", Kind::Text},
    // The Serving lab's Safety tab (a lesson whose page is "serving").
    {"inputFilter", Kind::TextList}, {"bannedPhrases", Kind::TextList}, {"refusalPatterns", Kind::TextList},
    {"outputFilter", Kind::TextList}, {"ignoreCase", Kind::Flag},
    // The KV page's memory calculator (a lesson whose page is "kv").
    {"calcModel", Kind::Choice},     {"calcContext", Kind::WholeNumber}, {"calcSequences", Kind::WholeNumber},
    {"calcDtype", Kind::Choice},     {"calcAttention", Kind::Choice},
};

// The values a Choice key takes: the calculator's presets (and the loaded model), its dtypes and
// attention layouts.
QStringList choicesFor(const QString& key) {
    if (key == QLatin1String("calcModel")) {
        QStringList out{QStringLiteral("loaded")};
        for (const KvShape& s : kvPresets()) out << QString::fromStdString(s.key);
        return out;
    }
    if (key == QLatin1String("calcDtype")) return {QStringLiteral("f16"), QStringLiteral("f32"), QStringLiteral("q8_0")};
    if (key == QLatin1String("calcAttention")) return {QStringLiteral("as-trained"), QStringLiteral("mha"), QStringLiteral("mqa")};
    return {};
}

// The calculator's boxes go from 1 to 2^20 positions and 1 to 4096 sequences.
constexpr int kMaxCalcContext = 1 << 20;
constexpr int kMaxCalcSequences = 4096;

// The playground's "Tokens per run" box goes from 1 to 2048.
constexpr int kMaxRunLength = 2048;
// JSON numbers are doubles: every whole number up to 2^53 is exact.
constexpr double kMaxSeed = 9007199254740992.0;

const KeySpec* findKey(const QString& name) {
    for (const KeySpec& k : kKeys)
        if (name == QLatin1String(k.name)) return &k;
    return nullptr;
}

[[noreturn]] void fail(const QString& sentence) { throw Error(sentence.toStdString()); }

QString shown(const QVariant& v) {
    if (v.typeId() == QMetaType::QString) return QLatin1Char('"') + v.toString() + QLatin1Char('"');
    if (v.typeId() == QMetaType::Bool) return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (!v.isValid() || v.isNull()) return QStringLiteral("null");
    return v.toString();
}

bool isNumber(const QVariant& v) {
    switch (v.typeId()) {
    case QMetaType::Int: case QMetaType::UInt: case QMetaType::LongLong: case QMetaType::ULongLong:
    case QMetaType::Double: case QMetaType::Float:
        return true;
    default: return false;
    }
}

double number(const QString& key, const QVariant& v) {
    if (!isNumber(v)) fail(QStringLiteral("setup.%1 must be a number; got %2").arg(key, shown(v)));
    return v.toDouble();
}

double wholeNumber(const QString& key, const QVariant& v, double lo, double hi, const QString& range) {
    const double d = number(key, v);
    if (std::floor(d) != d) fail(QStringLiteral("setup.%1 must be a whole number; got %2").arg(key, shown(v)));
    if (d < lo || d > hi) fail(QStringLiteral("setup.%1 must be %2; got %3").arg(key, range, shown(v)));
    return d;
}

QVariant normalized(const KeySpec& spec, const QString& key, const QVariant& v) {
    switch (spec.kind) {
    case Kind::Text:
        if (v.typeId() != QMetaType::QString) fail(QStringLiteral("setup.%1 must be a text; got %2").arg(key, shown(v)));
        return v.toString();
    case Kind::Action: {
        const QString a = v.toString();
        if (v.typeId() != QMetaType::QString ||
            (a != QLatin1String("step") && a != QLatin1String("run") && a != QLatin1String("none")))
            fail(QStringLiteral("setup.action must be \"step\", \"run\" or \"none\"; got %1").arg(shown(v)));
        return a;
    }
    case Kind::WholeNumber:
        if (key == QLatin1String("runLength"))
            return static_cast<int>(wholeNumber(key, v, 1, kMaxRunLength,
                                                QStringLiteral("between 1 and %1 tokens").arg(kMaxRunLength)));
        if (key == QLatin1String("calcContext"))
            return static_cast<int>(wholeNumber(key, v, 1, kMaxCalcContext,
                                                QStringLiteral("between 1 and %1 positions").arg(kMaxCalcContext)));
        if (key == QLatin1String("calcSequences"))
            return static_cast<int>(wholeNumber(key, v, 1, kMaxCalcSequences,
                                                QStringLiteral("between 1 and %1 sequences").arg(kMaxCalcSequences)));
        return static_cast<int>(wholeNumber(key, v, INT_MIN, INT_MAX, QStringLiteral("a 32-bit whole number")));
    case Kind::Seed:
        if (v.typeId() == QMetaType::ULongLong) return v;
        return static_cast<qulonglong>(
            wholeNumber(key, v, 0, kMaxSeed, QStringLiteral("a whole number from 0 to 2^53")));
    case Kind::Number: return number(key, v);
    case Kind::TextList: {
        const auto isText = [](const QVariant& x) { return x.typeId() == QMetaType::QString; };
        const QVariantList items = v.toList();
        if (v.typeId() != QMetaType::QVariantList && v.typeId() != QMetaType::QStringList)
            fail(QStringLiteral("setup.%1 must be a list of texts; got %2").arg(key, shown(v)));
        QStringList out;
        for (const QVariant& x : items) {
            if (!isText(x)) fail(QStringLiteral("setup.%1 must be a list of texts; item %2 is %3").arg(key).arg(out.size() + 1).arg(shown(x)));
            out << x.toString();
        }
        return out;
    }
    case Kind::Flag:
        if (v.typeId() != QMetaType::Bool) fail(QStringLiteral("setup.%1 must be true or false; got %2").arg(key, shown(v)));
        return v.toBool();
    case Kind::Choice: {
        const QStringList choices = choicesFor(key);
        if (v.typeId() != QMetaType::QString || !choices.contains(v.toString()))
            fail(QStringLiteral("setup.%1 must be one of %2; got %3").arg(key, choices.join(QStringLiteral(", ")), shown(v)));
        return v.toString();
    }
    }
    return v;
}

// "--top-k" -> "topK": SamplerParams::validate() names CLI options, a lesson names setup keys.
QString setupKeyForOption(const QString& option) {
    QString key;
    bool upper = false;
    for (QChar c : option) {
        if (c == QLatin1Char('-')) {
            upper = true;
            continue;
        }
        key += upper ? c.toUpper() : c;
        upper = false;
    }
    return key;
}

QString inSetupWords(const std::string& message) {
    static const QRegularExpression option(QStringLiteral("--([a-z][a-z-]*[a-z])"));
    QString text = QString::fromStdString(message);
    QString out;
    qsizetype last = 0;
    for (auto it = option.globalMatch(text); it.hasNext();) {
        const auto m = it.next();
        const QString key = setupKeyForOption(m.captured(1));
        out += text.mid(last, m.capturedStart() - last);
        out += findKey(key) ? QStringLiteral("setup.") + key : m.captured(0);
        last = m.capturedEnd();
    }
    return out + text.mid(last);
}

}  // namespace

const QStringList& lessonSetupKeys() {
    static const QStringList keys = [] {
        QStringList k;
        for (const KeySpec& spec : kKeys) k << QLatin1String(spec.name);
        return k;
    }();
    return keys;
}

QVariantMap normalizedSetup(const QVariantMap& setup) {
    QVariantMap out;
    for (auto it = setup.begin(); it != setup.end(); ++it) {
        const KeySpec* spec = findKey(it.key());
        if (!spec)
            fail(QStringLiteral("setup.%1 is not a setting a lesson can set (known: %2)")
                     .arg(it.key(), lessonSetupKeys().join(QStringLiteral(", "))));
        out.insert(it.key(), normalized(*spec, it.key(), it.value()));
    }
    return out;
}

SamplerParams samplerParamsFromSetup(const QVariantMap& setup) {
    const QVariantMap s = normalizedSetup(setup);
    SamplerParams p;
    const auto f = [&](const char* key, float& field) {
        if (s.contains(QLatin1String(key))) field = static_cast<float>(s.value(QLatin1String(key)).toDouble());
    };
    const auto i = [&](const char* key, int& field) {
        if (s.contains(QLatin1String(key))) field = s.value(QLatin1String(key)).toInt();
    };
    f("temperature", p.temperature);
    i("topK", p.topK);
    f("topP", p.topP);
    f("minP", p.minP);
    f("typicalP", p.typicalP);
    f("repeatPenalty", p.repeatPenalty);
    f("frequencyPenalty", p.frequencyPenalty);
    f("presencePenalty", p.presencePenalty);
    i("penaltyLastN", p.penaltyLastN);
    i("noRepeatNgram", p.noRepeatNgram);
    f("dryMultiplier", p.dryMultiplier);
    f("dryBase", p.dryBase);
    i("dryAllowedLength", p.dryAllowedLength);
    f("xtcProbability", p.xtcProbability);
    f("xtcThreshold", p.xtcThreshold);
    f("topNSigma", p.topNSigma);
    f("mirostatTau", p.mirostatTau);
    f("mirostatEta", p.mirostatEta);
    if (s.contains(QStringLiteral("seed"))) p.seed = s.value(QStringLiteral("seed")).toULongLong();
    if (s.contains(QStringLiteral("order"))) p.order = s.value(QStringLiteral("order")).toString().toStdString();
    try {
        p.validate();
    } catch (const Error& e) {
        fail(inSetupWords(e.what()));
    }
    return p;
}

}  // namespace dlab::ui
