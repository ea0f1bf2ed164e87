// The share link's view codec: per-key tolerant reading (a bad key is named and dropped, the others apply)
// and one canonical writer.
//
// Sections: number and percent reading · the scenario keys (tolerant) · panels, views, sweeps and speeds ·
// one read and one write per view key · kLinkKeys, the table of view keys · parse_view and the writer.
#include "link/view_codec.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <vector>

#include "base/text.h"
#include "charts/charts.h"
#include "codec/url_codec.h"
#include "model/params.h"
#include "model/presets.h"
#include "roofline/figures.h"
#include "roofline/sweep.h"

namespace tierscope::model {

namespace {

bool parse_int(std::string_view text, long long& out) {
  if (text.empty() || text.size() > 18) return false;
  std::size_t i = text[0] == '-' ? 1 : 0;
  if (i == text.size()) return false;
  long long v = 0;
  for (; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
    v = v * 10 + (text[i] - '0');
  }
  out = text[0] == '-' ? -v : v;
  return true;
}

bool parse_real(std::string_view text, double& out) {
  if (text.empty() || text.size() > 32) return false;
  const std::string s(text);
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size() && std::isfinite(out);
}

// "%3C" → '<'. A browser may percent-encode what was typed into the address bar; the decoded text then
// meets the character checks. False on a broken escape.
bool percent_decode(std::string_view in, std::string& out) {
  out.clear();
  const auto hex = [](char c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1; };
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i] != '%') {
      out += in[i];
      continue;
    }
    if (i + 2 >= in.size()) return false;
    const int hi = hex(in[i + 1]), lo = hex(in[i + 2]);
    if (hi < 0 || lo < 0) return false;
    out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return true;
}

// The scenario from a link's pairs: the keys as given, and when they contradict only fields the link
// leaves out (`gpus=1` with the preset's tp 4), those fields follow as an edit would move them; the keys the
// link names never move (scenario_from_pairs), so a canonical link reads back exactly as written.
bool scenario_from_link(std::span<const UrlPair> pairs, Scenario& out, Errors& errors, Adjustments& followed) {
  return scenario_from_pairs(pairs, out, errors, &followed);
}

bool listed(std::span<const std::string_view> keys, std::string_view key) {
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}
bool names(std::span<const UrlPair> pairs, std::string_view key) {
  return std::any_of(pairs.begin(), pairs.end(), [&](const UrlPair& p) { return p.key == key; });
}
std::string_view value_of(std::span<const UrlPair> pairs, std::string_view key) {
  for (const UrlPair& p : pairs)
    if (p.key == key) return p.value;
  return {};
}

// What the reader is told moved: the codec's moves of fields the link leaves out, and each key the link named
// that was derived again (its value as the link gave it → as derived), saying which refused key it follows.
Adjustments rederived_moves(const Scenario& s, std::span<const UrlPair> pairs, std::span<const std::string_view> refused,
                            std::span<const std::string_view> rederived, Adjustments moved) {
  std::string because;
  for (const std::string_view k : refused) because += (because.empty() ? "" : ", ") + std::string(k);
  const auto follows = [&](const std::string& why) {
    return "it follows " + because + ", which this link could not use" + (why.empty() ? "" : " (" + why + ")");
  };
  for (Adjustment& a : moved) {
    if (!listed(rederived, a.field)) continue;
    a.from = std::string(value_of(pairs, a.field));
    a.why = follows(a.why);
  }
  for (const std::string_view k : rederived) {
    const ParamDef* def = find_param(k);
    const bool said = std::any_of(moved.begin(), moved.end(), [&](const Adjustment& a) { return a.field == k; });
    if (!def || said || get_param_text(s, *def) == value_of(pairs, k)) continue;
    moved.push_back({std::string(k), std::string(value_of(pairs, k)), get_param_text(s, *def), follows("")});
  }
  std::erase_if(moved, [](const Adjustment& a) { return a.from == a.to; });
  return moved;
}

// The scenario from its pairs, key by key (the rule the README states): a key the model refuses is named and
// falls back to the preset's value; a key the link names that follows a refused one (a `dp` beside a refused
// `tp`: tp × dp = gpus) is derived again and said so in `followed`; every other key applies.
Scenario scenario_tolerant(std::vector<UrlPair> pairs, Errors& errors, Adjustments& followed) {
  std::vector<std::string_view> refused, rederived;
  for (int attempt = 0; attempt < 64; ++attempt) {
    std::vector<UrlPair> active;
    for (const UrlPair& p : pairs)
      if (!listed(refused, p.key) && !listed(rederived, p.key)) active.push_back(p);
    Scenario next;
    Errors errs;
    Adjustments moved;
    if (scenario_from_link(active, next, errs, moved)) {
      followed = rederived_moves(next, pairs, refused, rederived, std::move(moved));
      return next;
    }
    // A key the link names that the model refuses, alone or beside the others: named, and left out.
    bool refused_one = false;
    for (const Error& e : errs) {
      if (!names(active, e.field)) continue;
      errors.push_back(e);
      if (!listed(refused, e.field)) refused.push_back(std::find_if(pairs.begin(), pairs.end(), [&](const UrlPair& p) { return p.key == e.field; })->key);
      refused_one = true;
    }
    if (refused_one) continue;
    // Only fields the link leaves out contradict the rest, and they cannot follow while keys the link names hold
    // them: those keys follow too (a refused tp's dp), derived again.
    bool released = false;
    const auto release = [&](std::string_view of) {
      for (const std::string_view f : param_followers(of)) {
        const auto p = std::find_if(active.begin(), active.end(), [&](const UrlPair& q) { return q.key == f; });
        if (p == active.end()) continue;
        rederived.push_back(p->key);
        released = true;
      }
    };
    for (const Error& e : errs) release(e.field);
    for (const std::string_view k : refused) release(k);
    if (released) continue;
    // Nothing the link names explains it (never seen: a guard): the preset and the model's name stand, and
    // each other key is named as not fitting with the rest.
    for (const UrlPair& p : active) {
      if (p.key == "preset" || p.key == "model") continue;
      errors.push_back(make_error(ErrorCode::Inconsistent, p.key, p.value, "a value that fits the link's other keys: " + errs.front().message()));
      refused.push_back(p.key);
    }
  }
  return default_scenario();
}

bool parse_panels(std::string_view text, std::uint32_t& out, Errors& errors) {
  std::uint32_t bits = 0;
  for (const std::string_view key : split(text, ',')) {
    if (key.empty()) continue;
    const int found = panel_index(key);
    if (found < 0) {
      errors.push_back(make_error(ErrorCode::BadEnum, "panels", key, "a comma-separated list of: " + panel_keys_text()));
      return false;
    }
    bits |= 1u << found;
  }
  out = bits;
  return true;
}

}  // namespace

int path_index(std::string_view key) {
  for (std::size_t i = 0; i < kPathKeys.size(); ++i)
    if (key == kPathKeys[i]) return static_cast<int>(i);
  return -1;
}

int panel_index(std::string_view key) {
  for (std::size_t i = 0; i < kPanelKeys.size(); ++i)
    if (key == kPanelKeys[i]) return static_cast<int>(i);
  return -1;
}

bool view_known(std::string_view view) {
  ChartKind kind{};
  return view.empty() || view == kFleetView || view == kServeView ||
         (view.starts_with(kChartViewPrefix) && chart_from_key(view.substr(kChartViewPrefix.size()), kind) && !is_serve_chart(kind));
}

std::string views_allowed_text() {
  std::string s = std::string(kFleetView) + ", " + std::string(kServeView);
  for (int i = 0; i < static_cast<int>(ChartKind::Count); ++i)
    if (!is_serve_chart(static_cast<ChartKind>(i))) s += ", " + std::string(kChartViewPrefix) + chart_key(static_cast<ChartKind>(i));
  return s;
}

bool sweep_known(std::string_view sweep) {
  // FIGURE:X or FIGURE:X:FAMILY:V1,V2 — a figure id, a numeric parameter, optionally a second parameter
  // and its values (the chart options check the values themselves), in a link value's characters.
  for (const char c : sweep) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!plain && c != '.' && c != '_' && c != '-' && c != '+' && c != ':' && c != ',') return false;
  }
  std::vector<std::string_view> parts;
  std::size_t a = 0;
  for (int i = 0; i < 3; ++i) {
    const std::size_t b = sweep.find(':', a);
    if (b == std::string_view::npos) break;
    parts.push_back(sweep.substr(a, b - a));
    a = b + 1;
  }
  parts.push_back(sweep.substr(a));
  const ParamDef* x = parts.size() >= 2 ? find_param(parts[1]) : nullptr;
  const ParamDef* fam = parts.size() == 4 ? find_param(parts[2]) : nullptr;
  return (parts.size() == 2 || (parts.size() == 4 && fam && fam != x && !parts[3].empty())) && figure_id(parts[0]) != FigureId::Count &&
         x && sweep_axis_param(*x);
}

std::string sweep_allowed_text() {
  return "FIGURE:X or FIGURE:X:FAMILY:V1,V2 (a figure id, a numeric parameter, another parameter and its values)";
}

std::string path_keys_text() { return join_names(kPathKeys); }
std::string panel_keys_text() { return join_names(kPanelKeys); }

std::string speed_allowed_text() {
  std::string s;
  appendf(s, "a number from %g to %g", kMinSpeed, kMaxSpeed);
  return s;
}

namespace {

// The view's keys, each read and written by its own pair of functions (link_keys() lists them).
void read_path(std::string_view v, ViewState& out, Errors& errors) {
  if (path_index(v) >= 0) out.path = std::string(v);
  else errors.push_back(make_error(ErrorCode::BadEnum, "path", v, "one of: " + path_keys_text()));
}
void write_path(const ViewState& v, std::string& h) {
  if (!v.path.empty()) h += "&path=" + v.path;
}

void read_step(std::string_view v, ViewState& out, Errors& errors) {
  long long step = 0;
  const bool is_int = parse_int(v, step);
  if (is_int && step >= 0 && step < 1000000) out.step = static_cast<int>(step);
  else errors.push_back(make_error(is_int ? ErrorCode::OutOfRange : ErrorCode::WrongType, "step", v, "an integer from 0 to the path's last step"));
}
void write_step(const ViewState& v, std::string& h) {
  if (v.step > 0) appendf(h, "&step=%d", v.step);
}

void read_speed(std::string_view v, ViewState& out, Errors& errors) {
  double speed = 0;
  const bool is_number = parse_real(v, speed);
  if (is_number && speed >= kMinSpeed && speed <= kMaxSpeed) out.speed = speed;
  else errors.push_back(make_error(is_number ? ErrorCode::OutOfRange : ErrorCode::WrongType, "speed", v, speed_allowed_text()));
}
void write_speed(const ViewState& v, std::string& h) {
  if (v.speed > 0 && v.speed != 1) h += "&speed=" + num_exact(v.speed);
}

void read_panels(std::string_view v, ViewState& out, Errors& errors) {
  std::uint32_t bits = 0;
  if (parse_panels(v, bits, errors)) {
    out.panels = bits;
    out.panels_given = true;
  }
}
void write_panels(const ViewState& v, std::string& h) {
  if (!v.panels_given) return;
  h += "&panels=";
  bool first = true;
  for (std::size_t i = 0; i < kPanelKeys.size(); ++i) {
    if (!((v.panels >> i) & 1u)) continue;
    if (!first) h += ',';
    h += kPanelKeys[i];
    first = false;
  }
}

void read_view(std::string_view v, ViewState& out, Errors& errors) {
  if (!v.empty() && view_known(v)) out.view = std::string(v);
  else errors.push_back(make_error(ErrorCode::BadEnum, "view", v, views_allowed_text()));
}
void write_view(const ViewState& v, std::string& h) {
  if (!v.view.empty()) h += "&view=" + v.view;
}

void read_sweep(std::string_view v, ViewState& out, Errors& errors) {
  if (sweep_known(v)) out.sweep = std::string(v);
  else errors.push_back(make_error(ErrorCode::BadSyntax, "sweep", v, sweep_allowed_text()));
}
void write_sweep(const ViewState& v, std::string& h) {
  if (!v.sweep.empty()) h += "&sweep=" + v.sweep;
}

void read_serve(std::string_view v, ViewState& out, Errors& errors) {
  serve::ServeSpec spec;
  if (serve::serve_settings_from_text(v, spec, errors)) out.serve = serve::serve_settings_text(spec);
}
void write_serve(const ViewState& v, std::string& h) {
  if (!v.serve.empty()) h += "&" + std::string(serve::kServeKey) + "=" + v.serve;
}

// `cmp` and its `cmp_KEY` keys are read with the scenario's (parse_view), as a link of their own.
void read_compare(std::string_view, ViewState&, Errors&) {}
void write_compare(const ViewState& v, std::string& h) {
  if (!v.compare) return;
  // A's own link, its keys prefixed: preset=P&ctx=… → cmp=P&cmp_ctx=….
  const std::string a = scenario_to_hash(v.compare_scenario);
  std::size_t start = 0;
  while (start < a.size()) {
    std::size_t end = a.find('&', start);
    if (end == std::string::npos) end = a.size();
    const std::string part = a.substr(start, end - start);
    h += part.starts_with("preset=") ? "&cmp=" + part.substr(7) : "&cmp_" + part;
    start = end + 1;
  }
}

void read_embed(std::string_view v, ViewState& out, Errors& errors) {
  if (v == "1" || v == "0") out.embed = v == "1";
  else errors.push_back(make_error(ErrorCode::BadEnum, "embed", v, "0 or 1"));
}
void write_embed(const ViewState& v, std::string& h) {
  if (v.embed) h += "&embed=1";
}

void read_tour(std::string_view v, ViewState& out, Errors& errors) {
  long long n = 0;
  const bool is_int = parse_int(v, n);
  if (v == kTourIntroKey) out.tour = kTourIntro;
  else if (is_int && n >= 1 && n <= kTourSteps) out.tour = static_cast<int>(n);
  else errors.push_back(make_error(is_int ? ErrorCode::OutOfRange : ErrorCode::WrongType, "tour", v,
                                   "intro or a walkthrough step from 1 to " + std::to_string(kTourSteps)));
}
void write_tour(const ViewState& v, std::string& h) {
  if (v.tour > 0) appendf(h, "&tour=%d", v.tour);
  else if (v.tour == kTourIntro) h += "&tour=" + std::string(kTourIntroKey);
}

// An older link's model time: read and checked, but the step says where the view is.
void read_time(std::string_view v, ViewState&, Errors& errors) {
  double t = 0;
  if (!parse_real(v, t) || t < 0) errors.push_back(make_error(ErrorCode::WrongType, "t", v, "a number of seconds, 0 or more"));
}

constexpr LinkKey kLinkKeys[] = {
    {"path", read_path, write_path},     {"step", read_step, write_step},    {"speed", read_speed, write_speed},
    {"panels", read_panels, write_panels}, {"view", read_view, write_view},  {"sweep", read_sweep, write_sweep},
    {serve::kServeKey, read_serve, write_serve}, {"cmp", read_compare, write_compare}, {"embed", read_embed, write_embed},
    {"tour", read_tour, write_tour},     {"t", read_time, nullptr},
};

}  // namespace

std::span<const LinkKey> link_keys() { return kLinkKeys; }

bool is_view_key(std::string_view key) {
  for (const LinkKey& k : kLinkKeys)
    if (key == k.key) return true;
  // A comparison's pinned scenario: "cmp_ctx=…" is A's ctx.
  return key.starts_with("cmp_") && key.size() > 4;
}

std::string link_keys_allowed_text() {
  std::string s = "preset, model, a scenario parameter (see `tierscope params`) or a view key:";
  bool first = true;
  for (const LinkKey& k : kLinkKeys) {
    if (!k.write) continue;  // an older link's key is read, not offered
    s += (first ? " " : ", ") + std::string(k.key);
    first = false;
  }
  return s;
}

bool parse_view(std::string_view hash, ViewState& out, Errors& errors) {
  out = ViewState{};
  out.scenario = default_scenario();
  if (!hash.empty() && hash.front() == '#') hash.remove_prefix(1);
  const std::size_t before = errors.size();
  if (hash.size() > kMaxLinkBytes) {
    errors.push_back(make_error(ErrorCode::TooLarge, "hash", std::to_string(hash.size()) + " bytes",
                                "at most " + std::to_string(kMaxLinkBytes) + " bytes"));
    return false;
  }
  // Each part is checked on its own, so one bad part cannot take the good ones down with it.
  std::vector<UrlPair> scenario_pairs, view_pairs;
  std::deque<std::string> decoded;  // owns the decoded parts the pairs view into
  for (const std::string_view raw : split(hash, '&')) {
    if (raw.empty()) continue;
    const std::size_t eq = raw.find('=');
    if (raw.size() > kMaxHashBytes) {
      // Named by its key when that reads as one (the key is echoed, never the long value).
      const std::string_view key = raw.substr(0, std::min(eq, raw.size()));
      const bool plain = !key.empty() && key.size() <= 32 &&
                         std::all_of(key.begin(), key.end(), [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; });
      errors.push_back(make_error(ErrorCode::TooLarge, plain ? key : std::string_view("hash"), std::to_string(raw.size()) + " bytes",
                                  "a key=value part of at most " + std::to_string(kMaxHashBytes) + " bytes"));
      continue;
    }
    std::string key, value;
    const bool key_ok = percent_decode(raw.substr(0, eq), key);
    const bool value_ok = eq == std::string_view::npos || percent_decode(raw.substr(eq + 1), value);
    if (!key_ok || !value_ok || key.find_first_of("&=") != std::string::npos || value.find('&') != std::string::npos) {
      errors.push_back(make_error(ErrorCode::BadSyntax, key_ok && !key.empty() ? std::string_view(key) : std::string_view("hash"), raw,
                                  "key=value pairs with valid %-escapes"));
      continue;
    }
    decoded.push_back(eq == std::string_view::npos ? key : key + "=" + value);
    const std::string_view part = decoded.back();
    std::vector<UrlPair> one;
    if (!split_hash(part, one, errors) || one.empty()) continue;
    bool duplicate = false;
    for (const auto& seen : scenario_pairs) duplicate = duplicate || seen.key == one[0].key;
    for (const auto& seen : view_pairs) duplicate = duplicate || seen.key == one[0].key;
    if (duplicate) {
      errors.push_back(make_error(ErrorCode::DuplicateKey, one[0].key, one[0].value, "each key once"));
      continue;
    }
    (is_view_key(one[0].key) ? view_pairs : scenario_pairs).push_back(one[0]);
  }
  const std::size_t scenario_errors = errors.size();
  out.scenario = scenario_tolerant(std::move(scenario_pairs), errors, out.followed);
  // A key that is neither the scenario's nor the view's: the scenario's reader refused it, and the link says
  // what it may hold instead.
  for (std::size_t i = scenario_errors; i < errors.size(); ++i)
    if (errors[i].code == ErrorCode::UnknownKey && !is_scenario_key(errors[i].field)) errors[i].allowed = link_keys_allowed_text();

  // A comparison's scenario A: `cmp` names its preset, `cmp_KEY` its overrides; read as a link of its own
  // (tolerant per key; errors name the cmp_ key).
  std::vector<UrlPair> a_pairs;
  std::deque<std::string> a_keys;
  for (const UrlPair& p : view_pairs) {
    if (p.key == "cmp") {
      out.compare = true;
      a_pairs.push_back({"preset", p.value});
    } else if (p.key.starts_with("cmp_")) {
      a_keys.emplace_back(p.key.substr(4));
      a_pairs.push_back({a_keys.back(), p.value});
    }
  }
  if (!out.compare && !a_pairs.empty()) {
    errors.push_back(make_error(ErrorCode::Inconsistent, a_pairs.front().key == "preset" ? "cmp" : "cmp_" + std::string(a_pairs.front().key),
                                a_pairs.front().value, "cmp=PRESET with the cmp_ keys (the pinned scenario's preset)"));
  } else if (out.compare) {
    Errors a_errors;
    Adjustments a_followed;
    out.compare_scenario = scenario_tolerant(std::move(a_pairs), a_errors, a_followed);
    for (Error& e : a_errors) {
      e.field = e.field == "preset" ? "cmp" : "cmp_" + e.field;
      errors.push_back(std::move(e));
    }
  }

  for (const UrlPair& p : view_pairs) {
    for (const LinkKey& key : link_keys())
      if (key.key == p.key) key.parse(p.value, out, errors);  // "cmp_KEY" matches no row: read above
  }
  // The walkthrough step tells one path: with another path in the same link, the path wins.
  if (out.tour != 0 && !out.path.empty() && out.path != tour_path(out.tour)) {
    errors.push_back(make_error(ErrorCode::Inconsistent, "tour", out.tour == kTourIntro ? std::string(kTourIntroKey) : std::to_string(out.tour),
                                "the walkthrough step of path " + out.path + " (" + std::to_string(path_index(out.path) + 1) + ")"));
    out.tour = 0;
  }
  return errors.size() == before;
}

std::string view_to_hash(const ViewState& v) {
  std::string h = scenario_to_hash(v.scenario);
  for (const LinkKey& key : link_keys())
    if (key.write) key.write(v, h);
  return h;
}

TourEntry tour_entry(int tour) {
  // What each path's walkthrough step talks about: its row's entry (anim::kPaths).
  if (tour < 1 || tour > kTourSteps) return TourEntry{};
  const anim::PathDef& p = anim::kPaths[tour - 1];
  return {p.tour_step, p.tour_phase};
}

std::string link_path(const ViewState& v) { return v.path.empty() ? tour_path(v.tour) : v.path; }

std::string tour_path(int tour) {
  if (tour == kTourIntro) return kPathKeys[0];
  return tour >= 1 && tour <= kTourSteps ? kPathKeys[static_cast<std::size_t>(tour - 1)] : "";
}

}  // namespace tierscope::model
