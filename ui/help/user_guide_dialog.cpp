#include "ui/help/user_guide_dialog.h"

#include <QDesktopServices>
#include <QEvent>
#include <QFile>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTextBrowser>
#include <QTextCursor>
#include <QVBoxLayout>

namespace dlab::ui {

namespace {

// The platform's "find next" key; some platforms (offscreen, minimal) bind none, then F3.
QKeySequence findNextKey() {
    const QKeySequence standard(QKeySequence::FindNext);
    return standard.isEmpty() ? QKeySequence(Qt::Key_F3) : standard;
}

}  // namespace

UserGuideDialog::UserGuideDialog(QWidget* parent) : QDialog(parent) {
    setModal(false);
    auto* layout = new QVBoxLayout(this);
    auto* row = new QHBoxLayout;
    searchLabel_ = new QLabel(this);
    search_ = new QLineEdit(this);
    search_->setClearButtonEnabled(true);
    searchLabel_->setBuddy(search_);
    findButton_ = new QPushButton(this);
    findButton_->setAutoDefault(false);
    status_ = new QLabel(this);
    row->addWidget(searchLabel_);
    row->addWidget(search_, 1);
    row->addWidget(findButton_);
    row->addWidget(status_);
    layout->addLayout(row);

    browser_ = new QTextBrowser(this);
    // Links to other files of the repository cannot be followed inside the app; web links open
    // in the browser, "#anchor" links scroll.
    browser_->setOpenLinks(false);
    connect(browser_, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.scheme().startsWith(QLatin1String("http"))) QDesktopServices::openUrl(url);
        else if (url.hasFragment() && url.path().isEmpty()) browser_->scrollToAnchor(url.fragment());
    });
    layout->addWidget(browser_, 1);

    connect(search_, &QLineEdit::returnPressed, this, &UserGuideDialog::findNext);
    connect(search_, &QLineEdit::textChanged, status_, &QLabel::clear);
    connect(findButton_, &QPushButton::clicked, this, &UserGuideDialog::findNext);

    resize(760, 640);
    retranslate();
}

QString UserGuideDialog::userPart(const QString& markdown) {
    // The guide ends at the marker before the developer sections (docs/desktop-app.md); its
    // screenshots would add megabytes to the program, so they go (the app shows the real thing).
    static const QRegularExpression image(QStringLiteral("!\\[[^\\]]*\\]\\([^)]*\\)[ \\t]*"));
    const qsizetype end = markdown.indexOf(QStringLiteral("<!-- Help → User guide in the app ends here"));
    QString out = end < 0 ? markdown : markdown.left(end);
    out.replace(image, QString());
    return out;
}

void UserGuideDialog::loadGuide() {
    QFile file(QStringLiteral(":/help/desktop-app.md"));
    if (!file.open(QIODevice::ReadOnly)) {
        browser_->setPlainText(tr("The user guide is missing from this build (:/help/desktop-app.md)."));
        return;
    }
    browser_->setMarkdown(userPart(QString::fromUtf8(file.readAll())));
}

bool UserGuideDialog::findNext() {
    const QString text = search_->text();
    if (text.isEmpty()) return false;
    bool found = browser_->find(text);
    if (!found) {
        // Wrap around: search again from the top.
        QTextCursor top = browser_->textCursor();
        top.movePosition(QTextCursor::Start);
        browser_->setTextCursor(top);
        found = browser_->find(text);
    }
    status_->setText(found ? QString() : tr("Not found"));
    return found;
}

void UserGuideDialog::changeEvent(QEvent* e) {
    QDialog::changeEvent(e);
    if (e->type() == QEvent::LanguageChange) retranslate();
}

void UserGuideDialog::retranslate() {
    setWindowTitle(tr("User guide"));
    searchLabel_->setText(tr("&Search:"));
    search_->setPlaceholderText(tr("a word in the guide"));
    findButton_->setText(tr("Find next"));
    findButton_->setShortcut(findNextKey());  // after setText(), which resets it to the text's mnemonic
    findButton_->setToolTip(tr("The next place the word appears (%1)")
                                .arg(findNextKey().toString(QKeySequence::NativeText)));
    // The guide is in English; only the notes for the screenshots follow the language. Reloading
    // keeps the reader's place.
    const int y = browser_->verticalScrollBar()->value();
    loadGuide();
    browser_->verticalScrollBar()->setValue(y);
}

}  // namespace dlab::ui
