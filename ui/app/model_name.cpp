#include "ui/app/model_name.h"

#include <QFileInfo>
#include <QRegularExpression>

namespace dlab::ui {

QString modelDisplayName(const QString& path) {
    QString name = QFileInfo(path).fileName();
    if (name.endsWith(QLatin1String(".gguf"), Qt::CaseInsensitive)) name.chop(5);
    // ggml's type labels as they appear in published file names: Q4_1, Q4_K_M, IQ3_XXS, F16, BF16 …
    static const QRegularExpression quant(QStringLiteral("[.\\-_](?:I?Q[0-9]+(?:_[0-9A-Z]+)*|F16|F32|BF16)$"),
                                          QRegularExpression::CaseInsensitiveOption);
    const QString stripped = QString(name).remove(quant);
    return stripped.isEmpty() ? name : stripped;
}

}  // namespace dlab::ui
