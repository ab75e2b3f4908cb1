// The paged KV cache's bookkeeping without a model: blocks are shared on fork, copied on a write
// into a shared block (and only then), freed when the last reference goes, and an exhausted pool
// is a clear error that changes nothing.
#include <QTest>

#include <cstring>

#include "core/error.h"
#include "model/kv_block_pool.h"
#include "model/kv_cache.h"

using namespace dlab;

namespace {

HParams smallShape() {
    HParams hp;
    hp.nLayer = 2;
    hp.nHead = 2;
    hp.nHeadKv = 1;
    hp.headDim = 32;
    return hp;
}

// Writes positions [pos0, pos0 + n) of seq with rows whose every value is `tag + pos` (K) and
// -(tag + pos) (V), the way a backend does: prepare, store, commit.
void writeRows(KvBlockPool& pool, SeqId seq, int64_t pos0, int64_t n, float tag) {
    pool.prepareWrite(seq, pos0, n);
    std::vector<float> k(pool.kvDim()), v(pool.kvDim());
    std::vector<TokenId> toks;
    for (int64_t p = pos0; p < pos0 + n; ++p) {
        std::fill(k.begin(), k.end(), tag + float(p));
        std::fill(v.begin(), v.end(), -(tag + float(p)));
        for (int64_t l = 0; l < pool.nLayer(); ++l) {
            pool.storeK(seq, l, p, k.data());
            pool.storeV(seq, l, p, v.data());
        }
        toks.push_back(static_cast<TokenId>(p));
    }
    pool.commit(seq, pos0, toks);
}

float kAt(const KvBlockPool& pool, SeqId seq, int64_t layer, int64_t pos) {
    float x;
    std::memcpy(&x, pool.kRow(seq, layer, pos), sizeof x);  // f32 pool
    return x;
}
float vAt(const KvBlockPool& pool, SeqId seq, int64_t layer, int64_t pos) {
    float x;
    std::memcpy(&x, pool.vRow(seq, layer, pos), sizeof x);
    return x;
}

}  // namespace

class TestKvPool : public QObject {
    Q_OBJECT
private slots:
    void forkSharesPrefixBlocks() {
        KvBlockPool pool(smallShape(), 8, KvType::F32, 4);
        const SeqId a = pool.newSequence();
        writeRows(pool, a, 0, 10, 100.0f);  // blocks: 4 + 4 + 2 (partial)
        QCOMPARE(pool.length(a), int64_t(10));
        QCOMPARE(pool.freeBlocks(), int64_t(5));

        const SeqId b = pool.fork(a, 10);
        QCOMPARE(pool.length(b), int64_t(10));
        QCOMPARE(pool.freeBlocks(), int64_t(5));  // nothing copied
        QCOMPARE(std::vector<int32_t>(pool.blockTable(b).begin(), pool.blockTable(b).end()),
                 std::vector<int32_t>(pool.blockTable(a).begin(), pool.blockTable(a).end()));
        for (int32_t blk : pool.blockTable(a)) QCOMPARE(pool.refCount(blk), 2);
        QCOMPARE(pool.tokens(b), pool.tokens(a));

        const KvStats st = pool.stats();
        QCOMPARE(st.blocksUsed, int64_t(3));
        QCOMPARE(st.blocksShared, int64_t(3));
        QCOMPARE(st.bytesSavedBySharing, 3 * pool.bytesPerBlock());
        QCOMPARE(st.bytesPerBlock, int64_t(2 * 2 * 4 * 32 * 4));  // K+V, 2 layers, 4 positions, 32 f32
        QCOMPARE(st.bytesInUse, 3 * st.bytesPerBlock);
        QCOMPARE(st.bytesPerLayer, st.bytesInUse / 2);
        QCOMPARE(int(st.blocks.size()), 3);
        QCOMPARE(st.blocks[2].filled, int64_t(2));
        QCOMPARE(st.blocks[2].sequences, (std::vector<SeqId>{a, b}));
        QCOMPARE(int(st.sequences.size()), 2);
        QCOMPARE(st.sequences[1].positions, int64_t(10));
    }

    void forkMidBlockSharesThePartialBlock() {
        KvBlockPool pool(smallShape(), 8, KvType::F32, 4);
        const SeqId a = pool.newSequence();
        writeRows(pool, a, 0, 10, 0.0f);
        const SeqId b = pool.fork(a, 6);  // blocks 0 (full) and 1 (positions 4, 5 of 8) shared
        QCOMPARE(pool.blockTable(b).size(), size_t(2));
        QCOMPARE(pool.refCount(pool.blockTable(a)[1]), 2);
        QCOMPARE(pool.refCount(pool.blockTable(a)[2]), 1);
        const SeqId empty = pool.fork(a, 0);
        QCOMPARE(pool.length(empty), int64_t(0));
        QVERIFY(pool.blockTable(empty).empty());
        QVERIFY_THROWS_EXCEPTION(Error, pool.fork(a, 11));
    }

    void writeIntoSharedPartialBlockCopiesIt() {
        KvBlockPool pool(smallShape(), 8, KvType::F32, 4);
        const SeqId a = pool.newSequence();
        writeRows(pool, a, 0, 6, 100.0f);          // block 0 full, block 1 holds positions 4, 5
        const SeqId b = pool.fork(a, 6);
        const int32_t shared = pool.blockTable(a)[1];
        const int64_t freeBefore = pool.freeBlocks();

        writeRows(pool, b, 6, 1, 500.0f);          // b writes position 6 into the shared block
        QVERIFY(pool.blockTable(b)[1] != shared);  // b got its own copy
        QCOMPARE(pool.blockTable(b)[0], pool.blockTable(a)[0]);  // the full block stays shared
        QCOMPARE(pool.refCount(shared), 1);
        QCOMPARE(pool.refCount(pool.blockTable(a)[0]), 2);
        QCOMPARE(pool.freeBlocks(), freeBefore - 1);
        // The copy carries the prefix rows; a's rows are untouched by b's write.
        for (int64_t l = 0; l < 2; ++l) {
            QCOMPARE(kAt(pool, b, l, 4), 104.0f);
            QCOMPARE(vAt(pool, b, l, 5), -105.0f);
            QCOMPARE(kAt(pool, b, l, 6), 506.0f);
        }
        writeRows(pool, a, 6, 1, 900.0f);          // a's block is private again: written in place
        QCOMPARE(pool.blockTable(a)[1], shared);
        QCOMPARE(kAt(pool, a, 1, 6), 906.0f);
        QCOMPARE(kAt(pool, b, 1, 6), 506.0f);
        QCOMPARE(pool.freeBlocks(), freeBefore - 1);
        QCOMPARE(pool.stats().blocksShared, int64_t(1));
    }

    void writeAfterForkAtBlockBoundaryCopiesNothing() {
        KvBlockPool pool(smallShape(), 8, KvType::F32, 4);
        const SeqId a = pool.newSequence();
        writeRows(pool, a, 0, 8, 0.0f);
        const SeqId b = pool.fork(a, 8);
        writeRows(pool, b, 8, 3, 0.0f);  // a fresh block; the two full blocks stay shared
        QCOMPARE(pool.refCount(pool.blockTable(b)[0]), 2);
        QCOMPARE(pool.refCount(pool.blockTable(b)[1]), 2);
        QCOMPARE(pool.refCount(pool.blockTable(b)[2]), 1);
        QCOMPARE(pool.freeBlocks(), int64_t(5));
    }

    void refcountsDropOnFreeAndTruncate() {
        KvBlockPool pool(smallShape(), 8, KvType::F32, 4);
        const SeqId a = pool.newSequence();
        writeRows(pool, a, 0, 10, 0.0f);
        const SeqId b = pool.fork(a, 10);
        const SeqId c = pool.fork(b, 5);
        QCOMPARE(pool.refCount(pool.blockTable(a)[0]), 3);
        QCOMPARE(pool.refCount(pool.blockTable(a)[1]), 3);
        pool.freeSequence(a);
        QVERIFY(!pool.contains(a));
        QVERIFY_THROWS_EXCEPTION(Error, pool.length(a));
        QCOMPARE(pool.refCount(pool.blockTable(b)[0]), 2);
        QCOMPARE(pool.refCount(pool.blockTable(b)[2]), 1);
        QCOMPARE(pool.freeBlocks(), int64_t(5));
        pool.truncate(b, 3);              // b keeps block 0 only
        QCOMPARE(pool.blockTable(b).size(), size_t(1));
        QCOMPARE(pool.refCount(pool.blockTable(c)[1]), 1);
        QCOMPARE(pool.freeBlocks(), int64_t(6));
        pool.freeSequence(b);
        pool.freeSequence(c);
        QCOMPARE(pool.freeBlocks(), int64_t(8));
        QCOMPARE(pool.stats().blocksUsed, int64_t(0));
        QVERIFY(pool.stats().blocks.empty());
    }

    void outOfBlocksIsAnErrorThatChangesNothing() {
        KvBlockPool pool(smallShape(), 4, KvType::F32, 4);
        const SeqId a = pool.newSequence();
        writeRows(pool, a, 0, 10, 0.0f);
        const SeqId b = pool.fork(a, 10);
        writeRows(pool, b, 10, 2, 0.0f);  // copy of the partial block: the last free block
        QCOMPARE(pool.freeBlocks(), int64_t(0));
        try {
            pool.prepareWrite(a, 10, 3);   // fills a's partial block, then needs one more
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY2(QString(e.what()).contains("out of blocks"), e.what());
        }
        QCOMPARE(pool.length(a), int64_t(10));
        QCOMPARE(pool.blockTable(a).size(), size_t(3));
        writeRows(pool, a, 10, 2, 0.0f);  // what fits still works
        QCOMPARE(pool.length(a), int64_t(12));
    }

    void contextLimitIsAnError() {
        KvCache cache(smallShape(), 10, KvType::F32, 4);
        QCOMPARE(cache.capacity(), int64_t(10));
        QCOMPARE(cache.pool().nBlocks(), int64_t(3));
        writeRows(cache.pool(), cache.sequence(), 0, 10, 0.0f);
        QCOMPARE(cache.size(), int64_t(10));
        QVERIFY_THROWS_EXCEPTION(Error, cache.pool().prepareWrite(cache.sequence(), 10, 1));
        cache.clear();
        QCOMPARE(cache.size(), int64_t(0));
        QCOMPARE(cache.pool().freeBlocks(), int64_t(3));
    }

    void rowSizesPerType_data() {
        QTest::addColumn<QString>("type");
        QTest::addColumn<int>("rowBytes");  // one position of one layer's K, kvDim = 64
        QTest::newRow("f32") << "f32" << 256;
        QTest::newRow("f16") << "f16" << 128;
        QTest::newRow("q8_0") << "q8_0" << 68;  // two blocks of 32 values + fp16 scale
    }
    void rowSizesPerType() {
        QFETCH(QString, type);
        QFETCH(int, rowBytes);
        HParams hp = smallShape();
        hp.nHeadKv = 2;
        KvBlockPool pool(hp, 2, parseKvType(type.toStdString()));
        QCOMPARE(pool.rowBytes(), size_t(rowBytes));
        QCOMPARE(pool.bytesPerBlock(), int64_t(2 * 2 * 16 * rowBytes));
    }

    void q8NeedsHeadsOfWholeBlocks() {
        HParams hp = smallShape();
        hp.headDim = 16;
        QVERIFY_THROWS_EXCEPTION(Error, KvBlockPool(hp, 2, KvType::Q8_0));
        QVERIFY_THROWS_EXCEPTION(Error, parseKvType("q4_0"));
    }
};

QTEST_GUILESS_MAIN(TestKvPool)
#include "test_kv_pool.moc"
