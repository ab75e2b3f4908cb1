#pragma once
// How traces and session files write numbers and bytes.
#include <string>
#include <string_view>

namespace dlab {

// A float as the double nearest its shortest decimal form, so a writer printing doubles gives "0.1"
// rather than "0.100000001" and the text reads back as the same float (the float's exact double
// in the unlikely case it would not). Non-finite values come back as they are.
double shortestDecimal(float f);

// Bytes as lowercase hex digit pairs (" the" -> "20746865"): token pieces may be invalid UTF-8.
std::string hexBytes(std::string_view bytes);

}  // namespace dlab
