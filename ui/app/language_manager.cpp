#include "ui/app/language_manager.h"

#include <QApplication>
#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>
#include <QWidget>

#include <algorithm>

namespace dlab::ui {

namespace {

bool isKnown(const QString& code) {
    const QList<Language> all = LanguageManager::languages();
    return std::any_of(all.begin(), all.end(), [&](const Language& l) { return l.code == code; });
}

// The locale numbers and dates follow for `code`: the system's own when it speaks that language
// (so de_AT, de_CH or en_GB keep their regional formats), otherwise the language's main one.
QLocale localeFor(const QString& code) {
    const QLocale wanted(code);  // "en" -> en_US, "de" -> de_DE, "zh_CN" -> zh_CN
    const QLocale system = QLocale::system();
    if (system.language() == wanted.language() && system.script() == wanted.script()) return system;
    return wanted;
}

}  // namespace

// Out of line: the translators' type is complete only here.
LanguageManager::LanguageManager() = default;
LanguageManager::~LanguageManager() = default;

LanguageManager& LanguageManager::instance() {
    static LanguageManager manager;
    return manager;
}

QList<Language> LanguageManager::languages() {
    return {
        {QStringLiteral("en"), QStringLiteral("English")},
        {QStringLiteral("de"), QStringLiteral("Deutsch")},
        {QStringLiteral("zh_CN"), QStringLiteral("简体中文")},
    };
}

QString LanguageManager::systemLanguage() {
    // The user's preference list, most wanted first ("de-AT", "zh-Hans-CN", "en-US", ...).
    for (const QString& name : QLocale::system().uiLanguages()) {
        const QLocale l(name);
        switch (l.language()) {
        case QLocale::English: return QStringLiteral("en");
        case QLocale::German: return QStringLiteral("de");
        case QLocale::Chinese:
            // Simplified only: a Traditional-script reader (zh-TW, zh-HK) gets the next language
            // on the list, or English.
            if (l.script() != QLocale::TraditionalChineseScript) return QStringLiteral("zh_CN");
            break;
        default: break;
        }
    }
    return QStringLiteral("en");
}

bool LanguageManager::setLanguage(const QString& code) {
    if (!isKnown(code)) return false;
    // current_ starts as "en" with nothing installed: the first setLanguage("en") still has to
    // install the English plural file.
    if (code == current_ && installed_) return true;

    // Load first, swap afterwards: a missing file leaves the current language fully in place.
    const bool english = code == QLatin1String("en");
    auto app = std::make_unique<QTranslator>();
    if (!app->load(QStringLiteral(":/i18n/decoding_lab_%1.qm").arg(code))) {
        // English is the source language: without its plural file only "%n token(s)" stays.
        if (!english) return false;
        app.reset();
    }
    // Qt's own strings (standard buttons, file dialogs, context menus): Debian's
    // qt6-translations-l10n package installs them (qtbase_en is Qt's English plural file);
    // without it those stay as Qt's source strings.
    auto qt = std::make_unique<QTranslator>();
    if (!qt->load(QStringLiteral("qtbase_%1").arg(code), QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        qt.reset();

    if (app_) QCoreApplication::removeTranslator(app_.get());
    if (qt_) QCoreApplication::removeTranslator(qt_.get());
    app_ = std::move(app);
    qt_ = std::move(qt);
    if (qt_) QCoreApplication::installTranslator(qt_.get());
    if (app_) QCoreApplication::installTranslator(app_.get());
    // Each install/remove posts QEvent::LanguageChange to the windows; widgets re-set their texts
    // in changeEvent() once the event loop runs.

    // Numbers follow the language too (German shows 0,95 in the spin boxes). A spin box only
    // displays with its locale() and parses with the same one, and it holds a double, so the
    // switch changes how values look, never what they are. A widget copies the default locale
    // when it is created and QLocale::setDefault() tells nobody, so the open windows are
    // re-resolved here: unsetLocale() makes a window take the new default and hands it to its
    // children with QEvent::LocaleChange (spin boxes and charts re-format on it). Figures the
    // pages write into texts use the same form (widgets/number_text.h: "p = 0,953" in German),
    // so a label never disagrees with the spin box beside it; only text meant to be typed or
    // parsed elsewhere (sampler specs, CLI commands) keeps the C form. (setDefault is not
    // thread-safe against a thread constructing a QLocale at the same moment; the engine worker
    // does not format with QLocale.)
    QLocale::setDefault(localeFor(code));
    if (qobject_cast<QApplication*>(QCoreApplication::instance())) {
        for (QWidget* w : QApplication::topLevelWidgets())
            if (!w->testAttribute(Qt::WA_SetLocale)) w->unsetLocale();
    }

    const bool changed = code != current_;
    current_ = code;
    installed_ = true;
    if (changed) emit languageChanged(code);
    return true;
}

}  // namespace dlab::ui
