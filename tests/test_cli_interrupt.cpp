// Ctrl-C (SIGINT) during a long command: the CLI stops at the engine's next cancel check (between
// steps, between layers of a prefill), prints what it did marked as interrupted, and exits with
// 130. Runs on the tiny model with budgets that take far longer than the test waits, so the signal
// always arrives mid-run; each wait is for the CLI's own output, never a guess at its speed.
#include <QElapsedTimer>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>

#include <csignal>
#include <fstream>

#include "gguf/tiny_model.h"
#include "test_paths.h"

using namespace dlab;

namespace {

QString tinyModel() { return QString::fromStdString(test::scratchDir() + "/interrupt-tiny.gguf"); }

struct Interrupted {
    int exitCode = -1;
    bool crashed = false;
    qint64 msToExit = -1;   // from SIGINT to the process's end
    QString out, err;
};

// Starts the CLI, waits until it has written `readyMark` to stdout or stderr (an empty mark: any
// byte on stdout), sends SIGINT and waits (at most 20 s) for it to end.
Interrupted interruptAfter(const QStringList& args, const QString& readyMark) {
    QProcess p;
    p.start(QString::fromStdString(test::cliPath()), args);
    Interrupted r;
    if (!p.waitForStarted(10000)) return r;
    QByteArray out, err;
    QElapsedTimer waiting;
    waiting.start();
    auto ready = [&] { return readyMark.isEmpty() ? !out.isEmpty() : out.contains(readyMark.toUtf8()) || err.contains(readyMark.toUtf8()); };
    while (!ready() && waiting.elapsed() < 20000 && p.state() == QProcess::Running) {
        p.waitForReadyRead(100);
        out += p.readAllStandardOutput();
        err += p.readAllStandardError();
    }
    if (p.state() != QProcess::Running) {  // ended before the signal: report what it said
        r.out = QString::fromUtf8(out + p.readAllStandardOutput());
        r.err = QString::fromUtf8(err + p.readAllStandardError());
        r.exitCode = p.exitCode();
        return r;
    }
    QElapsedTimer stopping;
    stopping.start();
    ::kill(static_cast<pid_t>(p.processId()), SIGINT);
    if (!p.waitForFinished(20000)) {
        p.kill();
        p.waitForFinished(5000);
        r.err = "did not stop within 20 s of SIGINT";
        return r;
    }
    r.msToExit = stopping.elapsed();
    r.crashed = p.exitStatus() != QProcess::NormalExit;
    r.exitCode = p.exitCode();
    r.out = QString::fromUtf8(out + p.readAllStandardOutput());
    r.err = QString::fromUtf8(err + p.readAllStandardError());
    return r;
}

}  // namespace

class TestCliInterrupt : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { writeTinyModel(TinyModelSpec{}, tinyModel().toStdString()); }

    // A million tokens in a 100000-position context: minutes of work, stopped after the first piece.
    void generatePrintsItsSummaryAndExits130() {
        // Ban every control token (<|endoftext|>, <|im_end|>, ...) so the run cannot end by itself.
        QStringList banned;
        const auto& tokens = tinyVocab().tokens;
        for (size_t id = 0; id < tokens.size(); ++id)
            if (tokens[id].rfind("<|", 0) == 0) banned << QString("%1=-inf").arg(id);
        QVERIFY(banned.size() >= 2);
        const Interrupted r = interruptAfter({"generate", "--model", tinyModel(), "--prompt", "the cat", "--max-tokens", "1000000",
                                              "--ctx", "100000", "--threads", "1", "--logit-bias", banned.join(',')},
                                             "");
        QVERIFY2(!r.crashed && r.exitCode == 130, qPrintable(QString("exit %1, stderr: %2").arg(r.exitCode).arg(r.err)));
        QVERIFY2(r.err.contains(QRegularExpression(R"(\[interrupted: prompt \d+ tokens in [\d.]+ ms \| [1-9]\d* tokens at [\d.]+ tokens/s \| stop: cancelled)")),
                 qPrintable(r.err));
        QVERIFY2(r.msToExit < 10000, qPrintable(QString::number(r.msToExit)));
    }

    // One prefill of 65536 tokens (hours of attention on the tiny model): the cancel flag is checked
    // between layers and chunks, so the warm-up stops and the table says nothing was measured.
    void benchStopsInsideAPrefill() {
        const Interrupted r = interruptAfter({"bench", "--model", tinyModel(), "-p", "65536", "-n", "0", "--reps", "1",
                                              "--threads", "1"},
                                             "Ctrl-C stops");
        QVERIFY2(!r.crashed && r.exitCode == 130, qPrintable(QString("exit %1, stderr: %2").arg(r.exitCode).arg(r.err)));
        QVERIFY2(r.out.contains("| pp65536 | interrupted before a measurement |"), qPrintable(r.out));
        QVERIFY2(r.err.contains("[interrupted: 0 of 1 repetitions of pp65536"), qPrintable(r.err));
        QVERIFY2(r.msToExit < 10000, qPrintable(QString::number(r.msToExit)));
    }

    // About 200 windows of 2048 tokens; stopped after the first is scored, it reports that window's figure.
    void perplexityReportsTheWindowsScored() {
        const std::string path = test::scratchDir() + "/interrupt-text.txt";
        std::ofstream(path) << QByteArray("the quick brown fox jumps over the lazy dog. ").repeated(40000).toStdString();
        const Interrupted r = interruptAfter({"perplexity", "--model", tinyModel(), "--file", QString::fromStdString(path),
                                              "--ctx", "2048", "--threads", "1"},
                                             "[1/");
        QVERIFY2(!r.crashed && r.exitCode == 130, qPrintable(QString("exit %1, stderr: %2").arg(r.exitCode).arg(r.err)));
        QVERIFY2(r.out.contains(QRegularExpression(R"(^perplexity [\d.]+ \+/- [\d.]+ over \d+ tokens \(\d+ windows of 2048\))")),
                 qPrintable(r.out));
        QVERIFY2(r.err.contains(QRegularExpression(R"(\[interrupted after [1-9]\d* of \d+ windows\])")), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestCliInterrupt)
#include "test_cli_interrupt.moc"
