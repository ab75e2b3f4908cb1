#pragma once
// One guided lesson as read from resources/lessons/NN-name.json (DESIGN.md: "Lessons are data").
// Plain values, no widgets: LessonLibrary fills them, LessonPanel shows them, and the page that
// owns the lesson (Lesson::page) applies its setup.
#include <QList>
#include <QMap>
#include <QString>
#include <QVariantMap>

namespace dlab::ui {

// A text in every language of the app: language code ("en", "de", "zh_CN") -> text.
using LocalizedText = QMap<QString, QString>;

// The text in `language`, or the English one where that language has none.
QString localized(const LocalizedText& text, const QString& language);

struct Lesson {
    QString fileName;           // "01-temperature.json", for messages
    QString id;                 // "temperature"
    QString page;               // the page the setup is for: "playground"
    LocalizedText title;        // plain text
    LocalizedText body;         // HTML: p, b, i, sub, sup, ul, li
    LocalizedText formula;      // same HTML subset; empty when the lesson has no formula
    QList<LocalizedText> steps; // the "try this" steps, plain text, 3 to 5
    QVariantMap setup;          // see lesson_setup.h: prompt, runLength, action and sampler keys
};

}  // namespace dlab::ui
