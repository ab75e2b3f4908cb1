#pragma once
// The user interface language: English (the source strings, plus the English plural file that
// turns "%n token(s)" into "1 token" / "2 tokens"), German or Simplified Chinese, switched at run
// time. setLanguage() swaps the application's QTranslators; Qt then sends
// QEvent::LanguageChange to every widget, and each page re-sets its texts (retranslateUi() for
// the .ui part, its own code for the rest), so no restart is needed.
#include <QList>
#include <QObject>
#include <QString>

#include <memory>

QT_BEGIN_NAMESPACE
class QTranslator;
QT_END_NAMESPACE

namespace dlab::ui {

struct Language {
    QString code;        // "en", "de", "zh_CN"
    QString nativeName;  // "English", "Deutsch", "简体中文"
};

class LanguageManager : public QObject {
    Q_OBJECT
public:
    static LanguageManager& instance();
    static QList<Language> languages();

    QString current() const { return current_; }
    // Installs the translations for `code`. "en" installs only the English plural file
    // (:/i18n/decoding_lab_en.qm, numerus entries only), so every other string is its source
    // text again. Returns false (and changes nothing) for an unknown code or a missing German /
    // Chinese file; without the English plural file "en" still succeeds, with "%n token(s)".
    bool setLanguage(const QString& code);
    // The language matching the system locale, or "en".
    static QString systemLanguage();

signals:
    void languageChanged(const QString& code);

private:
    LanguageManager();
    ~LanguageManager() override;
    QString current_ = QStringLiteral("en");
    bool installed_ = false;             // setLanguage() has run: current_'s translators are in
    std::unique_ptr<QTranslator> app_;   // our strings
    std::unique_ptr<QTranslator> qt_;    // Qt's own (standard buttons, dialogs), when installed
};

}  // namespace dlab::ui
