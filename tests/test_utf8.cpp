// UTF-8 helpers behind the tokenizers: validation, the streaming "emittable prefix" and
// U+FFFD replacement of ill-formed bytes.
#include <QtTest>

#include "core/error.h"
#include "tokenizer/utf8.h"

using namespace dlab;

namespace {
QByteArray bytes(std::string_view s) { return QByteArray(s.data(), static_cast<qsizetype>(s.size())); }
std::string str(const QByteArray& b) { return std::string(b.constData(), static_cast<size_t>(b.size())); }
}  // namespace

class TestUtf8 : public QObject {
    Q_OBJECT
private slots:
    void firstInvalid_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<qlonglong>("offset");   // -1: valid
        QTest::newRow("empty") << QByteArray() << -1LL;
        QTest::newRow("ascii") << QByteArray("hello") << -1LL;
        QTest::newRow("two-byte") << QByteArray("\xC3\xA4pfel") << -1LL;
        QTest::newRow("cjk") << QByteArray("\xE6\x97\xA5\xE6\x9C\xAC") << -1LL;
        QTest::newRow("emoji") << QByteArray("a\xF0\x9F\xA6\x99") << -1LL;
        QTest::newRow("max scalar U+10FFFF") << QByteArray("\xF4\x8F\xBF\xBF") << -1LL;
        QTest::newRow("lone continuation") << QByteArray("ab\x80") << 2LL;
        QTest::newRow("overlong C0") << QByteArray("\xC0\xAF") << 0LL;
        QTest::newRow("overlong E0") << QByteArray("x\xE0\x80\xAF") << 1LL;
        QTest::newRow("surrogate") << QByteArray("\xED\xA0\x80") << 0LL;
        QTest::newRow("above U+10FFFF") << QByteArray("\xF4\x90\x80\x80") << 0LL;
        QTest::newRow("F5 lead") << QByteArray("\xF5\x80\x80\x80") << 0LL;
        QTest::newRow("truncated at end") << QByteArray("ok\xF0\x9F\xA6") << 2LL;
        QTest::newRow("interrupted") << QByteArray("\xE6\x97" "a") << 0LL;
        QTest::newRow("latin-1 byte") << QByteArray("caf\xE9") << 3LL;
    }
    void firstInvalid() {
        QFETCH(QByteArray, text);
        QFETCH(qlonglong, offset);
        const size_t got = utf8::firstInvalidOffset(str(text));
        QCOMPARE(got == utf8::npos ? -1LL : static_cast<qlonglong>(got), offset);
    }

    void requireValidMessage_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("latin-1") << QByteArray("caf\xE9 au lait") << "invalid byte 0xE9 at offset 3";
        QTest::newRow("continuation") << QByteArray("ab\x80") << "invalid byte 0x80 at offset 2";
        QTest::newRow("truncated") << QByteArray("ok\xF0\x9F") << "byte 0xF0 at offset 2 starts a sequence that is cut off";
    }
    void requireValidMessage() {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        try {
            utf8::requireValid(str(text));
            QFAIL("no exception");
        } catch (const Error& e) {
            const QString msg = QString::fromUtf8(e.what());
            QVERIFY2(msg.startsWith("text is not valid UTF-8"), qPrintable(msg));
            QVERIFY2(msg.contains(expected), qPrintable(msg));
        }
    }

    void emittablePrefix_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("prefix");
        QTest::newRow("complete") << QByteArray("a\xF0\x9F\xA6\x99") << 5;
        QTest::newRow("1 of 4") << QByteArray("a\xF0") << 1;
        QTest::newRow("3 of 4") << QByteArray("a\xF0\x9F\xA6") << 1;
        QTest::newRow("2 of 3") << QByteArray("\xE6\x97") << 0;
        // Bytes that can never complete are not held back (they become U+FFFD).
        QTest::newRow("stray continuation") << QByteArray("a\x80") << 2;
        QTest::newRow("broken then partial") << QByteArray("\xE6" "b\xE6\x97") << 2;
    }
    void emittablePrefix() {
        QFETCH(QByteArray, text);
        QFETCH(int, prefix);
        QCOMPARE(static_cast<int>(utf8::emittablePrefix(str(text))), prefix);
    }

    void sanitize_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("valid") << QByteArray("h\xC3\xA9") << QByteArray("h\xC3\xA9");
        QTest::newRow("truncated emoji is one U+FFFD") << QByteArray("a\xF0\x9F\xA6" "b") << QByteArray("a\xEF\xBF\xBD" "b");
        QTest::newRow("two strays are two") << QByteArray("\x80\x80") << QByteArray("\xEF\xBF\xBD\xEF\xBF\xBD");
        QTest::newRow("surrogate bytes") << QByteArray("\xED\xA0\x80") << QByteArray("\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
    }
    void sanitize() {
        QFETCH(QByteArray, text);
        QFETCH(QByteArray, expected);
        QCOMPARE(bytes(utf8::sanitize(str(text))), expected);
    }

    void encodeDecode_data() {
        QTest::addColumn<uint>("codepoint");
        QTest::addColumn<QByteArray>("encoded");
        QTest::newRow("A") << 0x41u << QByteArray("A");
        QTest::newRow("e-acute") << 0xE9u << QByteArray("\xC3\xA9");
        QTest::newRow("lower one eighth block") << 0x2581u << QByteArray("\xE2\x96\x81");
        QTest::newRow("llama") << 0x1F999u << QByteArray("\xF0\x9F\xA6\x99");
    }
    void encodeDecode() {
        QFETCH(uint, codepoint);
        QFETCH(QByteArray, encoded);
        QCOMPARE(bytes(utf8::encode(codepoint)), encoded);
        size_t pos = 0;
        const std::string s = str(encoded);
        QCOMPARE(static_cast<uint>(utf8::decode(s, pos)), codepoint);
        QCOMPARE(pos, s.size());
    }
};

QTEST_APPLESS_MAIN(TestUtf8)
#include "test_utf8.moc"
