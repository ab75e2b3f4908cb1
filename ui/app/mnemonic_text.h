#pragma once
// A translated text without its keyboard mnemonic, for places that show it but do not take
// Alt+letter (tab titles, lists, messages): "&Open…" -> "Open…", "Fish && Chips" -> "Fish &
// Chips", and the Chinese style "打开模型(&O)…" -> "打开模型…" (the letter in parentheses).
#include <QString>

namespace dlab::ui {

QString withoutMnemonic(QString text);

}  // namespace dlab::ui
