// The user interface in English, German and Simplified Chinese (offscreen, tiny random model):
//  * the .qm files are embedded in dlab_ui (":/i18n/") and reach the executables that link it;
//  * LanguageManager switches the application's translators: known strings come back German or
//    Chinese, "en" restores the source strings, an unknown code changes nothing;
//  * English has a plural file (decoding_lab_en.ts, %n entries only): "CPU, %n thread(s)" reads
//    "CPU, 1 thread" / "CPU, 2 threads" in English, also after a switch back from German;
//  * an open MainWindow follows at run time, without being recreated: menu titles, the .ui-made
//    playground labels, the number format of the spin boxes — and the user's prompt survives;
//  * translations/*.ts are complete (no unfinished or empty entries; placeholders, plural forms
//    and '&' accelerators match the source; the English file holds plural entries only) and cover
//    the code: lupdate over the sources into a copy (with -pluralonly for the English file) finds
//    nothing new. That last check fails whenever a tr() string is added without its
//    translations — see translations/README.md for the three commands that fix it.
#include <QtTest>
#include <QtWidgets>

#include <QRawFont>
#include <QXmlStreamReader>

#if __has_include("dlab_i18n_tools.h")
#include "dlab_i18n_tools.h"  // DLAB_LUPDATE: the lupdate the build uses (ui/CMakeLists.txt)
#endif

#include "gguf/tiny_model.h"
#include "test_paths.h"
#include "ui/app/language_manager.h"
#include "ui/app/main_window.h"
#include "ui/playground/playground_page.h"

using namespace dlab;
using dlab::ui::LanguageManager;
using dlab::ui::MainWindow;

namespace {

// Keep in step with scripts/update_translations.sh. The English plural file gets kPluralArgs too.
const QStringList kPluralArgs = {QStringLiteral("-pluralonly"), QStringLiteral("-target-language"), QStringLiteral("en")};
const QStringList kLupdateArgs = {QStringLiteral("-silent"), QStringLiteral("-I"), QStringLiteral("."),
                                  QStringLiteral("ui"), QStringLiteral("widgets"), QStringLiteral("app/gui"),
                                  QStringLiteral("-extensions"), QStringLiteral("cpp,h,ui"),
                                  QStringLiteral("-source-language"), QStringLiteral("en"),
                                  QStringLiteral("-no-obsolete"), QStringLiteral("-locations"), QStringLiteral("none")};

QString sourceDir() { return QString::fromStdString(test::sourceDir()); }
bool isEnglish(const QString& code) { return code == QLatin1String("en"); }
int pluralForms(const QString& code) { return code == QLatin1String("zh_CN") ? 1 : 2; }  // en, de: 2
QString tsPath(const QString& code) { return sourceDir() + QStringLiteral("/translations/decoding_lab_%1.ts").arg(code); }

struct TsMessage {
    QString context, source, comment;
    QString type;            // "", "unfinished", "vanished", "obsolete"
    bool numerus = false;
    QStringList forms;       // the translation, or its plural forms
};

QList<TsMessage> readTs(const QString& path, QString* error) {
    QList<TsMessage> out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = path + QStringLiteral(": ") + f.errorString();
        return out;
    }
    QXmlStreamReader xml(&f);
    QString context;
    TsMessage msg;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement()) continue;
        const auto name = xml.name();
        if (name == QLatin1String("context")) {
            context.clear();
        } else if (name == QLatin1String("name")) {
            context = xml.readElementText();
        } else if (name == QLatin1String("message")) {
            msg = TsMessage{context, {}, {}, {}, xml.attributes().value(QLatin1String("numerus")) == QLatin1String("yes"), {}};
        } else if (name == QLatin1String("source")) {
            msg.source = xml.readElementText();
        } else if (name == QLatin1String("comment")) {
            msg.comment = xml.readElementText();
        } else if (name == QLatin1String("translation")) {
            msg.type = xml.attributes().value(QLatin1String("type")).toString();
            if (msg.numerus) {
                while (xml.readNextStartElement())
                    if (xml.name() == QLatin1String("numerusform")) msg.forms << xml.readElementText();
                    else xml.skipCurrentElement();
            } else {
                msg.forms << xml.readElementText();
            }
            out << msg;
        }
    }
    if (xml.hasError()) *error = QStringLiteral("%1:%2: %3").arg(path).arg(xml.lineNumber()).arg(xml.errorString());
    return out;
}

QString describe(const TsMessage& m) {
    QString s = m.context + QStringLiteral(" | ") + m.source;
    if (!m.comment.isEmpty()) s += QStringLiteral(" [") + m.comment + QLatin1Char(']');
    return s;
}

// What a translation must keep of its source: %1..%99 and %n (as a multiset), and an '&' accelerator.
// A translation writes the count as %Ln, the language's form of it ("49.152 Tokens", not
// "49152"); the source's %n stands for it.
QStringList placeholders(const QString& s) {
    static const QRegularExpression re(QStringLiteral("%(L?\\d{1,2}|L?n)"));
    QStringList out;
    for (auto it = re.globalMatch(s); it.hasNext();) {
        const QString p = it.next().captured(0);
        out << (p == QLatin1String("%Ln") ? QStringLiteral("%n") : p);
    }
    out.sort();
    return out;
}
bool hasAccelerator(const QString& s) {
    static const QRegularExpression re(QStringLiteral("&(?!&)\\S"));
    return re.match(s).hasMatch();
}

QString listFirst(const QStringList& problems, int n = 30) {
    QStringList shown = problems.mid(0, n);
    if (problems.size() > n) shown << QStringLiteral("... and %1 more").arg(problems.size() - n);
    return shown.join(QLatin1Char('\n'));
}

// The texts the tests look for, per language: (context, source) -> translation.
struct Expected {
    const char* context;
    const char* source;
    const char* de;
    const char* zh;
};
const Expected kExpected[] = {
    {"dlab::ui::MainWindow", "&File", "&Datei", "文件(&F)"},
    {"dlab::ui::MainWindow", "&Settings", "&Einstellungen", "设置(&S)"},
    {"PlaygroundPage", "Temperature", "Temperatur", "温度"},
    {"PlaygroundPage", "Step (F10)", "Schritt (F10)", "单步 (F10)"},
    {"dlab::widgets::DistributionChart", "probability", "Wahrscheinlichkeit", "概率"},
};

QString expectedFor(const Expected& e, const QString& code) {
    if (code == QLatin1String("de")) return QString::fromUtf8(e.de);
    if (code == QLatin1String("zh_CN")) return QString::fromUtf8(e.zh);
    return QString::fromUtf8(e.source);
}

}  // namespace

class TestGuiTranslations : public QObject {
    Q_OBJECT

    QString tinyPath_;

    static bool switchTo(const QString& code) {
        const bool ok = LanguageManager::instance().setLanguage(code);
        QCoreApplication::processEvents();  // the posted QEvent::LanguageChange
        return ok;
    }

    static void languageRows() {
        QTest::addColumn<QString>("code");
        QTest::newRow("de") << QStringLiteral("de");
        QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
    }
    // Every .ts file: the translations and the English plural file.
    static void tsRows() {
        languageRows();
        QTest::newRow("en") << QStringLiteral("en");
    }

private slots:
    void initTestCase() {
        // Settings of this suite only (MainWindow restores and saves the language there).
        qputenv("DLAB_SETTINGS", QByteArray::fromStdString(test::scratchDir() + "/translations-settings.ini"));
        tinyPath_ = QString::fromStdString(test::scratchDir() + "/translations-tiny.gguf");
        writeTinyModel(TinyModelSpec{}, tinyPath_.toStdString());
        QVERIFY(switchTo(QStringLiteral("en")));
    }

    void cleanup() { QVERIFY(switchTo(QStringLiteral("en"))); }

    void languagesListed() {
        const auto langs = LanguageManager::languages();
        QCOMPARE(langs.size(), 3);
        QCOMPARE(langs[0].code, QStringLiteral("en"));
        QCOMPARE(langs[1].code, QStringLiteral("de"));
        QCOMPARE(langs[2].code, QStringLiteral("zh_CN"));
        QCOMPARE(langs[1].nativeName, QStringLiteral("Deutsch"));
        QCOMPARE(langs[2].nativeName, QStringLiteral("简体中文"));
        bool known = false;
        for (const auto& l : langs) known |= l.code == LanguageManager::systemLanguage();
        QVERIFY(known);
    }

    // Issue 8: on a fresh machine no CJK font was installed and every 简体中文 label, the language
    // menu's own entry included, was empty boxes. scripts/setup.sh installs fonts-noto-cjk; the
    // font Qt picks for Simplified Chinese text must have the glyphs the menu and the pages use.
    void chineseHasAFont() {
        QVERIFY2(!QFontDatabase::families(QFontDatabase::SimplifiedChinese).isEmpty(),
                 "no font for Simplified Chinese: run ./scripts/setup.sh (fonts-noto-cjk)");
        const QRawFont raw = QRawFont::fromFont(QApplication::font(), QFontDatabase::SimplifiedChinese);
        QVERIFY2(raw.isValid(), qPrintable(raw.familyName()));
        for (const char32_t c : {U'简', U'体', U'中', U'文', U'温', U'度', U'采', U'样'})
            QVERIFY2(raw.supportsCharacter(c), qPrintable(raw.familyName() + QStringLiteral(" lacks ") + QString::fromUcs4(&c, 1)));
    }

    // The .qm files are compiled into dlab_ui's resources and reach this executable.
    void resourcesEmbedded_data() { tsRows(); }
    void resourcesEmbedded() {
        QFETCH(QString, code);
        const QString qm = QStringLiteral(":/i18n/decoding_lab_%1.qm").arg(code);
        QFile f(qm);
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(qm + QStringLiteral(" is not in the resources")));
        QVERIFY(f.size() > 100);
        QTranslator t;
        QVERIFY(t.load(qm));
        QVERIFY(!t.isEmpty());
        QCOMPARE(t.language(), code == QLatin1String("de") ? QStringLiteral("de_DE") : code);
        // The English file knows the plurals only.
        if (isEnglish(code)) {
            QCOMPARE(t.translate("dlab::ui::MainWindow", "&File"), QString());
            QCOMPARE(t.translate("dlab::ui::MainWindow", "CPU, %n thread(s)", nullptr, 3), QStringLiteral("CPU, %Ln threads"));
        }
    }

    // English: the plural file turns "%n token(s)" into proper singular and plural, the other
    // strings stay the source text; also after German was installed in between.
    void englishPlurals_data() {
        QTest::addColumn<QString>("context");
        QTest::addColumn<QString>("source");
        QTest::addColumn<int>("n");
        QTest::addColumn<QString>("english");
        const QString cpu = QStringLiteral("CPU, %n thread(s)");
        const QString menu = QStringLiteral("%n thread(s)");
        const QString chose = QStringLiteral("Step %1 chose \u201c%2\u201d (p = %3); %n token(s) kept after the chain");
        const QString would = QStringLiteral("Step %1 with these settings would choose \u201c%2\u201d (p = %3); %n token(s) kept");
        const QString topK = QStringLiteral("top-k keeps %n tokens (beyond the %1 shown)");
        const QString win = QStringLiteral("dlab::ui::MainWindow");
        const QString page = QStringLiteral("dlab::ui::PlaygroundPage");
        const QString chart = QStringLiteral("dlab::widgets::DistributionChart");
        QTest::newRow("CPU, 1 thread") << win << cpu << 1 << QStringLiteral("CPU, 1 thread");
        QTest::newRow("CPU, 2 threads") << win << cpu << 2 << QStringLiteral("CPU, 2 threads");
        QTest::newRow("1 thread") << win << menu << 1 << QStringLiteral("1 thread");
        QTest::newRow("16 threads") << win << menu << 16 << QStringLiteral("16 threads");
        QTest::newRow("1 token kept after the chain")
            << page << chose << 1 << QStringLiteral("Step %1 chose \u201c%2\u201d (p = %3); 1 token kept after the chain");
        QTest::newRow("0 tokens kept after the chain")
            << page << chose << 0 << QStringLiteral("Step %1 chose \u201c%2\u201d (p = %3); 0 tokens kept after the chain");
        QTest::newRow("1 token kept") << page << would << 1
                                      << QStringLiteral("Step %1 with these settings would choose \u201c%2\u201d (p = %3); 1 token kept");
        QTest::newRow("40 tokens kept") << page << would << 40
                                        << QStringLiteral("Step %1 with these settings would choose \u201c%2\u201d (p = %3); 40 tokens kept");
        QTest::newRow("top-k keeps 25 tokens") << chart << topK << 25 << QStringLiteral("top-k keeps 25 tokens (beyond the %1 shown)");
    }
    void englishPlurals() {
        QFETCH(QString, context);
        QFETCH(QString, source);
        QFETCH(int, n);
        QFETCH(QString, english);
        const QByteArray ctx = context.toUtf8(), src = source.toUtf8();
        // As the app starts (initTestCase's setLanguage("en")), and after a round trip via German.
        QCOMPARE(QCoreApplication::translate(ctx.constData(), src.constData(), nullptr, n), english);
        QVERIFY(switchTo(QStringLiteral("de")));
        QVERIFY(QCoreApplication::translate(ctx.constData(), src.constData(), nullptr, n) != english);
        QVERIFY(switchTo(QStringLiteral("en")));
        QCOMPARE(LanguageManager::instance().current(), QStringLiteral("en"));
        QCOMPARE(QCoreApplication::translate(ctx.constData(), src.constData(), nullptr, n), english);
        QCOMPARE(QCoreApplication::translate("dlab::ui::MainWindow", "&File"), QStringLiteral("&File"));
    }

    // A count in a plural text is written in the language's form (the Playground's caption said
    // "49152 tokens kept" beside the status bar's "49,152").
    void countsAreGrouped_data() {
        QTest::addColumn<QString>("code");
        QTest::newRow("en") << QStringLiteral("en");
        QTest::newRow("de") << QStringLiteral("de");
        QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
    }
    void countsAreGrouped() {
        QFETCH(QString, code);
        QVERIFY(switchTo(code));
        const QString caption = QCoreApplication::translate(
            "dlab::ui::PlaygroundPage", "Step %1 chose \u201c%2\u201d (p = %3); %n token(s) kept after the chain", nullptr, 49152);
        const QString grouped = QLocale().toString(49152);
        QVERIFY2(grouped.size() > 5, qPrintable(grouped));   // the language groups digits at all
        QVERIFY2(caption.contains(grouped), qPrintable(caption));
        QVERIFY(switchTo(QStringLiteral("en")));
    }

    void setLanguage_data() {
        languageRows();
        QTest::newRow("en") << QStringLiteral("en");
    }
    void setLanguage() {
        QFETCH(QString, code);
        auto& lm = LanguageManager::instance();
        if (code == QLatin1String("en")) QVERIFY(switchTo(QStringLiteral("de")));  // "en" must undo it
        QSignalSpy changed(&lm, &LanguageManager::languageChanged);
        QVERIFY(switchTo(code));
        QCOMPARE(lm.current(), code);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(0).toString(), code);
        for (const Expected& e : kExpected)
            QCOMPARE(QCoreApplication::translate(e.context, e.source), expectedFor(e, code));
        // Numbers follow the language.
        QCOMPARE(QLocale().language(), QLocale(code).language());
        // Setting the current language again is a no-op that succeeds.
        QVERIFY(switchTo(code));
        QCOMPARE(changed.count(), 1);
    }

    void unknownLanguageChangesNothing() {
        auto& lm = LanguageManager::instance();
        QVERIFY(switchTo(QStringLiteral("de")));
        QSignalSpy changed(&lm, &LanguageManager::languageChanged);
        for (const QString& bad : {QStringLiteral("fr"), QStringLiteral(""), QStringLiteral("zh_TW"), QStringLiteral("DE")})
            QVERIFY2(!switchTo(bad), qPrintable(bad));
        QCOMPARE(changed.count(), 0);
        QCOMPARE(lm.current(), QStringLiteral("de"));
        QCOMPARE(QCoreApplication::translate("dlab::ui::MainWindow", "&File"), QStringLiteral("&Datei"));
        QCOMPARE(QLocale().language(), QLocale::German);
    }

    // Qt's own strings (standard buttons, dialogs, key names) come along: scripts/setup.sh installs
    // qt6-translations-l10n, so a missing file is a failure, not a skip.
    void qtOwnTranslations_data() {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("cancel");
        QTest::newRow("de") << QStringLiteral("de") << QStringLiteral("Abbrechen");
        QTest::newRow("zh_CN") << QStringLiteral("zh_CN") << QStringLiteral("取消");
    }
    void qtOwnTranslations() {
        QFETCH(QString, code);
        QFETCH(QString, cancel);
        const QString dir = QLibraryInfo::path(QLibraryInfo::TranslationsPath);
        QVERIFY2(QFile::exists(dir + QStringLiteral("/qtbase_%1.qm").arg(code)),
                 "Qt's translations are not installed: run ./scripts/setup.sh (Debian: qt6-translations-l10n)");
        QVERIFY(switchTo(code));
        QCOMPARE(QCoreApplication::translate("QPlatformTheme", "Cancel"), cancel);
        QVERIFY(switchTo(QStringLiteral("en")));
        QCOMPARE(QCoreApplication::translate("QPlatformTheme", "Cancel"), QStringLiteral("Cancel"));
    }

    // An open window follows the language without being recreated, and back.
    void mainWindowRetranslates_data() { languageRows(); }
    void mainWindowRetranslates() {
        QFETCH(QString, code);
        QStringList errors;
        MainWindow w(tinyPath_);
        w.setErrorReporter([&errors](const QString& m) { errors << m; });
        w.show();
        QTRY_VERIFY_WITH_TIMEOUT(w.hasModel(), 30000);
        QVERIFY(switchTo(QStringLiteral("en")));  // whatever the window restored from the settings

        const auto menuTitles = [&w] {
            QStringList t;
            for (QAction* a : w.menuBar()->actions()) t << a->text();
            return t;
        };
        auto* temperature = w.page<ui::PlaygroundPage>()->findChild<QLabel*>(QStringLiteral("temperatureLabel"));
        auto* temperatureSpin = w.page<ui::PlaygroundPage>()->findChild<QDoubleSpinBox*>(QStringLiteral("temperatureSpin"));
        QVERIFY(temperature && temperatureSpin);
        QCOMPARE(menuTitles().value(0), QStringLiteral("&File"));
        QCOMPARE(temperature->text(), QStringLiteral("Temperature"));
        const QString stepEn = w.page<ui::PlaygroundPage>()->stepButton()->text();
        const double t = temperatureSpin->value();

        QVERIFY(switchTo(code));
        const Expected& file = kExpected[0];
        const Expected& temp = kExpected[2];
        QTRY_COMPARE(menuTitles().value(0), expectedFor(file, code));
        QTRY_COMPARE(temperature->text(), expectedFor(temp, code));
        QVERIFY(w.page<ui::PlaygroundPage>()->stepButton()->text() != stepEn);
        // The spin boxes re-format in the new locale (0,80 in German); the value is unchanged.
        QCOMPARE(temperatureSpin->value(), t);
        QCOMPARE(temperatureSpin->text(), QLocale(code).toString(t, 'f', temperatureSpin->decimals()));

        QVERIFY(switchTo(QStringLiteral("en")));
        QTRY_COMPARE(menuTitles().value(0), QStringLiteral("&File"));
        QTRY_COMPARE(temperature->text(), QStringLiteral("Temperature"));
        QCOMPARE(w.page<ui::PlaygroundPage>()->stepButton()->text(), stepEn);
        QCOMPARE(temperatureSpin->text(), QLocale().toString(t, 'f', temperatureSpin->decimals()));
        // Back in English the status bar has the English plural file's forms ("CPU, 4 threads"); on a
        // GPU (test_gui_translations_emulated) it names the GPU instead.
        if (w.model().backend == QStringLiteral("cuda")) {
            QTRY_VERIFY2(w.statusText().contains(QStringLiteral("— CUDA GPU")), qPrintable(w.statusText()));
            QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
            return;
        }
        static const QRegularExpression cpu(QStringLiteral("CPU, (\\d+) (threads?)\\b(?!\\()"));
        QTRY_VERIFY2(w.statusText().contains(cpu), qPrintable(w.statusText()));
        const auto match = cpu.match(w.statusText());
        QCOMPARE(match.captured(2), match.captured(1) == QLatin1String("1") ? QStringLiteral("thread") : QStringLiteral("threads"));
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    }

    // Retranslating must not overwrite what the user typed (a .ui text property re-set by
    // retranslateUi(): mark such defaults notr="true" or restore them in changeEvent()).
    void retranslationKeepsUserInput() {
        MainWindow w(tinyPath_);
        w.setErrorReporter([](const QString&) {});
        w.show();
        QTRY_VERIFY_WITH_TIMEOUT(w.hasModel(), 30000);
        QVERIFY(switchTo(QStringLiteral("en")));
        const QString prompt = QStringLiteral("My own prompt about foxes");
        w.page<ui::PlaygroundPage>()->promptEdit()->setPlainText(prompt);
        QVERIFY(switchTo(QStringLiteral("de")));
        QCOMPARE(w.page<ui::PlaygroundPage>()->promptEdit()->toPlainText(), prompt);
        QVERIFY(switchTo(QStringLiteral("en")));
        QCOMPARE(w.page<ui::PlaygroundPage>()->promptEdit()->toPlainText(), prompt);
    }

    // Every entry of the committed .ts files is translated, and keeps its source's placeholders,
    // plural forms and keyboard accelerator.
    void tsFilesComplete_data() { tsRows(); }
    void tsFilesComplete() {
        QFETCH(QString, code);
        QString error;
        const auto messages = readTs(tsPath(code), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(messages.size() > (isEnglish(code) ? 3 : 20));
        const int forms = pluralForms(code);
        QStringList problems;
        for (const TsMessage& m : messages) {
            if (isEnglish(code) && !m.numerus) {
                problems << QStringLiteral("not a plural (the English file holds %n entries only): ") + describe(m);
                continue;
            }
            if (m.type == QLatin1String("vanished") || m.type == QLatin1String("obsolete")) {
                problems << QStringLiteral("stale (run scripts/update_translations.sh): ") + describe(m);
                continue;
            }
            if (m.type == QLatin1String("unfinished")) {
                problems << QStringLiteral("unfinished: ") + describe(m);
                continue;
            }
            if (m.forms.isEmpty() || std::any_of(m.forms.begin(), m.forms.end(), [](const QString& f) { return f.isEmpty(); })) {
                problems << QStringLiteral("empty: ") + describe(m);
                continue;
            }
            if (m.numerus && m.forms.size() != forms)
                problems << QStringLiteral("%1 plural forms, want %2: ").arg(m.forms.size()).arg(forms) + describe(m);
            for (const QString& f : m.forms) {
                if (placeholders(f) != placeholders(m.source))
                    problems << QStringLiteral("placeholders %1 vs %2: ").arg(placeholders(f).join(','), placeholders(m.source).join(',')) + describe(m);
                if (hasAccelerator(f) != hasAccelerator(m.source))
                    problems << QStringLiteral("'&' accelerator: \"%1\": ").arg(f) + describe(m);
                // A count in the language's form: "49152 tokens kept" stood beside "49,152" elsewhere.
                static const QRegularExpression bareCount(QStringLiteral("(?<!L)%n"));
                if (f.contains(bareCount)) problems << QStringLiteral("%n, not %Ln (no digit grouping): \"%1\": ").arg(f) + describe(m);
                if (isEnglish(code) && f.contains(QLatin1String("(s)")))
                    problems << QStringLiteral("\"(s)\" left in \"%1\": ").arg(f) + describe(m);
                // Chinese sets the percent sign right after its number ("68%"), and a page mixed
                // "17%" with "68 %"; "第 %1 层" spaces a number from the characters as "第 %1 步" does.
                static const QRegularExpression spacedPercent(QStringLiteral("(%\\d|\\d) %(?!\\d|L?n)"));
                static const QRegularExpression tightOrdinal(QStringLiteral("第%\\d|第 %\\d(?! )"));
                if (code == QLatin1String("zh_CN") && (spacedPercent.match(f).hasMatch() || tightOrdinal.match(f).hasMatch()))
                    problems << QStringLiteral("spacing in \"%1\": ").arg(f) + describe(m);
            }
        }
        QVERIFY2(problems.isEmpty(), qPrintable(QStringLiteral("%1 problem(s) in %2:\n").arg(problems.size()).arg(tsPath(code)) +
                                                listFirst(problems)));
    }

    // Every string in the code has a translation: lupdate over the sources into a copy of the
    // committed .ts adds nothing unfinished (and so the committed file is up to date).
    void sourcesCovered_data() { tsRows(); }
    void sourcesCovered() {
        QFETCH(QString, code);
        QString lupdate;
#ifdef DLAB_LUPDATE
        lupdate = QStringLiteral(DLAB_LUPDATE);
#endif
        if (!QFileInfo(lupdate).isExecutable())
            lupdate = QLibraryInfo::path(QLibraryInfo::BinariesPath) + QStringLiteral("/lupdate");
        if (!QFileInfo(lupdate).isExecutable()) QSKIP("lupdate not found (Debian: qt6-l10n-tools)");

        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString copy = tmp.filePath(QFileInfo(tsPath(code)).fileName());
        QVERIFY(QFile::copy(tsPath(code), copy));
        QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);

        QProcess p;
        p.setWorkingDirectory(sourceDir());
        p.start(lupdate, kLupdateArgs + (isEnglish(code) ? kPluralArgs : QStringList{}) + QStringList{QStringLiteral("-ts"), copy});
        QVERIFY2(p.waitForFinished(60000), qPrintable(p.errorString()));
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0,
                 qPrintable(QString::fromLocal8Bit(p.readAllStandardError())));

        QString error;
        const auto messages = readTs(copy, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QStringList missing;
        for (const TsMessage& m : messages)
            if (m.type == QLatin1String("unfinished") || (isEnglish(code) && !m.numerus) ||
                std::any_of(m.forms.begin(), m.forms.end(), [](const QString& f) { return f.isEmpty(); }))
                missing << describe(m);
        QVERIFY2(missing.isEmpty(),
                 qPrintable(QStringLiteral("%1 string(s) in the code have no %2 translation "
                                           "(./scripts/update_translations.sh, then translations/README.md):\n")
                                .arg(missing.size())
                                .arg(code) +
                            listFirst(missing)));
    }
};

QTEST_MAIN(TestGuiTranslations)
#include "test_gui_translations.moc"
