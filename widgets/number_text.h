#pragma once
// Numbers as the app shows them to a person: in the form of the interface language (QLocale(),
// which the LanguageManager sets: "0,95" and "93,8 MiB" in German, "0.95" in English and
// Chinese), so a figure in a label reads like the same figure in the spin box beside it. Text meant
// to be typed or parsed elsewhere (sampler specs, CLI commands, exported files) keeps the C form
// and does not use these.
#include <QLocale>
#include <QString>
#include <QtGlobal>

QT_BEGIN_NAMESPACE
class QChart;
class QWidget;
QT_END_NAMESPACE

namespace dlab::widgets {

// `decimals` digits after the separator, grouped as the language groups ("12.345,6" in German).
QString decimalText(double x, int decimals);
// Up to `significant` significant digits, trailing zeros dropped ("0,8", "0,00021").
QString shortNumberText(double x, int significant = 3);
// Binary units: "512 B", "4,50 KiB", "93,8 MiB", "1,20 GiB" (two decimals below 10, else one).
QString byteText(double bytes);
// Counts: "950", "12,3 K", "134,5 M", "1,24 B".
QString countText(qint64 n);
// A whole number in full, grouped as the language groups it: "49,152" / "49.152" / "2,048". For
// counts a person compares across the app (vocabulary, context, kept tokens).
QString integerText(qint64 n);
// A chart's axis labels in `locale`'s form, grouped like every other figure ("0,25", "10.000").
// Call again on QEvent::LocaleChange.
void localizeChartNumbers(QChart* chart, QLocale locale);
// Every value box under `root` that can reach 1,000 shows its digits grouped like the labels
// around it ("1.000 ms", "2.048"), except one marked as an identifier (a port, a seed: a name,
// not a quantity) with markAsIdentifier().
void groupSpinBoxDigits(QWidget* root);
void markAsIdentifier(QWidget* spinBox);
bool isIdentifier(const QWidget* spinBox);

}  // namespace dlab::widgets
