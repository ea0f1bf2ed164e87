// Display wording for figures: the model's own (base/text.h), so the canvas, the page and the command
// line say a number the same way.
#include "app/units.h"

#include "base/text.h"

namespace tierscope::app {

std::string count_of(double n, std::string_view singular, std::string_view plural) { return model::count_of(n, singular, plural); }

std::string display_value(double value, std::string_view unit) { return model::display_value(value, unit); }

}  // namespace tierscope::app
