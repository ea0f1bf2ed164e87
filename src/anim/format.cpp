// Text, JSON and CSV forms of a ledger: fixed field order, exact numbers; the JSON through the one writer
// (base/json_writer.h).
#include "anim/format.h"

#include <cmath>

#include "base/json_writer.h"
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
void key_list(model::JsonWriter& w, const char* name, std::uint32_t bits, const char* (*key)(E)) {
  w.array(name);
  for (int i = 0; i < N; ++i) {
    if ((bits >> i) & 1u) w.str(key(static_cast<E>(i)));
  }
  w.end();
}

// The place objects start in, one line each.
void start_json(model::JsonWriter& w, const Ledger& l) {
  w.array("start", model::json_lines(2));
  for (int i = 0; i < kObjectCount; ++i) {
    const Resident& r = l.start[static_cast<std::size_t>(i)];
    w.object(model::kJsonSpaced).str("object", object_key(static_cast<ObjectKind>(i))).str("label", l.labels[static_cast<std::size_t>(i)]);
    w.str("tier", endpoint_key(r.tier)).num("bytes", r.bytes).num("tokens", r.tokens).num("capacity", r.capacity).end();
  }
  w.end();
}

// One entry on one line: what moves, its time and words, what it lights and what it changes.
void entry_json(model::JsonWriter& w, const LedgerEntry& e) {
  w.object(model::kJsonSpaced).integer("index", e.index).str("step", e.step).str("phase", e.phase).integer("layer", e.layer);
  w.num("t_start_s", e.t_start).num("duration_s", e.duration);
  w.str("from", endpoint_key(e.from)).str("to", endpoint_key(e.to)).str("object", object_key(e.object));
  w.num("bytes", e.bytes).num("flop", e.flop).boolean("overlapped", e.overlapped);
  w.str("figure", figure_key(e.figure)).str("time_figure", figure_key(e.time_figure)).num("time_share", e.time_share);
  w.str("formula", e.formula).str("provenance", model::provenance_name(e.provenance)).str("sources", e.sources);
  w.str("sentence", e.sentence);
  w.object("highlight", model::kJsonSpaced).array("layers");
  for (int i = 0; i < model::kMaxLayers; ++i) {
    if (e.highlight.layers.has(i)) w.integer(i);
  }
  w.end();
  key_list<ObjectKind, kObjectCount>(w, "objects", e.highlight.objects, object_key);
  key_list<Endpoint, kEndpointCount>(w, "endpoints", e.highlight.endpoints, endpoint_key);
  w.end().array("changes", model::kJsonSpaced);
  for (const Change& c : e.changes) {
    if (c.object == ObjectKind::Count) continue;
    w.object(model::kJsonSpaced).str("object", object_key(c.object)).num("bytes", c.bytes).num("tokens", c.tokens).end();
  }
  w.end().num("engram_rows", e.engram_rows).end();
}

}  // namespace

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
  model::JsonWriter w(1024 + l.entries.size() * 1200);
  w.object(model::json_lines(0)).str("path", path_key(l.path));
  w.str("label", l.label.empty() ? std::string(path_label(l.path)) : l.label).str("preset", l.preset).str("summary", l.summary);
  w.num("total_s", l.total).str("total_figure", figure_key(l.total_figure)).str("note", l.note);
  start_json(w, l);
  w.array("entries", model::json_lines(2));
  for (const LedgerEntry& e : l.entries) {
    if (f.keeps(e)) entry_json(w, e);
  }
  w.end();
  if (f.active()) {
    w.object("filter", model::kJsonSpaced).key("tier");
    if (f.tier == Endpoint::Count) w.null();
    else w.str(endpoint_key(f.tier));
    w.key("object");
    if (f.object == ObjectKind::Count) w.null();
    else w.str(object_key(f.object));
    w.end();
  }
  return w.end().newline().take();
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
