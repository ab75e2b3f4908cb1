// Guided lessons and the in-app help, offscreen, without a model:
//  * every lesson file of resources/lessons/ is embedded, loads with all three languages and a
//    setup that validates as engine settings;
//  * a malformed lesson is reported in one sentence naming the file and the key, and the other
//    lessons still load;
//  * the lesson panel shows a lesson's texts in the app's language, Previous / Next switch,
//    "Set up the page" emits the file's setup, the formula box follows the palette and the text
//    the widget font;
//  * Help: the shortcuts dialog lists a window's QActions and QShortcuts as they are at run time;
//    the user guide renders docs/desktop-app.md without its images and its search finds a word.
// DLAB_SCREENSHOT_DIR=DIR also saves what the panel and dialog tests rendered, as PNG files.
#include <QtTest>
#include <QtWidgets>

#include "core/error.h"
#include "test_paths.h"
#include "ui/help/shortcut_collector.h"
#include "ui/help/shortcuts_dialog.h"
#include "ui/help/user_guide_dialog.h"
#include "ui/app/language_manager.h"
#include "ui/lessons/lesson_library.h"
#include "ui/lessons/lesson_panel.h"
#include "ui/lessons/lesson_setup.h"
#include "ui/app/theme.h"

using namespace dlab::ui;

namespace {

QString sourceLessonDir() { return QString::fromStdString(dlab::test::sourceDir()) + QStringLiteral("/resources/lessons"); }

QStringList languageCodes() {
    QStringList codes;
    for (const Language& l : LanguageManager::languages()) codes << l.code;
    return codes;
}

// A lesson that loads; the malformed cases are small edits of it.
QByteArray validLessonJson(const QString& id) {
    const QString text = QStringLiteral(R"({
  "id": "%1", "page": "playground",
  "title": {"en": "Title", "de": "Titel", "zh_CN": "标题"},
  "body": {"en": "<p>Body <b>bold</b> z<sub>i</sub></p>", "de": "<p>Text</p>", "zh_CN": "<p>正文</p>"},
  "setup": {"prompt": "Hello", "runLength": 12, "action": "run", "temperature": 1.0, "topK": 5, "order": "hf"},
  "steps": [{"en": "One", "de": "Eins", "zh_CN": "一"}, {"en": "Two", "de": "Zwei", "zh_CN": "二"}, {"en": "Three", "de": "Drei", "zh_CN": "三"}]
})").arg(id);
    return text.toUtf8();
}

void writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    QVERIFY2(f.open(QIODevice::WriteOnly), qPrintable(path));
    f.write(bytes);
}

QString plain(const QString& html) { return QTextDocumentFragment::fromHtml(html).toPlainText().simplified(); }

void saveShot(QWidget& w, const QString& name) {
    const QString dir = qEnvironmentVariable("DLAB_SCREENSHOT_DIR");
    if (dir.isEmpty()) return;
    QDir().mkpath(dir);
    QVERIFY(w.grab().save(dir + QLatin1Char('/') + name + QStringLiteral(".png")));
}

void setLanguage(const QString& code) {
    QVERIFY(LanguageManager::instance().setLanguage(code));
    QCoreApplication::processEvents();  // deliver the posted LanguageChange events
}

}  // namespace

class TestGuiLessons : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { setLanguage(QStringLiteral("en")); }
    void cleanup() { setLanguage(QStringLiteral("en")); }

    // The resource holds exactly the files of resources/lessons/, and none is left out.
    void resourceHoldsEveryLesson() {
        const QStringList files = QDir(sourceLessonDir()).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        QVERIFY(files.size() >= 6);
        const LessonLibrary library = LessonLibrary::load();
        QVERIFY2(library.errors().isEmpty(), qPrintable(library.errors().join(QLatin1Char('\n'))));
        QStringList loaded;
        for (const Lesson& l : library.lessons()) loaded << l.fileName;
        QCOMPARE(loaded, files);
        for (const char* id : {"temperature", "top-k-vs-top-p", "stage-order", "greedy-loop", "repetition-penalties",
                               "determinism-and-seeds", "safety-pipeline", "kv-cache-memory"})
            QVERIFY2(library.indexOf(QLatin1String(id)) >= 0, id);
    }

    void everyLessonIsComplete_data() {
        QTest::addColumn<QString>("file");
        for (const QString& f : QDir(sourceLessonDir()).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
            QTest::newRow(qPrintable(f)) << f;
    }
    void everyLessonIsComplete() {
        QFETCH(QString, file);
        QFile f(QStringLiteral(":/lessons/") + file);
        QVERIFY2(f.open(QIODevice::ReadOnly), "the lesson is not embedded under :/lessons/");
        Lesson l;
        try {
            l = parseLesson(f.readAll(), file);
        } catch (const dlab::Error& e) {
            QFAIL(e.what());
        }
        // The pages that take lessons: the playground, the Serving lab's Safety tab, the KV page's
        // calculator.
        QVERIFY2(QStringList({"playground", "serving", "kv"}).contains(l.page), qPrintable(l.page));
        QVERIFY(l.steps.size() >= 3 && l.steps.size() <= 5);
        QList<LocalizedText> texts{l.title, l.body};
        if (!l.formula.isEmpty()) texts << l.formula;
        texts << l.steps;
        for (const LocalizedText& t : texts) {
            for (const QString& code : languageCodes()) QVERIFY2(!t.value(code).trimmed().isEmpty(), qPrintable(code));
            // Translated, not the English copied over.
            QVERIFY2(t.value(QStringLiteral("de")) != t.value(QStringLiteral("en")), qPrintable(t.value("en")));
            QVERIFY2(t.value(QStringLiteral("zh_CN")) != t.value(QStringLiteral("en")), qPrintable(t.value("en")));
        }
        if (l.page == QLatin1String("kv")) {
            QVERIFY(l.setup.contains(QStringLiteral("calcModel")));
        } else {
            QVERIFY(!l.setup.value(QStringLiteral("prompt")).toString().isEmpty());
            QVERIFY(QStringList({"step", "run", "none"}).contains(l.setup.value(QStringLiteral("action")).toString()));
        }
        try {
            samplerParamsFromSetup(l.setup).validate();
        } catch (const dlab::Error& e) {
            QFAIL(e.what());
        }
    }

    // The temperature lesson carries the softmax-with-temperature formula.
    void temperatureLessonHasTheFormula() {
        const LessonLibrary library = LessonLibrary::load();
        const int i = library.indexOf(QStringLiteral("temperature"));
        QVERIFY(i >= 0);
        const QString formula = plain(library.lessons().at(i).formula.value(QStringLiteral("en")));
        QVERIFY2(formula.contains(QStringLiteral("pi = exp(zi / T) / Σj exp(zj / T)")), qPrintable(formula));
    }

    void malformedLessonIsNamed_data() {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("expected");  // what the sentence must say after "bad.json"
        QTest::newRow("bad JSON") << R"("page": "playground",)" << R"("page": "playground")"
                                  << "bad.json, line 3: not valid JSON";
        QTest::newRow("missing language") << R"("de": "Titel", )" << ""
                                          << "bad.json: title.de is missing; every text needs en, de, zh_CN";
        QTest::newRow("unknown language") << R"("zh_CN": "标题")" << R"("zh": "标题")"
                                          << "bad.json: title has the unknown language \"zh\"";
        QTest::newRow("unknown setup key") << R"("temperature": 1.0)" << R"("temprature": 1.0)"
                                           << "bad.json: setup.temprature is not a setting a lesson can set";
        QTest::newRow("out of range") << R"("temperature": 1.0)" << R"("temperature": 150)"
                                      << "bad.json: setup.temperature must be between 0 and 100";
        QTest::newRow("not whole") << R"("topK": 5)" << R"("topK": 2.5)"
                                   << "bad.json: setup.topK must be a whole number; got 2.5";
        QTest::newRow("wrong type") << R"("prompt": "Hello")" << R"("prompt": 7)"
                                    << "bad.json: setup.prompt must be a text; got 7";
        QTest::newRow("stage not in order") << R"("topK": 5)" << R"("topK": 5, "dryMultiplier": 0.8)"
                                            << "bad.json: setup.dryMultiplier is set but the sampler order 'hf' has no dry stage";
        QTest::newRow("unknown stage") << R"("order": "hf")" << R"("order": "temperature,top-q")"
                                       << "bad.json: setup.order: unknown sampler stage 'top-q'";
        QTest::newRow("bad action") << R"("action": "run")" << R"("action": "go")"
                                    << "bad.json: setup.action must be \"step\", \"run\" or \"none\"";
        QTest::newRow("run length") << R"("runLength": 12)" << R"("runLength": 0)"
                                    << "bad.json: setup.runLength must be between 1 and 2048 tokens";
        QTest::newRow("calculator dtype") << R"("topK": 5)" << R"("topK": 5, "calcDtype": "q4_0")"
                                          << "bad.json: setup.calcDtype must be one of f16, f32, q8_0; got \"q4_0\"";
        QTest::newRow("calculator model") << R"("topK": 5)" << R"("topK": 5, "calcModel": "llama9")"
                                          << "bad.json: setup.calcModel must be one of loaded, llama2-7b";
        QTest::newRow("calculator context") << R"("topK": 5)" << R"("topK": 5, "calcContext": 0)"
                                            << "bad.json: setup.calcContext must be between 1 and 1048576 positions";
        QTest::newRow("markup") << "<p>Text</p>" << "<div>Text</div>" << "bad.json: body.de has the markup '<div>'";
        QTest::newRow("too few steps") << R"(, {"en": "Three", "de": "Drei", "zh_CN": "三"})" << ""
                                       << "bad.json: steps must be a list of 3 to 5 texts";
        QTest::newRow("no id") << R"("id": "bad", )" << "" << "bad.json: id is missing";
        QTest::newRow("unknown key") << R"("page": "playground",)" << R"("page": "playground", "pgae": 1,)"
                                     << "bad.json: pgae is not a lesson key";
    }
    void malformedLessonIsNamed() {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString bad = QString::fromUtf8(validLessonJson(QStringLiteral("bad")));
        QVERIFY2(bad.contains(from), qPrintable(from));
        bad.replace(from, to);
        writeFile(dir.filePath(QStringLiteral("01-good.json")), validLessonJson(QStringLiteral("good")));
        writeFile(dir.filePath(QStringLiteral("bad.json")), bad.toUtf8());
        writeFile(dir.filePath(QStringLiteral("03-good.json")), validLessonJson(QStringLiteral("good-too")));

        const LessonLibrary library = LessonLibrary::load(dir.path());
        QCOMPARE(library.errors().size(), 1);
        const QString message = library.errors().first();
        QVERIFY2(message.startsWith(expected), qPrintable(message));
        QVERIFY2(!message.contains(QLatin1Char('\n')), qPrintable(message));
        QVERIFY2(!message.contains(QLatin1String("--")), qPrintable(message));  // no CLI option names
        // The others still load.
        QCOMPARE(library.lessons().size(), 2);
        QCOMPARE(library.lessons().at(0).id, QStringLiteral("good"));
        QCOMPARE(library.lessons().at(1).id, QStringLiteral("good-too"));
    }

    void duplicateIdIsNamed() {
        QTemporaryDir dir;
        writeFile(dir.filePath(QStringLiteral("01-a.json")), validLessonJson(QStringLiteral("same")));
        writeFile(dir.filePath(QStringLiteral("02-b.json")), validLessonJson(QStringLiteral("same")));
        const LessonLibrary library = LessonLibrary::load(dir.path());
        QCOMPARE(library.lessons().size(), 1);
        QCOMPARE(library.errors(), QStringList{"02-b.json: id \"same\" is already used by 01-a.json; give each lesson its own id"});
    }

    // A setup's sampler keys land in the SamplerParams field of the same name; others keep the default.
    void setupBecomesSamplerParams() {
        const QVariantMap setup{{"prompt", "x"},          {"runLength", 40.0},    {"action", "run"},
                                {"temperature", 0.0},     {"topK", 7.0},          {"topP", 0.5},
                                {"minP", 0.05},           {"repeatPenalty", 1.2}, {"frequencyPenalty", 0.3},
                                {"presencePenalty", -0.4}, {"penaltyLastN", -1.0}, {"noRepeatNgram", 3.0},
                                {"dryMultiplier", 0.8},   {"dryBase", 2.0},       {"dryAllowedLength", 4.0},
                                {"xtcProbability", 0.5},  {"xtcThreshold", 0.2},  {"topNSigma", 1.5},
                                {"typicalP", 0.9},        {"seed", 42.0},         {"order", "llama.cpp"}};
        const dlab::SamplerParams p = samplerParamsFromSetup(setup);
        QCOMPARE(p.temperature, 0.0f);
        QCOMPARE(p.topK, 7);
        QCOMPARE(p.topP, 0.5f);
        QCOMPARE(p.minP, 0.05f);
        QCOMPARE(p.repeatPenalty, 1.2f);
        QCOMPARE(p.frequencyPenalty, 0.3f);
        QCOMPARE(p.presencePenalty, -0.4f);
        QCOMPARE(p.penaltyLastN, -1);
        QCOMPARE(p.noRepeatNgram, 3);
        QCOMPARE(p.dryMultiplier, 0.8f);
        QCOMPARE(p.dryBase, 2.0f);
        QCOMPARE(p.dryAllowedLength, 4);
        QCOMPARE(p.xtcProbability, 0.5f);
        QCOMPARE(p.xtcThreshold, 0.2f);
        QCOMPARE(p.topNSigma, 1.5f);
        QCOMPARE(p.typicalP, 0.9f);
        QCOMPARE(p.seed, uint64_t(42));
        QCOMPARE(p.order, std::string("llama.cpp"));
        // All but mirostatTau, mirostatEta, the Safety tab's five (a lesson for the Serving lab) and
        // the KV calculator's five (a lesson for the KV page).
        QCOMPARE(lessonSetupKeys().size(), setup.size() + 2 + 5 + 5);
        const QVariantMap calc = normalizedSetup({{"calcModel", "llama3-8b"}, {"calcContext", 8192.0}, {"calcAttention", "mqa"}});
        QCOMPARE(calc.value("calcContext").typeId(), QMetaType::Int);
        QCOMPARE(calc.value("calcModel").toString(), QStringLiteral("llama3-8b"));
        QVERIFY_THROWS_EXCEPTION(dlab::Error, normalizedSetup({{"calcAttention", "gqa"}}));
        QVERIFY_THROWS_EXCEPTION(dlab::Error, normalizedSetup({{"calcSequences", 5000.0}}));
        const QVariantMap safety = normalizedSetup({{"inputFilter", QVariantList{"a", "b"}}, {"ignoreCase", false}});
        QCOMPARE(safety.value("inputFilter").toStringList(), QStringList({"a", "b"}));
        QCOMPARE(safety.value("ignoreCase").typeId(), QMetaType::Bool);
        QVERIFY_THROWS_EXCEPTION(dlab::Error, normalizedSetup({{"outputFilter", "a"}}));
        QVERIFY_THROWS_EXCEPTION(dlab::Error, normalizedSetup({{"bannedPhrases", QVariantList{"a", 2.0}}}));
        QVERIFY_THROWS_EXCEPTION(dlab::Error, normalizedSetup({{"ignoreCase", 1.0}}));

        const dlab::SamplerParams defaults;
        const dlab::SamplerParams q = samplerParamsFromSetup({{"temperature", 1.5}});
        QCOMPARE(q.temperature, 1.5f);
        QCOMPARE(q.topK, defaults.topK);
        QCOMPARE(q.topP, defaults.topP);
        QCOMPARE(q.order, defaults.order);

        const QVariantMap typed = normalizedSetup(setup);
        QCOMPARE(typed.value("runLength").typeId(), QMetaType::Int);
        QCOMPARE(typed.value("seed").typeId(), QMetaType::ULongLong);
        QCOMPARE(typed.value("temperature").typeId(), QMetaType::Double);
    }

    void localizedFallsBackToEnglish() {
        const LocalizedText t{{"en", "Hello"}, {"de", "Hallo"}};
        QCOMPARE(localized(t, "de"), QStringLiteral("Hallo"));
        QCOMPARE(localized(t, "zh_CN"), QStringLiteral("Hello"));
    }

    void panelShowsAndSwitchesLessons() {
        LessonPanel panel(LessonLibrary::load());
        panel.resize(420, 700);
        const auto& lessons = panel.library().lessons();
        QVERIFY(lessons.size() >= 2);
        QCOMPARE(panel.picker()->count(), lessons.size());

        const auto shows = [&](int index) {
            const Lesson& l = lessons.at(index);
            QCOMPARE(panel.currentIndex(), index);
            QCOMPARE(panel.picker()->currentIndex(), index);
            QCOMPARE(plain(panel.titleLabel()->text()), l.title.value("en"));
            const QString text = panel.textBrowser()->toPlainText().simplified();
            QVERIFY2(text.contains(plain(l.body.value("en"))), qPrintable(text));
            if (!l.formula.isEmpty()) QVERIFY(text.contains(plain(l.formula.value("en"))));
            for (const LocalizedText& step : l.steps)
                QVERIFY2(text.contains(step.value("en").simplified()), qPrintable(step.value("en")));
            QCOMPARE(panel.previousButton()->isEnabled(), index > 0);
            QCOMPARE(panel.nextButton()->isEnabled(), index + 1 < lessons.size());
        };
        shows(0);
        QSignalSpy changed(&panel, &LessonPanel::currentLessonChanged);
        QTest::mouseClick(panel.nextButton(), Qt::LeftButton);
        shows(1);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed.first().first().toInt(), 1);
        QTest::mouseClick(panel.previousButton(), Qt::LeftButton);
        shows(0);
        panel.setCurrentIndex(int(lessons.size()) - 1);
        shows(int(lessons.size()) - 1);
        panel.next();  // at the end: stays
        shows(int(lessons.size()) - 1);
        saveShot(panel, QStringLiteral("lesson-panel-en-last"));
    }

    void panelEmitsTheFilesSetup() {
        LessonPanel panel(LessonLibrary::load());
        const int loop = panel.library().indexOf(QStringLiteral("greedy-loop"));
        QVERIFY(loop >= 0);
        panel.setCurrentIndex(loop);
        QSignalSpy setup(&panel, &LessonPanel::setupRequested);
        QSignalSpy restore(&panel, &LessonPanel::restoreRequested);
        QVERIFY(!panel.restoreButton()->isEnabled());
        QTest::mouseClick(panel.setupButton(), Qt::LeftButton);
        QCOMPARE(setup.size(), 1);
        const QVariantMap emitted = setup.first().first().toMap();
        // The file's own setup, as the JSON says.
        QFile f(QStringLiteral(":/lessons/") + panel.library().lessons().at(loop).fileName);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QVariantMap file = QJsonDocument::fromJson(f.readAll()).object().value("setup").toObject().toVariantMap();
        QCOMPARE(emitted.keys(), file.keys());
        for (auto it = file.begin(); it != file.end(); ++it)
            QVERIFY2(emitted.value(it.key()).toString() == it.value().toString(), qPrintable(it.key()));
        QCOMPARE(emitted.value("prompt").toString(), QStringLiteral("I like cats. I like dogs. I like"));
        QCOMPARE(emitted.value("temperature").toDouble(), 0.0);

        QVERIFY(panel.restoreButton()->isEnabled());
        QTest::mouseClick(panel.restoreButton(), Qt::LeftButton);
        QCOMPARE(restore.size(), 1);
        QVERIFY(!panel.restoreButton()->isEnabled());
    }

    void panelFollowsTheLanguage_data() {
        QTest::addColumn<QString>("code");
        QTest::newRow("de") << "de";
        QTest::newRow("zh_CN") << "zh_CN";
    }
    void panelFollowsTheLanguage() {
        QFETCH(QString, code);
        LessonPanel panel(LessonLibrary::load());
        panel.resize(420, 700);
        const Lesson& l = panel.library().lessons().first();
        const QString englishButton = panel.setupButton()->text();
        setLanguage(code);
        QCOMPARE(plain(panel.titleLabel()->text()), l.title.value(code));
        QCOMPARE(panel.picker()->itemText(0), QStringLiteral("1. ") + LessonPanel::shortTitle(l.title.value(code)));
        QCOMPARE(panel.picker()->itemData(0, Qt::ToolTipRole).toString(), l.title.value(code));
        const QString text = panel.textBrowser()->toPlainText().simplified();
        QVERIFY2(text.contains(plain(l.body.value(code))), qPrintable(text));
        QVERIFY(text.contains(l.steps.first().value(code).simplified()));
        saveShot(panel, QStringLiteral("lesson-panel-") + code);
        panel.setPalette(darkPalette());
        saveShot(panel, QStringLiteral("lesson-panel-dark-") + code);
        panel.setPalette(QPalette());
        setLanguage(QStringLiteral("en"));
        QCOMPARE(plain(panel.titleLabel()->text()), l.title.value("en"));
        QCOMPARE(panel.setupButton()->text(), englishButton);
    }

    // The formula box takes the palette's colour; the text grows with the widget font.
    void panelFollowsPaletteAndFont() {
        LessonPanel panel(LessonLibrary::load());
        panel.resize(420, 700);
        panel.setCurrentIndex(panel.library().indexOf(QStringLiteral("temperature")));
        for (const auto& [name, palette] : {std::pair{QStringLiteral("light"), lightPalette()},
                                            std::pair{QStringLiteral("dark"), darkPalette()}}) {
            panel.setPalette(palette);
            QCoreApplication::processEvents();
            QVERIFY2(panel.textBrowser()->toHtml().contains(palette.color(QPalette::AlternateBase).name()),
                     qPrintable(name));
            saveShot(panel, QStringLiteral("lesson-panel-temperature-") + name);
        }
        QFont big = panel.font();
        const qreal before = panel.textBrowser()->document()->defaultFont().pointSizeF();
        big.setPointSizeF(before * 2);
        panel.setFont(big);
        QCOMPARE(panel.textBrowser()->document()->defaultFont().pointSizeF(), before * 2);
        QVERIFY(panel.titleLabel()->sizeHint().height() > 0);
    }

    void panelWithoutLessonsSaysSo() {
        QTemporaryDir dir;
        writeFile(dir.filePath(QStringLiteral("broken.json")), "{");
        LessonPanel panel(LessonLibrary::load(dir.path()));
        QVERIFY(panel.currentLesson() == nullptr);
        QVERIFY(!panel.setupButton()->isEnabled());
        QVERIFY(panel.textBrowser()->toPlainText().contains(QStringLiteral("No lessons were found.")));
    }

    void shortcutsDialogListsTheWindowsShortcuts() {
        QMainWindow window;
        QMenu* file = window.menuBar()->addMenu(QStringLiteral("&File"));
        QAction* open = file->addAction(QStringLiteral("&Open model…"));
        open->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_O));
        QMenu* view = window.menuBar()->addMenu(QStringLiteral("&View"));
        QMenu* zoom = view->addMenu(QStringLiteral("&Zoom"));
        QAction* in = zoom->addAction(QStringLiteral("Zoom &in"));
        in->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Equal), QKeySequence(Qt::CTRL | Qt::Key_Plus)});
        file->addAction(QStringLiteral("No shortcut"));
        auto* tabs = new QTabWidget(&window);
        auto* page = new QWidget;
        tabs->addTab(page, QStringLiteral("&Playground"));
        window.setCentralWidget(tabs);
        auto* step = new QShortcut(QKeySequence(Qt::Key_F10), page);
        step->setWhatsThis(QStringLiteral("Step"));
        new QPushButton(QStringLiteral("Run (F5)"), page);
        new QShortcut(QKeySequence(Qt::Key_F5), page);  // described by the button that names its key
        QAction* out = zoom->addAction(QStringLiteral("Zoom &out"));
        out->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Minus), QKeySequence(Qt::CTRL | Qt::Key_Minus)});
        // A too narrow menu bar shows its menus again in an untitled overflow popup: not a place.
        auto* overflow = new QMenu(&window);
        overflow->addAction(file->menuAction());
        overflow->addAction(open);
        auto* chat = new QWidget;
        tabs->addTab(chat, QStringLiteral("C&hat"));
        (new QPushButton(QStringLiteral("Send"), chat))->setToolTip(QStringLiteral("Send the message (Ctrl+Return)"));
        new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), chat);  // described by the button's tooltip,
        new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Enter), chat);   // the keypad's Enter as Return
        new QShortcut(QKeySequence(Qt::Key_F7), chat);  // two undescribed shortcuts keep a row each
        new QShortcut(QKeySequence(Qt::Key_F8), chat);
        auto* dock = new QDockWidget(QStringLiteral("Lessons"), &window);
        auto* next = new QAction(QStringLiteral("Next lesson"), dock);
        next->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Right));
        dock->addAction(next);
        window.addDockWidget(Qt::RightDockWidgetArea, dock);

        ShortcutsDialog dialog(&window);
        QVERIFY(!dialog.isModal());
        dialog.show();
        QCoreApplication::processEvents();
        QStringList rows;
        for (int i = 0; i < dialog.table()->topLevelItemCount(); ++i) {
            const QTreeWidgetItem* item = dialog.table()->topLevelItem(i);
            rows << item->text(0) + " | " + item->text(1) + " | " + item->text(2);
        }
        const auto native = [](const QKeySequence& k) { return k.toString(QKeySequence::NativeText); };
        QVERIFY2(rows.contains(native(QKeySequence(Qt::CTRL | Qt::Key_O)) + " | Open model… | File menu"), qPrintable(rows.join('\n')));
        QVERIFY2(rows.contains(native(QKeySequence(Qt::CTRL | Qt::Key_Equal)) + ", " +
                               native(QKeySequence(Qt::CTRL | Qt::Key_Plus)) + " | Zoom in | View › Zoom menu"),
                 qPrintable(rows.join('\n')));
        QVERIFY2(rows.contains("F10 | Step | Playground"), qPrintable(rows.join('\n')));
        QVERIFY2(rows.contains("F5 | Run | Playground"), qPrintable(rows.join('\n')));
        QVERIFY2(rows.contains(native(QKeySequence(Qt::ALT | Qt::Key_Right)) + " | Next lesson | Lessons"),
                 qPrintable(rows.join('\n')));
        QVERIFY2(rows.contains(native(QKeySequence(Qt::CTRL | Qt::Key_Minus)) + " | Zoom out | View › Zoom menu"),
                 qPrintable(rows.join('\n')));
        QVERIFY2(rows.contains(native(QKeySequence(Qt::CTRL | Qt::Key_Return)) + ", " +
                               native(QKeySequence(Qt::CTRL | Qt::Key_Enter)) + " | Send | Chat"),
                 qPrintable(rows.join('\n')));
        QVERIFY2(rows.contains("F7 | (no description) | Chat"), qPrintable(rows.join('\n')));
        QVERIFY2(rows.contains("F8 | (no description) | Chat"), qPrintable(rows.join('\n')));
        QCOMPARE(rows.size(), 9);  // actions without a shortcut are not listed
        saveShot(dialog, QStringLiteral("shortcuts-dialog"));

        // Collected at run time: a shortcut added later shows up the next time.
        auto* later = new QAction(QStringLiteral("Presentation mode"), &window);
        later->setShortcut(QKeySequence(Qt::Key_F11));
        window.addAction(later);
        dialog.refresh();
        QCOMPARE(dialog.table()->topLevelItemCount(), 10);
        const auto entries = collectShortcuts(&window);
        QVERIFY(std::any_of(entries.begin(), entries.end(), [](const ShortcutEntry& e) {
            return e.keys == QLatin1String("F11") && e.action == QLatin1String("Presentation mode");
        }));
    }

    // Chinese texts put the mnemonic in parentheses ("文件(&F)") and use full-width parentheses.
    void shortcutsInChineseStyle() {
        QMainWindow window;
        QMenu* file = window.menuBar()->addMenu(QStringLiteral("文件(&F)"));
        file->addAction(QStringLiteral("打开模型(&O)…"))->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_O));
        auto* tabs = new QTabWidget(&window);
        auto* chat = new QWidget;
        tabs->addTab(chat, QStringLiteral("聊天(&C)"));
        window.setCentralWidget(tabs);
        (new QPushButton(QStringLiteral("发送"), chat))->setToolTip(QStringLiteral("发送消息并流式显示回答（Ctrl+Return）"));
        new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), chat);
        auto* dialog = new UserGuideDialog(&window);  // a dialog the window owns lists its shortcuts under its own title
        QStringList rows;
        for (const ShortcutEntry& e : collectShortcuts(&window)) rows << e.keys + " | " + e.action + " | " + e.where;
        const auto native = [](const QKeySequence& k) { return k.toString(QKeySequence::NativeText); };
        QCOMPARE(rows, QStringList({dialog->findNextButton()->shortcut().toString(QKeySequence::NativeText) + " | Find next | User guide",
                                    native(QKeySequence(Qt::CTRL | Qt::Key_O)) + " | 打开模型… | 文件 menu",
                                    native(QKeySequence(Qt::CTRL | Qt::Key_Return)) + " | 发送 | 聊天"}));
    }

    void userGuideRendersTheMarkdown() {
        QFile md(QString::fromStdString(dlab::test::sourceDir()) + QStringLiteral("/docs/desktop-app.md"));
        QVERIFY(md.open(QIODevice::ReadOnly));
        QStringList headings;   // the user's sections: those before the developers' marker
        for (const QString& line : QString::fromUtf8(md.readAll()).split('\n')) {
            if (line.startsWith(QStringLiteral("<!-- Help → User guide in the app ends here"))) break;
            if (line.startsWith(QLatin1String("## "))) headings << line.mid(3).trimmed();
        }
        QVERIFY(headings.contains(QStringLiteral("Known limits")) && !headings.contains(QStringLiteral("How it is built")));

        UserGuideDialog dialog;
        QVERIFY(!dialog.isModal());
        QStringList rendered;
        for (QTextBlock b = dialog.browser()->document()->begin(); b.isValid(); b = b.next())
            if (b.blockFormat().headingLevel() == 2) rendered << b.text();
        QCOMPARE(rendered, headings);
        // No screenshot, and nothing in its place; the opening table names every page.
        const QString text = dialog.browser()->toPlainText();
        QVERIFY(!dialog.browser()->toHtml().contains(QLatin1String("<img")));
        QVERIFY2(!text.contains(QStringLiteral("screenshots/")), qPrintable(text.left(600)));
        for (const char* page : {"Playground", "Chat", "Strategies", "KV cache", "Serve", "Serving lab", "Lessons"})
            QVERIFY2(text.left(3000).contains(QLatin1String(page)), page);
        saveShot(dialog, QStringLiteral("user-guide"));
        dialog.setPalette(darkPalette());
        saveShot(dialog, QStringLiteral("user-guide-dark"));
    }

    void userGuideSearchFindsAWord() {
        UserGuideDialog dialog;
        dialog.searchField()->setText(QStringLiteral("token strip"));
        QVERIFY(!dialog.findNextButton()->shortcut().isEmpty());
        QVERIFY(dialog.findNext());
        QCOMPARE(dialog.browser()->textCursor().selectedText(), QStringLiteral("token strip"));
        const int first = dialog.browser()->textCursor().position();
        QVERIFY(dialog.findNext());
        const int second = dialog.browser()->textCursor().position();
        QVERIFY(second != first);
        QTest::keyClick(dialog.searchField(), Qt::Key_Return);  // Enter finds the next one too
        QVERIFY(dialog.browser()->textCursor().position() != second);
        dialog.searchField()->setText(QStringLiteral("xylophone-zebra"));
        QVERIFY(!dialog.findNext());
    }

    void userPartDropsImagesAndTheDevelopersSections() {
        const QString md = QStringLiteral("# T\na ![Dark](screenshots/d.png) ![Deutsch](screenshots/de.png \"t\")\nb\n"
                                          "<!-- Help → User guide in the app ends here: developers below. -->\n## How it is built\nx\n");
        QCOMPARE(UserGuideDialog::userPart(md), QStringLiteral("# T\na \nb\n"));
    }
};

QTEST_MAIN(TestGuiLessons)
#include "test_gui_lessons.moc"
