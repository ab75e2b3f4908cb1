#include "core/number_text.h"

#include <charconv>
#include <cmath>

namespace dlab {

double shortestDecimal(float f) {
    if (!std::isfinite(f)) return f;
    char buf[32];
    const auto end = std::to_chars(buf, buf + sizeof buf, f).ptr;
    double d = f;
    std::from_chars(buf, end, d);
    return static_cast<float>(d) == f ? d : static_cast<double>(f);
}

std::string hexBytes(std::string_view bytes) {
    static const char digits[] = "0123456789abcdef";
    std::string out;
    out.reserve(2 * bytes.size());
    for (unsigned char c : bytes) {
        out += digits[c >> 4];
        out += digits[c & 15];
    }
    return out;
}

}  // namespace dlab
