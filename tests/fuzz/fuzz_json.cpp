// libFuzzer target: the model's JSON reader against nlohmann::json, which the model used before. Any input
// is handled without a crash; both accept the same texts, report the same repeated keys and write the same
// compact text (a floating-point number may differ only in digits that read back to the same double: the
// reader writes the shortest).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "base/json_reader.h"
#include "json_reference.h"
#include "json_text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const tierscope::test::JsonReference theirs = tierscope::test::json_reference(text);
  tierscope::model::json::Document doc;
  std::vector<std::string> dups;
  const bool ok = doc.parse(text, &dups);
  if (ok != theirs.ok) std::abort();
  if (!ok) return 0;
  if (dups != theirs.duplicates) std::abort();
  if (!tierscope::test::same_json_text(doc.root().dump(true), theirs.ascii, true)) std::abort();
  if (!tierscope::test::same_json_text(doc.root().dump(false), theirs.plain, true)) std::abort();
  return 0;
}
