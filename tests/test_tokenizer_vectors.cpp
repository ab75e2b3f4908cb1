// llama.cpp's tokenizer test vectors: for every tests/data/tokenizer/<vocab>.gguf with a
// <vocab>.gguf.inp / .out pair, each case must tokenize to exactly the listed ids (no BOS,
// special tokens not parsed), as llama.cpp's tests/test-tokenizer-0 checks.
// Set DLAB_TOKENIZER_VECTORS_DIR to a folder of more vocab files (e.g. llama.cpp's models/)
// to run those too.
#include <QtTest>

#include <QDir>
#include <QFile>

#include <map>
#include <memory>

#include "core/error.h"
#include "gguf/gguf_file.h"
#include "test_paths.h"
#include "vocab_vectors.h"
#include "tokenizer/tokenizer.h"

using namespace dlab;

namespace {

QStringList vocabDirs() {
    QStringList dirs{QString::fromStdString(test::dataDir()) + "/tokenizer"};
    const QByteArray extra = qgetenv("DLAB_TOKENIZER_VECTORS_DIR");
    if (!extra.isEmpty()) dirs << QString::fromLocal8Bit(extra);
    return dirs;
}

// One tokenizer per vocab file, loaded on first use and kept for the remaining rows.
const Tokenizer& tokenizerFor(const QString& path) {
    static std::map<QString, std::pair<std::unique_ptr<GgufFile>, std::unique_ptr<Tokenizer>>> cache;
    auto it = cache.find(path);
    if (it == cache.end()) {
        auto file = GgufFile::open(path.toStdString());
        auto tok = Tokenizer::fromGguf(*file);
        it = cache.emplace(path, std::make_pair(std::move(file), std::move(tok))).first;
    }
    return *it->second.second;
}

}  // namespace

class TestTokenizerVectors : public QObject {
    Q_OBJECT
private slots:
    void vectors_data() {
        QTest::addColumn<QString>("vocab");
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QList<int>>("expected");
        QTest::addColumn<bool>("optional");   // from DLAB_TOKENIZER_VECTORS_DIR: skip unsupported kinds

        int vocabs = 0;
        const QStringList dirs = vocabDirs();
        for (const QString& dir : dirs) {
            const bool optional = dir != dirs.front();
            const QStringList inputs = QDir(dir).entryList({"*.gguf.inp"}, QDir::Files, QDir::Name);
            for (const QString& inp : inputs) {
                const QString vocab = dir + "/" + inp.chopped(4);
                if (!QFile::exists(vocab) || !QFile::exists(vocab + ".out")) continue;
                const QList<QByteArray> cases = test::splitVocabCases(test::readFile(dir + "/" + inp));
                const QList<QByteArray> lines = test::readFile(vocab + ".out").split('\n');
                QVERIFY2(lines.size() >= cases.size(), qPrintable(vocab + ": fewer .out lines than cases"));
                ++vocabs;
                for (qsizetype i = 0; i < cases.size(); ++i) {
                    QList<int> ids;
                    for (const QByteArray& field : lines[i].simplified().split(' '))
                        if (!field.isEmpty()) ids << field.toInt();
                    const QString name = QFileInfo(vocab).completeBaseName();
                    QTest::addRow("%s/%02d", qPrintable(name), int(i)) << vocab << cases[i] << ids << optional;
                }
            }
        }
        QVERIFY2(vocabs >= 3, "expected at least 3 vocab files with test vectors in tests/data/tokenizer");
    }

    void vectors() {
        QFETCH(QString, vocab);
        QFETCH(QByteArray, text);
        QFETCH(QList<int>, expected);
        QFETCH(bool, optional);
        const Tokenizer* tokPtr = nullptr;
        try {
            tokPtr = &tokenizerFor(vocab);
        } catch (const Error& e) {
            if (optional) QSKIP(e.what());
            QFAIL(e.what());
        }
        const Tokenizer& tok = *tokPtr;
        const std::vector<TokenId> ids = tok.encode(std::string_view(text.constData(), text.size()), false, false);
        const QList<int> got(ids.begin(), ids.end());
        QCOMPARE(got, expected);
    }
};

QTEST_APPLESS_MAIN(TestTokenizerVectors)
#include "test_tokenizer_vectors.moc"
