// Mooncake-format trace parser: a small hand-written reader for one flat JSON object per line (no
// exceptions, no allocation per value), and the trace's own upper bound on prefix hits.
#include "sim/trace.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>

#include "base/text.h"

namespace tierscope::sim {

using model::ErrorCode;
using model::make_error;

namespace {

constexpr std::size_t kMaxIdsPerRequest = kMaxTraceTokens;  // at most one block per token
constexpr const char* kLineShape =
    "one JSON object per line: {\"timestamp\": ms, \"input_length\": tokens, \"output_length\": tokens, \"hash_ids\": [ids]}";

// One line's fields as read; `ids` is a scratch buffer reused across lines.
struct Row {
  double timestamp = 0;
  std::uint64_t input = 0, output = 0;
  bool has[4] = {false, false, false, false};
};

class LineReader {
 public:
  explicit LineReader(std::string_view line) : s_(line) {}

  bool parse(Row& row, std::vector<std::uint64_t>& ids, std::string& what, std::string& value) {
    ws();
    if (!eat('{')) return fail(what, value, "a JSON object", snippet());
    ws();
    if (eat('}')) return check_keys(row, what, value);
    for (;;) {
      std::string_view key;
      if (!read_key(key)) return fail(what, value, "a key in double quotes", snippet());
      ws();
      if (!eat(':')) return fail(what, value, "':' after the key", std::string(key));
      ws();
      int k = -1;
      if (key == "timestamp") k = 0;
      else if (key == "input_length") k = 1;
      else if (key == "output_length") k = 2;
      else if (key == "hash_ids") k = 3;
      if (k < 0) return fail(what, value, "only the keys timestamp, input_length, output_length and hash_ids", std::string(key));
      if (row.has[k]) return fail(what, value, "each key once", std::string(key));
      row.has[k] = true;
      if (k == 0) {
        std::string_view text;
        double v = 0;
        if (!read_number(text) || !to_double(text, v) || !std::isfinite(v) || v < 0)
          return fail(what, value, "timestamp: a finite number of milliseconds, 0 or more", text.empty() ? snippet() : std::string(text));
        row.timestamp = v;
      } else if (k == 1 || k == 2) {
        std::string_view text;
        std::uint64_t v = 0;
        const char* name = k == 1 ? "input_length" : "output_length";
        if (!read_number(text) || !to_uint(text, v) || v < 1 || v > kMaxTraceTokens)
          return fail(what, value, std::string(name) + ": an integer from 1 to 16777216", text.empty() ? snippet() : std::string(text));
        (k == 1 ? row.input : row.output) = v;
      } else {
        ids.clear();
        if (!eat('[')) return fail(what, value, "hash_ids: an array of non-negative integers", snippet());
        ws();
        if (!eat(']')) {
          for (;;) {
            std::string_view text;
            std::uint64_t v = 0;
            if (!read_number(text) || !to_uint(text, v))
              return fail(what, value, "hash_ids: non-negative integers", text.empty() ? snippet() : std::string(text));
            if (ids.size() >= kMaxIdsPerRequest) return fail(what, value, "hash_ids: at most one id per token", "more ids");
            ids.push_back(v);
            ws();
            if (eat(']')) break;
            if (!eat(',')) return fail(what, value, "hash_ids: ids separated by ','", snippet());
            ws();
          }
        }
      }
      ws();
      if (eat('}')) break;
      if (!eat(',')) return fail(what, value, "',' or '}' after a value", snippet());
      ws();
    }
    ws();
    if (i_ != s_.size()) return fail(what, value, "nothing after the object on its line", snippet());
    return check_keys(row, what, value);
  }

 private:
  std::string_view s_;
  std::size_t i_ = 0;

  void ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\r')) ++i_;
  }
  bool eat(char c) {
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  std::string snippet() const { return std::string(s_.substr(i_ < s_.size() ? i_ : s_.size(), 24)); }
  static bool fail(std::string& what, std::string& value, std::string allowed, std::string bad) {
    what = std::move(allowed);
    value = bad.empty() ? std::string("(end of line)") : std::move(bad);
    return false;
  }
  bool check_keys(const Row& row, std::string& what, std::string& value) const {
    static const char* const names[] = {"timestamp", "input_length", "output_length", "hash_ids"};
    for (int k = 0; k < 4; ++k) {
      if (!row.has[k]) return fail(what, value, std::string("every line has ") + names[k], std::string("no ") + names[k]);
    }
    return true;
  }
  // Keys are plain ASCII words: no escapes are needed for the four keys, so a backslash is refused.
  bool read_key(std::string_view& key) {
    if (!eat('"')) return false;
    const std::size_t start = i_;
    while (i_ < s_.size() && s_[i_] != '"') {
      if (s_[i_] == '\\' || static_cast<unsigned char>(s_[i_]) < 0x20 || i_ - start > 64) return false;
      ++i_;
    }
    if (i_ >= s_.size()) return false;
    key = s_.substr(start, i_ - start);
    ++i_;
    return true;
  }
  // A JSON number's text: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
  bool read_number(std::string_view& text) {
    const std::size_t start = i_;
    auto digits = [&] {
      const std::size_t d = i_;
      while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
      return i_ > d;
    };
    eat('-');
    if (i_ < s_.size() && s_[i_] == '0') {
      ++i_;
    } else if (!digits()) {
      i_ = start;
      return false;
    }
    if (eat('.') && !digits()) return false;
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
      if (!eat('+')) eat('-');
      if (!digits()) return false;
    }
    text = s_.substr(start, i_ - start);
    return true;
  }
  static bool to_uint(std::string_view text, std::uint64_t& v) {
    if (text.empty() || text.size() > 19) return false;  // 19 digits always fit in 64 bits
    v = 0;
    for (char c : text) {
      if (c < '0' || c > '9') return false;  // integers only: no sign, fraction or exponent
      v = v * 10 + static_cast<std::uint64_t>(c - '0');
    }
    return true;
  }
  static bool to_double(std::string_view text, double& v) {
    if (text.empty() || text.size() > 64) return false;
    char buf[72];
    std::memcpy(buf, text.data(), text.size());
    buf[text.size()] = '\0';
    char* end = nullptr;
    v = std::strtod(buf, &end);
    return end == buf + text.size();
  }
};

}  // namespace

bool parse_trace(std::string_view text, int block_tokens, Trace& out, model::Error& err) {
  if (block_tokens < 1) {
    err = make_error(ErrorCode::OutOfRange, "block_tokens", std::to_string(block_tokens), "1 or more tokens per block");
    return false;
  }
  if (text.size() > kMaxTraceBytes) {
    err = make_error(ErrorCode::TooLarge, "trace", std::to_string(text.size()) + " bytes", "at most 268435456 bytes (256 MiB)");
    return false;
  }
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // a byte-order mark, as the JSON and CSV readers skip it
  Trace t;
  std::unordered_map<std::uint64_t, std::uint32_t> dense;
  std::vector<std::uint64_t> ids;
  std::size_t line_no = 0;
  double last_ms = 0;
  t.first.push_back(0);
  for (const std::string_view line : model::split(text, '\n')) {
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;  // blank
    const std::string field = "trace line " + std::to_string(line_no);
    if (t.size() >= kMaxTraceRequests) {
      err = make_error(ErrorCode::TooLarge, field, "more requests", "at most 10000000 requests");
      return false;
    }
    Row row;
    std::string what, value;
    LineReader reader(line);
    if (!reader.parse(row, ids, what, value)) {
      err = make_error(ErrorCode::BadSyntax, field, value, what + " (" + kLineShape + ")");
      return false;
    }
    if (!t.input.empty() && row.timestamp < last_ms) {
      err = make_error(ErrorCode::Inconsistent, field, "timestamp " + model::num_exact(row.timestamp),
                       "timestamps in order: at least the previous line's " + model::num_exact(last_ms));
      return false;
    }
    const std::uint64_t blocks = (row.input + static_cast<std::uint64_t>(block_tokens) - 1) / static_cast<std::uint64_t>(block_tokens);
    if (ids.empty() || ids.size() > blocks) {
      err = make_error(ErrorCode::Inconsistent, field, std::to_string(ids.size()) + " hash_ids",
                       "1 to " + std::to_string(blocks) + " ids: one per " + std::to_string(block_tokens) + "-token block of input_length " +
                           std::to_string(row.input));
      return false;
    }
    last_ms = row.timestamp;
    t.arrival_s.push_back(row.timestamp / 1000.0);
    t.input.push_back(static_cast<std::uint32_t>(row.input));
    t.output.push_back(static_cast<std::uint32_t>(row.output));
    t.line.push_back(static_cast<std::uint32_t>(line_no));
    for (std::uint64_t id : ids) {
      auto [it, inserted] = dense.try_emplace(id, t.distinct);
      if (inserted) ++t.distinct;
      t.ids.push_back(it->second);
    }
    t.first.push_back(static_cast<std::uint32_t>(t.ids.size()));
    if (t.ids.size() > 0xF0000000u) {
      err = make_error(ErrorCode::TooLarge, field, "more hash ids", "at most 4026531840 hash ids in a trace");
      return false;
    }
  }
  if (t.input.empty()) {
    err = make_error(ErrorCode::BadSyntax, "trace", "no requests", std::string("at least one line: ") + kLineShape);
    return false;
  }
  out = std::move(t);
  return true;
}

TraceBound trace_prefix_bound(const Trace& trace, int block_tokens) {
  TraceBound b;
  std::vector<unsigned char> seen(trace.distinct, 0);
  for (std::size_t r = 0; r < trace.size(); ++r) {
    std::uint32_t run = trace.first[r];
    const std::uint32_t end = trace.first[r + 1];
    while (run < end && seen[trace.ids[run]]) ++run;
    const double hit_blocks = run - trace.first[r];
    b.hit_tokens += std::min<double>(trace.input[r], hit_blocks * block_tokens);
    b.input_tokens += trace.input[r];
    for (std::uint32_t i = trace.first[r]; i < end; ++i) seen[trace.ids[i]] = 1;
  }
  return b;
}

}  // namespace tierscope::sim
