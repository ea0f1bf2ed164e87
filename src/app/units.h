// Numbers as the page and the canvas say them: each unit once, counts in whole units with singular and
// plural forms ("1 session", "282 sessions"), everything else through the model's SI formatting.
#pragma once

#include <string>
#include <string_view>

namespace tierscope::app {

// A figure's value for display. Sessions are whole (a floor: a fraction of a session does not fit; the
// formula keeps the exact quotient); counts of experts take the singular for exactly one.
std::string display_value(double value, std::string_view unit);

// "1 layer", "3 layers", "1,024 tokens" (grouped digits).
std::string count_of(double n, std::string_view singular, std::string_view plural);

}  // namespace tierscope::app
