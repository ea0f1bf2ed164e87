// The tables of docs/anchors.md from `tierscope anchors --format json` (see anchors_doc.h).
#include "anchors_doc.h"

#include <cmath>
#include <cstdio>

#include "base/text.h"

namespace tierscope::testing {

namespace {

using Json = nlohmann::json;

// A table cell: no line break, a bar escaped.
std::string cell(std::string_view t) {
  std::string out;
  for (const char c : t) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

std::string ratio_text(double r) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", r);
  return buf;
}

// The single step's ratio as the text prints it, or why it has none.
std::string single_text(const Json& a) { return a.at("ok").get<bool>() ? ratio_text(a.at("ratio").get<double>()) : "not computed"; }

// The replay's ratio, "—" for a point not replayed.
std::string replayed_text(const Json& a) {
  const Json& r = a.at("replayed");
  if (r.is_null()) return "—";
  return r.at("ok").get<bool>() ? ratio_text(r.at("ratio").get<double>()) : "not computed";
}

bool beyond_2x(const Json& ok, const Json& ratio) { return !ok.get<bool>() || std::fabs(std::log2(ratio.get<double>())) > 1; }

}  // namespace

std::string anchors_doc_tables(const Json& doc) {
  const Json& sum = doc.at("summary");
  std::string out(kAnchorsDocBegin);
  out += "\n\n";
  out += "- Single step: " + sum.at("text").get<std::string>() + ".\n";
  out += "- Replayed: " + sum.at("replayed").at("text").get<std::string>() + ".\n\n";
  out += "| Row | id | setup | metric | measured | counts | model ÷ measured | replayed ÷ measured | source |\n";
  out += "| --- | --- | --- | --- | ---: | --- | ---: | ---: | --- |\n";
  for (const Json& a : doc.at("anchors")) {
    const int row = a.at("row").get<int>();
    const std::string counts = a.at("replay").get<bool>() ? "replay" : a.at("replayed").is_null() ? "single step" : "single step and replay";
    out += "| " + (row > 0 ? std::to_string(row) : std::string("—")) + " | `" + a.at("id").get<std::string>() + "` | " +
           cell(a.at("what").get<std::string>()) + " | " + cell(a.at("metric").get<std::string>()) + " | " +
           model::human(a.at("measured").get<double>(), a.at("unit").get<std::string>()) + " | " + counts + " | " +
           (a.at("replay").get<bool>() ? "(" + single_text(a) + ")" : single_text(a)) + " | " + replayed_text(a) + " | [source](" +
           a.at("url").get<std::string>() + ") |\n";
  }
  out += "\nA replay point's single-step ratio, in brackets, is at maximum load or the stated concurrency and counts toward no aim.\n\n";
  // The points that miss: counted single steps and replays beyond 2× or not computed.
  out += "Beyond 2× (or not computed) at this commit:\n\n";
  out += "| id | setup | counted | model ÷ measured |\n| --- | --- | --- | ---: |\n";
  int misses = 0;
  for (const Json& a : doc.at("anchors")) {
    if (a.at("counts").get<bool>() && beyond_2x(a.at("ok"), a.at("ratio"))) {
      out += "| `" + a.at("id").get<std::string>() + "` | " + cell(a.at("what").get<std::string>()) + " | single step | " + single_text(a) + " |\n";
      ++misses;
    }
    const Json& r = a.at("replayed");
    if (!r.is_null() && beyond_2x(r.at("ok"), r.contains("ratio") ? r.at("ratio") : Json())) {
      out += "| `" + a.at("id").get<std::string>() + "` | " + cell(a.at("what").get<std::string>()) + " | replayed | " + replayed_text(a) + " |\n";
      ++misses;
    }
  }
  if (misses == 0) out += "| — | none | | |\n";
  out += "\n";
  out += kAnchorsDocEnd;
  out += "\n";
  return out;
}

bool splice_anchors_doc(const std::string& document, const std::string& tables, std::string& out) {
  const std::size_t begin = document.find(kAnchorsDocBegin);
  const std::size_t end = begin == std::string::npos ? begin : document.find(kAnchorsDocEnd, begin);
  if (end == std::string::npos) return false;
  std::size_t after = end + kAnchorsDocEnd.size();
  if (after < document.size() && document[after] == '\n') ++after;
  out = document.substr(0, begin) + tables + document.substr(after);
  return true;
}

std::string generated_part(const std::string& document) {
  const std::size_t begin = document.find(kAnchorsDocBegin);
  const std::size_t end = begin == std::string::npos ? begin : document.find(kAnchorsDocEnd, begin);
  if (end == std::string::npos) return {};
  std::size_t after = end + kAnchorsDocEnd.size();
  if (after < document.size() && document[after] == '\n') ++after;
  return document.substr(begin, after - begin);
}

}  // namespace tierscope::testing
