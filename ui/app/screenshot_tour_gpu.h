#pragma once
// The screenshot tour's GPU part (DLAB_SCREENSHOTS_ONLY=gpu, on a machine or a build where CUDA is
// usable, e.g. decoding-lab-emulated on the CUDA emulator): the window with the model on CUDA
// after a CPU thread change (the status bar says the count waits for the CPU), at 1024×700 and
// 1920×1080, in English, German and Chinese, light and dark; and Settings → Backend open, with the
// CUDA choice enabled, on the whole screen (a menu is a window of its own).
#include <QString>

#include <functional>

namespace dlab::ui {

class MainWindow;

void gpuScreens(MainWindow& w, const std::function<void(const QString&)>& shoot, const std::function<void(const QString&)>& shootScreen);

}  // namespace dlab::ui
