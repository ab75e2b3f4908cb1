// Issue 11, item 3: the Serve page, offscreen, on a tiny random model. Over loopback, with
// cpp-httplib's client:
//  * Start on port 0 binds a free port; the URL and both examples name it and the model id; a
//    completion, a streamed chat completion and a bad request are answered and logged in the
//    table with the server's own numbers (status, stream, prompt + completion tokens, finish);
//    the counters count them, the speed comes from the loop's steps;
//  * while it serves the engine runs nothing else; Stop returns within a second, also with an
//    idle keep-alive connection and with a stream still generating (which then ends), and frees
//    the port and the engine;
//  * a port in use, or an address that is not loopback without the checkbox, is one sentence on
//    the page, never a dialog or a crash; the checkbox listens on every address;
//  * loading a model stops the server first.
#include <QtTest>
#include <QtWidgets>

#if DLAB_HAS_HTTP
#include <httplib.h>
#include <nlohmann/json.hpp>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <thread>

#include "gguf/tiny_model.h"
#include "test_paths.h"
#include "ui/app/app_settings.h"
#include "ui/app/main_window.h"
#include "ui/app/presentation_mode.h"
#include "ui/engine/engine_context.h"
#include "ui/playground/playground_controller.h"
#include "ui/playground/playground_page.h"
#include "ui/serve/request_log_model.h"
#include "ui/serve/serve_examples.h"
#include "ui/serve/serve_page.h"

using namespace dlab;
using dlab::ui::MainWindow;
using dlab::ui::ServePage;
using json = nlohmann::json;

namespace {

// A listening TCP socket on 127.0.0.1 (port 0: any); closed by the destructor.
struct Listener {
    int fd = -1;
    int port = 0;
    explicit Listener(int want = 0, bool reuse = false) {
        fd = ::socket(AF_INET, SOCK_STREAM, 0);
        const int one = 1;
        if (reuse) ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        a.sin_port = htons(static_cast<uint16_t>(want));
        if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(fd, 4) != 0) {
            ::close(fd);
            fd = -1;
            return;
        }
        socklen_t len = sizeof a;
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
        port = ntohs(a.sin_port);
    }
    ~Listener() {
        if (fd >= 0) ::close(fd);
    }
    bool ok() const { return fd >= 0; }
};

}  // namespace

class TestGuiServePage : public QObject {
    Q_OBJECT

    QString tinyPath_;
    QString slowPath_;   // a larger random model: a stream that lasts long enough to be stopped

    std::unique_ptr<MainWindow> openWindow(QStringList* errors) const {
        auto w = std::make_unique<MainWindow>(tinyPath_);
        w->setErrorReporter([errors](const QString& m) { errors->append(m); });
        w->resize(1280, 820);
        w->show();
        return w;
    }

    static ServePage* front(MainWindow& w) {
        auto* page = w.page<ServePage>();
        w.tabs()->setCurrentWidget(page);
        return page;
    }

    static bool startOnPort(ServePage* page, int port) {
        page->portSpin()->setValue(port);
        if (!QTest::qWaitFor([&] { return page->startButton()->isEnabled(); }, 30000)) return false;
        QTest::mouseClick(page->startButton(), Qt::LeftButton);
        return QTest::qWaitFor([&] { return page->state() == ServePage::State::Serving || page->state() == ServePage::State::Idle; }, 30000) &&
               page->serving();
    }

    // Whether the engine thread runs a queued call within `ms`.
    static bool engineAnswers(MainWindow& w, int ms) {
        auto ran = std::make_shared<std::atomic<bool>>(false);
        QMetaObject::invokeMethod(w.engine(), [ran] { ran->store(true); }, Qt::QueuedConnection);
        return QTest::qWaitFor([&] { return ran->load(); }, ms);
    }

    // Stop and the time it took until the page is idle again (the server stopped and joined).
    static qint64 stopAndTime(ServePage* page) {
        QSignalSpy stopped(page, &ServePage::serverStopped);
        QElapsedTimer t;
        t.start();
        page->stop();
        if (!QTest::qWaitFor([&] { return stopped.count() == 1; }, 10000)) return -1;
        return t.elapsed();
    }

private slots:
    void initTestCase() {
        QVERIFY2(!qEnvironmentVariable("DLAB_SETTINGS").isEmpty(), "run through CTest: DLAB_SETTINGS keeps the user's settings safe");
        tinyPath_ = QString::fromStdString(test::scratchDir() + "/serve-tiny.gguf");
        TinyModelSpec spec;
        spec.nCtx = 256;
        writeTinyModel(spec, tinyPath_.toStdString());
        slowPath_ = QString::fromStdString(test::scratchDir() + "/serve-slow.gguf");
        TinyModelSpec slow;
        slow.nEmbd = 512;
        slow.nHead = 8;
        slow.nHeadKv = 4;
        slow.nFf = 1536;
        slow.nLayer = 8;
        slow.nCtx = 2048;
        writeTinyModel(slow, slowPath_.toStdString());
    }

    void init() { ui::openSettings()->clear(); }

    void defaultsAreLoopback() {
        QStringList errors;
        auto w = openWindow(&errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        ServePage* page = front(*w);
        QCOMPARE(page->request().host, QStringLiteral("127.0.0.1"));
        QCOMPARE(page->request().port, 8080);
        QVERIFY(!page->allowOthersCheck()->isChecked());
        QVERIFY(page->warningLabel()->isHidden());
        QCOMPARE(page->urlLabel()->text(), QStringLiteral("http://127.0.0.1:8080/v1"));
        // The checkbox is the explicit choice of every address, with its warning.
        page->allowOthersCheck()->setChecked(true);
        QCOMPARE(page->request().host, QStringLiteral("0.0.0.0"));
        QVERIFY(page->warningLabel()->isVisible());
        QVERIFY(!page->hostEdit()->isEnabled());
        page->allowOthersCheck()->setChecked(false);
        QCOMPARE(page->request().host, QStringLiteral("127.0.0.1"));
        QVERIFY(errors.isEmpty());
    }

    void servesAndLogs() {
        QStringList errors;
        auto w = openWindow(&errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        ServePage* page = front(*w);
        page->maxBatchSpin()->setValue(4);
        QVERIFY(startOnPort(page, 0));
        const int port = page->server().port;
        QVERIFY(port > 0);
        const QString id = page->server().modelId;
        QCOMPARE(id, QStringLiteral("serve-tiny"));
        const QString url = QStringLiteral("http://127.0.0.1:%1/v1").arg(port);
        QCOMPARE(page->urlLabel()->text(), url);
        QCOMPARE(page->curlEdit()->toPlainText(), ui::curlExample(url, id));
        QCOMPARE(page->pythonEdit()->toPlainText(), ui::pythonExample(url, id));
        QVERIFY(page->curlEdit()->toPlainText().contains(url + QStringLiteral("/chat/completions")));
        QVERIFY(page->pythonEdit()->toPlainText().contains(QStringLiteral("base_url=\"%1\"").arg(url)));
        QVERIFY(page->pythonEdit()->toPlainText().contains(QStringLiteral("model=\"%1\"").arg(id)));
        // At 1024 × 700 both examples show whole, no scrolling either way (the request log takes
        // what they leave; the Python example scrolled both ways).
        w->resize(1024, 700);
        QTRY_COMPARE(w->width(), 1024);
        QTest::qWait(100);
        for (QPlainTextEdit* e : {page->curlEdit(), page->pythonEdit()})
            QVERIFY2(e->verticalScrollBar()->maximum() == 0 && e->horizontalScrollBar()->maximum() == 0,
                     qPrintable(QStringLiteral("%1 scrolls: %2 / %3").arg(e->objectName()).arg(e->verticalScrollBar()->maximum()).arg(e->horizontalScrollBar()->maximum())));
        w->resize(1280, 820);
        QVERIFY(page->statusLabel()->text().contains(url));
        QVERIFY(!page->startButton()->isEnabled());
        QVERIFY(page->stopButton()->isEnabled());
        QVERIFY(!page->portSpin()->isEnabled());

        // While it serves, the engine thread runs nothing else.
        QVERIFY(!engineAnswers(*w, 300));

        auto cliOwner = std::make_unique<httplib::Client>("127.0.0.1", port);
        httplib::Client& cli = *cliOwner;
        cli.set_read_timeout(30, 0);
        const json body = {{"model", id.toStdString()}, {"prompt", "the key and the value"}, {"max_tokens", 5}, {"temperature", 0}};
        auto res = cli.Post("/v1/completions", body.dump(), "application/json");
        QVERIFY(res);
        QCOMPARE(res->status, 200);
        const json answer = json::parse(res->body);
        const int promptTokens = answer["usage"]["prompt_tokens"];
        QCOMPARE(int(answer["usage"]["completion_tokens"]), 5);

        const json chat = {{"model", id.toStdString()},
                           {"messages", json::array({{{"role", "user"}, {"content", "hello"}}})},
                           {"max_tokens", 6},
                           {"seed", 7},   // without one each run draws its own: now and then an end token came first
                           {"stream", true}};
        auto streamed = cli.Post("/v1/chat/completions", chat.dump(), "application/json");
        QVERIFY(streamed);
        QCOMPARE(streamed->status, 200);
        QVERIFY(streamed->body.find("data: [DONE]") != std::string::npos);

        const json wrong = {{"model", "no-such-model"}, {"prompt", "x"}};
        auto bad = cli.Post("/v1/completions", wrong.dump(), "application/json");
        QVERIFY(bad);
        QCOMPARE(bad->status, 404);

        // The log: one row per request, as the server reported them.
        ui::RequestLogModel* log = page->logModel();
        QTRY_COMPARE_WITH_TIMEOUT(log->rowCount(), 3, 5000);
        QAbstractItemModelTester tester(log, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const auto cell = [&](int row, int col) { return log->index(row, col).data().toString(); };
        // In the order the server finished them: a stream is logged when its last event is out,
        // which may be after its client has read it, so rows are found by what they are.
        const auto rowOf = [&](const QString& path, int status) {
            for (int r = 0; r < log->rowCount(); ++r)
                if (log->entries()[r].path == path && log->entries()[r].status == status) return r;
            return -1;
        };
        const int plain = rowOf(QStringLiteral("/v1/completions"), 200);
        const int chatRow = rowOf(QStringLiteral("/v1/chat/completions"), 200);
        const int missing = rowOf(QStringLiteral("/v1/completions"), 404);
        QVERIFY(plain >= 0 && chatRow >= 0 && missing >= 0);
        QCOMPARE(plain, 0);
        QCOMPARE(cell(plain, ui::RequestLogModel::MethodColumn), QStringLiteral("POST"));
        QCOMPARE(cell(plain, ui::RequestLogModel::PathColumn), QStringLiteral("/v1/completions"));
        QCOMPARE(cell(plain, ui::RequestLogModel::StatusColumn), QStringLiteral("200"));
        QCOMPARE(cell(plain, ui::RequestLogModel::StreamColumn), QStringLiteral("no"));
        QCOMPARE(cell(plain, ui::RequestLogModel::TokensColumn), QStringLiteral("%1 + 5").arg(promptTokens));
        QCOMPARE(cell(plain, ui::RequestLogModel::FinishColumn), QStringLiteral("length"));
        QCOMPARE(log->entries()[plain].promptTokens, promptTokens);
        QVERIFY(log->entries()[plain].ms > 0);
        QCOMPARE(cell(chatRow, ui::RequestLogModel::StreamColumn), QStringLiteral("yes"));
        QCOMPARE(log->entries()[chatRow].completionTokens, 6);
        QCOMPARE(cell(chatRow, ui::RequestLogModel::FinishColumn), QStringLiteral("length"));
        QVERIFY(cell(missing, ui::RequestLogModel::FinishColumn).contains(QStringLiteral("no-such-model")));
        QVERIFY(!cell(plain, ui::RequestLogModel::TimeColumn).isEmpty());

        // Counters from the loop: two served, nothing running now; the decode steps were counted.
        QTRY_COMPARE_WITH_TIMEOUT(page->counters().served, 2, 5000);
        QCOMPARE(page->counters().generatedTokens, qint64(11));
        QCOMPARE(page->counters().running, 0);
        QCOMPARE(page->counters().waiting, 0);
        QCOMPARE(page->servedLabel()->text(), QStringLiteral("Completions served: 2"));   // of the log's 3 rows: it says which
        QVERIFY(page->servedLabel()->toolTip().contains(QLatin1String("/v1/models")));
        QVERIFY(page->tokensPerSecond() > 0);

        // An idle keep-alive connection does not hold Stop up.
        auto keep = std::make_unique<httplib::Client>("127.0.0.1", port);
        keep->set_keep_alive(true);
        auto health = keep->Get("/health");
        QVERIFY(health && health->status == 200);

        const qint64 ms = stopAndTime(page);
        QVERIFY2(ms >= 0 && ms < 1000, qPrintable(QStringLiteral("Stop took %1 ms").arg(ms)));
        QCOMPARE(page->state(), ServePage::State::Idle);
        QVERIFY(page->startButton()->isEnabled());
        // The engine is back, and the port is free: the page serves on it again at once, while the
        // connections of the first server wind down (the kept-alive one's client still holds its end).
        QVERIFY(engineAnswers(*w, 5000));
        QVERIFY2(startOnPort(page, port), qPrintable(page->statusLabel()->text()));
        QCOMPARE(page->server().port, port);
        QVERIFY(stopAndTime(page) >= 0);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    }

    // While it serves, the other pages say why their work waits (a Step on the Playground only
    // greyed its buttons out): the status bar's model line begins with it, on every page but Serve.
    void otherPagesSayTheyWaitForTheServer() {
        QStringList errors;
        auto w = openWindow(&errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        ServePage* serve = front(*w);
        QVERIFY(startOnPort(serve, 0));
        const QString notice = serve->engineHoldNotice();
        QVERIFY(!notice.isEmpty());
        QVERIFY2(!w->statusText().contains(notice), qPrintable(w->statusText()));   // the Serve page itself says more
        auto* playground = w->page<ui::PlaygroundPage>();
        w->tabs()->setCurrentWidget(playground);
        QVERIFY2(w->statusText().startsWith(notice), qPrintable(w->statusText()));
        QSignalSpy steps(playground->controller(), &ui::PlaygroundController::stepDone);
        QTest::mouseClick(playground->stepButton(), Qt::LeftButton);
        QTest::qWait(300);
        QCOMPARE(steps.count(), 0);   // it waits for the server ...
        QVERIFY2(w->statusText().startsWith(notice), qPrintable(w->statusText()));
        QVERIFY(stopAndTime(serve) >= 0);
        QTRY_COMPARE_WITH_TIMEOUT(steps.count(), 1, 30000);   // ... and runs once it stops
        QVERIFY2(!w->statusText().contains(notice), qPrintable(w->statusText()));
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    }

    void stopEndsAStream() {
        QStringList errors;
        auto w = std::make_unique<MainWindow>(slowPath_);
        w->setErrorReporter([&errors](const QString& m) { errors.append(m); });
        w->show();
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        ServePage* page = front(*w);
        QVERIFY(startOnPort(page, 0));
        const int port = page->server().port;
        const std::string id = page->server().modelId.toStdString();
        std::atomic<bool> returned{false};
        std::atomic<int> chunks{0};
        std::thread client([&] {
            httplib::Client cli("127.0.0.1", port);
            cli.set_read_timeout(60, 0);
            const json body = {{"model", id}, {"prompt", "a"}, {"max_tokens", 1500}, {"stream", true}, {"temperature", 0}};
            httplib::Request req;
            req.method = "POST";
            req.path = "/v1/completions";
            req.body = body.dump();
            req.set_header("Content-Type", "application/json");
            req.content_receiver = [&](const char*, size_t, uint64_t, uint64_t) {
                ++chunks;
                return true;
            };
            httplib::Response res;
            httplib::Error err;
            cli.send(req, res, err);
            returned = true;
        });
        QVERIFY(QTest::qWaitFor([&] { return chunks.load() > 2; }, 30000));
        QVERIFY(!returned.load());
        const qint64 ms = stopAndTime(page);
        QVERIFY2(ms >= 0 && ms < 1000, qPrintable(QStringLiteral("Stop took %1 ms").arg(ms)));
        QVERIFY(QTest::qWaitFor([&] { return returned.load(); }, 5000));
        client.join();
        // The stream that was cut is in the log, cancelled.
        QTRY_VERIFY_WITH_TIMEOUT(page->logModel()->rowCount() == 1, 5000);
        QCOMPARE(page->logModel()->entries()[0].finish, QStringLiteral("cancelled"));
        QVERIFY(engineAnswers(*w, 5000));
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    }

    void portInUseIsOneSentence() {
        QStringList errors;
        auto w = openWindow(&errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        ServePage* page = front(*w);
        Listener taken;
        QVERIFY(taken.ok());
        page->portSpin()->setValue(taken.port);
        QTRY_VERIFY_WITH_TIMEOUT(page->startButton()->isEnabled(), 30000);
        QSignalSpy stopped(page, &ServePage::serverStopped);
        page->start();
        QVERIFY(QTest::qWaitFor([&] { return stopped.count() == 1; }, 10000));
        QCOMPARE(page->state(), ServePage::State::Idle);
        QCOMPARE(page->statusLabel()->text(),
                 QStringLiteral("Cannot listen on 127.0.0.1:%1: the port is in use or the address is not this machine's. "
                                "Choose another port (0 picks a free one).")
                     .arg(taken.port));
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));   // on the page, not in a dialog
        QVERIFY(page->startButton()->isEnabled());
        QVERIFY(engineAnswers(*w, 5000));
        // Another port works at once.
        QVERIFY(startOnPort(page, 0));
        QVERIFY(stopAndTime(page) >= 0);
    }

    void otherAddressesNeedTheCheckbox() {
        QStringList errors;
        auto w = openWindow(&errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        ServePage* page = front(*w);
        page->hostEdit()->setText(QStringLiteral("0.0.0.0"));
        page->portSpin()->setValue(0);
        QTRY_VERIFY_WITH_TIMEOUT(page->startButton()->isEnabled(), 30000);
        page->start();
        QCOMPARE(page->state(), ServePage::State::Idle);
        QVERIFY(page->statusLabel()->text().startsWith(QStringLiteral("0.0.0.0 is not a loopback address")));
        // Ticked: every address, reachable on loopback too.
        page->allowOthersCheck()->setChecked(true);
        QVERIFY(startOnPort(page, 0));
        QCOMPARE(page->server().host, QStringLiteral("0.0.0.0"));
        QCOMPARE(page->urlLabel()->text(), QStringLiteral("http://127.0.0.1:%1/v1").arg(page->server().port));
        httplib::Client cli("127.0.0.1", page->server().port);
        auto models = cli.Get("/v1/models");
        QVERIFY(models && models->status == 200);
        QCOMPARE(QString::fromStdString(json::parse(models->body)["data"][0]["id"]), page->server().modelId);
        QVERIFY(stopAndTime(page) >= 0);
        QVERIFY(errors.isEmpty());
    }

    void loadingAModelStopsTheServer() {
        QStringList errors;
        auto w = openWindow(&errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        ServePage* page = front(*w);
        QVERIFY(startOnPort(page, 0));
        QSignalSpy stopped(page, &ServePage::serverStopped);
        w->loadModel(tinyPath_);
        QVERIFY(QTest::qWaitFor([&] { return stopped.count() == 1; }, 5000));
        QTRY_VERIFY_WITH_TIMEOUT(!w->isLoading() && w->hasModel(), 30000);
        QCOMPARE(page->statusLabel()->text(), QStringLiteral("The server stopped to let the new model load."));
        QVERIFY(page->startButton()->isEnabled());
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    }

    // A window closed while it serves: the engine thread stops serving and the window goes.
    // The examples and the request log at the window's text size, in presentation mode too: the
    // code font grows with the rest (it kept 9 pt on a projector), the Python example shows all
    // its lines without scrolling, its box ends where the text does (the text stood centred in a
    // taller frame and the log got 130 px), and the log's headings are whole.
    void examplesAndLogFollowTheTextSize_data() {
        QTest::addColumn<bool>("presenting");
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("hidden");   // presentation mode turned on on another page
        QTest::newRow("1024x700") << false << QSize(1024, 700) << false;
        QTest::newRow("1920x1080") << false << QSize(1920, 1080) << false;
        QTest::newRow("presentation 1920x1080") << true << QSize(1920, 1080) << false;
        QTest::newRow("presentation 1920x1080, turned on elsewhere") << true << QSize(1920, 1080) << true;
    }
    void examplesAndLogFollowTheTextSize() {
        QFETCH(bool, presenting);
        QFETCH(QSize, size);
        QFETCH(bool, hidden);
        QStringList errors;
        auto w = openWindow(&errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        w->resize(size);
        QTRY_COMPARE(w->size(), size);
        ServePage* page = w->page<ServePage>();
        if (!hidden) front(*w);
        w->presentation()->setPresenting(presenting);
        QTest::qWait(100);
        front(*w);
        QTest::qWait(100);
        const double appSize = QApplication::font().pointSizeF();
        for (QPlainTextEdit* e : {page->curlEdit(), page->pythonEdit()}) {
            QCOMPARE(e->font().pointSizeF(), appSize);
            QCOMPARE(e->font().styleHint(), QFont::TypeWriter);
            QVERIFY2(e->verticalScrollBar()->maximum() == 0,
                     qPrintable(QStringLiteral("%1 scrolls by %2 px at %3 pt").arg(e->objectName()).arg(e->verticalScrollBar()->maximum()).arg(appSize)));
            // The box around it is no taller than the edit, its Copy button and the box's margins.
            auto* box = qobject_cast<QGroupBox*>(e->parentWidget());
            QVERIFY(box);
            QVERIFY2(box->height() <= box->layout()->totalMaximumSize().height(),
                     qPrintable(QStringLiteral("%1 px box around a %2 px text").arg(box->height()).arg(e->height())));
        }
        QHeaderView* header = page->logView()->horizontalHeader();
        const QFontMetrics fm(header->font());
        const int margin = 2 * header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
        for (int c = 0; c < header->count(); ++c) {
            const QString text = header->model()->headerData(c, Qt::Horizontal).toString();
            QVERIFY2(header->sectionSize(c) >= fm.horizontalAdvance(text) + margin,
                     qPrintable(QStringLiteral("\"%1\" in %2 px at %3 pt").arg(text).arg(header->sectionSize(c)).arg(appSize)));
        }
        w->presentation()->setPresenting(false);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join(u'\n')));
    }

    void closingWhileServing() {
        QStringList errors;
        auto w = openWindow(&errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        ServePage* page = front(*w);
        QVERIFY(startOnPort(page, 0));
        const int port = page->server().port;
        QElapsedTimer t;
        t.start();
        w.reset();
        QVERIFY2(t.elapsed() < 2000, qPrintable(QStringLiteral("closing took %1 ms").arg(t.elapsed())));
        Listener again(port, true);
        QVERIFY(again.ok());
    }
};

#else   // built without cpp-httplib (DLAB_HTTP=OFF): the page says so, and there is nothing to serve

class TestGuiServePage : public QObject {
    Q_OBJECT
private slots:
    void noHttpServer() { QSKIP("built without cpp-httplib"); }
};

#endif

QTEST_MAIN(TestGuiServePage)
#include "test_gui_serve_page.moc"
