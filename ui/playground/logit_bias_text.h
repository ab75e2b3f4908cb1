#pragma once
// The playground's logit-bias field: "198:-2, 13:ban, 42:+1.5" -> (token id, bias) pairs. "ban"
// (or "-inf") bans the token outright. Kept apart from the widget so it is tested on its own.
#include <QString>

#include <utility>
#include <vector>

#include "tokenizer/tokenizer.h"

namespace dlab::ui {

struct LogitBiasParse {
    std::vector<std::pair<TokenId, float>> entries;   // in the order written; a repeated id: last wins
    QString error;                                     // one sentence naming the bad entry; "" = fine
};

// vocabSize <= 0: ids are not range-checked (no model yet).
LogitBiasParse parseLogitBias(const QString& text, int vocabSize);

// The inverse, for the settings file and for "ban this token": entries as parseLogitBias reads them.
QString formatLogitBias(const std::vector<std::pair<TokenId, float>>& entries);

}  // namespace dlab::ui
