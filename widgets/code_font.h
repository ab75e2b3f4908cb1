#pragma once
// The font for code and grammar text: the system's fixed-width family at the size of the text
// around it. Only the family and the monospace hint are set, so the size still follows the
// parent's font (presentation mode, zoom); a whole system fixed font kept its 9 pt on a projector
// while the rest of the page grew.
#include <QFont>

namespace dlab::widgets {

QFont codeFont();

}  // namespace dlab::widgets
