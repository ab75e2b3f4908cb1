// Runs a grid: the blocks one after another (in the configured order: forward, reverse or
// shuffled), and a block's threads as fibers on this host thread.
// A fiber runs until it reaches a barrier (__syncthreads, a warp shuffle, __syncwarp) or ends;
// when every fiber of the block waits or has ended, the scheduler releases the barriers whose
// threads have all arrived, and reports a fault when none can be released (a deadlock: divergent
// barriers, a shuffle waiting for a lane that exited or waits elsewhere).
#include <sys/mman.h>

#include <algorithm>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "emu_internal.h"
#include "emulator.h"

// The context switch: saves the callee-saved registers and the stack pointer of the running
// context in *save and continues the one whose stack pointer is `to` (x86-64 System V).
extern "C" void dlab_emu_switch(void** save, void* to);
asm(R"(
    .pushsection .text
    .globl dlab_emu_switch
    .type dlab_emu_switch, @function
dlab_emu_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size dlab_emu_switch, .-dlab_emu_switch
    .popsection
)");

namespace dlab::emu {

namespace detail {
thread_local const DeviceThread* tCurrentThread = nullptr;
}

namespace {

constexpr int kMaxThreads = 1024;
constexpr size_t kPage = 4096;
constexpr size_t kStackBytes = 64 * 1024;

enum class State : uint8_t { Ready, Running, AtBlockBarrier, AtWarpBarrier, AtGridWait, Done };

struct Fiber {
    void* sp = nullptr;
    DeviceThread coords;
    State state = State::Ready;
    int linear = 0, lane = 0, warp = 0;
    const char* file = "";
    int line = 0;
    unsigned mask = 0;
    uint8_t phase = 0;   // which half of the exchange slots its next shuffle writes
};

// This host thread's fiber stacks: kMaxThreads of kStackBytes, each above a guard page.
class Stacks {
public:
    Stacks() {
        void* p = mmap(nullptr, kEach * kMaxThreads, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) throw DeviceFault{cudaErrorMemoryAllocation, "the emulator cannot map its fiber stacks"};
        base_ = static_cast<uint8_t*>(p);
        for (int i = 0; i < kMaxThreads; ++i) mprotect(base_ + i * kEach, kPage, PROT_NONE);
    }
    ~Stacks() { munmap(base_, kEach * kMaxThreads); }
    void* top(int i) const { return base_ + (i + 1) * kEach; }
    bool isGuard(const void* p) const {
        const auto* b = static_cast<const uint8_t*>(p);
        if (b < base_ || b >= base_ + kEach * kMaxThreads) return false;
        return static_cast<size_t>(b - base_) % kEach < kPage;
    }

private:
    static constexpr size_t kEach = kStackBytes + kPage;
    uint8_t* base_ = nullptr;
};

struct Block {
    const KernelLaunch* k = nullptr;
    Stacks* stacks = nullptr;
    bool early = false;   // a dependent grid's block running before the grid it depends on
    std::vector<Fiber> fibers;
    std::vector<uint64_t> slots;   // shuffle values: (2 phases, threads)
    int n = 0;
    bool aborted = false;
    cudaError_t code = cudaErrorLaunchFailure;   // what the fault returns
    std::string error;
};

thread_local Block* tBlock = nullptr;
thread_local Fiber* tFiber = nullptr;
thread_local void* tSchedulerSp = nullptr;
thread_local std::unique_ptr<Stacks> tStacks;
// Early blocks' stacks, kept while other grids run. Two sets: in a chain of dependent grids the
// next grid's early block starts while this one's still waits.
thread_local std::unique_ptr<Stacks> tEarlyStacks[2];
thread_local bool tEarlyStacksInUse[2] = {false, false};
thread_local std::unique_ptr<std::mt19937_64> tShuffle;   // DLAB_CUDA_EMU_ORDER=shuffle
thread_local sigjmp_buf tFaultJump;
thread_local bool tFaultJumpArmed = false;
thread_local std::string tFaultMessage;

std::string dim(const uint3& d) {
    char text[48];   // (snprintf: GCC 12 warns falsely about "(" + std::string's inlined copy)
    std::snprintf(text, sizeof text, "(%u,%u,%u)", d.x, d.y, d.z);
    return text;
}
std::string site(const char* file, int line) {
    const char* s = std::strstr(file, "cuda/");
    return std::string(s ? s : file) + ":" + std::to_string(line);
}
std::string hex(unsigned mask) {
    char m[16];
    std::snprintf(m, sizeof m, "0x%08x", mask);
    return m;
}
std::string where(const Fiber& f) { return "block " + dim(f.coords.blockIdx) + ", thread " + dim(f.coords.threadIdx); }

void yieldToScheduler() { dlab_emu_switch(&tFiber->sp, tSchedulerSp); }

// Ends the block with a fault raised inside a fiber; the fiber is never resumed.
[[noreturn]] void failInFiber(const std::string& message, cudaError_t code = cudaErrorLaunchFailure) {
    tBlock->aborted = true;
    tBlock->code = code;
    tBlock->error = where(*tFiber) + ": " + message;
    tFiber->state = State::Done;
    yieldToScheduler();
    __builtin_trap();
}

[[noreturn]] void fiberEntry() {
    try {
        tBlock->k->body();
    } catch (...) {
        failInFiber("the kernel threw a C++ exception");
    }
    tFiber->state = State::Done;
    yieldToScheduler();
    __builtin_trap();
}

void initFiber(Fiber& f, int i, const Stacks& stacks) {
    // The first switch pops six registers and returns into fiberEntry with the stack as a call
    // would leave it (16-byte aligned before the call's return address).
    auto top = reinterpret_cast<uintptr_t>(stacks.top(i)) & ~uintptr_t(15);
    auto** sp = reinterpret_cast<void**>(top);
    *--sp = nullptr;   // fiberEntry's return address: it never returns
    *--sp = reinterpret_cast<void*>(&fiberEntry);
    for (int r = 0; r < 6; ++r) *--sp = nullptr;
    f.sp = sp;
    f.state = State::Ready;
    f.phase = 0;
    f.mask = 0;
}

[[noreturn]] void fault(const Block&, const std::string& message) { throw DeviceFault{cudaErrorLaunchFailure, message}; }

// Releases every warp barrier whose lanes have all arrived; faults on a barrier that can never be released.
bool releaseWarps(Block& b) {
    bool released = false;
    const int nWarps = (b.n + 31) / 32;
    for (int w = 0; w < nWarps; ++w) {
        const int first = w * 32, last = std::min(b.n, first + 32);
        const Fiber* lead = nullptr;
        for (int i = first; i < last; ++i) {
            const Fiber& f = b.fibers[i];
            if (f.state != State::AtWarpBarrier) continue;
            if (!lead) {
                lead = &f;
            } else if (f.mask != lead->mask || f.line != lead->line || std::strcmp(f.file, lead->file) != 0) {
                fault(b, where(f) + " waits at a warp operation at " + site(f.file, f.line) + " while lane " + std::to_string(lead->lane) +
                             " of its warp waits at " + site(lead->file, lead->line) + " (divergent warp-level operations)");
            }
        }
        if (!lead) continue;
        bool all = true;
        for (int l = 0; l < 32; ++l) {
            if (!((lead->mask >> l) & 1u)) continue;
            const int i = first + l;
            if (i >= last)
                fault(b, "the warp operation at " + site(lead->file, lead->line) + " has mask " + hex(lead->mask) + ", which names lane " +
                             std::to_string(l) + " that a block of " + std::to_string(b.n) + " threads does not have");
            const Fiber& f = b.fibers[i];
            if (f.state == State::Done)
                fault(b, "the warp operation at " + site(lead->file, lead->line) + " (mask " + hex(lead->mask) + ") waits for lane " +
                             std::to_string(l) + ", which has exited (" + where(f) + "); on a GPU this is undefined");
            if (f.state != State::AtWarpBarrier) all = false;
        }
        if (!all) continue;
        for (int l = 0; l < 32; ++l)
            if ((lead->mask >> l) & 1u) b.fibers[first + l].state = State::Ready;
        released = true;
    }
    return released;
}

// Every fiber waits or has ended: release what can be released. Returns false when all ended,
// or (an early block) when what is left waits for the previous grid.
bool release(Block& b) {
    if (releaseWarps(b)) return true;
    int live = 0, atBarrier = 0, atGridWait = 0;
    const Fiber* lead = nullptr;
    for (const Fiber& f : b.fibers) {
        if (f.state == State::Done) continue;
        ++live;
        atGridWait += f.state == State::AtGridWait;
        if (f.state != State::AtBlockBarrier) continue;
        ++atBarrier;
        if (!lead) lead = &f;
        else if (f.line != lead->line || std::strcmp(f.file, lead->file) != 0)
            fault(b, "__syncthreads at different places: " + where(*lead) + " at " + site(lead->file, lead->line) + ", " + where(f) + " at " +
                         site(f.file, f.line));
    }
    if (live == 0) return false;
    if (atBarrier == live) {
        for (Fiber& f : b.fibers)
            if (f.state == State::AtBlockBarrier) f.state = State::Ready;
        return true;
    }
    if (atGridWait > 0) return false;   // the rest of the block runs after the previous grid
    // Some wait at a warp operation that a lane waiting at __syncthreads will never reach.
    for (const Fiber& f : b.fibers)
        if (f.state == State::AtWarpBarrier)
            for (int l = 0; l < 32; ++l) {
                const int i = f.warp * 32 + l;
                if (((f.mask >> l) & 1u) && i < b.n && b.fibers[i].state == State::AtBlockBarrier)
                    fault(b, "deadlock: " + where(f) + " waits at a warp operation at " + site(f.file, f.line) + " for lane " + std::to_string(l) +
                                 ", which waits at __syncthreads at " + site(b.fibers[i].file, b.fibers[i].line));
            }
    fault(b, "deadlock: no barrier can be released");
}

thread_local uint64_t tShuffleSeed = 0;

// Reseeded whenever the configured seed changes, so a seed gives the same orders again.
std::mt19937_64& shuffleEngine() {
    if (!tShuffle || tShuffleSeed != config().shuffleSeed) {
        tShuffleSeed = config().shuffleSeed;
        tShuffle = std::make_unique<std::mt19937_64>(tShuffleSeed);
    }
    return *tShuffle;
}

// 0 .. n-1 in the configured order.
void orderIndices(std::vector<int>& order, int n) {
    order.resize(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    switch (config().order) {
    case ThreadOrder::Forward: break;
    case ThreadOrder::Reverse: std::reverse(order.begin(), order.end()); break;
    case ThreadOrder::Shuffle: std::shuffle(order.begin(), order.end(), shuffleEngine()); break;
    }
}

void runBlock(Block& b) {
    struct Current {   // the block the fibers' calls refer to, restored however this returns
        Block* outer;
        explicit Current(Block* b) : outer(tBlock) { tBlock = b; }
        ~Current() { tBlock = outer; }
    } current(&b);
    std::vector<int> order;
    // A memory fault inside a fiber comes back here (recoverFromFault) and ends the grid.
    if (sigsetjmp(tFaultJump, 1) != 0) {
        tFaultJumpArmed = false;
        tFiber = nullptr;
        detail::tCurrentThread = nullptr;
        throw DeviceFault{cudaErrorIllegalAddress, tFaultMessage};
    }
    tFaultJumpArmed = true;
    for (;;) {
        orderIndices(order, b.n);   // each round between barriers in its own order
        for (int j : order) {
            Fiber& f = b.fibers[j];
            if (f.state != State::Ready) continue;
            f.state = State::Running;
            tFiber = &f;
            detail::tCurrentThread = &f.coords;
            dlab_emu_switch(&tSchedulerSp, f.sp);
            tFiber = nullptr;
            detail::tCurrentThread = nullptr;
            if (b.aborted) {
                tFaultJumpArmed = false;
                throw DeviceFault{b.code, b.error};
            }
        }
        bool more;
        try {
            more = release(b);
        } catch (...) {
            tFaultJumpArmed = false;
            throw;
        }
        if (!more) break;
    }
    tFaultJumpArmed = false;
}

// Block `linear` of k's grid with every thread at its start, on `stacks`.
void setUpBlock(Block& b, const KernelLaunch& k, int linear, Stacks& stacks) {
    b.k = &k;
    b.stacks = &stacks;
    b.n = static_cast<int>(k.block.x * k.block.y * k.block.z);
    b.fibers.resize(b.n);
    b.slots.assign(2 * size_t(b.n), 0);
    const auto lb = static_cast<unsigned>(linear);
    const uint3 blockIdx{lb % k.grid.x, lb / k.grid.x % k.grid.y, lb / (k.grid.x * k.grid.y)};
    for (int i = 0; i < b.n; ++i) {
        Fiber& f = b.fibers[i];
        f.coords.threadIdx = {static_cast<unsigned>(i) % k.block.x, static_cast<unsigned>(i) / k.block.x % k.block.y,
                              static_cast<unsigned>(i) / (k.block.x * k.block.y)};
        f.coords.blockIdx = blockIdx;
        f.coords.blockDim = k.block;
        f.coords.gridDim = k.grid;
        f.linear = i;
        f.lane = i & 31;
        f.warp = i >> 5;
        initFiber(f, i, stacks);
    }
}

int blocksIn(const KernelLaunch& k) { return static_cast<int>(k.grid.x * k.grid.y * k.grid.z); }

}  // namespace

struct EarlyBlock {
    Block block;
    int linear = 0;
    int stacks = 0;   // which of tEarlyStacks
    ~EarlyBlock() { tEarlyStacksInUse[stacks] = false; }
};
void EarlyBlockDeleter::operator()(EarlyBlock* b) const { delete b; }

EarlyBlockPtr startEarly(const KernelLaunch& k) {
    installFaultHandler();
    const int set = tEarlyStacksInUse[0] ? 1 : 0;
    if (tEarlyStacksInUse[set]) throw DeviceFault{cudaErrorLaunchFailure, "the emulator holds two early blocks already"};
    if (!tEarlyStacks[set]) tEarlyStacks[set] = std::make_unique<Stacks>();
    std::vector<int> blocks;
    orderIndices(blocks, blocksIn(k));
    EarlyBlockPtr e(new EarlyBlock);
    e->stacks = set;
    tEarlyStacksInUse[set] = true;
    e->linear = blocks.front();
    setUpBlock(e->block, k, e->linear, *tEarlyStacks[set]);
    e->block.early = true;
    runBlock(e->block);   // until every thread waits for the previous grid or has ended
    return e;
}

void runKernel(const KernelLaunch& k, EarlyBlockPtr early) {
    installFaultHandler();
    if (!tStacks) tStacks = std::make_unique<Stacks>();
    if (early) {   // the previous grid has run: its waits return
        early->block.early = false;
        for (Fiber& f : early->block.fibers)
            if (f.state == State::AtGridWait) f.state = State::Ready;
        runBlock(early->block);   // (its stacks are free again once `early` goes)
    }
    // A GPU runs the blocks at once: a result that depends on their order is a race there.
    std::vector<int> blocks;
    orderIndices(blocks, blocksIn(k));
    Block b;
    for (const int linearBlock : blocks) {
        if (early && linearBlock == early->linear) continue;
        setUpBlock(b, k, linearBlock, *tStacks);
        runBlock(b);
    }
}

void gridDependencyWait(const char* file, int line) {
    if (!tFiber) throw DeviceFault{cudaErrorLaunchFailure, "cudaGridDependencySynchronize called outside a kernel"};
    if (!tBlock->early) return;
    if (loadedCode().ptxVersion < 90) return;   // code from older PTX has no wait (cuda/ops/pdl.cuh)
    tFiber->state = State::AtGridWait;
    tFiber->file = file;
    tFiber->line = line;
    yieldToScheduler();
}

void syncThreads(const char* file, int line) {
    if (!tFiber) throw DeviceFault{cudaErrorLaunchFailure, "__syncthreads called outside a kernel"};
    tFiber->state = State::AtBlockBarrier;
    tFiber->file = file;
    tFiber->line = line;
    yieldToScheduler();
}

namespace {
void arriveAtWarpBarrier(unsigned mask, const char* file, int line) {
    Fiber& f = *tFiber;
    if (!((mask >> f.lane) & 1u))
        failInFiber("lane " + std::to_string(f.lane) + " calls the warp operation at " + site(file, line) + " with mask " + hex(mask) +
                    ", which leaves the lane itself out");
    f.state = State::AtWarpBarrier;
    f.mask = mask;
    f.file = file;
    f.line = line;
    yieldToScheduler();
}
}  // namespace

void syncWarp(unsigned mask, const char* file, int line) {
    if (!tFiber) throw DeviceFault{cudaErrorLaunchFailure, "__syncwarp called outside a kernel"};
    arriveAtWarpBarrier(mask, file, line);
}

namespace {
// Publishes this lane's value for an exchange among the lanes in mask, waits for them, and returns
// the warp's 32 slots of this exchange. Two halves: a lane released from an exchange may write its
// next value before a slower lane has read this one, but never two exchanges ahead (the next
// barrier waits for that lane).
const uint64_t* publishToWarp(unsigned mask, uint64_t value, const char* what, const char* file, int line) {
    if (!tFiber) throw DeviceFault{cudaErrorLaunchFailure, std::string(what) + " called outside a kernel"};
    Fiber& f = *tFiber;
    Block& b = *tBlock;
    const size_t half = static_cast<size_t>(f.phase) * b.n;
    b.slots[half + f.linear] = value;
    arriveAtWarpBarrier(mask, file, line);
    f.phase ^= 1;
    return b.slots.data() + half + f.warp * 32;
}
}  // namespace

uint64_t warpExchange(unsigned mask, uint64_t value, int srcLane, const char* file, int line) {
    const uint64_t* slots = publishToWarp(mask, value, "a warp shuffle", file, line);
    if (srcLane < 0) return value;
    if (srcLane > 31 || !((mask >> srcLane) & 1u))
        failInFiber("lane " + std::to_string(tFiber->lane) + " reads lane " + std::to_string(srcLane) + " in the shuffle at " + site(file, line) +
                    ", which the mask " + hex(mask) + " leaves out (undefined on a GPU)");
    return slots[srcLane];
}

uint32_t warpBallot(unsigned mask, bool predicate, const char* file, int line) {
    const uint64_t* slots = publishToWarp(mask, predicate ? 1u : 0u, "a warp vote", file, line);
    uint32_t bits = 0;
    for (int l = 0; l < 32; ++l)
        if (((mask >> l) & 1u) && slots[l]) bits |= 1u << l;
    return bits;
}

void misalignedAccess(const void* p, size_t bytes, const char* file, int line) {
    if (!tFiber) throw DeviceFault{cudaErrorMisalignedAddress, "a misaligned device access outside a kernel"};
    char addr[32];
    std::snprintf(addr, sizeof addr, "%p", p);
    failInFiber("misaligned address: a " + std::to_string(bytes) + "-byte access at " + addr + " (" + site(file, line) +
                    ") that is not on a " + std::to_string(bytes) + "-byte boundary",
                cudaErrorMisalignedAddress);
}

bool recoverFromFault(const char* what) {
    if (!tFiber || !tFaultJumpArmed) return false;
    tFaultMessage = where(*tFiber) + ": " + what;
    siglongjmp(tFaultJump, 1);
}

bool isFiberStackGuard(const void* p) {
    if (tStacks && tStacks->isGuard(p)) return true;
    for (const auto& s : tEarlyStacks)
        if (s && s->isGuard(p)) return true;
    return false;
}

}  // namespace dlab::emu
