// Chat formats: recognising the four template shapes and rendering conversations exactly as
// the Jinja templates in tests/data/tokenizer/chat render them. The expected strings were
// printed by tests/data/tokenizer/chat/render_expected.py (Jinja2, Hugging Face's settings).
#include <QtTest>

#include <QFile>

#include <algorithm>

#include "core/error.h"
#include "gguf/gguf_file.h"
#include "test_paths.h"
#include "tokenizer/chat_template.h"
#include "tokenizer/tokenizer.h"

using namespace dlab;

namespace {

std::string templateText(const QString& name) {
    QFile f(QString::fromStdString(test::dataDir()) + "/tokenizer/chat/" + name + ".jinja");
    if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read chat template %s", qPrintable(name));
    return f.readAll().toStdString();
}

const std::vector<ChatMessage> kFull = {
    {"system", "You are a terse assistant."},
    {"user", "What is 2+2?"},
    {"assistant", "  It is 4.  "},
    {"user", "And 3+3?\n"},
};
const std::vector<ChatMessage> kUserOnly = {{"user", "Hi!"}};

}  // namespace

Q_DECLARE_METATYPE(ChatFormat)

class TestChatTemplate : public QObject {
    Q_OBJECT
private slots:
    void detect_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<ChatFormat>("format");
        QTest::addColumn<QString>("defaultSystem");
        QTest::newRow("smollm2") << "smollm2" << ChatFormat::ChatML
                                 << "You are a helpful AI assistant named SmolLM, trained by Hugging Face";
        QTest::newRow("qwen2") << "qwen2" << ChatFormat::ChatML << "You are a helpful assistant";
        QTest::newRow("qwen2.5") << "qwen2.5" << ChatFormat::ChatML
                                 << "You are Qwen, created by Alibaba Cloud. You are a helpful assistant.";
        QTest::newRow("llama3") << "llama3" << ChatFormat::Llama3 << "";
        QTest::newRow("llama2") << "llama2" << ChatFormat::Llama2 << "";
        QTest::newRow("zephyr") << "zephyr" << ChatFormat::Zephyr << "";
    }
    void detect() {
        QFETCH(QString, name);
        QFETCH(ChatFormat, format);
        QFETCH(QString, defaultSystem);
        const std::string t = templateText(name);
        QCOMPARE(detectChatFormat(t), format);
        QCOMPARE(QString::fromStdString(defaultSystemPrompt(t)), defaultSystem);
    }

    void plainChatMLHasNoDefaultSystem() {
        const std::string t =
            "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + "
            "'<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";
        QCOMPARE(detectChatFormat(t), ChatFormat::ChatML);
        QCOMPARE(defaultSystemPrompt(t), std::string());
    }

    void unknownTemplate_data() {
        QTest::addColumn<QString>("text");
        QTest::newRow("gemma") << "{{ '<start_of_turn>' + role + '\\n' + message['content'] | trim + '<end_of_turn>\\n' }}";
        QTest::newRow("phi3") << "{{'<|user|>' + '\\n' + message['content'] + '<|end|>' + '\\n' + '<|assistant|>' + '\\n'}}";
        QTest::newRow("mistral without <<SYS>>") << "{{ '[INST] ' + message['content'] + ' [/INST]' }}";
    }
    void unknownTemplate() {
        QFETCH(QString, text);
        try {
            detectChatFormat(text.toStdString());
            QFAIL("no exception");
        } catch (const Error& e) {
            QVERIFY2(QString(e.what()).contains("not a format we know"), e.what());
        }
    }

    void render_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("full");
        QTest::addColumn<bool>("generationPrompt");
        QTest::addColumn<QString>("expected");
        QTest::newRow("smollm2 full") << "smollm2" << true << true
            << "<|im_start|>system\nYou are a terse assistant.<|im_end|>\n<|im_start|>user\nWhat is 2+2?<|im_end|>\n"
               "<|im_start|>assistant\n  It is 4.  <|im_end|>\n<|im_start|>user\nAnd 3+3?\n<|im_end|>\n"
               "<|im_start|>assistant\n";
        QTest::newRow("smollm2 default system") << "smollm2" << false << true
            << "<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n"
               "<|im_start|>user\nHi!<|im_end|>\n<|im_start|>assistant\n";
        QTest::newRow("smollm2 no prompt") << "smollm2" << false << false
            << "<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n"
               "<|im_start|>user\nHi!<|im_end|>\n";
        QTest::newRow("qwen2 default system") << "qwen2" << false << true
            << "<|im_start|>system\nYou are a helpful assistant<|im_end|>\n<|im_start|>user\nHi!<|im_end|>\n"
               "<|im_start|>assistant\n";
        QTest::newRow("qwen2.5 default system") << "qwen2.5" << false << true
            << "<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n"
               "<|im_start|>user\nHi!<|im_end|>\n<|im_start|>assistant\n";
        QTest::newRow("qwen2.5 full") << "qwen2.5" << true << true
            << "<|im_start|>system\nYou are a terse assistant.<|im_end|>\n<|im_start|>user\nWhat is 2+2?<|im_end|>\n"
               "<|im_start|>assistant\n  It is 4.  <|im_end|>\n<|im_start|>user\nAnd 3+3?\n<|im_end|>\n"
               "<|im_start|>assistant\n";
        QTest::newRow("llama3 full") << "llama3" << true << true
            << "<s><|start_header_id|>system<|end_header_id|>\n\nYou are a terse assistant.<|eot_id|>"
               "<|start_header_id|>user<|end_header_id|>\n\nWhat is 2+2?<|eot_id|>"
               "<|start_header_id|>assistant<|end_header_id|>\n\nIt is 4.<|eot_id|>"
               "<|start_header_id|>user<|end_header_id|>\n\nAnd 3+3?<|eot_id|>"
               "<|start_header_id|>assistant<|end_header_id|>\n\n";
        QTest::newRow("llama3 user only") << "llama3" << false << false
            << "<s><|start_header_id|>user<|end_header_id|>\n\nHi!<|eot_id|>";
        QTest::newRow("llama2 full") << "llama2" << true << true
            << "<s>[INST] <<SYS>>\nYou are a terse assistant.\n<</SYS>>\n\nWhat is 2+2? [/INST] It is 4. </s>"
               "<s>[INST] And 3+3? [/INST]";
        QTest::newRow("llama2 user only") << "llama2" << false << true << "<s>[INST] Hi! [/INST]";
        QTest::newRow("zephyr full") << "zephyr" << true << true
            << "<|system|>\nYou are a terse assistant.</s>\n<|user|>\nWhat is 2+2?</s>\n"
               "<|assistant|>\n  It is 4.  </s>\n<|user|>\nAnd 3+3?\n</s>\n<|assistant|>\n";
        QTest::newRow("zephyr user only") << "zephyr" << false << false << "<|user|>\nHi!</s>\n";
    }
    void render() {
        QFETCH(QString, name);
        QFETCH(bool, full);
        QFETCH(bool, generationPrompt);
        QFETCH(QString, expected);
        const std::string t = templateText(name);
        const auto& messages = full ? kFull : kUserOnly;
        const std::string got = renderChatTemplate(t, messages, generationPrompt, "<s>", "</s>");
        QCOMPARE(QString::fromStdString(got), expected);
        // Without a default system prompt in play, renderChat gives the same text.
        if (full || defaultSystemPrompt(t).empty())
            QCOMPARE(renderChat(detectChatFormat(t), messages, generationPrompt, "<s>", "</s>"), got);
    }

    void llama2RolesMustAlternate() {
        const std::vector<ChatMessage> bad = {{"user", "a"}, {"user", "b"}};
        QVERIFY_THROWS_EXCEPTION(Error, renderChat(ChatFormat::Llama2, bad, true, "<s>", "</s>"));
    }

    void defaultModel() {
        const std::string path = test::defaultModelPath();
        if (path.empty()) QFAIL("the default model is not installed (scripts/setup.sh installs it)");
        const auto file = GgufFile::open(path);
        QCOMPARE(chatFormatOf(*file), ChatFormat::ChatML);
        const std::string prompt = renderChatTemplate(chatTemplateOf(*file), kUserOnly, true);
        QCOMPARE(prompt, std::string("<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by "
                                     "Hugging Face<|im_end|>\n<|im_start|>user\nHi!<|im_end|>\n<|im_start|>assistant\n"));
        // Tokenized with special tokens parsed, the turn markers become single tokens.
        const auto tok = Tokenizer::fromGguf(*file);
        const auto ids = tok->encode(prompt, tok->addsBosByDefault(), true);
        QCOMPARE(ids.front(), 1);  // <|im_start|>
        QCOMPARE(std::count(ids.begin(), ids.end(), 1), 3);
        QCOMPARE(std::count(ids.begin(), ids.end(), 2), 2);  // <|im_end|>
        QCOMPARE(tok->decode(ids, true), prompt);
    }

    void formatNames() {
        QCOMPARE(QString(chatFormatName(ChatFormat::ChatML)), QString("ChatML"));
        QCOMPARE(QString(chatFormatName(ChatFormat::Llama3)), QString("Llama 3"));
        QCOMPARE(QString(chatFormatName(ChatFormat::Llama2)), QString("Llama 2"));
        QCOMPARE(QString(chatFormatName(ChatFormat::Zephyr)), QString("Zephyr"));
    }
};

QTEST_APPLESS_MAIN(TestChatTemplate)
#include "test_chat_template.moc"
