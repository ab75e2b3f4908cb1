#include "widgets/front_tab_sizing.h"

#include <QTabWidget>

namespace dlab::widgets {

void sizeToFrontTab(QTabWidget* tabs) {
    const auto apply = [tabs] {
        for (int i = 0; i < tabs->count(); ++i) {
            const auto policy = i == tabs->currentIndex() ? QSizePolicy::Preferred : QSizePolicy::Ignored;
            tabs->widget(i)->setSizePolicy(policy, policy);
        }
    };
    apply();
    QObject::connect(tabs, &QTabWidget::currentChanged, tabs, apply);
}

}  // namespace dlab::widgets
