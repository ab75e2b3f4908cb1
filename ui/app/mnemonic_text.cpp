#include "ui/app/mnemonic_text.h"

#include <QRegularExpression>

namespace dlab::ui {

QString withoutMnemonic(QString text) {
    static const QRegularExpression cjkMnemonic(QStringLiteral("\\s*[(（]&[^&][)）]"));
    text.remove(cjkMnemonic);
    text.replace(QLatin1String("&&"), QStringLiteral("\x01"));
    text.remove(QLatin1Char('&'));
    text.replace(QStringLiteral("\x01"), QStringLiteral("&"));
    return text;
}

}  // namespace dlab::ui
