#pragma once
// The guided-lesson panel (for a dock): a lesson picker, the lesson's title, its explanation and
// formula and the numbered "try this" steps in one QTextBrowser (drawn from the palette and the
// widget font, so the theme and presentation mode's larger font apply), "Set up the page",
// "Restore my settings" and Previous / Next. Texts follow the app's language (LanguageManager),
// English where a lesson lacks one. The panel changes nothing itself: the window connects
// setupRequested / restoreRequested to the page named by the lesson (Lesson::page).
#include <QVariantMap>
#include <QWidget>

#include "ui/lessons/lesson_library.h"

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
class QPushButton;
class QTextBrowser;
QT_END_NAMESPACE

namespace dlab::ui {

class LessonPanel : public QWidget {
    Q_OBJECT
public:
    explicit LessonPanel(LessonLibrary library = LessonLibrary::load(), QWidget* parent = nullptr);

    const LessonLibrary& library() const { return library_; }
    int currentIndex() const { return current_; }
    const Lesson* currentLesson() const;  // nullptr when there are no lessons
    // A title's part before its colon ("Temperature" of "Temperature: sharpen or flatten …").
    static QString shortTitle(const QString& title);

    // Test and automation hooks.
    QComboBox* picker() const { return picker_; }
    QLabel* titleLabel() const { return title_; }
    QTextBrowser* textBrowser() const { return text_; }
    QPushButton* setupButton() const { return setup_; }
    QPushButton* restoreButton() const { return restore_; }
    QPushButton* previousButton() const { return previous_; }
    QPushButton* nextButton() const { return next_; }

public slots:
    void setCurrentIndex(int index);
    void next();
    void previous();
    // Whether there are settings to go back to (on after "Set up the page", off after restoring).
    void setRestoreAvailable(bool available);

signals:
    void setupRequested(const QVariantMap& setup);
    void restoreRequested();
    void currentLessonChanged(int index);

protected:
    void changeEvent(QEvent* e) override;

private:
    QString language() const;
    QString lessonHtml(const Lesson& lesson) const;
    void retranslate();   // the panel's own strings and the picker's titles
    void showLesson();    // title, text and buttons of the current lesson

    LessonLibrary library_;
    int current_ = -1;
    QComboBox* picker_ = nullptr;
    QLabel* pickerLabel_ = nullptr;
    QLabel* title_ = nullptr;
    QTextBrowser* text_ = nullptr;
    QPushButton* setup_ = nullptr;
    QPushButton* restore_ = nullptr;
    QPushButton* previous_ = nullptr;
    QPushButton* next_ = nullptr;
    QLabel* position_ = nullptr;
    QLabel* problems_ = nullptr;
};

}  // namespace dlab::ui
