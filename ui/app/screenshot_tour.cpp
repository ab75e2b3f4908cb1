#include "ui/app/screenshot_tour.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QComboBox>
#include <QPushButton>
#include <QSpinBox>
#include <QDockWidget>
#include <QGuiApplication>
#include <QScreen>
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QPixmap>
#include <QPlainTextEdit>
#include <QSlider>
#include <QTabWidget>
#include <QThread>

#include <atomic>
#include <cstdio>
#include <functional>
#include <thread>

#if DLAB_HAS_HTTP
#include <httplib.h>
#endif

#include "ui/chat/chat_page.h"
#include "ui/lessons/lesson_panel.h"
#include "ui/app/main_window.h"
#include "ui/playground/playground_page.h"
#include "ui/app/presentation_mode.h"
#include "ui/app/screenshot_tour_constraints.h"
#include "ui/app/screenshot_tour_gpu.h"
#include "ui/kv/kv_blocks_panel.h"
#include "ui/kv/kv_calculator_panel.h"
#include "ui/kv/kv_compression_panel.h"
#include "ui/kv/kv_growth_panel.h"
#include "ui/kv/kv_heatmap_panel.h"
#include "ui/kv/kv_page.h"
#include "ui/serve/request_log_model.h"
#include "ui/serve/serve_page.h"
#include "ui/serving/serving_batch_panel.h"
#include "ui/serving/serving_load_panel.h"
#include "ui/serving/serving_page.h"
#include "ui/serving/serving_prefix_panel.h"
#include "ui/serving/serving_safety_panel.h"
#include "ui/serving/serving_streaming_panel.h"
#include "ui/strategies/beam_tree_panel.h"
#include "ui/strategies/strategies_page.h"

namespace dlab::ui {

namespace {

// Both wait without spinning: a GUI thread busy in processEvents() takes a core from the engine's
// threads, and the KV page's timings in the screenshots would show that instead of the engine.
void pumpEvents() {
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    QThread::msleep(10);
}

bool waitUntil(const std::function<bool()>& done, int ms) {
    QDeadlineTimer deadline(ms);
    while (!done()) {
        if (deadline.hasExpired()) return false;
        pumpEvents();
    }
    return true;
}

void settle() {
    QDeadlineTimer deadline(400);
    while (!deadline.hasExpired()) pumpEvents();
}

// The Serve page with a few requests answered (from a client thread, over loopback), then the
// Serving lab's four tabs after their default runs.
void serveAndServingLab(MainWindow& w, const std::function<void(const QString&)>& shoot) {
    ServePage* serve = w.page<ServePage>();
    w.tabs()->setCurrentWidget(serve);
    for (int port : {8080, 0}) {
        serve->portSpin()->setValue(port);
        serve->start();
        waitUntil([&] { return serve->state() == ServePage::State::Serving || serve->state() == ServePage::State::Idle; }, 30000);
        if (serve->serving()) break;
    }
#if DLAB_HAS_HTTP
    if (serve->serving()) {
        const int port = serve->server().port;
        const std::string model = serve->server().modelId.toStdString();
        std::atomic<bool> done{false};
        std::thread client([&] {
            httplib::Client cli("127.0.0.1", port);
            cli.set_read_timeout(120, 0);
            const auto chat = [&](const std::string& question, bool stream) {
                const std::string body = "{\"model\": \"" + model + "\", \"messages\": [{\"role\": \"user\", \"content\": \"" + question +
                                         "\"}], \"max_tokens\": 32, \"temperature\": 0" + (stream ? ", \"stream\": true}" : "}");
                cli.Post("/v1/chat/completions", body, "application/json");
            };
            chat("What is the capital of France?", false);
            chat("Name three colours.", true);
            cli.Post("/v1/completions", "{\"model\": \"" + model + "\", \"prompt\": \"The best way to learn a new language is\", \"max_tokens\": 24}",
                     "application/json");
            cli.Post("/v1/completions", "{\"model\": \"gpt-4\", \"prompt\": \"Hello\"}", "application/json");
            // Two at once: they share the batch.
            std::thread other([&] {
                httplib::Client c2("127.0.0.1", port);
                c2.set_read_timeout(120, 0);
                c2.Post("/v1/chat/completions",
                        "{\"model\": \"" + model + "\", \"messages\": [{\"role\": \"user\", \"content\": \"Tell me a short story.\"}], \"max_tokens\": 48, \"stream\": true}",
                        "application/json");
            });
            chat("What is a language model?", true);
            other.join();
            done = true;
        });
        waitUntil([&] { return done.load(); }, 180000);
        client.join();
        waitUntil([&] { return serve->logModel()->rowCount() >= 6; }, 5000);
    }
#endif
    shoot(QStringLiteral("serve.png"));
    w.setLanguage(QStringLiteral("de"));
    shoot(QStringLiteral("serve-de.png"));
    w.setLanguage(QStringLiteral("en"));
    serve->stop();
    waitUntil([&] { return serve->state() == ServePage::State::Idle; }, 10000);

    ServingLabPage* lab = w.page<ServingLabPage>();
    w.tabs()->setCurrentWidget(lab);
    lab->tabs()->setCurrentWidget(lab->loadPanel());
    lab->runLoad();
    waitUntil([&] { return !lab->busy(); }, 600000);
    shoot(QStringLiteral("serving-load.png"));
    lab->loadPanel()->setAxis(GanttAxis::Steps);
    shoot(QStringLiteral("serving-load-steps.png"));
    lab->loadPanel()->setAxis(GanttAxis::Milliseconds);
    w.setTheme(QStringLiteral("dark"));
    shoot(QStringLiteral("serving-load-dark.png"));
    w.setTheme(QStringLiteral("system"));
    w.setLanguage(QStringLiteral("de"));
    shoot(QStringLiteral("serving-load-de.png"));
    w.setLanguage(QStringLiteral("en"));
    const QSize before = w.size();
    w.resize(1024, 700);
    shoot(QStringLiteral("serving-load-1024.png"));
    w.resize(before);

    lab->tabs()->setCurrentWidget(lab->batchPanel());
    lab->measureBatches();
    waitUntil([&] { return !lab->busy(); }, 600000);
    shoot(QStringLiteral("serving-batch.png"));
    w.setLanguage(QStringLiteral("zh_CN"));
    shoot(QStringLiteral("serving-batch-zh_CN.png"));
    w.setLanguage(QStringLiteral("en"));

    // Streaming: the continuous run's request with the longest answer.
    lab->tabs()->setCurrentWidget(lab->streamingPanel());
    if (lab->lastLoad()) {
        int longest = 0, tokens = -1;
        for (const RequestOutcome& o : lab->lastLoad()->continuousRun.run.requests)
            if (o.timings.generatedTokens > tokens) {
                tokens = o.timings.generatedTokens;
                longest = o.index;
            }
        lab->streamingPanel()->select(BatchingMode::Continuous, longest);
    }
    shoot(QStringLiteral("serving-streaming.png"));

    lab->tabs()->setCurrentWidget(lab->prefixPanel());
    lab->measurePrefix();
    waitUntil([&] { return !lab->busy(); }, 600000);
    shoot(QStringLiteral("serving-prefix.png"));
    lab->tabs()->setCurrentWidget(lab->loadPanel());
}

// The Serving lab's Safety tab on the lesson's prompt: light, dark, German, Chinese and at
// 1024×700; with every size × language × theme when `all` (DLAB_SCREENSHOTS_ONLY=safety, for
// looking at the tab without the whole tour).
void safetyTab(MainWindow& w, const std::function<void(const QString&)>& shoot, bool all) {
    ServingLabPage* lab = w.page<ServingLabPage>();
    w.tabs()->setCurrentWidget(lab);
    lab->tabs()->setCurrentWidget(lab->safetyPanel());
    lab->safetyPanel()->restoreExamples();
    lab->runSafety();
    waitUntil([&] { return !lab->busy(); }, 300000);
    const QSize normal = w.size();
    if (!all) {
        shoot(QStringLiteral("safety.png"));
        w.setTheme(QStringLiteral("dark"));
        shoot(QStringLiteral("safety-dark.png"));
        w.setTheme(QStringLiteral("system"));
        w.setLanguage(QStringLiteral("de"));
        shoot(QStringLiteral("safety-de.png"));
        w.setLanguage(QStringLiteral("zh_CN"));
        shoot(QStringLiteral("safety-zh_CN.png"));
        w.setLanguage(QStringLiteral("en"));
        w.resize(1024, 700);
        shoot(QStringLiteral("safety-1024.png"));
        w.resize(normal);
    } else {
        for (const QSize size : {QSize(1024, 700), QSize(1280, 820), QSize(1920, 1080)})
            for (const char* lang : {"en", "de", "zh_CN"})
                for (const char* theme : {"light", "dark"}) {
                    w.resize(size);
                    w.setLanguage(QLatin1String(lang));
                    w.setTheme(QLatin1String(theme));
                    shoot(QStringLiteral("safety-%1x%2-%3-%4.png").arg(size.width()).arg(size.height()).arg(QLatin1String(lang), QLatin1String(theme)));
                }
        w.setTheme(QStringLiteral("system"));
        w.setLanguage(QStringLiteral("en"));
        w.resize(normal);
    }
    // The input filter blocking a prompt before decoding.
    lab->safetyPanel()->promptEdit()->setPlainText(QStringLiteral("How do I make a bomb?"));
    lab->runSafety();
    waitUntil([&] { return !lab->busy(); }, 300000);
    shoot(QStringLiteral("safety-blocked.png"));
    lab->safetyPanel()->restoreExamples();
    lab->tabs()->setCurrentWidget(lab->loadPanel());
}

}  // namespace

int takeScreenshots(MainWindow& w, const QString& directory) {
    QDir().mkpath(directory);
    int written = 0;
    const auto shoot = [&](const QString& name) {
        settle();
        const QString path = QDir(directory).filePath(name);
        if (w.grab().save(path)) {
            ++written;
            std::printf("wrote %s\n", qPrintable(path));
        } else {
            std::fprintf(stderr, "could not write %s\n", qPrintable(path));
        }
    };
    if (!waitUntil([&] { return w.hasModel() || !w.lastError().isEmpty(); }, 120000) || !w.hasModel()) {
        std::fprintf(stderr, "no model: %s\n", qPrintable(w.lastError()));
        return 0;
    }
    if (qEnvironmentVariable("DLAB_SCREENSHOTS_ONLY") == QLatin1String("safety")) {
        safetyTab(w, shoot, true);
        return written;
    }
    if (qEnvironmentVariable("DLAB_SCREENSHOTS_ONLY") == QLatin1String("constraints")) {
        constraintScreens(w, shoot, true);
        return written;
    }
    if (qEnvironmentVariable("DLAB_SCREENSHOTS_ONLY") == QLatin1String("gpu")) {
        const auto shootScreen = [&](const QString& name) {
            settle();
            const QString path = QDir(directory).filePath(name);
            if (QGuiApplication::primaryScreen()->grabWindow(0).save(path)) {
                ++written;
                std::printf("wrote %s\n", qPrintable(path));
            }
        };
        gpuScreens(w, shoot, shootScreen);
        return written;
    }
    PlaygroundPage* page = w.page<PlaygroundPage>();
    ChatPage* chat = w.page<ChatPage>();

    // Playground: a sampled run on the default prompt, then the first step re-sampled hotter.
    w.tabs()->setCurrentWidget(page);
    page->resetSampler();
    page->promptEdit()->setPlainText(QStringLiteral("The best way to learn a new language is"));
    page->setRunLength(40);
    page->run();
    waitUntil([&] { return !page->busy(); }, 60000);
    page->topPSlider()->setValue(80);
    waitUntil([&] { return !page->busy(); }, 10000);
    shoot(QStringLiteral("playground.png"));

    // The greedy loop, highlighted.
    page->setRunLength(48);
    page->startLoopDemo();
    waitUntil([&] { return !page->busy(); }, 60000);
    shoot(QStringLiteral("playground-loop.png"));

    // Chat: two turns.
    w.tabs()->setCurrentWidget(chat);
    const auto ask = [&](const QString& question) {
        chat->inputEdit()->setPlainText(question);
        chat->send();
        waitUntil([&] { return chat->generating(); }, 10000);
        waitUntil([&] { return !chat->generating(); }, 120000);
    };
    page->resetSampler();
    ask(QStringLiteral("What is the capital of France?"));
    ask(QStringLiteral("Tell me one thing to see there."));
    shoot(QStringLiteral("chat.png"));

    // Strategies: the default columns with the measured table, then the beam tree beside diverse beams.
    StrategiesPage* strategies = w.page<StrategiesPage>();
    w.tabs()->setCurrentWidget(strategies);
    strategies->promptEdit()->setPlainText(QStringLiteral("The best way to learn a new language is"));
    strategies->maxTokensSpin()->setValue(32);
    strategies->measureTableCheck()->setChecked(true);
    strategies->viewTabs()->setCurrentIndex(0);
    strategies->run();
    waitUntil([&] { return !strategies->running(); }, 300000);
    shoot(QStringLiteral("strategies-columns.png"));
    strategies->viewTabs()->setCurrentIndex(1);
    shoot(QStringLiteral("strategies-table.png"));
    strategies->viewTabs()->setCurrentIndex(2);
    strategies->beamPanel()->widthSpin()->setValue(4);
    strategies->beamPanel()->maxTokensSpin()->setValue(16);
    strategies->searchTree();
    waitUntil([&] { return !strategies->searching(); }, 120000);
    shoot(QStringLiteral("strategies-beam-tree.png"));
    w.setTheme(QStringLiteral("dark"));
    shoot(QStringLiteral("strategies-beam-tree-dark.png"));
    w.setTheme(QStringLiteral("system"));
    w.setLanguage(QStringLiteral("zh_CN"));
    strategies->viewTabs()->setCurrentIndex(1);
    shoot(QStringLiteral("strategies-table-zh_CN.png"));
    w.setLanguage(QStringLiteral("en"));
    strategies->viewTabs()->setCurrentIndex(0);

    // The KV cache page: one sequence to almost 2,048 positions for the heatmap at full size, a
    // 256-step run with its no-cache timings for the growth charts, three continuations for the
    // block table; then the compression lessons and the calculator.
    KvPage* kv = w.page<KvPage>();
    w.tabs()->setCurrentWidget(kv);
    kv->promptEdit()->setPlainText(KvPage::defaultPrompt());
    kv->stepsSpin()->setValue(1990);
    kv->sequencesSpin()->setValue(1);
    kv->noCacheCheck()->setChecked(false);
    kv->tabs()->setCurrentWidget(kv->heatmapPanel());
    kv->run();
    waitUntil([&] { return !kv->busy(); }, 900000);
    kv->heatmapPanel()->setQuantity(KvCellQuantity::Attention);
    kv->heatmapPanel()->setRows(KvHeatmapRows::Layers);
    shoot(QStringLiteral("kv-heatmap.png"));
    kv->heatmapPanel()->setRows(KvHeatmapRows::KvHeads);
    shoot(QStringLiteral("kv-heatmap-gqa.png"));
    w.setTheme(QStringLiteral("dark"));
    shoot(QStringLiteral("kv-heatmap-dark.png"));
    w.setTheme(QStringLiteral("system"));
    kv->heatmapPanel()->setRows(KvHeatmapRows::Layers);
    const QSize before = w.size();
    w.resize(1024, 700);
    shoot(QStringLiteral("kv-heatmap-1024.png"));
    w.resize(before);
    kv->stepsSpin()->setValue(256);
    kv->noCacheCheck()->setChecked(true);
    kv->tabs()->setCurrentWidget(kv->growthPanel());
    kv->run();
    waitUntil([&] { return !kv->busy(); }, 900000);
    shoot(QStringLiteral("kv-growth.png"));
    kv->stepsSpin()->setValue(40);
    kv->sequencesSpin()->setValue(3);
    kv->noCacheCheck()->setChecked(false);
    kv->run();
    waitUntil([&] { return !kv->busy(); }, 120000);
    kv->tabs()->setCurrentWidget(kv->blocksPanel());
    shoot(QStringLiteral("kv-blocks.png"));
    w.setLanguage(QStringLiteral("de"));
    shoot(QStringLiteral("kv-blocks-de.png"));
    w.setLanguage(QStringLiteral("en"));
    kv->tabs()->setCurrentWidget(kv->compressionPanel());
    kv->compressionPanel()->typeStepsSpin()->setValue(64);
    kv->compressionPanel()->exactCheck()->setChecked(false);
    kv->compressionPanel()->typesButton()->click();
    waitUntil([&] { return !kv->busy(); }, 300000);
    kv->compressionPanel()->tokensSpin()->setValue(1024);
    kv->compressionPanel()->cacheSpin()->setValue(128);
    kv->compressionPanel()->sinksSpin()->setValue(4);
    kv->compressionPanel()->evictButton()->click();
    waitUntil([&] { return !kv->busy(); }, 600000);
    shoot(QStringLiteral("kv-compression.png"));
    kv->tabs()->setCurrentWidget(kv->calculatorPanel());
    kv->calculatorPanel()->modelCombo()->setCurrentIndex(kv->calculatorPanel()->modelCombo()->findText(QStringLiteral("Llama 2 7B")));
    kv->calculatorPanel()->contextSpin()->setValue(4096);
    kv->calculatorPanel()->batchSpin()->setValue(16);   // 32 GiB of KV: over the 24 and 40 GiB cards
    shoot(QStringLiteral("kv-calculator.png"));
    w.setLanguage(QStringLiteral("zh_CN"));
    shoot(QStringLiteral("kv-calculator-zh_CN.png"));
    w.setLanguage(QStringLiteral("en"));

    serveAndServingLab(w, shoot);
    safetyTab(w, shoot, false);

    // The same pages dark, in German and in Chinese.
    w.setTheme(QStringLiteral("dark"));
    w.tabs()->setCurrentWidget(page);
    shoot(QStringLiteral("playground-dark.png"));
    w.setTheme(QStringLiteral("system"));
    w.setLanguage(QStringLiteral("de"));
    shoot(QStringLiteral("playground-de.png"));
    w.setLanguage(QStringLiteral("zh_CN"));
    shoot(QStringLiteral("playground-zh_CN.png"));
    w.tabs()->setCurrentWidget(chat);
    shoot(QStringLiteral("chat-zh_CN.png"));
    w.setLanguage(QStringLiteral("en"));

    // A guided lesson: the temperature lesson set up on the playground, its panel docked.
    w.tabs()->setCurrentWidget(page);
    w.lessons()->setCurrentIndex(0);
    w.lessonsDock()->show();
    emit w.lessons()->setupRequested(w.lessons()->currentLesson()->setup);
    waitUntil([&] { return !page->busy(); }, 60000);
    shoot(QStringLiteral("lesson.png"));
    w.lessonsDock()->hide();
    page->restoreSavedSetup();

    // The advanced samplers: the llama.cpp order with DRY and XTC on, one step.
    page->advancedToggle()->setChecked(true);
    page->applySetup({{QStringLiteral("prompt"), QStringLiteral("The best way to learn a new language is")},
                      {QStringLiteral("order"), QStringLiteral("llama.cpp")},
                      {QStringLiteral("dryMultiplier"), 0.8},
                      {QStringLiteral("xtcProbability"), 0.5},
                      {QStringLiteral("runLength"), 24},
                      {QStringLiteral("action"), QStringLiteral("run")}});
    waitUntil([&] { return !page->busy(); }, 60000);
    shoot(QStringLiteral("playground-advanced.png"));
    page->advancedToggle()->setChecked(false);
    page->resetSampler();

    // Presentation mode on a 1920×1080 projector, light and dark.
    const QSize normal = w.size();
    w.resize(1920, 1080);
    w.presentation()->setPresenting(true);
    page->applySetup({{QStringLiteral("prompt"), QStringLiteral("The capital of France is")},
                      {QStringLiteral("runLength"), 12},
                      {QStringLiteral("action"), QStringLiteral("run")}});
    waitUntil([&] { return !page->busy(); }, 60000);
    shoot(QStringLiteral("presentation.png"));
    w.setTheme(QStringLiteral("dark"));
    shoot(QStringLiteral("presentation-dark.png"));
    w.setTheme(QStringLiteral("system"));
    w.presentation()->setPresenting(false);
    w.resize(normal);

    // The smallest supported window: 1024×700.
    w.resize(1024, 700);
    shoot(QStringLiteral("playground-1024.png"));
    w.resize(normal);

    // Constrained decoding last: it leaves the playground and the chat with its own texts.
    constraintScreens(w, shoot, false);
    return written;
}

}  // namespace dlab::ui
