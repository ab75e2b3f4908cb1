// The user interface in English, German and Simplified Chinese (offscreen, tiny random model):
//  * the .qm files are embedded in dlab_ui (":/i18n/") and reach the executables that link it;
//  * LanguageManager switches the application's translators: known strings come back German or
//    Chinese, "en" restores the source strings, an unknown code changes nothing;
//  * an open MainWindow follows at run time, without being recreated: menu titles, the .ui-made
//    playground labels, the number format of the spin boxes — and the user's prompt survives;
//  * translations/*.ts are complete (no unfinished or empty entries; placeholders, plural forms
//    and '&' accelerators match the source) and cover the code: lupdate over the sources into a
//    copy finds nothing new. That last check fails whenever a tr() string is added without its
//    translations — see translations/README.md for the three commands that fix it.
#include <QtTest>
#include <QtWidgets>

#include <QXmlStreamReader>

#if __has_include("dlab_i18n_tools.h")
#include "dlab_i18n_tools.h"  // DLAB_LUPDATE: the lupdate the build uses (ui/CMakeLists.txt)
#endif

#include "gguf/tiny_model.h"
#include "test_paths.h"
#include "ui/language_manager.h"
#include "ui/main_window.h"
#include "ui/playground_page.h"

using namespace dlab;
using dlab::ui::LanguageManager;
using dlab::ui::MainWindow;

namespace {

// Keep in step with scripts/update_translations.sh.
const QStringList kLupdateArgs = {QStringLiteral("-silent"), QStringLiteral("-I"), QStringLiteral("."),
                                  QStringLiteral("ui"), QStringLiteral("widgets"), QStringLiteral("app/gui"),
                                  QStringLiteral("-extensions"), QStringLiteral("cpp,h,ui"),
                                  QStringLiteral("-source-language"), QStringLiteral("en"),
                                  QStringLiteral("-no-obsolete"), QStringLiteral("-locations"), QStringLiteral("none")};

QString sourceDir() { return QString::fromStdString(test::sourceDir()); }
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
QStringList placeholders(const QString& s) {
    static const QRegularExpression re(QStringLiteral("%(L?\\d{1,2}|L?n)"));
    QStringList out;
    for (auto it = re.globalMatch(s); it.hasNext();) out << it.next().captured(0);
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

    // The .qm files are compiled into dlab_ui's resources and reach this executable.
    void resourcesEmbedded_data() { languageRows(); }
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

    // Qt's own strings (standard buttons, dialogs) come along when the system has them installed.
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
        if (!QFile::exists(dir + QStringLiteral("/qtbase_%1.qm").arg(code)))
            QSKIP("Qt's translations are not installed (Debian: qt6-translations-l10n)");
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
        auto* temperature = w.playground()->findChild<QLabel*>(QStringLiteral("temperatureLabel"));
        auto* temperatureSpin = w.playground()->findChild<QDoubleSpinBox*>(QStringLiteral("temperatureSpin"));
        QVERIFY(temperature && temperatureSpin);
        QCOMPARE(menuTitles().value(0), QStringLiteral("&File"));
        QCOMPARE(temperature->text(), QStringLiteral("Temperature"));
        const QString stepEn = w.playground()->stepButton()->text();
        const double t = temperatureSpin->value();

        QVERIFY(switchTo(code));
        const Expected& file = kExpected[0];
        const Expected& temp = kExpected[2];
        QTRY_COMPARE(menuTitles().value(0), expectedFor(file, code));
        QTRY_COMPARE(temperature->text(), expectedFor(temp, code));
        QVERIFY(w.playground()->stepButton()->text() != stepEn);
        // The spin boxes re-format in the new locale (0,80 in German); the value is unchanged.
        QCOMPARE(temperatureSpin->value(), t);
        QCOMPARE(temperatureSpin->text(), QLocale(code).toString(t, 'f', temperatureSpin->decimals()));

        QVERIFY(switchTo(QStringLiteral("en")));
        QTRY_COMPARE(menuTitles().value(0), QStringLiteral("&File"));
        QTRY_COMPARE(temperature->text(), QStringLiteral("Temperature"));
        QCOMPARE(w.playground()->stepButton()->text(), stepEn);
        QCOMPARE(temperatureSpin->text(), QLocale().toString(t, 'f', temperatureSpin->decimals()));
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
        w.playground()->promptEdit()->setPlainText(prompt);
        QVERIFY(switchTo(QStringLiteral("de")));
        QCOMPARE(w.playground()->promptEdit()->toPlainText(), prompt);
        QVERIFY(switchTo(QStringLiteral("en")));
        QCOMPARE(w.playground()->promptEdit()->toPlainText(), prompt);
    }

    // Every entry of the committed .ts files is translated, and keeps its source's placeholders,
    // plural forms and keyboard accelerator.
    void tsFilesComplete_data() { languageRows(); }
    void tsFilesComplete() {
        QFETCH(QString, code);
        QString error;
        const auto messages = readTs(tsPath(code), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(messages.size() > 20);
        const int forms = code == QLatin1String("de") ? 2 : 1;
        QStringList problems;
        for (const TsMessage& m : messages) {
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
            }
        }
        QVERIFY2(problems.isEmpty(), qPrintable(QStringLiteral("%1 problem(s) in %2:\n").arg(problems.size()).arg(tsPath(code)) +
                                                listFirst(problems)));
    }

    // Every string in the code has a translation: lupdate over the sources into a copy of the
    // committed .ts adds nothing unfinished (and so the committed file is up to date).
    void sourcesCovered_data() { languageRows(); }
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
        p.start(lupdate, kLupdateArgs + QStringList{QStringLiteral("-ts"), copy});
        QVERIFY2(p.waitForFinished(60000), qPrintable(p.errorString()));
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0,
                 qPrintable(QString::fromLocal8Bit(p.readAllStandardError())));

        QString error;
        const auto messages = readTs(copy, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QStringList missing;
        for (const TsMessage& m : messages)
            if (m.type == QLatin1String("unfinished") ||
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
