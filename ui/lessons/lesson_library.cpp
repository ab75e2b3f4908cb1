#include "ui/lessons/lesson_library.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>

#include "core/error.h"
#include "ui/app/language_manager.h"
#include "ui/lessons/lesson_setup.h"

namespace dlab::ui {

QString localized(const LocalizedText& text, const QString& language) {
    const QString own = text.value(language);
    return own.isEmpty() ? text.value(QStringLiteral("en")) : own;
}

namespace {

constexpr int kMinSteps = 3;
constexpr int kMaxSteps = 5;

// A problem inside one file; parseLesson() puts the file name in front.
struct Problem {
    QString sentence;
};

[[noreturn]] void fail(const QString& sentence) { throw Problem{sentence}; }

QStringList languageCodes() {
    QStringList codes;
    for (const Language& l : LanguageManager::languages()) codes << l.code;
    return codes;
}

int lineOf(const QByteArray& json, int offset) { return json.left(offset).count('\n') + 1; }

// The HTML a lesson may use: a few inline and list tags without attributes, so every lesson
// looks the same and follows the app's font and palette.
void checkMarkup(const QString& html, const QString& key) {
    static const QSet<QString> allowed{"p", "b", "i", "sub", "sup", "ul", "li"};
    static const QRegularExpression tag(QStringLiteral("<[^>]*>?"));
    static const QRegularExpression simple(QStringLiteral("^</?([a-z]+)>$"));
    for (auto it = tag.globalMatch(html); it.hasNext();) {
        const QString t = it.next().captured(0);
        const auto m = simple.match(t);
        if (!m.hasMatch() || !allowed.contains(m.captured(1)))
            fail(QStringLiteral("%1 has the markup '%2'; a lesson may use only <p>, <b>, <i>, <sub>, <sup>, "
                                "<ul> and <li>, without attributes (write a < sign as &lt;)")
                     .arg(key, t));
    }
}

void checkPlain(const QString& text, const QString& key) {
    if (text.contains(QLatin1Char('<')))
        fail(QStringLiteral("%1 is plain text and may not contain '<'; use the body for markup").arg(key));
}

enum class Markup { Plain, Html };

LocalizedText localizedText(const QJsonValue& value, const QString& key, Markup markup) {
    const QStringList codes = languageCodes();
    if (!value.isObject())
        fail(QStringLiteral("%1 must be an object with a text for each of %2").arg(key, codes.join(QStringLiteral(", "))));
    const QJsonObject o = value.toObject();
    for (auto it = o.begin(); it != o.end(); ++it)
        if (!codes.contains(it.key()))
            fail(QStringLiteral("%1 has the unknown language \"%2\" (the app speaks %3)")
                     .arg(key, it.key(), codes.join(QStringLiteral(", "))));
    LocalizedText text;
    for (const QString& code : codes) {
        const QString k = key + QLatin1Char('.') + code;
        if (!o.contains(code)) fail(QStringLiteral("%1 is missing; every text needs %2").arg(k, codes.join(QStringLiteral(", "))));
        const QJsonValue v = o.value(code);
        if (!v.isString() || v.toString().trimmed().isEmpty()) fail(QStringLiteral("%1 must be a non-empty text").arg(k));
        if (markup == Markup::Html) checkMarkup(v.toString(), k);
        else checkPlain(v.toString(), k);
        text.insert(code, v.toString());
    }
    return text;
}

QString requiredString(const QJsonObject& o, const QString& key) {
    if (!o.contains(key)) fail(QStringLiteral("%1 is missing").arg(key));
    const QJsonValue v = o.value(key);
    if (!v.isString() || v.toString().trimmed().isEmpty()) fail(QStringLiteral("%1 must be a non-empty text").arg(key));
    return v.toString();
}

Lesson lessonFrom(const QJsonObject& o) {
    static const QStringList known{"id", "page", "title", "body", "formula", "setup", "steps"};
    for (auto it = o.begin(); it != o.end(); ++it)
        if (!known.contains(it.key()))
            fail(QStringLiteral("%1 is not a lesson key (known: %2)").arg(it.key(), known.join(QStringLiteral(", "))));

    Lesson l;
    l.id = requiredString(o, QStringLiteral("id"));
    l.page = requiredString(o, QStringLiteral("page"));
    for (const char* key : {"title", "body", "setup", "steps"})
        if (!o.contains(QLatin1String(key))) fail(QStringLiteral("%1 is missing").arg(QLatin1String(key)));
    l.title = localizedText(o.value(QStringLiteral("title")), QStringLiteral("title"), Markup::Plain);
    l.body = localizedText(o.value(QStringLiteral("body")), QStringLiteral("body"), Markup::Html);
    if (o.contains(QStringLiteral("formula")))
        l.formula = localizedText(o.value(QStringLiteral("formula")), QStringLiteral("formula"), Markup::Html);

    const QJsonValue steps = o.value(QStringLiteral("steps"));
    if (!steps.isArray() || steps.toArray().size() < kMinSteps || steps.toArray().size() > kMaxSteps)
        fail(QStringLiteral("steps must be a list of %1 to %2 texts").arg(kMinSteps).arg(kMaxSteps));
    const QJsonArray list = steps.toArray();
    for (qsizetype i = 0; i < list.size(); ++i)
        l.steps << localizedText(list.at(i), QStringLiteral("steps[%1]").arg(i), Markup::Plain);

    const QJsonValue setup = o.value(QStringLiteral("setup"));
    if (!setup.isObject()) fail(QStringLiteral("setup must be an object of settings"));
    try {
        l.setup = normalizedSetup(setup.toObject().toVariantMap());
        samplerParamsFromSetup(l.setup);  // the ranges, and each switched-on stage is in the order
    } catch (const Error& e) {
        fail(QString::fromUtf8(e.what()));
    }
    return l;
}

}  // namespace

Lesson parseLesson(const QByteArray& json, const QString& fileName) {
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        throw Error(QStringLiteral("%1, line %2: not valid JSON (%3)")
                        .arg(fileName)
                        .arg(lineOf(json, error.offset))
                        .arg(error.errorString())
                        .toStdString());
    if (!doc.isObject()) throw Error(QStringLiteral("%1: a lesson must be one JSON object").arg(fileName).toStdString());
    try {
        Lesson l = lessonFrom(doc.object());
        l.fileName = fileName;
        return l;
    } catch (const Problem& p) {
        throw Error((fileName + QStringLiteral(": ") + p.sentence).toStdString());
    }
}

LessonLibrary LessonLibrary::load(const QString& directory) {
    LessonLibrary library;
    const QDir dir(directory);
    const QStringList files = dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    for (const QString& name : files) {
        QFile file(dir.filePath(name));
        if (!file.open(QIODevice::ReadOnly)) {
            library.errors_ << QStringLiteral("%1: cannot be read (%2)").arg(name, file.errorString());
            continue;
        }
        try {
            Lesson lesson = parseLesson(file.readAll(), name);
            if (library.indexOf(lesson.id) >= 0) {
                library.errors_ << QStringLiteral("%1: id \"%2\" is already used by %3; give each lesson its own id")
                                       .arg(name, lesson.id, library.lessons_.at(library.indexOf(lesson.id)).fileName);
                continue;
            }
            library.lessons_ << std::move(lesson);
        } catch (const Error& e) {
            library.errors_ << QString::fromUtf8(e.what());
        }
    }
    return library;
}

int LessonLibrary::indexOf(const QString& id) const {
    for (qsizetype i = 0; i < lessons_.size(); ++i)
        if (lessons_.at(i).id == id) return static_cast<int>(i);
    return -1;
}

}  // namespace dlab::ui
