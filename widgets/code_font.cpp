#include "widgets/code_font.h"

#include <QFontDatabase>

namespace dlab::widgets {

QFont codeFont() {
    QFont f;   // nothing resolved: what is not set below comes from the parent
    f.setFamily(QFontDatabase::systemFont(QFontDatabase::FixedFont).family());
    f.setStyleHint(QFont::TypeWriter);
    return f;
}

}  // namespace dlab::widgets
