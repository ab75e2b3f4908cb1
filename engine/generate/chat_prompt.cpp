#include "generate/chat_prompt.h"

namespace dlab {

std::vector<TokenId> chatPromptTokens(const Model& model, const std::vector<ChatMessage>& messages) {
    const Tokenizer& tok = model.tokenizer();
    const std::string jinja = chatTemplateOf(model.file());
    const ChatFormat format = jinja.empty() ? ChatFormat::ChatML : chatFormatOf(model.file());
    // Llama 2 writes BOS before every [INST] in the text itself; the others rely on the tokenizer.
    const bool bosInText = format == ChatFormat::Llama2 && tok.bos() >= 0;
    const std::string bosText = bosInText ? tok.tokenString(tok.bos()) : std::string();
    const std::string eosText = tok.eos() >= 0 ? tok.tokenString(tok.eos()) : std::string();
    const std::string text = jinja.empty() ? renderChat(format, messages, true, bosText, eosText)
                                           : renderChatTemplate(jinja, messages, true, bosText, eosText);
    return tok.encode(text, !bosInText && tok.addsBosByDefault(), true);
}

}  // namespace dlab
