#include "tokenizer/chat_template.h"

#include "core/error.h"
#include "gguf/gguf_file.h"
#include "tokenizer/utf8.h"

namespace dlab {
namespace {

bool contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

// Python's str.isspace for the code points Jinja's trim / str.strip() remove.
bool isPySpace(char32_t c) {
    return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20) || c == 0x85 || c == 0xA0 || c == 0x1680 ||
           (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

// Python's str.strip(): whitespace removed at both ends. Bytes that are not UTF-8 count as text.
std::string strip(const std::string& text) {
    size_t begin = std::string::npos, end = 0;
    for (size_t pos = 0; pos < text.size();) {
        const size_t at = pos;
        const bool space = utf8::validSequenceLength(text, pos) > 0 ? isPySpace(utf8::decode(text, pos)) : (++pos, false);
        if (space) continue;
        if (begin == std::string::npos) begin = at;
        end = pos;
    }
    return begin == std::string::npos ? std::string() : text.substr(begin, end - begin);
}

std::string renderChatML(const std::vector<ChatMessage>& messages, bool addAssistantPrefix) {
    std::string out;
    for (const ChatMessage& m : messages) out += "<|im_start|>" + m.role + "\n" + m.content + "<|im_end|>\n";
    if (addAssistantPrefix) out += "<|im_start|>assistant\n";
    return out;
}

std::string renderLlama3(const std::vector<ChatMessage>& messages, bool addAssistantPrefix, const std::string& bos) {
    std::string out = bos;
    for (const ChatMessage& m : messages)
        out += "<|start_header_id|>" + m.role + "<|end_header_id|>\n\n" + strip(m.content) + "<|eot_id|>";
    if (addAssistantPrefix) out += "<|start_header_id|>assistant<|end_header_id|>\n\n";
    return out;
}

std::string renderLlama2(const std::vector<ChatMessage>& messages, const std::string& bos, const std::string& eos) {
    size_t first = 0;
    std::string system;
    bool hasSystem = false;
    if (!messages.empty() && messages[0].role == "system") {
        system = messages[0].content;
        hasSystem = true;
        first = 1;
    }
    std::string out;
    for (size_t i = first; i < messages.size(); ++i) {
        const size_t index = i - first;
        const ChatMessage& m = messages[i];
        if ((m.role == "user") != (index % 2 == 0))
            throw Error("the Llama 2 chat format needs messages that alternate user/assistant after an optional "
                        "system message (message " + std::to_string(i + 1) + " is '" + m.role + "')");
        std::string content = m.content;
        if (index == 0 && hasSystem) content = "<<SYS>>\n" + system + "\n<</SYS>>\n\n" + content;
        if (m.role == "user") out += bos + "[INST] " + strip(content) + " [/INST]";
        else if (m.role == "assistant") out += " " + strip(content) + " " + eos;
    }
    return out;
}

std::string renderZephyr(const std::vector<ChatMessage>& messages, bool addAssistantPrefix, const std::string& eos) {
    std::string out;
    for (const ChatMessage& m : messages)
        if (m.role == "user" || m.role == "system" || m.role == "assistant")
            out += "<|" + m.role + "|>\n" + m.content + eos + "\n";
    // The template writes the prompt inside its message loop, so an empty conversation gets none.
    if (addAssistantPrefix && !messages.empty()) out += "<|assistant|>\n";
    return out;
}

// Reads the Jinja string literal that starts at `from` (just after some text inside it) up to
// its closing quote, undoing escapes. Returns false if the literal does not close.
bool readLiteralRest(const std::string& s, size_t from, char quote, std::string& out) {
    for (size_t i = from; i < s.size(); ++i) {
        const char c = s[i];
        if (c == quote) return true;
        if (c == '\\' && i + 1 < s.size()) {
            const char e = s[++i];
            out += e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e;
            continue;
        }
        out += c;
    }
    return false;
}

}  // namespace

const char* chatFormatName(ChatFormat f) {
    switch (f) {
        case ChatFormat::ChatML: return "ChatML";
        case ChatFormat::Llama3: return "Llama 3";
        case ChatFormat::Llama2: return "Llama 2";
        case ChatFormat::Zephyr: return "Zephyr";
    }
    return "unknown";
}

ChatFormat detectChatFormat(const std::string& t) {
    if (contains(t, "<|im_start|>")) return ChatFormat::ChatML;
    if (contains(t, "<|start_header_id|>")) return ChatFormat::Llama3;
    if (contains(t, "[INST]") && contains(t, "<<SYS>>")) return ChatFormat::Llama2;
    // Phi-3 also writes <|user|> / <|assistant|>, but ends turns with <|end|> instead of EOS.
    if (contains(t, "<|user|>") && contains(t, "<|assistant|>") && !contains(t, "<|end|>") &&
        (contains(t, "eos_token") || contains(t, "</s>")))
        return ChatFormat::Zephyr;
    std::string head = t.substr(0, 60);
    for (char& c : head)
        if (c == '\n') c = ' ';
    throw Error("the chat template is not a format we know (ChatML, Llama 3, Llama 2 or Zephyr); it starts with \"" +
                head + (t.size() > 60 ? "...\"" : "\""));
}

std::string chatTemplateOf(const GgufFile& file) {
    return file.has("tokenizer.chat_template") ? file.getString("tokenizer.chat_template") : std::string();
}

ChatFormat chatFormatOf(const GgufFile& file) {
    const std::string t = chatTemplateOf(file);
    if (t.empty()) return ChatFormat::ChatML;
    try {
        return detectChatFormat(t);
    } catch (const Error& e) {
        throw Error(file.where() + "tokenizer.chat_template: " + e.what());
    }
}

std::string renderChat(ChatFormat f, const std::vector<ChatMessage>& messages, bool addAssistantPrefix,
                       const std::string& bosText, const std::string& eosText) {
    const std::string eos = eosText.empty() ? "</s>" : eosText;
    switch (f) {
        case ChatFormat::ChatML: return renderChatML(messages, addAssistantPrefix);
        case ChatFormat::Llama3: return renderLlama3(messages, addAssistantPrefix, bosText);
        case ChatFormat::Llama2: return renderLlama2(messages, bosText, eos);
        case ChatFormat::Zephyr: return renderZephyr(messages, addAssistantPrefix, eos);
    }
    throw Error("unknown chat format");
}

std::string defaultSystemPrompt(const std::string& t) {
    if (detectChatFormat(t) != ChatFormat::ChatML) return {};
    // Only templates that branch on the first message's role insert a default.
    if (!contains(t, "messages[0]['role']") && !contains(t, "messages[0][\"role\"]") && !contains(t, "messages[0].role"))
        return {};
    const std::string open = "<|im_start|>system";
    for (size_t at = t.find(open); at != std::string::npos; at = t.find(open, at + 1)) {
        const char quote = at > 0 ? t[at - 1] : '\0';
        if (quote != '\'' && quote != '"') continue;  // not the start of a string literal
        std::string literal;
        if (!readLiteralRest(t, at + open.size(), quote, literal)) continue;
        // The literal must be the whole system turn: "\n" + prompt + "<|im_end|>" (+ "\n").
        const size_t end = literal.find("<|im_end|>");
        if (literal.empty() || literal[0] != '\n' || end == std::string::npos || end <= 1) continue;
        return literal.substr(1, end - 1);
    }
    return {};
}

std::string renderChatTemplate(const std::string& jinjaTemplate, const std::vector<ChatMessage>& messages,
                               bool addAssistantPrefix, const std::string& bosText, const std::string& eosText) {
    const ChatFormat f = detectChatFormat(jinjaTemplate);
    const std::string system = defaultSystemPrompt(jinjaTemplate);
    if (system.empty() || messages.empty() || messages[0].role == "system")
        return renderChat(f, messages, addAssistantPrefix, bosText, eosText);
    std::vector<ChatMessage> withSystem;
    withSystem.reserve(messages.size() + 1);
    withSystem.push_back({"system", system});
    withSystem.insert(withSystem.end(), messages.begin(), messages.end());
    return renderChat(f, withSystem, addAssistantPrefix, bosText, eosText);
}

}  // namespace dlab
