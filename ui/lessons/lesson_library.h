#pragma once
// Every guided lesson of the app, read and checked once. The lessons are the JSON files of a
// directory (the Qt resource ":/lessons", which embeds resources/lessons/*.json, or any folder,
// for tests and for authors trying a new lesson), in file-name order (NN-name.json).
// A malformed file is left out with one sentence naming the file and the key; the others load.
//
// A lesson file:
//   { "id": "temperature", "page": "playground",
//     "title": T, "body": H, "formula": H (optional), "steps": [T, T, T (3 to 5)],
//     "setup": { "prompt": "...", "action": "step", "temperature": 1.0, ... } }
// where T is {"en": "...", "de": "...", "zh_CN": "..."} in plain text and H the same in the HTML
// subset p, b, i, sub, sup, ul, li (write < as &lt;). The setup keys: lesson_setup.h.
#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include "ui/lessons/lesson.h"

namespace dlab::ui {

class LessonLibrary {
public:
    // Reads every *.json in `directory`.
    static LessonLibrary load(const QString& directory = QStringLiteral(":/lessons"));

    const QList<Lesson>& lessons() const { return lessons_; }
    // One sentence per file that was left out.
    const QStringList& errors() const { return errors_; }
    int indexOf(const QString& id) const;  // -1 when no lesson has that id

private:
    QList<Lesson> lessons_;
    QStringList errors_;
};

// One lesson from the text of `fileName`. Throws dlab::Error: "<fileName>: <key> <what is wrong>".
Lesson parseLesson(const QByteArray& json, const QString& fileName);

}  // namespace dlab::ui
