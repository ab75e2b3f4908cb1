#include "ui/screenshot_tour.h"

#include <QAbstractButton>
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QPixmap>
#include <QPlainTextEdit>
#include <QSlider>
#include <QTabWidget>

#include <cstdio>
#include <functional>

#include "ui/chat_page.h"
#include "ui/main_window.h"
#include "ui/playground_page.h"

namespace dlab::ui {

namespace {

bool waitUntil(const std::function<bool()>& done, int ms) {
    QDeadlineTimer deadline(ms);
    while (!done()) {
        if (deadline.hasExpired()) return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    return true;
}

void settle() {
    QDeadlineTimer deadline(400);
    while (!deadline.hasExpired()) QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
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
    PlaygroundPage* page = w.playground();
    ChatPage* chat = w.chat();

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

    // The same pages dark, in German and in Chinese.
    w.setTheme(QStringLiteral("dark"));
    w.tabs()->setCurrentWidget(page);
    shoot(QStringLiteral("playground-dark.png"));
    w.setTheme(QStringLiteral("system"));
    w.setLanguage(QStringLiteral("de"));
    shoot(QStringLiteral("playground-de.png"));
    w.setLanguage(QStringLiteral("zh_CN"));
    w.tabs()->setCurrentWidget(chat);
    shoot(QStringLiteral("chat-zh_CN.png"));
    w.setLanguage(QStringLiteral("en"));
    return written;
}

}  // namespace dlab::ui
