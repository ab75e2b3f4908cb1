#pragma once
// Makes the documentation's screenshots from the running app: loads the model, runs the
// playground, the greedy-loop demo and a chat answer, and saves each page (also dark, German and
// Chinese) as PNG files in a folder. `decoding-lab --screenshots DIR` runs it and quits; run it
// under Xvfb (scripts/screenshots.sh) so the fonts and the window size match a desktop.
// DLAB_SCREENSHOTS_ONLY=constraints shoots only the constrained-decoding screens (screenshot_tour_constraints.h).
// DLAB_SCREENSHOTS_ONLY=safety shoots only the Serving lab's Safety tab, at every size, language and theme.
#include <QString>

namespace dlab::ui {

class MainWindow;

// Returns the number of images written; throws nothing: failures are printed and counted.
int takeScreenshots(MainWindow& window, const QString& directory);

}  // namespace dlab::ui
