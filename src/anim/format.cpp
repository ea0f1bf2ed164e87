// Text, JSON and CSV forms of a ledger, written by hand: fixed field order, exact numbers, no allocations
// beyond the output string's own.
#include "anim/format.h"

#include <cmath>

#include "base/text.h"

namespace tierscope::anim {

namespace {

constexpr const char* kFormats[] = {"text", "json", "csv"};

// Exact and always valid JSON (non-finite values, never produced, would print as null; -0 folds to 0 so
// equal ledgers serialise equally), and strings safe to drop into an HTML page: the model's helpers.
std::string number(double v) {
  std::string out;
  model::append_json_number(out, v);
  return out;
}

void json_string(std::string& out, std::string_view s) { model::append_json_string(out, s); }

std::string figure_key(model::FigureId id) {
  return id == model::FigureId::Count ? std::string() : std::string(model::figure_info(id).id);
}

std::string layers_text(const LayerSet& set, const char* sep) {
  std::string s;
  for (int i = 0; i < model::kMaxLayers; ++i) {
    if (!set.has(i)) continue;
    if (!s.empty()) s += sep;
    s += std::to_string(i);
  }
  return s;
}

template <typename E, int N>
void key_list(std::string& out, std::uint32_t bits, const char* (*key)(E)) {
  out += '[';
  bool first = true;
  for (int i = 0; i < N; ++i) {
    if (!((bits >> i) & 1u)) continue;
    if (!first) out += ',';
    json_string(out, key(static_cast<E>(i)));
    first = false;
  }
  out += ']';
}


}  // namespace

const char* ledger_format_key(LedgerFormat f) {
  const int i = static_cast<int>(f);
  return kFormats[(i >= 0 && i < 3) ? i : 0];
}

bool parse_ledger_format(std::string_view key, LedgerFormat& out, model::Error& err) {
  for (int i = 0; i < 3; ++i) {
    if (key == kFormats[i]) {
      out = static_cast<LedgerFormat>(i);
      return true;
    }
  }
  err = model::make_error(model::ErrorCode::BadEnum, "format", key, "one of: text, json, csv");
  return false;
}

std::string ledger_to_json(const Ledger& l, const LedgerFilter& f) {
  std::string o;
  o.reserve(1024 + l.entries.size() * 1200);
  o += "{\n\"path\": ";
  json_string(o, path_key(l.path));
  o += ",\n\"label\": ";
  json_string(o, l.label.empty() ? std::string(path_label(l.path)) : l.label);
  o += ",\n\"preset\": ";
  json_string(o, l.preset);
  o += ",\n\"summary\": ";
  json_string(o, l.summary);
  o += ",\n\"total_s\": " + number(l.total);
  o += ",\n\"total_figure\": ";
  json_string(o, figure_key(l.total_figure));
  o += ",\n\"note\": ";
  json_string(o, l.note);
  o += ",\n\"start\": [";
  for (int i = 0; i < kObjectCount; ++i) {
    const Resident& r = l.start[static_cast<std::size_t>(i)];
    o += i ? ",\n  " : "\n  ";
    o += "{\"object\": ";
    json_string(o, object_key(static_cast<ObjectKind>(i)));
    o += ", \"label\": ";
    json_string(o, l.labels[static_cast<std::size_t>(i)]);
    o += ", \"tier\": ";
    json_string(o, endpoint_key(r.tier));
    o += ", \"bytes\": " + number(r.bytes) + ", \"tokens\": " + number(r.tokens) + ", \"capacity\": " + number(r.capacity) + "}";
  }
  o += "\n],\n\"entries\": [";
  bool any = false;
  for (std::size_t k = 0; k < l.entries.size(); ++k) {
    const LedgerEntry& e = l.entries[k];
    if (!f.keeps(e)) continue;
    o += any ? ",\n  " : "\n  ";
    any = true;
    o += "{\"index\": " + std::to_string(e.index) + ", \"step\": ";
    json_string(o, e.step);
    o += ", \"phase\": ";
    json_string(o, e.phase);
    o += ", \"layer\": " + std::to_string(e.layer);
    o += ", \"t_start_s\": " + number(e.t_start) + ", \"duration_s\": " + number(e.duration);
    o += ", \"from\": ";
    json_string(o, endpoint_key(e.from));
    o += ", \"to\": ";
    json_string(o, endpoint_key(e.to));
    o += ", \"object\": ";
    json_string(o, object_key(e.object));
    o += ", \"bytes\": " + number(e.bytes) + ", \"flop\": " + number(e.flop);
    o += e.overlapped ? ", \"overlapped\": true" : ", \"overlapped\": false";
    o += ", \"figure\": ";
    json_string(o, figure_key(e.figure));
    o += ", \"time_figure\": ";
    json_string(o, figure_key(e.time_figure));
    o += ", \"time_share\": " + number(e.time_share);
    o += ", \"formula\": ";
    json_string(o, e.formula);
    o += ", \"provenance\": ";
    json_string(o, model::provenance_name(e.provenance));
    o += ", \"sources\": ";
    json_string(o, e.sources);
    o += ", \"sentence\": ";
    json_string(o, e.sentence);
    o += ", \"highlight\": {\"layers\": [" + layers_text(e.highlight.layers, ",") + "], \"objects\": ";
    key_list<ObjectKind, kObjectCount>(o, e.highlight.objects, object_key);
    o += ", \"endpoints\": ";
    key_list<Endpoint, kEndpointCount>(o, e.highlight.endpoints, endpoint_key);
    o += "}, \"changes\": [";
    bool first = true;
    for (const Change& c : e.changes) {
      if (c.object == ObjectKind::Count) continue;
      if (!first) o += ", ";
      o += "{\"object\": ";
      json_string(o, object_key(c.object));
      o += ", \"bytes\": " + number(c.bytes) + ", \"tokens\": " + number(c.tokens) + "}";
      first = false;
    }
    o += "], \"engram_rows\": " + number(e.engram_rows) + "}";
  }
  o += any ? "\n]" : "]";
  if (f.active()) {
    o += ",\n\"filter\": {\"tier\": ";
    if (f.tier == Endpoint::Count) o += "null";
    else json_string(o, endpoint_key(f.tier));
    o += ", \"object\": ";
    if (f.object == ObjectKind::Count) o += "null";
    else json_string(o, object_key(f.object));
    o += '}';
  }
  o += "\n}\n";
  return o;
}

std::string ledger_to_csv(const Ledger& l, const LedgerFilter& f) {
  std::string o =
      "index,step,phase,layer,t_start_s,duration_s,from,to,object,bytes,flop,overlapped,figure,time_figure,time_share,provenance,formula,"
      "sentence,highlight_layers,engram_rows\r\n";
  for (const LedgerEntry& e : l.entries) {
    if (!f.keeps(e)) continue;
    o += std::to_string(e.index) + ",";
    model::append_csv_field(o, e.step);
    o += ",";
    model::append_csv_field(o, e.phase);
    o += "," + std::to_string(e.layer) + "," + number(e.t_start) + "," + number(e.duration) + ",";
    o += std::string(endpoint_key(e.from)) + "," + endpoint_key(e.to) + "," + object_key(e.object) + ",";
    o += number(e.bytes) + "," + number(e.flop) + "," + (e.overlapped ? "true" : "false") + ",";
    o += figure_key(e.figure) + "," + figure_key(e.time_figure) + "," + number(e.time_share) + ",";
    model::append_csv_field(o, model::provenance_name(e.provenance));
    o += ",";
    model::append_csv_field(o, e.formula);
    o += ",";
    model::append_csv_field(o, e.sentence);
    o += ",";
    model::append_csv_field(o, layers_text(e.highlight.layers, " "));
    o += "," + number(e.engram_rows) + "\r\n";
  }
  return o;
}

std::string ledger_to_text(const Ledger& l, const LedgerFilter& f) {
  std::string o = (l.label.empty() ? std::string(path_label(l.path)) : l.label) + " (" + path_key(l.path) + ") · " + l.preset + " · " +
                  std::to_string(l.entries.size()) + " steps · " + model::human(l.total, "s") + " model time\n";
  o += (l.summary.empty() ? std::string(path_summary(l.path)) : l.summary) + "\n";
  if (!l.note.empty()) o += "Note: " + l.note + "\n";
  std::string phase;
  for (const LedgerEntry& e : l.entries) {
    if (!f.keeps(e)) continue;
    if (e.phase != phase && !e.phase.empty()) o += "\n[" + e.phase + "]\n";
    phase = e.phase;
    // Both times named: when the entry starts on the path's clock and how long it takes.
    o += "\n#" + std::to_string(e.index) + " " + std::string(e.step) + "  at " + model::human(e.t_start, "s") + " · takes " +
         model::human(e.duration, "s") + "  " + endpoint_label(e.from) + " → " + endpoint_label(e.to) + "  " +
         l.labels[static_cast<std::size_t>(e.object)];
    // Bytes per GPU of the busiest replica (docs/paths.md); FLOP over the instance.
    if (e.bytes > 0) o += "  " + model::human(e.bytes, "B") + " " + kLedgerBytesScope;
    if (e.flop > 0) o += "  " + model::human(e.flop, "FLOP") + " " + kLedgerFlopScope;
    if (e.overlapped) o += "  (overlapped)";
    o += "\n   " + e.sentence + "\n   = " + e.formula + "\n   [" + model::provenance_name(e.provenance) + "]";
    if (e.figure != model::FigureId::Count) o += " " + figure_key(e.figure);
    if (e.time_figure != model::FigureId::Count) o += " · lasts " + figure_key(e.time_figure) + (e.time_share != 1.0 ? " × " + model::num_sig(e.time_share, 4) : "");
    o += "\n";
  }
  return o;
}

std::string ledger_to(const Ledger& l, LedgerFormat f, const LedgerFilter& filter) {
  switch (f) {
    case LedgerFormat::Json: return ledger_to_json(l, filter);
    case LedgerFormat::Csv: return ledger_to_csv(l, filter);
    case LedgerFormat::Text:
    case LedgerFormat::Count: break;
  }
  return ledger_to_text(l, filter);
}

bool parse_ledger_filter(std::string_view tier, std::string_view object, LedgerFilter& out, model::Errors& errors) {
  const std::size_t before = errors.size();
  out = LedgerFilter{};
  if (!tier.empty()) {
    std::string keys;
    for (int i = 0; i < kEndpointCount; ++i) {
      if (tier == endpoint_key(static_cast<Endpoint>(i))) out.tier = static_cast<Endpoint>(i);
      keys += (i ? ", " : "") + std::string(endpoint_key(static_cast<Endpoint>(i)));
    }
    if (out.tier == Endpoint::Count) errors.push_back(model::make_error(model::ErrorCode::BadEnum, "tier", tier, "one of: " + keys));
  }
  if (!object.empty()) {
    std::string keys;
    for (int i = 0; i < kObjectCount; ++i) {
      if (object == object_key(static_cast<ObjectKind>(i))) out.object = static_cast<ObjectKind>(i);
      keys += (i ? ", " : "") + std::string(object_key(static_cast<ObjectKind>(i)));
    }
    if (out.object == ObjectKind::Count) errors.push_back(model::make_error(model::ErrorCode::BadEnum, "object", object, "one of: " + keys));
  }
  return errors.size() == before;
}

}  // namespace tierscope::anim
