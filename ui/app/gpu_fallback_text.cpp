#include "ui/app/gpu_fallback_text.h"

#include <QCoreApplication>
#include <QLocale>

namespace dlab::ui {

namespace {
QString utf8(const std::string& s) { return QString::fromStdString(s); }
}  // namespace

QString gpuProblemText(const GpuCheck& check, bool brief) {
    switch (check.problem) {
    case GpuProblem::None: return {};
    case GpuProblem::NotBuilt: return QCoreApplication::translate("GpuFallback", "this build of the app has no CUDA backend");
    case GpuProblem::NoDriver: return QCoreApplication::translate("GpuFallback", "no NVIDIA driver is installed");
    case GpuProblem::OldDriver:
        return QCoreApplication::translate("GpuFallback", "the NVIDIA driver (CUDA %1) is too old; update it").arg(utf8(check.detail));
    case GpuProblem::NoGpu: return QCoreApplication::translate("GpuFallback", "no NVIDIA GPU was found");
    case GpuProblem::GpuTooOld:
        if (brief) return QCoreApplication::translate("GpuFallback", "the GPU (compute capability %1) is too old for CUDA 13").arg(utf8(check.detail));
        return QCoreApplication::translate("GpuFallback", "the %1 (compute capability %2) is too old for CUDA 13")
            .arg(utf8(check.gpu), utf8(check.detail));
    case GpuProblem::NoCodeForGpu:
        if (brief) return QCoreApplication::translate("GpuFallback", "this build has no GPU code for compute capability %1").arg(utf8(check.detail));
        return QCoreApplication::translate("GpuFallback", "this build has no GPU code for the %1 (compute capability %2)")
            .arg(utf8(check.gpu), utf8(check.detail));
    case GpuProblem::OutOfMemory: {
        const auto bytes = [](uint64_t n) { return QLocale().formattedDataSize(qint64(n), 1, QLocale::DataSizeIecFormat); };
        if (check.bytesFree == 0)
            return QCoreApplication::translate("GpuFallback", "too little GPU memory is free (%1 needed)").arg(bytes(check.bytesNeeded));
        return QCoreApplication::translate("GpuFallback", "too little GPU memory is free (%1 needed, %2 free)")
            .arg(bytes(check.bytesNeeded), bytes(check.bytesFree));
    }
    case GpuProblem::Other: break;
    }
    return utf8(check.reason);   // the CUDA runtime's own words
}

QString cpuFallbackMessage(const GpuCheck& check) {
    return QCoreApplication::translate("GpuFallback", "Running on the CPU: %1").arg(gpuProblemText(check, true));
}

}  // namespace dlab::ui
