#pragma once
// Help -> User guide: docs/desktop-app.md (embedded as :/help/desktop-app.md) rendered as
// Markdown, with a search field (Enter or "Find next": the platform's find-next key, else F3; the search wraps around). The guide's
// screenshots are not embedded (they would add ~1 MB to the binary): each is replaced by a short
// note naming the file under docs/. Non-modal; drawn in the widget font.
#include <QDialog>

QT_BEGIN_NAMESPACE
class QLabel;
class QLineEdit;
class QPushButton;
class QTextBrowser;
QT_END_NAMESPACE

namespace dlab::ui {

class UserGuideDialog : public QDialog {
    Q_OBJECT
public:
    explicit UserGuideDialog(QWidget* parent = nullptr);

    // What the dialog shows of docs/desktop-app.md: the text up to the marker comment before the
    // developer sections, without the images "![alt](path)".
    static QString userPart(const QString& markdown);

    QTextBrowser* browser() const { return browser_; }
    QLineEdit* searchField() const { return search_; }
    QPushButton* findNextButton() const { return findButton_; }

public slots:
    // Selects the next match of the search text after the cursor, from the top again at the end.
    // Returns whether there is one.
    bool findNext();

protected:
    void changeEvent(QEvent* e) override;

private:
    void retranslate();
    void loadGuide();

    QLabel* searchLabel_ = nullptr;
    QLineEdit* search_ = nullptr;
    QPushButton* findButton_ = nullptr;
    QLabel* status_ = nullptr;
    QTextBrowser* browser_ = nullptr;
};

}  // namespace dlab::ui
