#pragma once
// Where the app keeps its settings (QSettings): the platform's place for "Decoding Lab", or the
// INI file named by the DLAB_SETTINGS environment variable (the test suites use one per suite so
// they never read or write the user's settings).
#include <QSettings>

#include <memory>

namespace dlab::ui {

std::unique_ptr<QSettings> openSettings();

}  // namespace dlab::ui
