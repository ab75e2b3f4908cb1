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
//   ChatML  <|im_start|>role\ncontent<|im_end|>\n ... [<|im_start|>assistant\n]
//   Llama3  bos <|start_header_id|>role<|end_header_id|>\n\n trim(content) <|eot_id|> ...
//           (Meta-Llama-3-8B-Instruct; 3.1+ templates also add a "Cutting Knowledge Date" block,
//           which is not reproduced)
//   Llama2  bos [INST] <<SYS>>\nsys\n<</SYS>>\n\nuser [/INST] answer eos bos [INST] ...
//           (bosText before every [INST]; roles must alternate user/assistant, else dlab::Error;
//           Llama 2 has no assistant header, so addAssistantPrefix changes nothing)
//   Zephyr  <|role|>\ncontent eos\n ... [<|assistant|>\n]
// eosText "" means "</s>" for the formats that write EOS into the text (Llama 2, Zephyr).
std::string renderChat(ChatFormat f, const std::vector<ChatMessage>& messages, bool addAssistantPrefix,
                       const std::string& bosText = "", const std::string& eosText = "");

// The system prompt a ChatML template inserts when the conversation does not start with one
// (SmolLM2: "You are a helpful AI assistant named SmolLM, trained by Hugging Face"), or "".
std::string defaultSystemPrompt(const std::string& jinjaTemplate);

// renderChat for the template's format, first inserting its default system prompt (if any)
// when the first message is not a system message: what the Jinja template itself renders.
std::string renderChatTemplate(const std::string& jinjaTemplate, const std::vector<ChatMessage>& messages,
                               bool addAssistantPrefix, const std::string& bosText = "",
                               const std::string& eosText = "");

// tokenizer.chat_template, or "" when the file has none.
std::string chatTemplateOf(const GgufFile& file);

}  // namespace dlab
