// The trust band: validate's per-row results as a compact file (written, read, compiled in), the measured runs
// near a served setup, and model ÷ measured over them for TTFT, TPOT and output tokens per second per GPU.
#include "serve/trust.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <numeric>
#include <tuple>

#include "base/text.h"
#include "codec/url_codec.h"
#include "model/params.h"
#include "roofline/figures.h"

// The shipped file's validated runs, compiled in from data/silicon/validated-runs.csv (src/serve/CMakeLists.txt).
extern const unsigned char tierscope_validated_runs[];
extern const unsigned int tierscope_validated_runs_size;

namespace tierscope::serve {

namespace {

using model::ErrorCode;
using model::make_error;

constexpr const char* kHeader =
    "id,model,gpu,engine,isl,osl,concurrency,gpus,tp,dp,ep,params,active_params,measured_ttft_s,model_ttft_s,measured_tpot_s,model_tpot_s";
constexpr int kColumns = 17;

struct FigureNames {
  const char* key;
  const char* short_key;  // the --trust-runs value
  const char* label;
};
constexpr FigureNames kFigureNames[] = {
    {"ttft", "ttft", "mean TTFT"}, {"tpot", "tpot", "mean TPOT"}, {"output_tokens_per_s_gpu", "throughput", "output tokens/s per GPU"}};
static_assert(std::size(kFigureNames) == static_cast<std::size_t>(TrustFigure::Count));

std::string sig7(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.7g", v);
  return buf;
}

double closed_loop_tps_gpu(const ValidatedRun& r, double ttft, double tpot) {
  const double e2e = ttft + std::max(0, r.osl - 1) * tpot;
  return e2e > 0 && r.gpus > 0 ? r.concurrency * static_cast<double>(r.osl) / e2e / r.gpus : 0.0;
}

// A number of the file: finite and positive where the column is a count or a time.
// A plain decimal as this file writes it ("%.7g": at most 7 significant digits, an exponent within ±22) is
// read exactly by hand: its mantissa (below 2^53) times or over an exact power of ten rounds once, as strtod
// does, so the value is the same. Anything else goes to the general reader. The compiled-in file is read on
// every `serve`, and strtod had been most of the command's work.
bool read_decimal(std::string_view t, double& out) {
  static constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                      1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  const auto digit = [&](std::size_t i) { return i < t.size() && t[i] >= '0' && t[i] <= '9'; };
  std::uint64_t mantissa = 0;
  int significant = 0, exp10 = 0;
  std::size_t i = 0;
  bool any = false;
  for (bool fraction = false;; ++i) {
    if (!fraction && i < t.size() && t[i] == '.') {
      fraction = true;
      continue;
    }
    if (!digit(i)) break;
    mantissa = mantissa * 10 + static_cast<unsigned>(t[i] - '0');
    significant += mantissa != 0;
    exp10 -= fraction;
    any = true;
    if (significant > 15) return model::read_number(t, out);
  }
  if (any && i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    const bool minus = i + 1 < t.size() && t[i + 1] == '-';
    i += 1 + (i + 1 < t.size() && (t[i + 1] == '-' || t[i + 1] == '+'));
    int e = 0;
    const std::size_t first = i;
    for (; digit(i) && e < 1000; ++i) e = e * 10 + (t[i] - '0');
    if (i == first) return model::read_number(t, out);
    exp10 += minus ? -e : e;
  }
  if (!any || i != t.size() || exp10 < -22 || exp10 > 22) return model::read_number(t, out);
  const double m = static_cast<double>(mantissa);
  out = exp10 >= 0 ? m * kPow10[exp10] : m / kPow10[-exp10];
  return true;
}

bool read_positive(std::string_view text, double& out) { return read_decimal(text, out) && std::isfinite(out) && out > 0; }
bool read_count(std::string_view text, int& out) {
  double v = 0;
  if (!read_positive(text, v) || v != std::floor(v) || v > 1e7) return false;
  out = static_cast<int>(v);
  return true;
}

// The generation of a GPU the catalog names, or Count for one it does not.
model::GpuGen gen_of(std::string_view key) {
  const int i = model::gpu_index(key);
  return i < 0 ? model::GpuGen::Count : model::kGpus[i].gen;
}

// Linear between order statistics (sorted v, p in [0, 1]).
double percentile(const std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  const double x = p * static_cast<double>(v.size() - 1);
  const std::size_t i = static_cast<std::size_t>(x);
  const double f = x - static_cast<double>(i);
  return i + 1 < v.size() ? v[i] * (1 - f) + v[i + 1] * f : v[i];
}

double doublings(double a, double b) { return a > 0 && b > 0 ? std::fabs(std::log2(a / b)) : 1e9; }

}  // namespace

const char* trust_figure_key(TrustFigure f) { return kFigureNames[static_cast<int>(f)].key; }
const char* trust_figure_label(TrustFigure f) { return kFigureNames[static_cast<int>(f)].label; }
bool trust_figure_from_key(std::string_view key, TrustFigure& out) {
  for (const TrustFigure f : kTrustFigures) {
    if (key == kFigureNames[static_cast<int>(f)].short_key) {
      out = f;
      return true;
    }
  }
  return false;
}
std::string trust_figure_keys_text() {
  std::string s;
  for (const FigureNames& n : kFigureNames) s += (s.empty() ? "" : ", ") + std::string(n.short_key);
  return s;
}

double measured_value(const ValidatedRun& r, TrustFigure f) {
  switch (f) {
    case TrustFigure::Ttft: return r.measured_ttft_s;
    case TrustFigure::Tpot: return r.measured_tpot_s;
    case TrustFigure::Throughput: return closed_loop_tps_gpu(r, r.measured_ttft_s, r.measured_tpot_s);
    case TrustFigure::Count: break;
  }
  return 0;
}
double model_value(const ValidatedRun& r, TrustFigure f) {
  switch (f) {
    case TrustFigure::Ttft: return r.model_ttft_s;
    case TrustFigure::Tpot: return r.model_tpot_s;
    case TrustFigure::Throughput: return closed_loop_tps_gpu(r, r.model_ttft_s, r.model_tpot_s);
    case TrustFigure::Count: break;
  }
  return 0;
}
double model_ratio(const ValidatedRun& r, TrustFigure f) {
  const double m = measured_value(r, f);
  return m > 0 ? model_value(r, f) / m : 0.0;
}

std::string validated_runs_csv(const std::vector<RunResult>& results, const MeasuredFile& file) {
  std::string o = std::string(kHeader) + "\n";
  const model::ParamDef& gpu_param = *model::find_param("gpu");
  const model::ParamDef& engine_param = *model::find_param("engine");
  for (const RunResult& r : results) {
    // A disaggregated run's instance is one decode worker beside a prefill pool: not a setup the band's
    // aggregated neighbours stand for, so its rows stay in validate's tables and the gate only.
    if (!r.expressed || r.disagg) continue;
    // The GPU and engine as the replayed scenario names them.
    model::Scenario s;
    model::Errors ignored;
    model::scenario_from_hash(r.scenario, s, ignored);
    const MeasuredRun& m = file.runs[r.row];
    o += m.id + "," + r.model + "," + model::get_param_text(s, gpu_param) + "," + model::get_param_text(s, engine_param);
    for (const int v : {r.isl, r.osl, r.concurrency, r.gpus, r.tp, r.dp, r.ep}) o += "," + std::to_string(v);
    for (const double v : {r.params, r.active_params, r.measured_ttft_s, r.ttft_s, r.measured_tpot_s, r.tpot_s}) o += "," + sig7(v);
    o += "\n";
  }
  return o;
}

bool read_validated_runs(std::string_view csv, ValidatedRuns& out, model::Errors& errors) {
  out.runs.clear();
  int line = 0;
  bool header = true;
  std::vector<std::string_view> f;  // one line's fields, its storage kept from line to line
  out.runs.reserve(static_cast<std::size_t>(std::count(csv.begin(), csv.end(), '\n')));
  for (std::string_view text : model::split(csv, '\n')) {
    ++line;
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    if (text.empty()) continue;
    const auto where = [line] { return "validated runs line " + std::to_string(line); };  // made only for a message
    if (header) {
      header = false;
      if (text != kHeader) {
        errors.push_back(make_error(ErrorCode::BadSyntax, where(), text.substr(0, 80), std::string("the header ") + kHeader));
        return false;
      }
      continue;
    }
    f.clear();
    for (std::string_view cell : model::split(text, ',')) f.push_back(cell);
    ValidatedRun r;
    const bool shape = f.size() == kColumns && !f[0].empty() && !f[1].empty() && model::gpu_index(f[2]) >= 0 && !f[3].empty();
    if (shape) {
      r.id = std::string(f[0]);
      r.model = std::string(f[1]);
      r.gpu = std::string(f[2]);
      r.engine = std::string(f[3]);
    }
    int* const ints[] = {&r.isl, &r.osl, &r.concurrency, &r.gpus, &r.tp, &r.dp, &r.ep};
    double* const reals[] = {&r.params, &r.active_params, &r.measured_ttft_s, &r.model_ttft_s, &r.measured_tpot_s, &r.model_tpot_s};
    bool ok = shape;
    for (std::size_t i = 0; ok && i < std::size(ints); ++i) ok = read_count(f[4 + i], *ints[i]);
    for (std::size_t i = 0; ok && i < std::size(reals); ++i) ok = read_positive(f[4 + std::size(ints) + i], *reals[i]);
    if (!ok) {
      errors.push_back(make_error(ErrorCode::BadSyntax, where(), text.substr(0, 80),
                                  std::to_string(kColumns) + " fields: id, model, a GPU key, an engine, whole counts and positive numbers"));
      return false;
    }
    out.runs.push_back(std::move(r));
  }
  if (header) {
    errors.push_back(make_error(ErrorCode::MissingField, "validated runs", "(empty)", std::string("the header ") + kHeader));
    return false;
  }
  return true;
}

const ValidatedRuns& shipped_validated_runs() {
  static const ValidatedRuns table = [] {
    ValidatedRuns t;
    model::Errors errors;
    const std::string_view text(reinterpret_cast<const char*>(tierscope_validated_runs), tierscope_validated_runs_size);
    if (!read_validated_runs(text, t, errors)) t.runs.clear();  // a test holds the shipped file readable
    return t;
  }();
  return table;
}

TrustQuery trust_query(const model::Scenario& s, const ServeSpec& spec, const ServeResult& r) {
  TrustQuery q;
  q.engine = model::get_param_text(s, *model::find_param("engine"));
  q.gpu = model::get_param_text(s, *model::find_param("gpu"));
  model::Computed c;
  model::compute_values(s, c);
  q.params = c.values[model::FigureId::ParamsTotal];
  q.active_params = c.values[model::FigureId::ParamsActiveDecode];
  q.gpus = std::max(1, r.gpus_per_instance);
  q.dp = std::max(1, s.par.dp);
  const double instances = std::max(1, r.instances);
  q.concurrency = (r.concurrency > 0 ? r.concurrency : r.mean_in_flight) / instances;
  const double done = static_cast<double>(r.completed);
  q.isl = done > 0 ? r.input_tokens / done : spec.input;
  q.osl = done > 0 ? r.output_tokens / done : spec.output;
  return q;
}

double trust_distance(const TrustQuery& q, const ValidatedRun& r) {
  return doublings(q.params, r.params) + doublings(q.active_params, r.active_params) + doublings(q.gpus, r.gpus) +
         ((q.dp > 1) != (r.dp > 1) ? 1.0 : 0.0) + doublings(std::max(1.0, q.concurrency), r.concurrency) +
         0.5 * doublings(std::max(1.0, q.isl), r.isl) + 0.5 * doublings(std::max(1.0, q.osl), r.osl);
}

Trust trust_for(const ValidatedRuns& table, const TrustQuery& q) {
  Trust t;
  t.table = &table;
  const model::GpuGen gen = gen_of(q.gpu);
  // Within reach: the same engine on the same GPU; then on a GPU of its generation too.
  std::vector<std::pair<double, std::size_t>> same, kin;
  for (std::size_t i = 0; i < table.runs.size(); ++i) {
    const ValidatedRun& r = table.runs[i];
    if (r.engine != q.engine) continue;
    const double d = trust_distance(q, r);
    if (!(d <= kTrustMaxDistance)) continue;
    if (r.gpu == q.gpu) same.emplace_back(d, i);
    else if (gen != model::GpuGen::Count && gen_of(r.gpu) == gen) kin.emplace_back(d, i);
  }
  std::vector<std::pair<double, std::size_t>> near = std::move(same);
  if (static_cast<int>(near.size()) < kTrustMinRuns) {
    t.widened = !kin.empty();
    near.insert(near.end(), kin.begin(), kin.end());
  }
  t.reach = static_cast<int>(near.size());
  if (t.reach < kTrustMinRuns) {
    t.why = "no measured runs near this setup: " + std::to_string(t.reach) + " of " + q.engine + " on " + q.gpu +
            (gen != model::GpuGen::Count ? " or a GPU of its generation" : "") + " within reach, " + std::to_string(kTrustMinRuns) + " needed";
    return t;
  }
  // Nearest first; at equal distance the query's own GPU first, then file order.
  const auto key = [&](const std::pair<double, std::size_t>& p) { return std::tuple(p.first, table.runs[p.second].gpu != q.gpu, p.second); };
  std::sort(near.begin(), near.end(), [&](const auto& a, const auto& b) { return key(a) < key(b); });
  near.resize(std::min<std::size_t>(near.size(), kTrustNearest));
  t.near = true;
  std::vector<std::string> gpus;
  for (const auto& [d, i] : near) {
    t.runs.push_back(i);
    t.distance.push_back(d);
    if (std::find(gpus.begin(), gpus.end(), table.runs[i].gpu) == gpus.end()) gpus.push_back(table.runs[i].gpu);
  }
  std::sort(gpus.begin(), gpus.end(), [&](const std::string& a, const std::string& b) { return (a == q.gpu) > (b == q.gpu) || ((a == q.gpu) == (b == q.gpu) && a < b); });
  t.scope = q.engine + " on ";
  for (std::size_t k = 0; k < gpus.size(); ++k) t.scope += (k ? ", " : "") + gpus[k];
  for (const TrustFigure f : kTrustFigures) {
    std::vector<double> ratios;
    for (const std::size_t i : t.runs) ratios.push_back(model_ratio(table.runs[i], f));
    std::sort(ratios.begin(), ratios.end());
    TrustBand& b = t.bands[static_cast<int>(f)];
    b.lo = percentile(ratios, kTrustLowPercentile);
    b.hi = percentile(ratios, kTrustHighPercentile);
    b.median = percentile(ratios, 0.5);
  }
  return t;
}

Trust serve_trust(const model::Scenario& s, const ServeSpec& spec, const ServeResult& r) {
  return trust_for(shipped_validated_runs(), trust_query(s, spec, r));
}

std::string trust_text(const Trust& t, TrustFigure f) {
  if (!t.near) return t.why;
  const TrustBand& b = t.band(f);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f–%.2f", b.lo, b.hi);
  return "measured runs like this: model ÷ measured " + std::string(buf) + " (" + std::to_string(t.runs.size()) + " runs of " + t.scope + ")";
}

namespace {

// A figure's value in the unit the runs' table prints it in: ms for the latencies, tokens/s for throughput.
std::string shown(double v, TrustFigure f) {
  char buf[32];
  std::snprintf(buf, sizeof buf, f == TrustFigure::Throughput ? "%.1f" : "%.2f", f == TrustFigure::Throughput ? v : v * 1e3);
  return buf;
}
std::string layout_text(const ValidatedRun& r) {
  return std::to_string(r.gpus) + " GPUs, TP " + std::to_string(r.tp) + (r.dp > 1 ? " × DP " + std::to_string(r.dp) : std::string()) +
         (r.ep > 1 ? ", EP " + std::to_string(r.ep) : std::string());
}

}  // namespace

std::string trust_runs_text(const Trust& t, TrustFigure f) {
  std::string o = "Measured runs like this, for " + std::string(trust_figure_label(f)) + " (" +
                  (f == TrustFigure::Throughput ? "tokens/s" : "ms") + "; docs/validation.md says which are near):\n";
  if (!t.near) return o + t.why + "\n";
  o += trust_text(t, f) + "\n";
  model::appendf(o, "%-32s %-6s %-7s %-11s %5s  %-26s %10s %10s %6s %5s  %s\n", "model", "GPU", "engine", "ISL/OSL", "conc.", "layout", "measured",
                 "model", "ratio", "dist.", "run");
  for (std::size_t k = 0; k < t.runs.size(); ++k) {
    const ValidatedRun& r = t.table->runs[t.runs[k]];
    const std::string lengths = std::to_string(r.isl) + "/" + std::to_string(r.osl);
    model::appendf(o, "%-32s %-6s %-7s %-11s %5d  %-26s %10s %10s %6.2f %5.2f  %s\n", r.model.c_str(), r.gpu.c_str(), r.engine.c_str(), lengths.c_str(),
                   r.concurrency, layout_text(r).c_str(), shown(measured_value(r, f), f).c_str(), shown(model_value(r, f), f).c_str(), model_ratio(r, f),
                   t.distance[k], r.id.c_str());
  }
  return o;
}

void trust_json(model::JsonWriter& w, const Trust& t) {
  w.object("trust", model::json_lines(4));
  for (const TrustFigure f : kTrustFigures) {
    const TrustBand& b = t.band(f);
    const double none = std::numeric_limits<double>::quiet_NaN();  // null where none is near
    w.object(trust_figure_key(f), model::kJsonSpaced).boolean("near", t.near).num("lo", t.near ? b.lo : none).num("hi", t.near ? b.hi : none);
    w.num("median", t.near ? b.median : none).integer("runs", static_cast<long long>(t.runs.size())).array("ids");
    for (const std::size_t i : t.runs) w.str(t.table->runs[i].id);
    w.end().str("text", trust_text(t, f)).end();
  }
  w.end();
}

std::vector<TrustRow> trust_rows(const ServeResult& r, const Trust& t) {
  std::vector<TrustRow> out;
  for (const LatencyRow& m : serve_latency_rows(r)) {
    TrustFigure f{};
    if (trust_figure_from_key(m.key, f) && f != TrustFigure::Throughput) out.push_back({f, "Mean " + m.abbrev + " (ms)", m.mean_ms, trust_text(t, f)});
  }
  for (const ReportRow& row : serve_rows(r)) {
    if (row.key != std::string_view(trust_figure_key(TrustFigure::Throughput))) continue;
    std::string label = row.label;
    if (!label.empty() && label.back() == ':') label.pop_back();
    out.push_back({TrustFigure::Throughput, label, row.value, trust_text(t, TrustFigure::Throughput)});
  }
  return out;
}

void trust_runs_json(model::JsonWriter& w, const Trust& t) {
  w.array();
  for (std::size_t k = 0; k < t.runs.size(); ++k) {
    const ValidatedRun& r = t.table->runs[t.runs[k]];
    w.object().str("id", r.id).str("model", r.model).str("gpu", r.gpu).str("engine", r.engine).integer("isl", r.isl).integer("osl", r.osl);
    w.integer("concurrency", r.concurrency).str("layout", layout_text(r)).key("distance").fixed(t.distance[k], 2);
    w.object("figures");
    for (const TrustFigure f : kTrustFigures) {
      char ratio[16];
      std::snprintf(ratio, sizeof ratio, "%.2f", model_ratio(r, f));
      w.object(trust_figure_key(f)).str("measured", shown(measured_value(r, f), f)).str("model", shown(model_value(r, f), f)).str("ratio", ratio).end();
    }
    w.end().end();
  }
  w.end();
}

}  // namespace tierscope::serve
