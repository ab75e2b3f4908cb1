// Device and pinned allocations of the emulator, each its own mapping:
//   [guard page][data pages, the allocation at their end (16-byte aligned)][guard page]
// so that reading past the end of an allocation faults at once. Device allocations are
// inaccessible to host code except while the emulated device runs work (setDeviceAccess).
#include <execinfo.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <string>

#include "emu_internal.h"
#include "emulator.h"

namespace dlab::emu {

namespace {

constexpr size_t kPage = 4096;

struct Allocation {
    uint8_t* map = nullptr;
    size_t mapBytes = 0;
    uint8_t* data = nullptr;   // the data pages
    size_t dataBytes = 0;
    uint8_t* user = nullptr;   // what the caller got
    size_t bytes = 0;
    bool device = false;
};

// Keyed by the user pointer. Guarded by apiLock(); the fault reporter reads it without the lock
// (the faulting code holds it or cannot be changing it).
std::map<const uint8_t*, Allocation>& allocations() {
    static auto* m = new std::map<const uint8_t*, Allocation>();
    return *m;
}
size_t gDeviceInUse = 0;
bool gDeviceAccessible = false;

size_t roundUp(size_t n, size_t to) { return (n + to - 1) / to * to; }

// The allocation whose mapping holds p, or null.
const Allocation* mappingOf(const void* p) {
    const auto* b = static_cast<const uint8_t*>(p);
    auto& m = allocations();
    auto it = m.upper_bound(b);
    for (int k = 0; k < 2; ++k) {   // the allocation before p and the one after (p may be in its leading guard)
        if (k == 0 && it == m.begin()) continue;
        const auto cand = k == 0 ? std::prev(it) : it;
        if (cand == m.end()) continue;
        const Allocation& a = cand->second;
        if (b >= a.map && b < a.map + a.mapBytes) return &a;
    }
    return nullptr;
}

std::string kind(const Allocation& a) { return a.device ? "device" : "pinned host"; }

}  // namespace

Space spaceOf(const void* p, size_t bytes, bool* outside) {
    if (outside) *outside = false;
    const auto* b = static_cast<const uint8_t*>(p);
    auto& m = allocations();
    auto it = m.upper_bound(b);
    if (it == m.begin()) return Space::Pageable;
    const Allocation& a = std::prev(it)->second;
    if (b > a.user + a.bytes || (b == a.user + a.bytes && bytes > 0)) return Space::Pageable;
    if (b + bytes > a.user + a.bytes && outside) *outside = true;
    return a.device ? Space::Device : Space::Pinned;
}

cudaError_t allocate(void** p, size_t bytes, bool device) {
    if (!p) return cudaErrorInvalidValue;
    *p = nullptr;
    installFaultHandler();
    if (bytes == 0) return cudaSuccess;
    if (device && gDeviceInUse + bytes > config().memoryBytes) return cudaErrorMemoryAllocation;
    Allocation a;
    a.dataBytes = roundUp(bytes, kPage);
    a.mapBytes = a.dataBytes + 2 * kPage;
    void* m = mmap(nullptr, a.mapBytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) return cudaErrorMemoryAllocation;
    a.map = static_cast<uint8_t*>(m);
    a.data = a.map + kPage;
    if (mprotect(a.data, a.dataBytes, PROT_READ | PROT_WRITE) != 0) {
        munmap(m, a.mapBytes);
        return cudaErrorMemoryAllocation;
    }
    a.bytes = bytes;
    a.user = a.data + a.dataBytes - roundUp(bytes, 16);
    std::memset(a.user, 0xff, bytes);   // what nobody wrote reads as NaN / -1
    a.device = device;
    if (device) {
        gDeviceInUse += bytes;
        if (!gDeviceAccessible && config().protectDeviceMemory) mprotect(a.data, a.dataBytes, PROT_NONE);
    }
    allocations()[a.user] = a;
    *p = a.user;
    return cudaSuccess;
}

cudaError_t release(void* p, bool device) {
    if (!p) return cudaSuccess;
    auto& m = allocations();
    auto it = m.find(static_cast<const uint8_t*>(p));
    if (it == m.end() || it->second.device != device) return cudaErrorInvalidValue;
    if (device) gDeviceInUse -= it->second.bytes;
    munmap(it->second.map, it->second.mapBytes);
    m.erase(it);
    return cudaSuccess;
}

size_t deviceBytesInUse() { return gDeviceInUse; }

void setDeviceAccess(bool on) {
    if (on == gDeviceAccessible) return;
    gDeviceAccessible = on;
    if (!config().protectDeviceMemory) return;
    for (auto& [user, a] : allocations())
        if (a.device) mprotect(a.data, a.dataBytes, on ? PROT_READ | PROT_WRITE : PROT_NONE);
}

std::string describeAddress(const void* p) {
    const Allocation* a = mappingOf(p);
    if (!a) return "an address outside every emulated allocation";
    const auto* b = static_cast<const uint8_t*>(p);
    const std::string size = std::to_string(a->bytes) + "-byte " + kind(*a) + " allocation";
    if (b >= a->user + a->bytes) return "byte " + std::to_string(b - a->user) + " of a " + size + " (past its end)";
    if (b < a->user) return std::to_string(a->user - b) + " bytes before the start of a " + size;
    return "byte " + std::to_string(b - a->user) + " of a " + size;
}

namespace {

struct sigaction gPrevSegv, gPrevBus;

void writeErr(const std::string& s) {
    const char* p = s.data();
    size_t left = s.size();
    while (left > 0) {
        const ssize_t w = write(2, p, left);
        if (w <= 0) break;
        p += w;
        left -= static_cast<size_t>(w);
    }
}

void onFault(int sig, siginfo_t* info, void* context) {
    const void* addr = info->si_addr;
    const Allocation* a = mappingOf(addr);
    std::string what;
    if (isFiberStackGuard(addr)) {
        what = "a kernel thread overflowed its 64 KiB emulator stack";
    } else if (a) {
        const auto* b = static_cast<const uint8_t*>(addr);
        if (b >= a->user && b < a->user + a->bytes && a->device && !gDeviceAccessible)
            what = "host code touched device memory (" + describeAddress(addr) +
                   "): a device pointer was dereferenced on the host, which faults on a GPU too";
        else
            what = "out-of-bounds access at " + describeAddress(addr);
    } else if (reinterpret_cast<uintptr_t>(addr) < 65536) {
        what = "access through a null pointer";
    }
    if (!what.empty()) {
        recoverFromFault(what.c_str());   // inside a kernel: does not return
        // Host code: the diagnosis and where the host was, then the default action (the process
        // ends with SIGSEGV when the access runs again).
        writeErr("CUDA emulator: " + what + "\n");
        void* frames[32];
        backtrace_symbols_fd(frames, backtrace(frames, 32), 2);
        signal(sig, SIG_DFL);
        return;
    }
    // Not ours: the previous handler (or the default: a crash with a core).
    struct sigaction& prev = sig == SIGBUS ? gPrevBus : gPrevSegv;
    if (prev.sa_flags & SA_SIGINFO) {
        if (prev.sa_sigaction) return prev.sa_sigaction(sig, info, context);
    } else if (prev.sa_handler != SIG_DFL && prev.sa_handler != SIG_IGN && prev.sa_handler) {
        return prev.sa_handler(sig);
    }
    signal(sig, SIG_DFL);   // returning re-runs the access, which now ends the process
}

}  // namespace

void installFaultHandler() {
    static thread_local bool altStack = false;
    if (!altStack) {
        static constexpr size_t kAlt = 256 * 1024;
        stack_t ss{};
        ss.ss_sp = mmap(nullptr, kAlt, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        ss.ss_size = kAlt;
        if (ss.ss_sp != MAP_FAILED) sigaltstack(&ss, nullptr);
        altStack = true;
    }
    static bool installed = false;
    if (installed) return;
    installed = true;
    struct sigaction sa{};
    sa.sa_sigaction = onFault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &gPrevSegv);
    sigaction(SIGBUS, &sa, &gPrevBus);
}

size_t deviceMemoryInUse() {
    std::lock_guard<std::recursive_mutex> lock(apiLock());
    return gDeviceInUse;
}

}  // namespace dlab::emu
