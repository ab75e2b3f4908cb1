#include "widgets/number_text.h"

#include <QDoubleSpinBox>
#include <QSpinBox>

#include <QChart>
#include <QLocale>

namespace dlab::widgets {

// Every figure grouped as the language groups it ("5,877 ms", "5.877 ms"), in texts, tables and
// chart axes alike: the status bar's "49,152" stood beside a caption's "5877 ms" and an axis's "10000".
QString decimalText(double x, int decimals) { return QLocale().toString(x, 'f', decimals); }

QString shortNumberText(double x, int significant) { return QLocale().toString(x, 'g', significant); }

QString byteText(double bytes) {
    static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (bytes >= 1024.0 && u < 4) {
        bytes /= 1024.0;
        ++u;
    }
    if (u == 0) return QStringLiteral("%1 B").arg(decimalText(bytes, 0));
    return QStringLiteral("%1 %2").arg(decimalText(bytes, bytes < 10.0 ? 2 : 1), QLatin1String(units[u]));
}

QString countText(qint64 n) {
    if (n >= 1'000'000'000) return decimalText(double(n) / 1e9, 2) + QStringLiteral(" B");
    if (n >= 1'000'000) return decimalText(double(n) / 1e6, 1) + QStringLiteral(" M");
    if (n >= 1'000) return decimalText(double(n) / 1e3, 1) + QStringLiteral(" K");
    return QString::number(n);
}

QString integerText(qint64 n) { return QLocale().toString(n); }

void markAsIdentifier(QWidget* spinBox) { spinBox->setProperty("dlabIdentifier", true); }
bool isIdentifier(const QWidget* spinBox) { return spinBox->property("dlabIdentifier").toBool(); }

void groupSpinBoxDigits(QWidget* root) {
    for (QAbstractSpinBox* box : root->findChildren<QAbstractSpinBox*>()) {
        double max = 0.0;
        if (const auto* i = qobject_cast<QSpinBox*>(box)) max = i->maximum();
        else if (const auto* d = qobject_cast<QDoubleSpinBox*>(box)) max = d->maximum();
        if (max >= 1000.0 && !isIdentifier(box)) box->setGroupSeparatorShown(true);
    }
}

void localizeChartNumbers(QChart* chart, QLocale locale) {
    locale.setNumberOptions(locale.numberOptions() & ~QLocale::OmitGroupSeparator);
    chart->setLocale(locale);
    chart->setLocalizeNumbers(true);
}

}  // namespace dlab::widgets
