// llama.cpp's tokenizer vectors through the command line, exactly as a user would run it:
//   decoding-lab-cli tokenize --model VOCAB --file CASE --ids-only --no-bos
// for every case of the vocabularies the product was commissioned with (gpt-2, llama-spm,
// starcoder). test_tokenizer_vectors checks all vocabularies through the library API.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTest>

#include "test_paths.h"
#include "vocab_vectors.h"

class TestTokenizerCli : public QObject {
    Q_OBJECT
private slots:
    void idsOnly_data() {
        QTest::addColumn<QString>("vocab");
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QByteArray>("expected");
        const QString dir = QString::fromStdString(dlab::test::dataDir()) + "/tokenizer/";
        for (const char* name : {"ggml-vocab-gpt-2.gguf", "ggml-vocab-llama-spm.gguf", "ggml-vocab-starcoder.gguf"}) {
            const auto inputs = dlab::test::splitVocabCases(dlab::test::readFile(dir + name + ".inp"));
            const auto outputs = dlab::test::readFile(dir + name + ".out").split('\n');
            QVERIFY2(!inputs.isEmpty(), name);
            for (int i = 0; i < inputs.size(); ++i)
                QTest::newRow(qPrintable(QString("%1 #%2").arg(name).arg(i))) << dir + name << inputs[i] << outputs.value(i).trimmed();
        }
    }

    void idsOnly() {
        QFETCH(QString, vocab);
        QFETCH(QByteArray, text);
        QFETCH(QByteArray, expected);
        const QString path = QString::fromStdString(dlab::test::scratchDir()) + "/case.txt";
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text);
        f.close();
        QProcess p;
        p.start(QString::fromStdString(dlab::test::cliPath()),
                {"tokenize", "--model", vocab, "--file", path, "--ids-only", "--no-bos"});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 0);
        const QByteArray out = p.readAllStandardOutput();
        QVERIFY2(out.endsWith('\n') && out.count('\n') == 1, "expected exactly one line");
        QCOMPARE(out.trimmed(), expected);
    }
};

QTEST_GUILESS_MAIN(TestTokenizerCli)
#include "test_tokenizer_cli.moc"
