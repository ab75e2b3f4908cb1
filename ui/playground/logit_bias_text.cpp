#include "ui/playground/logit_bias_text.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QStringList>

#include <cmath>
#include <limits>

namespace dlab::ui {

LogitBiasParse parseLogitBias(const QString& text, int vocabSize) {
    LogitBiasParse out;
    static const QRegularExpression separators(QStringLiteral("[,;\\s]+"));
    const QStringList items = text.split(separators, Qt::SkipEmptyParts);
    for (int i = 0; i < items.size(); ++i) {
        const QString& item = items[i];
        const int colon = item.indexOf(QRegularExpression(QStringLiteral("[:=]")));
        bool idOk = false, biasOk = false;
        const int id = colon > 0 ? item.left(colon).toInt(&idOk) : 0;
        const QString value = colon > 0 ? item.mid(colon + 1).trimmed().toLower() : QString();
        float bias = 0.0f;
        if (value == QLatin1String("ban") || value == QLatin1String("-inf")) {
            bias = -std::numeric_limits<float>::infinity();
            biasOk = true;
        } else if (!value.isEmpty()) {
            bias = value.toFloat(&biasOk);
            biasOk = biasOk && std::isfinite(bias);
        }
        if (!idOk || !biasOk) {
            out.error = QCoreApplication::translate("dlab::ui::LogitBias", "Logit bias entry %1 (\u201c%2\u201d) is not TOKEN_ID:BIAS; write e.g. 198:-2 or 198:ban.")
                            .arg(i + 1)
                            .arg(item);
            out.entries.clear();
            return out;
        }
        if (id < 0 || (vocabSize > 0 && id >= vocabSize)) {
            out.error = QCoreApplication::translate("dlab::ui::LogitBias", "Logit bias entry %1: token id %2 is outside the vocabulary (0 to %3).")
                            .arg(i + 1)
                            .arg(id)
                            .arg(vocabSize - 1);
            out.entries.clear();
            return out;
        }
        bool replaced = false;
        for (auto& e : out.entries)
            if (e.first == id) {
                e.second = bias;
                replaced = true;
            }
        if (!replaced) out.entries.emplace_back(id, bias);
    }
    return out;
}

QString formatLogitBias(const std::vector<std::pair<TokenId, float>>& entries) {
    QStringList parts;
    for (const auto& [id, bias] : entries)
        parts << QStringLiteral("%1:%2").arg(id).arg(std::isinf(bias) && bias < 0 ? QStringLiteral("ban") : QString::number(bias));
    return parts.join(QStringLiteral(", "));
}

}  // namespace dlab::ui
