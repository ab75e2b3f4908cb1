// Which of the build's code images the driver would load for the emulated device (emulator.h's
// loadedCode): the rule of cuda/code_images.h, which the backend's probe uses too.
#include "emulator.h"

namespace dlab::emu {

#ifndef DLAB_CUDA_ARCHS
#error "DLAB_CUDA_ARCHS (the build's CMAKE_CUDA_ARCHITECTURES) comes from tests/cuda_emulator/CMakeLists.txt"
#endif

std::string Config::defaultImages() { return DLAB_CUDA_ARCHS; }

cuda::CodeImage loadedCode(const std::string& images, int major, int minor, bool forcePtxJit) {
    const int device = major * 10 + minor;
    return cuda::codeImageFor(images, major, minor, forcePtxJit).value_or(cuda::CodeImage{device, device});
}

cuda::CodeImage loadedCode() {
    const Config& c = config();
    return loadedCode(c.images, c.major, c.minor, c.forcePtxJit);
}

}  // namespace dlab::emu
