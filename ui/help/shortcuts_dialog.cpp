#include "ui/help/shortcuts_dialog.h"

#include <QDialogButtonBox>
#include <QEvent>
#include <QHeaderView>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "ui/help/shortcut_collector.h"

namespace dlab::ui {

ShortcutsDialog::ShortcutsDialog(QWidget* window, QWidget* parent) : QDialog(parent), window_(window) {
    setModal(false);
    auto* layout = new QVBoxLayout(this);
    table_ = new QTreeWidget(this);
    table_->setColumnCount(3);
    table_->setRootIsDecorated(false);
    table_->setAlternatingRowColors(true);
    table_->setSelectionMode(QAbstractItemView::NoSelection);
    table_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->header()->setStretchLastSection(true);
    layout->addWidget(table_, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    layout->addWidget(buttons);
    resize(620, 480);
    retranslate();
}

void ShortcutsDialog::refresh() {
    table_->clear();
    for (const ShortcutEntry& e : collectShortcuts(window_))
        table_->addTopLevelItem(new QTreeWidgetItem(QStringList{e.keys, e.action, e.where}));
    table_->scrollToTop();   // a list refilled keeps the old scroll position otherwise
}

void ShortcutsDialog::showEvent(QShowEvent* e) {
    refresh();  // the window may have gained actions (or another language) since the last time
    QDialog::showEvent(e);
}

void ShortcutsDialog::changeEvent(QEvent* e) {
    QDialog::changeEvent(e);
    if (e->type() == QEvent::LanguageChange) retranslate();
}

void ShortcutsDialog::retranslate() {
    setWindowTitle(tr("Keyboard shortcuts"));
    table_->setHeaderLabels({tr("Keys"), tr("Action"), tr("Where")});
    // The window re-sets its action texts on the same LanguageChange, maybe after this dialog:
    // collect once every widget has had it.
    QMetaObject::invokeMethod(this, &ShortcutsDialog::refresh, Qt::QueuedConnection);
}

}  // namespace dlab::ui
