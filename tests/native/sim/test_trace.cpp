// The Mooncake-format trace: the real excerpt parses, every malformed line is named with its number and
// nothing is loaded, and a replay with unbounded tiers reaches exactly the trace's own prefix-hit bound,
// computed here independently from the raw ids.
#include "fleet_helpers.h"

#include <set>
#include <vector>

#include "sim/fleet_report.h"
#include "sim/trace.h"

using namespace tierscope;
using fleet_test::fixture;

namespace {

sim::Trace parse_ok(const std::string& text) {
  sim::Trace t;
  model::Error e;
  INFO(e.message());
  REQUIRE(sim::parse_trace(text, 512, t, e));
  return t;
}

model::Error parse_err(const std::string& text) {
  sim::Trace t;
  t.input.push_back(7);  // must be left untouched by a failed parse
  model::Error e;
  CHECK_FALSE(sim::parse_trace(text, 512, t, e));
  CHECK(t.input.size() == 1);
  CHECK(t.input[0] == 7);
  return e;
}

// The bound from the raw text: each request's leading ids that appeared in an earlier request, in tokens.
double bound_from_raw(const std::vector<std::vector<long long>>& ids, const std::vector<double>& input) {
  std::set<long long> seen;
  double hit = 0;
  for (std::size_t r = 0; r < ids.size(); ++r) {
    std::size_t k = 0;
    while (k < ids[r].size() && seen.count(ids[r][k])) ++k;
    hit += std::min(input[r], 512.0 * static_cast<double>(k));
    for (long long id : ids[r]) seen.insert(id);
  }
  return hit;
}

// Multi-turn conversations in the trace format: request k of a conversation repeats its earlier blocks and
// adds new ones; some share a system-prompt block. Times spread so that requests overlap in flight.
std::string conversations(int count, int turns) {
  std::string out;
  long long next_id = 1;
  std::vector<std::vector<long long>> convo(static_cast<std::size_t>(count));
  double t = 0;
  for (int turn = 0; turn < turns; ++turn) {
    for (int c = 0; c < count; ++c) {
      auto& ids = convo[static_cast<std::size_t>(c)];
      if (ids.empty()) ids.push_back(c % 3 == 0 ? 0 : next_id++);  // a third share block 0
      const int add = 1 + (c + turn) % 3;
      for (int k = 0; k < add; ++k) ids.push_back(next_id++);
      const long long input = static_cast<long long>(ids.size()) * 512 - (c % 5) * 37;
      out += "{\"timestamp\": " + std::to_string(static_cast<long long>(t)) + ", \"input_length\": " + std::to_string(input) +
             ", \"output_length\": " + std::to_string(20 + c % 7) + ", \"hash_ids\": [";
      for (std::size_t k = 0; k < ids.size(); ++k) out += (k ? ", " : "") + std::to_string(ids[k]);
      out += "]}\n";
      t += 37 + (c * 13) % 50;
    }
  }
  return out;
}

void raw_ids(const std::string& text, std::vector<std::vector<long long>>& ids, std::vector<double>& input) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    if (line.empty()) continue;
    const std::size_t in = line.find("\"input_length\": ");
    input.push_back(std::stod(line.substr(in + 16)));
    std::vector<long long> v;
    std::size_t i = line.find('[') + 1;
    while (i < line.size() && line[i] != ']') {
      while (line[i] == ' ' || line[i] == ',') ++i;
      std::size_t j = i;
      while (line[j] >= '0' && line[j] <= '9') ++j;
      v.push_back(std::stoll(line.substr(i, j - i)));
      i = j;
    }
    ids.push_back(v);
  }
}

double replay_unbounded(const sim::Trace& trace) {
  model::Scenario s = fleet_test::scenario({{"hours", "2"}});
  sim::FleetConfig c = fleet_test::config(s, &trace);
  c.dram_bytes = c.ssd_bytes = fleet_test::kInf;
  c.retention_s = fleet_test::kInf;
  const sim::FleetResult r = sim::run_fleet(c);
  REQUIRE(r.total.turns == trace.size());  // every request admitted within the run
  return r.total.hit_hbm_tokens + r.total.hit_dram_tokens + r.total.hit_ssd_tokens;
}

}  // namespace

TEST_CASE("trace: the Mooncake FAST'25 excerpt parses — ids are renumbered densely") {
  const sim::Trace t = parse_ok(fixture("mooncake-conversation-head.jsonl"));
  REQUIRE(t.size() == 75);
  CHECK(t.arrival_s.front() == 0);
  CHECK(t.arrival_s.back() == 24.0);
  CHECK(t.input[0] == 6758);
  CHECK(t.output[0] == 500);
  CHECK(t.first[1] - t.first[0] == 14);
  CHECK(t.distinct == 1768);  // ids 0 to 1767, each once except the shared block 0
  CHECK(t.line[74] == 75);
}

// A file an editor saved with a byte-order mark, or with CRLF line ends, reads as the same trace (the mark made
// line 1 "not a JSON object", while the JSON and CSV readers skip it).
TEST_CASE("trace: a UTF-8 byte-order mark and CRLF line ends read as the plain file") {
  const std::string plain = "{\"timestamp\": 0, \"input_length\": 600, \"output_length\": 10, \"hash_ids\": [1, 2]}\n"
                            "{\"timestamp\": 5, \"input_length\": 100, \"output_length\": 20, \"hash_ids\": [1]}\n";
  const sim::Trace a = parse_ok(plain);
  std::string crlf;
  for (const char c : plain) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  for (const std::string& text : {"\xEF\xBB\xBF" + plain, crlf, "\xEF\xBB\xBF" + crlf}) {
    const sim::Trace b = parse_ok(text);
    CHECK(b.input == a.input);
    CHECK(b.output == a.output);
    CHECK(b.arrival_s == a.arrival_s);
    CHECK(b.ids == a.ids);
  }
  // Only at the start of the file: a mark inside is still refused by its line.
  const model::Error inside = parse_err(plain + "\xEF\xBB\xBF" + plain);
  CHECK(inside.field == "trace line 3");
  // The refusal says what is allowed ("allowed: not a JSON object" read as the opposite).
  CHECK(inside.allowed.starts_with("a JSON object ("));
}

TEST_CASE("trace: every malformed line is a named error with its line number, and nothing is loaded") {
  const std::string good = "{\"timestamp\": 0, \"input_length\": 600, \"output_length\": 5, \"hash_ids\": [1, 2]}\n";
  struct Case {
    std::string line;
    model::ErrorCode code;
  };
  const Case cases[] = {
      {"{\"timestamp\": 10, \"input_length\": 600, \"output_length\": 5}", model::ErrorCode::BadSyntax},                         // no hash_ids
      {"{\"timestamp\": 10, \"input_length\": -6, \"output_length\": 5, \"hash_ids\": [1]}", model::ErrorCode::BadSyntax},      // negative
      {"{\"timestamp\": 10, \"input_length\": 6.5, \"output_length\": 5, \"hash_ids\": [1]}", model::ErrorCode::BadSyntax},     // fraction
      {"{\"timestamp\": 10, \"input_length\": 600, \"output_length\": 0, \"hash_ids\": [1]}", model::ErrorCode::BadSyntax},     // zero out
      {"{\"timestamp\": NaN, \"input_length\": 600, \"output_length\": 5, \"hash_ids\": [1]}", model::ErrorCode::BadSyntax},    // non-finite
      {"{\"timestamp\": 1e999, \"input_length\": 600, \"output_length\": 5, \"hash_ids\": [1]}", model::ErrorCode::BadSyntax},  // overflow
      {"{\"timestamp\": 10, \"input_length\": 600, \"output_length\": 5, \"hash_ids\": [1, \"2\"]}", model::ErrorCode::BadSyntax},
      {"{\"timestamp\": 10, \"input_length\": 600, \"output_length\": 5, \"hash_ids\": [1], \"user\": 3}", model::ErrorCode::BadSyntax},
      {"{\"timestamp\": 10, \"timestamp\": 11, \"input_length\": 600, \"output_length\": 5, \"hash_ids\": [1]}", model::ErrorCode::BadSyntax},
      {"{\"timestamp\": 10, \"input_length\": 600, \"output_length\": 5, \"hash_ids\": [1]} x", model::ErrorCode::BadSyntax},
      {"[1, 2, 3]", model::ErrorCode::BadSyntax},
      {"{\"timestamp\": 10, \"input_length\": 600, \"output_length\": 5, \"hash_ids\": [1, 2, 3]}", model::ErrorCode::Inconsistent},  // 3 ids, 2 blocks
      {"{\"timestamp\": 10, \"input_length\": 600, \"output_length\": 5, \"hash_ids\": []}", model::ErrorCode::Inconsistent},
  };
  for (const Case& c : cases) {
    INFO(c.line);
    const model::Error e = parse_err(good + "\n" + c.line + "\n" + good);
    CHECK(e.field == "trace line 3");  // the blank line 2 still counts
    CHECK(e.code == c.code);
    CHECK_FALSE(e.allowed.empty());
  }
  // Time never goes back; the line and both times are named.
  const model::Error back = parse_err(good + "{\"timestamp\": 5, \"input_length\": 600, \"output_length\": 5, \"hash_ids\": [1]}\n" +
                                      "{\"timestamp\": 4, \"input_length\": 600, \"output_length\": 5, \"hash_ids\": [1]}\n");
  CHECK(back.field == "trace line 3");
  CHECK(back.code == model::ErrorCode::Inconsistent);
  CHECK(back.message().find("5") != std::string::npos);
  CHECK(parse_err("").code == model::ErrorCode::BadSyntax);
  CHECK(parse_err("\n \n").field == "trace");
}

TEST_CASE("trace: with unbounded tiers the replay's prefix hits equal the trace's own bound") {
  for (const std::string& text : {fixture("mooncake-conversation-head.jsonl"), fixture("synthetic-sessions.jsonl"), conversations(40, 6)}) {
    std::vector<std::vector<long long>> ids;
    std::vector<double> input;
    raw_ids(text, ids, input);
    const double bound = bound_from_raw(ids, input);
    const sim::Trace t = parse_ok(text);
    CHECK(sim::trace_prefix_bound(t, 512).hit_tokens == bound);
    CHECK(replay_unbounded(t) == bound);
  }
  // The conversations share deeply, so the bound is far from trivial.
  std::vector<std::vector<long long>> ids;
  std::vector<double> input;
  raw_ids(conversations(40, 6), ids, input);
  double total = 0;
  for (double x : input) total += x;
  CHECK(bound_from_raw(ids, input) > 0.5 * total);
}

TEST_CASE("trace: the replay's JSON carries the bound, and bounded tiers stay at or under it") {
  const sim::Trace t = parse_ok(conversations(40, 6));
  model::Scenario s = fleet_test::scenario({{"hours", "1"}});
  sim::FleetConfig c = fleet_test::config(s, &t);
  c.dram_bytes = 200e6;  // a few hundred blocks of V4.1's 890 B/token
  c.ssd_bytes = 0;
  const sim::FleetResult r = sim::run_fleet(c);
  REQUIRE(r.has_bound);
  CHECK(r.total.hit_hbm_tokens + r.total.hit_dram_tokens + r.total.hit_ssd_tokens <= r.bound_hit_tokens);
  CHECK(r.total.hit_ssd_tokens == 0);
  CHECK(sim::fleet_json(r).find("\"trace_bound\"") != std::string::npos);
}
