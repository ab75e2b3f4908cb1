#pragma once
// A few paragraphs of plain English (written for this project) that the serving lab cuts its
// prompts from, so the load is made of real tokens of the loaded model's tokenizer.
#include <string_view>

namespace dlab {
std::string_view servingSampleText();
}
