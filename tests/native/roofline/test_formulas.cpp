// Every formula adds up: each figure's formula is kept as the expression its text is rendered from
// (roofline/formula.h), and here that expression is evaluated — from the exact numbers and from the
// numbers as printed — in every preset and in varied scenarios, and held to the figure's value.
#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "model/params.h"
#include "model/presets.h"
#include "roofline/figures.h"
#include "roofline/formula.h"

using namespace tierscope::model;

namespace {

bool has_rounding_step(const std::string& text) { return text.find("⌊") != std::string::npos || text.find("⌈") != std::string::npos; }

// Why a figure's formula does not add up to its value, or empty when it does.
std::string mismatch(const Figure& f) {
  if (!f.feasible || !f.expr().arithmetic() || !std::isfinite(f.value)) return {};
  const double exact = f.expr().eval();
  const double shown = f.expr().eval_shown();
  const double scale = std::max(std::fabs(f.value), f.expr().magnitude_shown());
  std::ostringstream why;
  if (!std::isfinite(exact) || std::fabs(exact - f.value) > 1e-9 * scale + 1e-300) {
    why << "the terms give " << exact << " from the exact numbers";
  } else {
    // Printed numbers carry 4 significant digits: about 5e-4 of each term; a floor or ceiling may step by one.
    const double tol = 6e-4 * f.expr().leaf_count() * scale + (has_rounding_step(f.formula()) ? 1.0 : 0.0);
    if (!std::isfinite(shown) || std::fabs(shown - f.value) > tol) why << "the printed terms give " << shown;
  }
  if (why.tellp() == 0) return {};
  why << ", the value is " << f.value << ": " << f.formula();
  return why.str();
}

// Scenarios to hold the formulas to: every preset as it is, and each varied in load, context, layout and
// formats (only the variations that validate).
std::vector<std::pair<std::string, Scenario>> scenarios() {
  std::vector<std::pair<std::string, Scenario>> out;
  const char* const variations[] = {
      "batch=64",
      "batch=1024",
      "batch=4096",
      "ctx=2048",
      "ctx=1048576",
      "ctx=8192&batch=256",
      "spec_tokens=3&batch=8",
      "dp=2&tp=2",
      "gpus=8&tp=1&dp=8&ep=8&batch=1024",
      "gpus=8&tp=8&dp=1&ep=8&batch=32",
      "gpus=32&tp=1&dp=32&ep=32&batch=2048&prompt=4096&prefix_hit=0",
      "gpus=16&tp=2&dp=8&ep=16&redundant=32&batch=512",
      "prefix_hit=0",
      "prompt=32768&prefix_hit=32000",
      "kv_fmt=fp8&dense_fmt=bf16",
      "experts_fmt=fp4_g16&act_fmt=fp4_g16",
      "gpu=h100",
      "gpu=gb300&host_link=c2c",
      "mbu=1&mfu=0.5",
      "engram_home=dram",
  };
  for (const PresetInfo& p : presets()) {
    Scenario base;
    if (!make_preset(p.name, base)) continue;
    out.emplace_back(p.name, base);
    for (const char* v : variations) {
      Scenario s = base;
      bool ok = true;
      std::string_view rest = v;
      while (ok && !rest.empty()) {
        const std::size_t amp = rest.find('&');
        const std::string_view item = rest.substr(0, amp);
        rest = amp == std::string_view::npos ? std::string_view() : rest.substr(amp + 1);
        const std::size_t eq = item.find('=');
        const ParamDef* def = find_param(item.substr(0, eq));
        Adjustments moved;
        Error err;
        ok = def && edit_param(s, *def, item.substr(eq + 1), moved, err);
      }
      if (ok && validate(s).empty()) out.emplace_back(std::string(p.name) + " + " + v, s);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("formula expressions: render as written, evaluate as computed", "[formula]") {
  const Expr e = q(3.238e9, "B", "weights") / (q(8e12, "B/s") * n(0.85).named("MBU"));
  CHECK(e.render() == "weights 3.238 GB / (8 TB/s × MBU 0.85)");
  CHECK(e.eval() == Approx(3.238e9 / (8e12 * 0.85)));
  const Expr sum = q(2.73e-3, "s", "dense projections") + q(900e-6, "s", "routed experts") + q(600e-6, "s", "attention");
  CHECK(sum.render() == "dense projections 2.73 ms + routed experts 900 µs + attention 600 µs");
  CHECK(sum.eval() == Approx(4.23e-3));
  CHECK(sum.leaf_count() == 3);
  // A sum inside a product gets brackets; a named part carries its own.
  CHECK((n(40, "layers") * (q(1e-6, "s") + q(2e-6, "s"))).render() == "40 layers × (1 µs + 2 µs)");
  CHECK((n(2) * (q(1e-6, "s") + q(2e-6, "s")).named("per layer")).render() == "2 × per layer (1 µs + 2 µs)");
  CHECK(max_of({q(3e-6, "s", "memory"), q(2e-6, "s", "compute")}).render() == "max(memory 3 µs, compute 2 µs)");
  CHECK(max_of({q(3e-6, "s", "memory"), q(2e-6, "s", "compute")}).eval() == Approx(3e-6));
  CHECK(floor_of(q(32.68e9, "B") / q(119.4e6, "B")).render() == "⌊32.68 GB / 119.4 MB⌋");
  CHECK(floor_of(q(32.68e9, "B") / q(119.4e6, "B")).eval() == 273);
  CHECK((q(1, "s") - (q(0.25, "s") + q(0.25, "s"))).eval() == Approx(0.5));
  CHECK((q(1, "s") / (n(2) * n(4))).eval() == Approx(0.125));
  // A note is words, never arithmetic.
  Expr noted = n(6, "experts");
  noted.note("uniform routing assumed");
  CHECK(noted.render() == "6 experts (uniform routing assumed)");
  CHECK(noted.eval() == 6);
  CHECK_FALSE(words("dense model, no experts").arithmetic());
  CHECK_FALSE((n(1) + words("x")).arithmetic());
}

TEST_CASE("formula expressions: printed numbers read back as the values they show", "[formula]") {
  CHECK(q(2.73e-3, "s").eval_shown() == Approx(2.73e-3));
  CHECK(q(1.23456e-6, "s").eval_shown() == Approx(1.235e-6));
  CHECK(q(12.4812e9, "B").eval_shown() == Approx(12.48e9));
  CHECK(q(551.5e9, "params").eval_shown() == Approx(551.5e9));
  CHECK(q(0.8512, "fraction").eval_shown() == Approx(0.8512));
  CHECK(n(131072, "tokens").eval_shown() == 131072);
  CHECK(q(4.5e15, "FLOP/s").eval_shown() == Approx(4.5e15));
  CHECK(sig(0.53125, 6, "B").eval_shown() == Approx(0.53125));
}

TEST_CASE("every figure's formula adds up to its value, in every preset and varied scenarios", "[formula]") {
  int checked = 0, scenarios_seen = 0;
  std::vector<std::string> wrong;
  for (const auto& [name, s] : scenarios()) {
    ++scenarios_seen;
    const Figures f = describe(s);
    for (const Figure& fig : f.list) {
      if (fig.feasible && fig.expr().arithmetic()) ++checked;
      const std::string why = mismatch(fig);
      if (!why.empty()) wrong.push_back(name + ": " + std::string(fig.id) + ": " + why);
    }
  }
  INFO(scenarios_seen << " scenarios, " << checked << " formulas evaluated");
  CHECK(scenarios_seen > 60);
  for (std::size_t i = 0; i < wrong.size() && i < 40; ++i) UNSCOPED_INFO(wrong[i]);
  CHECK(wrong.empty());
}

TEST_CASE("a formula that is not arithmetic quotes no number, except the searches and catalog facts that say why", "[formula]") {
  // A words() formula is for what is not a sum or product of shown numbers: a part the setup lacks ("no
  // sliding window"), a catalog fact, a value found by a search. Any other number in words would be a number
  // the test cannot hold to the value.
  const std::string_view allowed[] = {
      "decode.crossover_batch",  // found by a search (regula falsi), not arithmetic in shown numbers
      "offload.flip_hit_tokens_dram", "offload.flip_hit_tokens_ssd",  // found by a search over hit lengths
      "offload.flip_load_dram", "offload.flip_load_ssd",              // found by a search over loads
  };
  std::vector<std::string> wrong;
  for (const auto& [name, s] : scenarios()) {
    const Figures f = describe(s);
    for (const Figure& fig : f.list) {
      if (!fig.feasible || fig.expr().arithmetic()) continue;
      if (figure_info(fig.fid).provenance != Provenance::Derived) continue;  // catalog and paper facts quote their source
      const std::string& text = fig.expr().words();
      const bool has_digit = text.find_first_of("0123456789") != std::string::npos;
      bool listed = false;
      for (std::string_view a : allowed) listed = listed || fig.id == a;
      if (has_digit && !listed) wrong.push_back(name + ": " + std::string(fig.id) + ": " + text);
    }
  }
  for (std::size_t i = 0; i < wrong.size() && i < 40; ++i) UNSCOPED_INFO(wrong[i]);
  CHECK(wrong.empty());
}

TEST_CASE("a formula reads the same whichever figure is read first, and the recorded topic list is current", "[formula]") {
  // The page reads the current ledger step's formulas first; the figures table reads them all, in its order.
  // Each read writes only the topic the list names, so the list must name the topic that writes it first.
  std::vector<std::string> conflicts;
  const auto rows = figure_topics_over_presets(conflicts);
  INFO("two topics write one figure first in different presets: " << (conflicts.empty() ? "" : conflicts.front()));
  CHECK(conflicts.empty());
  for (const auto& [figure, topic] : rows) {
    INFO(figure << " is written first by topic " << topic << ", the list says '" << listed_figure_topic(figure_id(figure))
                << "': run tools/regen-figure-topics");
    CHECK(listed_figure_topic(figure_id(figure)) == topic);
  }
  for (const PresetInfo& p : presets()) {
    Scenario s;
    REQUIRE(make_preset(p.name, s));
    const Figures forward = describe(s);
    const Figures backward = describe(s);
    std::vector<std::string> last_first(forward.list.size());
    for (std::size_t i = backward.list.size(); i-- > 0;) last_first[i] = backward.list[i].formula();
    for (std::size_t i = 0; i < forward.list.size(); ++i) {
      INFO(p.name << " · " << forward.list[i].id);
      CHECK(forward.list[i].formula() == last_first[i]);
    }
  }
}
