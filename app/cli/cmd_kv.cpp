// decoding-lab-cli kv --preset NAME | --model PATH [--context N] [--dtype f16|f32|q8_0] [--batch B]
//                     [--block-size 16] [--json] | --list
// KV memory = 2 · layers · kv_heads · head_dim · positions · bytes per value · batch.
#include <cstdio>
#include <string>

#include "cmd_kv.h"
#include "commands.h"
#include "core/json_writer.h"
#include "gguf/gguf_file.h"
#include "model/kv_block_pool.h"
#include "model/kv_memory.h"
#include "model/model_locator.h"
#include "core/error.h"

namespace dlab::cli {

namespace {

std::string humanBytes(double b) {
    const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (b >= 1024.0 && u < 4) { b /= 1024.0; ++u; }
    char buf[64];
    std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.2f %s", b, units[u]);
    return buf;
}

int listPresets() {
    std::printf("| preset | model | layers | heads | kv heads | head dim | KV per token f16 | trained context |\n"
                "|---|---|---|---|---|---|---|---|\n");
    for (const KvShape& s : kvPresets())
        std::printf("| %s | %s | %lld | %lld | %lld | %lld | %s | %lld |\n", s.key.c_str(), s.name.c_str(), (long long)s.nLayer,
                    (long long)s.nHead, (long long)s.nHeadKv, (long long)s.headDim,
                    humanBytes(double(kvBytesPerPosition(s, KvType::F16))).c_str(), (long long)s.nCtxTrain);
    return 0;
}

}  // namespace

int runKv(Args& args) {
    if (args.flag("--list")) {
        args.finish();
        return listPresets();
    }
    const auto preset = args.value("--preset");
    const auto modelPath = args.value("--model");
    const long long context = args.integer("--context", 0, 0, 1LL << 30);
    const KvType type = parseKvType(args.value("--dtype", "f16"));
    const int64_t batch = args.integer("--batch", 1, 1, 1 << 20);
    const int64_t blockSize = args.integer("--block-size", 16, 1, 4096);
    const bool json = args.flag("--json");
    args.finish();
    if (preset && modelPath) throw Error("kv: give --preset or --model, not both");

    KvShape shape;
    if (preset) {
        shape = findKvPreset(*preset);
    } else {
        const std::string path = resolveModelPath(modelPath.value_or(""));
        shape = kvShapeOf(readHParams(*GgufFile::open(path)), path);
    }
    const int64_t positions = context > 0 ? context : shape.nCtxTrain;
    const int64_t perPos = kvBytesPerPosition(shape, type);
    const int64_t total = kvCacheBytes(shape, positions, type, batch);
    const int64_t blocks = KvBlockPool::blocksFor(positions, blockSize) * batch;
    const int64_t blockBytes = perPos * blockSize;

    if (json) {
        JsonWriter j;
        j.beginObject().field("model", shape.name).field("n_layer", shape.nLayer).field("n_head", shape.nHead)
            .field("n_head_kv", shape.nHeadKv).field("head_dim", shape.headDim).field("dtype", kvTypeName(type))
            .field("bytes_per_value", kvBytesPerValue(type)).field("context", positions).field("batch", batch)
            .field("bytes_per_position", perPos).field("bytes_per_layer", total / shape.nLayer).field("bytes", total)
            .field("block_size", blockSize).field("blocks", blocks).field("bytes_per_block", blockBytes).endObject();
        std::printf("%s\n", j.str().c_str());
        return 0;
    }
    std::printf("%s: %lld layers, %lld KV heads of %lld (query heads %lld, %lld per KV head)\n", shape.name.c_str(),
                (long long)shape.nLayer, (long long)shape.nHeadKv, (long long)shape.headDim, (long long)shape.nHead,
                (long long)(shape.nHead / std::max<int64_t>(1, shape.nHeadKv)));
    std::printf("KV per position  2 · %lld · %lld · %lld · %g bytes = %s (%lld bytes, %s)\n", (long long)shape.nLayer,
                (long long)shape.nHeadKv, (long long)shape.headDim, kvBytesPerValue(type), humanBytes(double(perPos)).c_str(),
                (long long)perPos, kvTypeName(type));
    std::printf("positions        %lld context × %lld sequences\n", (long long)positions, (long long)batch);
    std::printf("KV cache         %s (%lld bytes), %s per layer\n", humanBytes(double(total)).c_str(), (long long)total,
                humanBytes(double(total) / shape.nLayer).c_str());
    std::printf("paged            %lld blocks of %lld positions, %s each\n", (long long)blocks, (long long)blockSize,
                humanBytes(double(blockBytes)).c_str());
    return 0;
}

}  // namespace dlab::cli
