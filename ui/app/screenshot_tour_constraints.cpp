#include "ui/app/screenshot_tour_constraints.h"

#include <QCheckBox>
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QPlainTextEdit>
#include <QThread>

#include "ui/app/main_window.h"
#include "ui/chat/chat_page.h"
#include "ui/playground/constraint_box.h"
#include "ui/playground/playground_page.h"

namespace dlab::ui {

namespace {

bool waitFor(const std::function<bool()>& done, int ms) {
    QDeadlineTimer deadline(ms);
    while (!done()) {
        if (deadline.hasExpired()) return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(10);
    }
    return true;
}

// Every size × language × theme of what is on screen now, named `stem`-WxH-lang-theme.png.
void everyLook(MainWindow& w, const std::function<void(const QString&)>& shoot, const QString& stem) {
    const QSize normal = w.size();
    for (const QSize size : {QSize(1024, 700), QSize(1920, 1080)})
        for (const char* lang : {"en", "de", "zh_CN"})
            for (const char* theme : {"light", "dark"}) {
                w.setLanguage(QLatin1String(lang));
                w.setTheme(QLatin1String(theme));
                // After the texts changed, as the layout test does: their minimums are the new language's.
                waitFor([] { return false; }, 200);
                w.resize(size);
                shoot(QStringLiteral("%1-%2x%3-%4-%5.png").arg(stem).arg(size.width()).arg(size.height()).arg(QLatin1String(lang), QLatin1String(theme)));
            }
    w.setTheme(QStringLiteral("system"));
    w.setLanguage(QStringLiteral("en"));
    w.resize(normal);
}

}  // namespace

void constraintScreens(MainWindow& w, const std::function<void(const QString&)>& shoot, bool all) {
    PlaygroundPage* page = w.page<PlaygroundPage>();
    ChatPage* chat = w.page<ChatPage>();
    ConstraintBox* box = page->constraintBox();
    w.tabs()->setCurrentWidget(page);

    // A JSON Schema beside the same prompt without it: the unconstrained text leaves JSON early.
    page->resetSampler();
    page->promptEdit()->setPlainText(QStringLiteral("Anna is 31 and lives in Berlin. Her profile as JSON:"));
    box->setCompareUnconstrained(true);
    box->setKind(ConstraintBox::Kind::JsonSchema);
    box->selectExample(QStringLiteral("person.json"));
    waitFor([&] { return !box->compiling(); }, 30000);
    page->setRunLength(14);
    page->run();
    waitFor([&] { return !page->busy(); }, 120000);
    shoot(QStringLiteral("constraints-playground.png"));
    page->showDistribution();
    if (all) everyLook(w, shoot, QStringLiteral("constraints-playground"));

    // A GBNF grammar: a date.
    page->promptEdit()->setPlainText(QStringLiteral("The first person walked on the Moon on"));
    box->setKind(ConstraintBox::Kind::Gbnf);
    box->selectExample(QStringLiteral("iso-date.gbnf"));
    waitFor([&] { return !box->compiling(); }, 30000);
    page->setRunLength(8);
    page->run();
    waitFor([&] { return !page->busy(); }, 120000);
    shoot(QStringLiteral("constraints-gbnf.png"));

    // A grammar with a mistake: the engine's sentence in the box, the playground unconstrained.
    box->setText(QStringLiteral("root ::= \"yes\" | \"no\" |\nanswer ::= [a-z\n"), QStringLiteral("broken.gbnf"));
    waitFor([&] { return !box->compiling(); }, 30000);
    shoot(QStringLiteral("constraints-error.png"));

    // The chat in JSON mode.
    w.tabs()->setCurrentWidget(chat);
    chat->clearChat();
    chat->jsonModeCheck()->setChecked(true);
    page->resetSampler();
    chat->inputEdit()->setPlainText(QStringLiteral("Describe a cat called Tom as a JSON object with his name, age and colour."));
    chat->send();
    waitFor([&] { return chat->generating(); }, 10000);
    waitFor([&] { return !chat->generating(); }, 180000);
    shoot(QStringLiteral("constraints-chat.png"));
    if (all) everyLook(w, shoot, QStringLiteral("constraints-chat"));
    chat->jsonModeCheck()->setChecked(false);
    chat->clearChat();

    // Back to no constraint for whatever the tour does next.
    w.tabs()->setCurrentWidget(page);
    box->setCompareUnconstrained(false);
    box->setKind(ConstraintBox::Kind::None);
    waitFor([&] { return !box->compiling(); }, 10000);
}

}  // namespace dlab::ui
