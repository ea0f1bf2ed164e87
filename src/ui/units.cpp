// Display wording for figures: whole sessions, singular and plural counts, one unit per number.
#include "ui/units.h"

#include <cmath>

#include "model/text.h"

namespace tierscope::ui {

std::string count_of(double n, std::string_view singular, std::string_view plural) {
  std::string s = model::num(n);
  s += ' ';
  s += n == 1 ? singular : plural;
  return s;
}

std::string display_value(double value, std::string_view unit) {
  if (!std::isfinite(value)) return model::human(value, unit);
  if (unit == "sessions") return count_of(std::floor(std::max(0.0, value)), "session", "sessions");
  if (unit == "experts") return count_of(value, "expert", "experts");
  return model::human(value, unit);
}

}  // namespace tierscope::ui
