// decoding-lab: the desktop application. Usage: decoding-lab [--model PATH]
#include <QApplication>
#include <QCommandLineParser>

#include "ui/main_window.h"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Decoding Lab"));
    QApplication::setApplicationVersion(QStringLiteral("0.1.0"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate("main", "See how a language model picks each token."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption model(QStringList{QStringLiteral("m"), QStringLiteral("model")},
                                   QApplication::translate("main", "GGUF model to open (default: the installed default model)."),
                                   QStringLiteral("PATH"));
    parser.addOption(model);
    parser.process(app);

    dlab::ui::MainWindow window(parser.value(model));
    window.show();
    return app.exec();
}
