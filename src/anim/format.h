// A ledger as text, JSON or CSV: one serializer shared by the CLI and the browser's ledger panel.
#pragma once

#include <string>
#include <string_view>

#include "anim/ledger.h"
#include "model/errors.h"

namespace tierscope::anim {

enum class LedgerFormat : std::uint8_t { Text, Json, Csv, Count };
const char* ledger_format_key(LedgerFormat f);  // "text", "json", "csv"
// Strict: exact key only; on failure `err` names the field ("format"), the value and the allowed keys.
bool parse_ledger_format(std::string_view key, LedgerFormat& out, model::Error& err);

// Readable text: a header, then per entry a line of facts, the sentence, the formula and its source.
std::string ledger_to_text(const Ledger& l);
// JSON with a fixed field order and exact numbers (shortest round-trip decimals), one entry per line so
// golden files diff line by line. The field list is in docs/paths.md.
std::string ledger_to_json(const Ledger& l);
// RFC 4180 CSV with a header row; numbers exact, like the JSON.
std::string ledger_to_csv(const Ledger& l);
std::string ledger_to(const Ledger& l, LedgerFormat f);

}  // namespace tierscope::anim
