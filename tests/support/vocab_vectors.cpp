#include "vocab_vectors.h"

#include <QFile>

namespace dlab::test {

QByteArray readFile(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QList<QByteArray> splitVocabCases(const QByteArray& raw) {
    static const QByteArray sep = "\n__ggml_vocab_test__\n";
    QList<QByteArray> cases;
    qsizetype pos = 0;
    while (pos < raw.size()) {
        const qsizetype next = raw.indexOf(sep, pos);
        if (next < 0) {
            cases.push_back(raw.mid(pos));
            break;
        }
        cases.push_back(raw.mid(pos, next - pos));
        pos = next + sep.size();
    }
    return cases;
}

}  // namespace dlab::test
