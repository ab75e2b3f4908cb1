#pragma once
// The screenshot tour's constrained-decoding part (screenshot_tour.cpp calls it): the playground
// under a JSON Schema beside the unconstrained text, a GBNF grammar, and the chat in JSON mode.
// With `all` (DLAB_SCREENSHOTS_ONLY=constraints) at 1024×700 and 1920×1080, in English, German
// and Chinese, light and dark, for looking at them without the whole tour.
#include <QString>

#include <functional>

namespace dlab::ui {

class MainWindow;

void constraintScreens(MainWindow& w, const std::function<void(const QString&)>& shoot, bool all);

}  // namespace dlab::ui
