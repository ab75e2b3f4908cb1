// decoding-lab: the desktop application. Usage: decoding-lab [--model PATH] [--language CODE]
#include <QApplication>
#include <QCommandLineParser>
#include <QTemporaryDir>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "ui/app/app_settings.h"
#include "ui/app/language_manager.h"
#include "ui/app/main_window.h"
#include "ui/app/screenshot_tour.h"

int main(int argc, char** argv) {
    // Engine warnings (a special-token id outside the vocabulary, ...) go to stderr, not stdout.
    spdlog::set_default_logger(spdlog::stderr_color_mt("decoding-lab"));
    // Fractional scale factors (150 % on a laptop, 125 % on a projector) are used as they are,
    // not rounded to 1x or 2x: charts and the token strip are drawn at the real size.
    QApplication::setHighDpiScaleFactorRoundingPolicy(Qt::HighDpiScaleFactorRoundingPolicy::PassThrough);
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Decoding Lab"));
    QApplication::setOrganizationName(QStringLiteral("Decoding Lab"));
    QApplication::setApplicationVersion(QStringLiteral("0.1.0"));

    // The language first (--language, else the saved one, else the system's), so that --help and
    // everything after it are already translated.
    QString startLanguage = dlab::ui::openSettings()->value(QStringLiteral("language"), dlab::ui::LanguageManager::systemLanguage()).toString();
    const QStringList args = app.arguments();
    for (qsizetype i = 1; i < args.size(); ++i) {
        if ((args[i] == QLatin1String("--language") || args[i] == QLatin1String("-l")) && i + 1 < args.size()) startLanguage = args[i + 1];
        if (args[i].startsWith(QLatin1String("--language="))) startLanguage = args[i].mid(11);
    }
    dlab::ui::LanguageManager::instance().setLanguage(startLanguage);

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate("main", "See how a language model picks each token."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption model(QStringList{QStringLiteral("m"), QStringLiteral("model")},
                                   QApplication::translate("main", "GGUF model to open (default: the last one used, else the installed default model)."),
                                   QStringLiteral("PATH"));
    parser.addOption(model);
    const QCommandLineOption language(QStringList{QStringLiteral("l"), QStringLiteral("language")},
                                      QApplication::translate("main", "User interface language: en, de or zh_CN (default: the last one chosen)."),
                                      QStringLiteral("CODE"));
    parser.addOption(language);
    const QCommandLineOption screenshots(QStringLiteral("screenshots"),
                                         QApplication::translate("main", "Save screenshots of every page into DIR, then quit."),
                                         QStringLiteral("DIR"));
    parser.addOption(screenshots);
    parser.process(app);
    // The tour starts from the defaults: its own settings file, never the user's.
    QTemporaryDir tourSettings;
    if (parser.isSet(screenshots)) qputenv("DLAB_SETTINGS", tourSettings.filePath(QStringLiteral("settings.ini")).toLocal8Bit());

    dlab::ui::MainWindow window(parser.value(model));
    if (parser.isSet(language)) window.setLanguage(parser.value(language));
    window.show();
    if (parser.isSet(screenshots)) {
        window.resize(1280, 820);
        return dlab::ui::takeScreenshots(window, parser.value(screenshots)) > 0 ? 0 : 1;
    }
    return app.exec();
}
