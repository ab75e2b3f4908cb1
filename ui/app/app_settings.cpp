#include "ui/app/app_settings.h"

namespace dlab::ui {

std::unique_ptr<QSettings> openSettings() {
    const QString file = qEnvironmentVariable("DLAB_SETTINGS");
    if (!file.isEmpty()) return std::make_unique<QSettings>(file, QSettings::IniFormat);
    return std::make_unique<QSettings>(QSettings::UserScope, QStringLiteral("Decoding Lab"), QStringLiteral("Decoding Lab"));
}

}  // namespace dlab::ui
