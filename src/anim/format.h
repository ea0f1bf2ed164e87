// A ledger as text, JSON or CSV: one serializer shared by the CLI and the browser's ledger panel.
#pragma once

#include <string>
#include <string_view>

#include "anim/ledger.h"
#include "base/errors.h"

namespace tierscope::anim {

// What an entry's numbers count, as the text and the page write them beside the value: its bytes are one
// GPU's (of the busiest replica: docs/paths.md), its FLOP the whole instance's.
inline constexpr const char* kLedgerBytesScope = "per GPU";
inline constexpr const char* kLedgerFlopScope = "over the instance";

enum class LedgerFormat : std::uint8_t { Text, Json, Csv, Count };
// Strict: exact key only; on failure `err` names the field ("format"), the value and the allowed keys.
bool parse_ledger_format(std::string_view key, LedgerFormat& out, model::Error& err);

// Which entries to write: `tier` matches either end of a move (any endpoint key), `object` the object
// moved; Count means any. The page's ledger filters and `tierscope ledger --tier/--object` are this.
struct LedgerFilter {
  Endpoint tier = Endpoint::Count;
  ObjectKind object = ObjectKind::Count;
  bool active() const { return tier != Endpoint::Count || object != ObjectKind::Count; }
  bool keeps(const LedgerEntry& e) const {
    return (tier == Endpoint::Count || e.from == tier || e.to == tier) && (object == ObjectKind::Count || e.object == object);
  }
};
// Empty text means any. On a bad key the error names the field ("tier", "object"), the value and the keys.
bool parse_ledger_filter(std::string_view tier, std::string_view object, LedgerFilter& out, model::Errors& errors);

// Readable text: a header, then per entry a line of facts, the sentence, the formula and its source.
std::string ledger_to_text(const Ledger& l, const LedgerFilter& f = {});
// JSON with a fixed field order and exact numbers (shortest round-trip decimals), one entry per line so
// golden files diff line by line. The field list is in docs/paths.md. A filter adds a "filter" member.
std::string ledger_to_json(const Ledger& l, const LedgerFilter& f = {});
// RFC 4180 CSV with a header row; numbers exact, like the JSON.
std::string ledger_to_csv(const Ledger& l, const LedgerFilter& f = {});
std::string ledger_to(const Ledger& l, LedgerFormat f, const LedgerFilter& filter = {});

}  // namespace tierscope::anim
