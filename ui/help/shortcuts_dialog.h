#pragma once
// Help -> Keyboard shortcuts: a table of every shortcut the given window has (collectShortcuts():
// found at run time, not a fixed list), with what it does and the page or menu it belongs to.
// Collected again each time it is shown and when the language changes. Non-modal.
#include <QDialog>
#include <QPointer>

QT_BEGIN_NAMESPACE
class QTreeWidget;
QT_END_NAMESPACE

namespace dlab::ui {

class ShortcutsDialog : public QDialog {
    Q_OBJECT
public:
    explicit ShortcutsDialog(QWidget* window, QWidget* parent = nullptr);

    QTreeWidget* table() const { return table_; }

public slots:
    void refresh();

protected:
    void showEvent(QShowEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    void retranslate();

    QPointer<QWidget> window_;
    QTreeWidget* table_ = nullptr;
};

}  // namespace dlab::ui
