// The loop detector on hand-made token sequences: periods 1..8 with and without a partial last
// block and a non-repeating lead-in, the shortest period winning, the long-span rule, and no
// false positive on text that does not loop.
#include <QTest>

#include <set>
#include <vector>

#include "core/error.h"
#include "generate/repetition.h"

Q_DECLARE_METATYPE(std::vector<dlab::TokenId>)

using namespace dlab;

namespace {

// `lead` distinct tokens (1000, 1001, ...), then `repeats` copies of the block 0..period-1, then
// the first `partial` tokens of one more.
std::vector<TokenId> looped(int lead, int period, int repeats, int partial) {
    std::vector<TokenId> t;
    for (int i = 0; i < lead; ++i) t.push_back(1000 + i);
    for (int r = 0; r < repeats; ++r)
        for (int i = 0; i < period; ++i) t.push_back(i);
    for (int i = 0; i < partial; ++i) t.push_back(i);
    return t;
}

}  // namespace

class TestRepetition : public QObject {
    Q_OBJECT
private slots:
    void findsLoop_data() {
        QTest::addColumn<int>("lead");
        QTest::addColumn<int>("period");
        QTest::addColumn<int>("repeats");
        QTest::addColumn<int>("partial");
        for (int p = 1; p <= 8; ++p) {
            for (int partial : std::set<int>{0, p / 2, p - 1}) {
                for (int lead : {0, 5}) {
                    const QByteArray name = QByteArray("p") + QByteArray::number(p) + "-partial" +
                                            QByteArray::number(partial) + "-lead" + QByteArray::number(lead);
                    QTest::newRow(name.constData()) << lead << p << 3 << partial;
                }
            }
            QTest::newRow((QByteArray("p") + QByteArray::number(p) + "-x5").constData()) << 2 << p << 5 << 0;
        }
    }
    void findsLoop() {
        QFETCH(int, lead);
        QFETCH(int, period);
        QFETCH(int, repeats);
        QFETCH(int, partial);
        const auto t = looped(lead, period, repeats, partial);
        RepetitionOptions o;
        o.minSpanTokens = 0;
        const RepetitionSpan s = findRepetition(t, o);
        QVERIFY(s.found);
        QCOMPARE(s.period, period);
        QCOMPARE(s.repeats, repeats);
        QCOMPARE(s.partial, partial);
        QCOMPARE(s.start, int64_t(lead));
        QCOMPARE(s.length, int64_t(period * repeats + partial));
        QCOMPARE(s.start + s.length, int64_t(t.size()));
    }

    void twoRepeatsAreNotALoop_data() {
        QTest::addColumn<int>("period");
        for (int p = 1; p <= 8; ++p) QTest::newRow(QByteArray::number(p).constData()) << p;
    }
    void twoRepeatsAreNotALoop() {
        QFETCH(int, period);
        RepetitionOptions o;
        o.minSpanTokens = 0;
        QVERIFY(!findRepetition(looped(3, period, 2, period - 1), o).found);
    }

    void shortestPeriodWins() {
        // "0 0 0 0 0 0" has periods 1, 2 and 3; the report is period 1 with six repeats.
        const std::vector<TokenId> t(6, 0);
        const auto s = findRepetition(t);
        QVERIFY(s.found);
        QCOMPARE(s.period, 1);
        QCOMPARE(s.repeats, 6);
        // "a b a b a b" is period 2, not 4 or 6.
        const auto s2 = findRepetition(std::vector<TokenId>{7, 8, 7, 8, 7, 8});
        QCOMPARE(s2.period, 2);
        QCOMPARE(s2.repeats, 3);
    }

    void longSpanWithTwoRepeats() {
        // A 12-token sentence said twice: 24 tokens, only two repeats.
        const auto t = looped(4, 12, 2, 0);
        RepetitionOptions o;
        o.minSpanTokens = 24;
        const auto s = findRepetition(t, o);
        QVERIFY(s.found);
        QCOMPARE(s.period, 12);
        QCOMPARE(s.repeats, 2);
        QCOMPARE(s.start, int64_t(4));
        o.minSpanTokens = 25;
        QVERIFY(!findRepetition(t, o).found);
        o.minSpanTokens = 0;
        QVERIFY(!findRepetition(t, o).found);
    }

    void periodBeyondMaxIsIgnored() {
        RepetitionOptions o;
        o.maxPeriod = 4;
        QVERIFY(!findRepetition(looped(0, 5, 4, 0), o).found);
        o.maxPeriod = 5;
        QCOMPARE(findRepetition(looped(0, 5, 4, 0), o).period, 5);
    }

    void noFalsePositive_data() {
        QTest::addColumn<std::vector<TokenId>>("tokens");
        QTest::newRow("empty") << std::vector<TokenId>{};
        QTest::newRow("one") << std::vector<TokenId>{4};
        QTest::newRow("two-equal") << std::vector<TokenId>{4, 4};
        QTest::newRow("distinct") << std::vector<TokenId>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
        // Loops that ended earlier do not count: only the tail matters.
        QTest::newRow("loop-then-escape") << std::vector<TokenId>{1, 2, 1, 2, 1, 2, 1, 2, 9};
        QTest::newRow("near-miss") << std::vector<TokenId>{1, 2, 3, 1, 2, 3, 1, 2, 4};
        // "the cat sat on the mat and the dog": common words recur, no block repeats.
        QTest::newRow("sentence") << std::vector<TokenId>{10, 11, 12, 13, 10, 14, 15, 10, 16};
        // A pseudo-random sequence over a small alphabet.
        std::vector<TokenId> lcg;
        uint32_t x = 12345;
        for (int i = 0; i < 200; ++i) { x = x * 1103515245u + 12345u; lcg.push_back(TokenId((x >> 16) % 50)); }
        QTest::newRow("random-50") << lcg;
    }
    void noFalsePositive() {
        QFETCH(std::vector<TokenId>, tokens);
        QVERIFY(!findRepetition(tokens).found);
    }

    void badOptionsThrow() {
        const std::vector<TokenId> t{1, 1, 1};
        RepetitionOptions o;
        o.minRepeats = 1;
        QVERIFY_THROWS_EXCEPTION(Error, findRepetition(t, o));
        o = {};
        o.maxPeriod = 0;
        QVERIFY_THROWS_EXCEPTION(Error, findRepetition(t, o));
        o = {};
        o.minSpanTokens = -1;
        QVERIFY_THROWS_EXCEPTION(Error, findRepetition(t, o));
    }
};

QTEST_APPLESS_MAIN(TestRepetition)
#include "test_repetition.moc"
