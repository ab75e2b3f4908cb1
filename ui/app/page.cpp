#include "ui/app/page.h"

#include <QShortcut>

#include "core/error.h"
#include "ui/app/mnemonic_text.h"

namespace dlab::ui {

namespace {
QString plainTitle(const Page& page) { return withoutMnemonic(page.title()); }
}  // namespace

QShortcut* Page::frontShortcut(const QKeySequence& key) {
    auto* s = new QShortcut(key, this);
    s->setContext(Qt::WindowShortcut);
    s->setEnabled(isVisible());
    frontShortcuts_ << s;
    return s;
}

void Page::showEvent(QShowEvent* e) {
    for (QShortcut* s : frontShortcuts_) s->setEnabled(true);
    QWidget::showEvent(e);
}

void Page::hideEvent(QHideEvent* e) {
    for (QShortcut* s : frontShortcuts_) s->setEnabled(false);
    QWidget::hideEvent(e);
}

dlab::SavedSession Page::saveSession() const {
    throw Error(tr("The %1 page does not save sessions.").arg(plainTitle(*this)).toStdString());
}

void Page::openSession(const dlab::SavedSession&, const QString& fileName) {
    throw Error(tr("%1: the %2 page cannot show saved sessions.").arg(fileName, plainTitle(*this)).toStdString());
}

}  // namespace dlab::ui
