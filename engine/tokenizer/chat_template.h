#pragma once
// Chat prompt formats, recognised from tokenizer.chat_template (a Jinja string we do not execute:
// we match its well-known shapes and render the format ourselves).
#include <string>
#include <vector>

namespace dlab {

class GgufFile;

struct ChatMessage {
    std::string role;     // "system", "user", "assistant"
    std::string content;
};

enum class ChatFormat { ChatML, Llama3, Llama2, Zephyr };

const char* chatFormatName(ChatFormat f);
// Recognises the format of a Jinja template; throws dlab::Error if it matches none we know.
ChatFormat detectChatFormat(const std::string& jinjaTemplate);
// Format from the file's tokenizer.chat_template; ChatML when the key is absent.
ChatFormat chatFormatOf(const GgufFile& file);

// The prompt text (to be tokenized with parseSpecial = true). addAssistantPrefix appends the
// header that asks the model to answer. bosText is prepended only where the format writes it
// into the text itself (Llama 2's "<s>[INST]"); pass "" when the tokenizer adds BOS.
std::string renderChat(ChatFormat f, const std::vector<ChatMessage>& messages, bool addAssistantPrefix,
                       const std::string& bosText = "", const std::string& eosText = "");

}  // namespace dlab
