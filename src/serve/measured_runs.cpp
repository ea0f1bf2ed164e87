// Reading a measured-runs CSV: the header's columns found by name, each row's fields checked one by one,
// every problem named (the file's, or the row's own kept beside it).
#include "serve/measured_runs.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include "base/text.h"

namespace tierscope::serve {

namespace {

using model::ErrorCode;
using model::make_error;

// The columns by name. Required ones refuse the file when absent; the others read as empty.
enum Col : int {
  Id, ModelPath, System, Backend, Version, Precision, Mode, Isl, Osl, GemmQuant, MoeQuant, Batch, Tp, Pp, Adp, MoeTp, MoeEp,
  PBatch, PWorkers, PTp, PPp, PAdp, PMoeTp, PMoeEp, DBatch, DWorkers, DTp, DPp, DAdp, DMoeTp, DMoeEp, Ttft, Tpot, Source, ColCount
};
struct ColDef {
  const char* name;
  bool required;
};
constexpr std::array<ColDef, ColCount> kCols{{
    {"id", false}, {"model_path", true}, {"system", true}, {"backend", true}, {"backend_version", false}, {"precision", false},
    {"mode", false}, {"isl", true}, {"osl", true}, {"gemm_quant_mode", true}, {"moe_quant_mode", true}, {"batch_size", true},
    {"tp_size", true}, {"pp_size", false}, {"attention_dp_size", true}, {"moe_tp_size", true}, {"moe_ep_size", true},
    {"prefill_batch_size", false}, {"prefill_num_workers", false}, {"prefill_tp_size", false}, {"prefill_pp_size", false},
    {"prefill_attention_dp_size", false}, {"prefill_moe_tp_size", false}, {"prefill_moe_ep_size", false},
    {"decode_batch_size", false}, {"decode_num_workers", false}, {"decode_tp_size", false}, {"decode_pp_size", false},
    {"decode_attention_dp_size", false}, {"decode_moe_tp_size", false}, {"decode_moe_ep_size", false},
    {"silicon_ttft_ms", true}, {"silicon_tpot_ms", true}, {"silicon_data_source", false},
}};

// Splits the text into records of fields (RFC 4180: quoted fields may hold commas, quotes doubled, line
// breaks). False at a quote left open, with the line it opened on.
bool split_records(std::string_view text, std::vector<std::vector<std::string>>& records, std::vector<int>& lines, int& bad_line) {
  std::vector<std::string> fields;
  std::string field;
  bool quoted = false, any = false;
  int line = 1, record_line = 1, quote_line = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        if (c == '\n') ++line;
        field += c;
      }
      continue;
    }
    if (c == '"' && field.empty()) {
      quoted = true;
      quote_line = line;
      any = true;
    } else if (c == ',') {
      fields.push_back(std::move(field));
      field.clear();
      any = true;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      if (any || !field.empty()) {
        fields.push_back(std::move(field));
        records.push_back(std::move(fields));
        lines.push_back(record_line);
      }
      fields.clear();
      field.clear();
      any = false;
      record_line = ++line;
    } else {
      field += c;
      any = true;
    }
  }
  if (quoted) {
    bad_line = quote_line;
    return false;
  }
  if (any || !field.empty()) {
    fields.push_back(std::move(field));
    records.push_back(std::move(fields));
    lines.push_back(record_line);
  }
  return true;
}

std::string trim(std::string s) {
  const std::size_t a = s.find_first_not_of(" \t");
  const std::size_t b = s.find_last_not_of(" \t");
  return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

// A row's fields read one by one; the first bad one is the row's reason.
class RowReader {
 public:
  RowReader(const std::vector<std::string>& f, const std::array<int, ColCount>& at) : f_(f), at_(at) {}
  std::string text(Col c) const {
    const int i = at_[static_cast<std::size_t>(c)];
    return i >= 0 && static_cast<std::size_t>(i) < f_.size() ? trim(f_[static_cast<std::size_t>(i)]) : std::string();
  }
  // A whole number from 0 to `max`; empty reads as 0 unless the field is needed.
  int count(Col c, int max, bool needed, std::string& bad) const {
    const std::string t = text(c);
    if (t.empty()) {
      if (needed && bad.empty()) bad = std::string(kCols[static_cast<std::size_t>(c)].name) + ": empty; allowed: a whole number from 1 to " + std::to_string(max);
      return 0;
    }
    double v = 0;
    if (!model::read_number(t, v) || v < 0 || v > max || v != std::floor(v) || (needed && v < 1)) {
      if (bad.empty()) bad = std::string(kCols[static_cast<std::size_t>(c)].name) + ": '" + t + "' is not a whole number from " + (needed ? "1" : "0") + " to " + std::to_string(max);
      return 0;
    }
    return static_cast<int>(v);
  }
  // A measured time in ms: a finite number above 0.
  double ms(Col c, std::string& bad) const {
    const std::string t = text(c);
    double v = 0;
    if (!model::read_number(t, v) || !(v > 0) || v > 1e9) {
      if (bad.empty()) bad = std::string(kCols[static_cast<std::size_t>(c)].name) + ": '" + t + "' is not a time in ms above 0";
      return 0;
    }
    return v;
  }

 private:
  const std::vector<std::string>& f_;
  const std::array<int, ColCount>& at_;
};

constexpr int kMaxTokens = 16777216, kMaxClients = 100000, kMaxGpus = 4096;

MeasuredPool read_pool(const RowReader& r, Col batch, std::string& bad) {
  MeasuredPool p;
  p.batch = r.count(batch, kMaxClients, false, bad);
  p.workers = r.count(static_cast<Col>(batch + 1), kMaxGpus, false, bad);  // some files leave the counts out
  p.tp = r.count(static_cast<Col>(batch + 2), kMaxGpus, true, bad);
  p.pp = r.count(static_cast<Col>(batch + 3), kMaxGpus, false, bad);
  p.adp = r.count(static_cast<Col>(batch + 4), kMaxGpus, false, bad);
  p.moe_tp = r.count(static_cast<Col>(batch + 5), kMaxGpus, false, bad);
  p.moe_ep = r.count(static_cast<Col>(batch + 6), kMaxGpus, false, bad);
  return p;
}

MeasuredRun read_row(const RowReader& r, int line) {
  MeasuredRun m;
  m.line = line;
  m.id = r.text(Id);
  if (m.id.empty()) m.id = "line " + std::to_string(line);
  m.model_path = r.text(ModelPath);
  m.system = r.text(System);
  m.backend = r.text(Backend);
  m.version = r.text(Version);
  m.precision = r.text(Precision);
  m.mode = r.text(Mode);
  if (m.mode.empty()) m.mode = "agg";
  m.gemm_quant = r.text(GemmQuant);
  m.moe_quant = r.text(MoeQuant);
  std::string& bad = m.bad;
  // A control character (a NUL, an escape) in a text field is named, and replaced by '?' in what is kept, so
  // no report prints it raw.
  const std::pair<Col, std::string*> texts[] = {{Id, &m.id},         {ModelPath, &m.model_path}, {System, &m.system},
                                                {Backend, &m.backend}, {Version, &m.version},     {Precision, &m.precision},
                                                {Mode, &m.mode},     {GemmQuant, &m.gemm_quant}, {MoeQuant, &m.moe_quant}};
  for (const auto& [col, field] : texts) {
    for (std::size_t k = 0; k < field->size(); ++k) {
      const auto c = static_cast<unsigned char>((*field)[k]);
      if (c >= 0x20 && c != 0x7f) continue;
      if (bad.empty()) {
        char code[8];
        std::snprintf(code, sizeof code, "0x%02x", c);
        bad = std::string(kCols[static_cast<std::size_t>(col)].name) + ": a control character (byte " + code + ") at character " + std::to_string(k + 1) +
              "; allowed: printable text";
      }
      (*field)[k] = '?';
    }
  }
  if (m.model_path.empty() && bad.empty()) bad = "model_path: empty; allowed: a model's id (org/name)";
  if (m.mode != "agg" && m.mode != "disagg" && bad.empty()) bad = "mode: '" + m.mode + "' is not agg or disagg";
  m.isl = r.count(Isl, kMaxTokens, true, bad);
  m.osl = r.count(Osl, kMaxTokens, true, bad);
  if (m.mode == "disagg") {
    m.prefill = read_pool(r, PBatch, bad);
    m.decode = read_pool(r, DBatch, bad);
  } else {
    m.batch = r.count(Batch, kMaxClients, true, bad);
    m.tp = r.count(Tp, kMaxGpus, true, bad);
    m.pp = r.count(Pp, kMaxGpus, false, bad);
    m.adp = r.count(Adp, kMaxGpus, false, bad);
    m.moe_tp = r.count(MoeTp, kMaxGpus, false, bad);
    m.moe_ep = r.count(MoeEp, kMaxGpus, false, bad);
  }
  m.ttft_ms = r.ms(Ttft, bad);
  m.tpot_ms = r.ms(Tpot, bad);
  m.source = r.text(Source);
  return m;
}

}  // namespace

int benchmark_concurrency(const MeasuredRun& run) {
  constexpr std::string_view kKey = "silicon_concurrency=";
  const std::size_t at = run.source.find(kKey);
  if (at != std::string::npos) {
    std::size_t i = at + kKey.size();
    long long n = 0;
    while (i < run.source.size() && run.source[i] >= '0' && run.source[i] <= '9' && n <= kMaxClients) n = n * 10 + (run.source[i++] - '0');
    if (n >= 1 && n <= kMaxClients) return static_cast<int>(n);
  }
  if (run.mode == "disagg") {
    const long long ranks = static_cast<long long>(run.decode.workers) * std::max(1, run.decode.adp);
    return static_cast<int>(std::min<long long>(kMaxClients, static_cast<long long>(run.decode.batch) * ranks));
  }
  return static_cast<int>(std::min<long long>(kMaxClients, static_cast<long long>(run.batch) * std::max(1, run.adp)));
}

std::string measured_columns_text() {
  std::string s;
  for (const ColDef& c : kCols) {
    if (!c.required) continue;
    s += (s.empty() ? "" : ", ") + std::string(c.name);
  }
  return s;
}

bool read_measured_runs(std::string_view csv, MeasuredFile& out, model::Errors& errors) {
  out.runs.clear();
  if (csv.size() > kMaxMeasuredBytes) {
    errors.push_back(make_error(ErrorCode::TooLarge, "file", std::to_string(csv.size()) + " bytes", "at most 64 MiB"));
    return false;
  }
  if (csv.starts_with("\xEF\xBB\xBF")) csv.remove_prefix(3);  // a byte-order mark some spreadsheets write
  std::vector<std::vector<std::string>> records;
  std::vector<int> lines;
  int bad_line = 0;
  if (!split_records(csv, records, lines, bad_line)) {
    errors.push_back(make_error(ErrorCode::BadSyntax, "line " + std::to_string(bad_line), "\"", "a quoted field closed by a quote"));
    return false;
  }
  if (records.empty()) {
    errors.push_back(make_error(ErrorCode::MissingField, "header", "empty file", "a header line naming the columns: " + measured_columns_text()));
    return false;
  }
  std::array<int, ColCount> at;
  at.fill(-1);
  const std::vector<std::string>& head = records[0];
  for (std::size_t i = 0; i < head.size(); ++i) {
    const std::string name = trim(head[i]);
    for (std::size_t c = 0; c < kCols.size(); ++c) {
      if (name != kCols[c].name) continue;
      if (at[c] >= 0) errors.push_back(make_error(ErrorCode::DuplicateKey, "header", name, "each column once"));
      at[c] = static_cast<int>(i);
    }
  }
  for (std::size_t c = 0; c < kCols.size(); ++c) {
    if (kCols[c].required && at[c] < 0) errors.push_back(make_error(ErrorCode::MissingField, "header", kCols[c].name, "a column of that name (needed: " + measured_columns_text() + ")"));
  }
  if (!errors.empty()) return false;
  out.runs.reserve(records.size() - 1);
  for (std::size_t k = 1; k < records.size(); ++k) {
    const RowReader r(records[k], at);
    MeasuredRun m = read_row(r, lines[k]);
    if (records[k].size() != head.size() && m.bad.empty()) {
      m.bad = std::to_string(records[k].size()) + " fields where the header names " + std::to_string(head.size());
    }
    out.runs.push_back(std::move(m));
  }
  return true;
}

}  // namespace tierscope::serve
