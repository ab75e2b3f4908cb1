#include "widgets/combo_font_refresh.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>

namespace dlab::widgets {

bool ComboFontRefresh::eventFilter(QObject* watched, QEvent* e) {
    if (e->type() == QEvent::FontChange) {
        if (auto* combo = qobject_cast<QComboBox*>(watched)) {
            QEvent restyled(QEvent::StyleChange);   // clears both cached sizes
            QCoreApplication::sendEvent(combo, &restyled);
        }
    }
    return QObject::eventFilter(watched, e);
}

}  // namespace dlab::widgets
