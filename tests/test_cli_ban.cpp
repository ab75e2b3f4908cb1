// decoding-lab-cli generate --ban PHRASE (repeatable) [--ban-ignore-case] on a tiny model: the
// greedy output without the ban contains a phrase, with the ban it does not (and it is the same
// text before the phrase); bad uses are one sentence and exit code 1; --help lists the option.
#include <QProcess>
#include <QTest>

#include "gguf/tiny_model.h"
#include "test_paths.h"

using namespace dlab;

namespace {

struct Run {
    int exitCode;
    QByteArray out, err;
};

Run cli(QStringList args) {
    QProcess p;
    p.start(QString::fromStdString(test::cliPath()), args);
    if (!p.waitForFinished(60000)) {
        p.kill();
        return {-1, {}, "timed out"};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2, p.readAllStandardOutput(), p.readAllStandardError()};
}

QString model() { return QString::fromStdString(test::scratchDir() + "/ban-tiny.gguf"); }

QStringList generate(QStringList extra) {
    return QStringList{"generate", "--model", model(), "--prompt", "Once upon a time the", "--strategy", "greedy", "--max-tokens", "40",
                       "--quiet"} +
           extra;
}

// The first run of two ASCII letters in the text (the random model writes few).
QByteArray twoLetters(const QByteArray& text) {
    const auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
    for (qsizetype i = 0; i + 1 < text.size(); ++i)
        if (letter(text[i]) && letter(text[i + 1])) return text.mid(i, 2);
    return {};
}

}  // namespace

class TestCliBan : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { writeTinyModel(TinyModelSpec{}, model().toStdString()); }

    void banRemovesThePhrase() {
        const Run plain = cli(generate({}));
        QCOMPARE(plain.exitCode, 0);
        const QByteArray phrase = twoLetters(plain.out);
        QVERIFY2(!phrase.isEmpty(), plain.out.constData());
        const Run banned = cli(generate({"--ban", QString::fromLatin1(phrase), "--ban", "zzz"}));
        QCOMPARE(banned.exitCode, 0);
        QVERIFY(!banned.out.contains(phrase));
        const qsizetype at = plain.out.indexOf(phrase);
        QVERIFY(banned.out.startsWith(plain.out.left(at)));
        // Any case: the lower-case ban removes the upper-case spelling too, and the other way round.
        const Run folded = cli(generate({"--ban", QString::fromLatin1(phrase.toUpper()), "--ban-ignore-case"}));
        QCOMPARE(folded.exitCode, 0);
        QVERIFY(!folded.out.toLower().contains(phrase.toLower()));
    }

    void badUses_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty phrase") << generate({"--ban", "ok", "--ban", ""})
                                      << "error: banned phrase 2 is empty; a banned phrase needs at least one character\n";
        QTest::newRow("too long") << generate({"--ban", QString(70, QLatin1Char('a'))})
                                  << QStringLiteral("error: banned phrase 1 (\"%1…\") is 70 bytes long; a banned phrase may have at most 64 bytes\n")
                                         .arg(QString(40, QLatin1Char('a')));
        QTest::newRow("ignore case alone") << generate({"--ban-ignore-case"})
                                           << "error: generate: --ban-ignore-case needs at least one --ban PHRASE\n";
    }
    void badUses() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run r = cli(args);
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(QString::fromUtf8(r.err), message);
    }

    void beamIsRefused() {
        const Run r = cli({"generate", "--model", model(), "--prompt", "Hi", "--strategy", "beam", "--ban", "x"});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(QString::fromUtf8(r.err), QStringLiteral("error: generate: --ban applies to greedy and sampled runs, not --strategy beam\n"));
    }

    void helpListsTheOption() {
        const Run r = cli({"--help"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("[--ban PHRASE]... [--ban-ignore-case]"));
    }
};

QTEST_GUILESS_MAIN(TestCliBan)
#include "test_cli_ban.moc"
