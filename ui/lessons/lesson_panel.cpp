#include "ui/lessons/lesson_panel.h"

#include <QRegularExpression>

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "ui/app/language_manager.h"

namespace dlab::ui {

QString LessonPanel::shortTitle(const QString& title) {
    const qsizetype colon = title.indexOf(QRegularExpression(QStringLiteral("[:：]")));
    return colon > 0 ? title.left(colon).trimmed() : title;
}

LessonPanel::LessonPanel(LessonLibrary library, QWidget* parent) : QWidget(parent), library_(std::move(library)) {
    auto* layout = new QVBoxLayout(this);

    pickerLabel_ = new QLabel(this);
    picker_ = new QComboBox(this);
    // The picker shows each title's short form (before its colon) whole; the full title is the
    // item's tooltip and the heading below (a combo cannot wrap, and clipped it read "2. Top-k or
    // top-p: a fixed count or a share of the probabili").
    picker_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    pickerLabel_->setBuddy(picker_);
    // The label above the picker, not beside it: the panel is then only as wide as the longest
    // short title, which leaves the page beside it room on a 1024-pixel screen.
    layout->addWidget(pickerLabel_);
    layout->addWidget(picker_);

    title_ = new QLabel(this);
    title_->setWordWrap(true);
    title_->setTextFormat(Qt::RichText);
    layout->addWidget(title_);

    text_ = new QTextBrowser(this);
    text_->setOpenLinks(false);
    layout->addWidget(text_, 1);

    // One above the other: side by side ("Seite einrichten", "Meine Einstellungen zurück") they
    // made the panel 335 px wide, and the Playground beside it scrolled sideways at 1024 px.
    setup_ = new QPushButton(this);
    restore_ = new QPushButton(this);
    restore_->setEnabled(false);
    layout->addWidget(setup_);
    layout->addWidget(restore_);

    auto* nav = new QHBoxLayout;
    previous_ = new QPushButton(this);
    next_ = new QPushButton(this);
    position_ = new QLabel(this);
    position_->setAlignment(Qt::AlignCenter);
    nav->addWidget(previous_);
    nav->addWidget(position_, 1);
    nav->addWidget(next_);
    layout->addLayout(nav);

    problems_ = new QLabel(this);
    problems_->setWordWrap(true);
    problems_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    problems_->setVisible(!library_.errors().isEmpty());
    layout->addWidget(problems_);

    connect(picker_, &QComboBox::activated, this, &LessonPanel::setCurrentIndex);
    connect(previous_, &QPushButton::clicked, this, &LessonPanel::previous);
    connect(next_, &QPushButton::clicked, this, &LessonPanel::next);
    connect(setup_, &QPushButton::clicked, this, [this] {
        if (const Lesson* l = currentLesson()) {
            setRestoreAvailable(true);
            emit setupRequested(l->setup);
        }
    });
    connect(restore_, &QPushButton::clicked, this, [this] {
        setRestoreAvailable(false);
        emit restoreRequested();
    });
    // The language can change before this panel gets its LanguageChange event (and "en" after
    // "en" installs nothing): follow the manager as well.
    connect(&LanguageManager::instance(), &LanguageManager::languageChanged, this, &LessonPanel::retranslate);

    current_ = library_.lessons().isEmpty() ? -1 : 0;
    retranslate();
}

const Lesson* LessonPanel::currentLesson() const {
    if (current_ < 0 || current_ >= library_.lessons().size()) return nullptr;
    return &library_.lessons().at(current_);
}

QString LessonPanel::language() const { return LanguageManager::instance().current(); }

void LessonPanel::setCurrentIndex(int index) {
    if (index < 0 || index >= library_.lessons().size() || index == current_) return;
    current_ = index;
    showLesson();
    emit currentLessonChanged(index);
}

void LessonPanel::next() { setCurrentIndex(current_ + 1); }
void LessonPanel::previous() { setCurrentIndex(current_ - 1); }

void LessonPanel::setRestoreAvailable(bool available) { restore_->setEnabled(available); }

void LessonPanel::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    switch (e->type()) {
    case QEvent::LanguageChange: retranslate(); break;
    // The formula's box takes its colour from the palette.
    case QEvent::PaletteChange:
    case QEvent::StyleChange: showLesson(); break;
    default: break;
    }
}

void LessonPanel::retranslate() {
    pickerLabel_->setText(tr("&Lesson"));
    setup_->setText(tr("Set up the page"));
    setup_->setToolTip(tr("Put the lesson's prompt and settings on its page and start it; your own settings are kept"));
    restore_->setText(tr("Restore my settings"));
    restore_->setToolTip(tr("Put back the prompt and settings you had before the lesson set up the page"));
    previous_->setText(tr("Previous"));
    previous_->setToolTip(tr("The previous lesson"));
    next_->setText(tr("Next"));
    next_->setToolTip(tr("The next lesson"));
    if (!library_.errors().isEmpty())
        problems_->setText(tr("Some lesson files could not be read:") + QLatin1Char('\n') +
                           library_.errors().join(QLatin1Char('\n')));

    const QString lang = language();
    {
        const QSignalBlocker block(picker_);
        picker_->clear();
        for (qsizetype i = 0; i < library_.lessons().size(); ++i) {
            const QString title = localized(library_.lessons().at(i).title, lang);
            picker_->addItem(QStringLiteral("%1. %2").arg(i + 1).arg(shortTitle(title)));
            picker_->setItemData(picker_->count() - 1, title, Qt::ToolTipRole);
        }
    }
    showLesson();
}

QString LessonPanel::lessonHtml(const Lesson& lesson) const {
    const QString lang = language();
    QString html = localized(lesson.body, lang);
    if (!lesson.formula.isEmpty()) {
        // A box in the palette's alternate base colour; sizes are relative, so the formula grows
        // with the widget font (presentation mode).
        html += QStringLiteral("<table width=\"100%\" cellpadding=\"8\" bgcolor=\"%1\"><tr><td>"
                               "<div style=\"font-size: large\">%2</div></td></tr></table>")
                    .arg(palette().color(QPalette::AlternateBase).name(), localized(lesson.formula, lang));
    }
    html += QStringLiteral("<h3>%1</h3><ol>").arg(tr("Try this").toHtmlEscaped());
    for (const LocalizedText& step : lesson.steps)
        html += QStringLiteral("<li>%1</li>").arg(localized(step, lang).toHtmlEscaped());
    return html + QStringLiteral("</ol>");
}

void LessonPanel::showLesson() {
    const Lesson* lesson = currentLesson();
    const int count = static_cast<int>(library_.lessons().size());
    setup_->setEnabled(lesson != nullptr);
    previous_->setEnabled(lesson && current_ > 0);
    next_->setEnabled(lesson && current_ + 1 < count);
    if (!lesson) {
        title_->clear();
        position_->clear();
        text_->setHtml(QStringLiteral("<p>%1</p>").arg(tr("No lessons were found.").toHtmlEscaped()));
        return;
    }
    {
        const QSignalBlocker block(picker_);
        picker_->setCurrentIndex(current_);
    }
    // <big> is relative to the widget font: the title grows with presentation mode.
    title_->setText(QStringLiteral("<big><b>%1</b></big>").arg(localized(lesson->title, language()).toHtmlEscaped()));
    position_->setText(tr("Lesson %1 of %2").arg(current_ + 1).arg(count));
    text_->setHtml(lessonHtml(*lesson));
}

}  // namespace dlab::ui
