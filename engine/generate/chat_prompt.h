#pragma once
// The token ids of a chat conversation as the model's own chat template lays it out, ending with
// the header that asks the assistant to answer.
#include <vector>

#include "model/model.h"
#include "tokenizer/chat_template.h"

namespace dlab {

// Uses tokenizer.chat_template (with its default system prompt, if it has one) or ChatML when the
// file has no template. Special tokens in the template are parsed; in message text they are not
// interpreted specially beyond what the template itself writes. Throws dlab::Error for an
// unrecognised template or an invalid conversation.
std::vector<TokenId> chatPromptTokens(const Model& model, const std::vector<ChatMessage>& messages);

}  // namespace dlab
