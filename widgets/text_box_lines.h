#pragma once
// A text box that shows whole lines: its height is `lines` lines of the text layout it really uses
// (measured with QTextLayout, not QFontMetrics::lineSpacing(), which can differ by the font's
// leading), plus its top document margin and frame: a plain-text box paints the next line into
// the bottom margin, so a height with both margins showed a sliver of a fourth line. Re-applied when the font changes (another
// language's font, presentation mode), so the last visible line is never cut in half.
class QPlainTextEdit;

namespace dlab::widgets {

// The height that shows exactly `lines` lines of `box`'s font.
int textBoxHeight(const QPlainTextEdit* box, int lines);
// Keeps `box` at exactly `lines` lines high, now and after every font change.
void keepTextBoxLines(QPlainTextEdit* box, int lines);

}  // namespace dlab::widgets
