#pragma once
// Why the GPU cannot be used, in the user's language: the engine's GpuProblem kinds (checkGpu,
// makeBackend's fallback) worded for the status bar and Settings → Backend. The engine's own
// sentence is English (the CLI prints it); only a problem of kind Other is shown in its words.
#include <QString>

#include "cuda/cuda_backend.h"

namespace dlab::ui {

// The reason as a clause: "no NVIDIA driver is installed", "kein NVIDIA-Treiber installiert".
// brief leaves out the GPU's name (the status bar's room; the Backend menu's tooltips have it).
QString gpuProblemText(const GpuCheck& check, bool brief = false);

// The status bar's line when automatic chose the CPU: "Running on the CPU: <brief reason>", short
// enough for the room the status bar's labels leave at 1024 px (test_gui_main_window checks it).
QString cpuFallbackMessage(const GpuCheck& check);

}  // namespace dlab::ui
