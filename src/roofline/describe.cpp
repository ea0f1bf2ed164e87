// describe(): turns computed values into Figures whose formulas quote the scenario's own numbers, name the
// roof that won for every timed step, and carry where each input comes from. Each formula sits beside its
// arithmetic in its topic (topic_*.cpp); this file fills every figure's facts and provenance, formats the
// phrases many formulas share (topics::Say) and calls the topics — when a formula is first read, not in
// describe() itself: most callers read a few formulas or none (sweeps, charts, the page's numbers), and
// writing them all costs ten times the values.
#include <array>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "model/params.h"
#include "model/presets.h"
#include "roofline/topics.h"

namespace tierscope::model {

namespace {

// Weakest first: a figure built on an override or an assumption says so.
int strength(Provenance p) {
  switch (p) {
    case Provenance::Override: return 0;
    case Provenance::Assumed: return 1;
    case Provenance::Card: return 2;
    case Provenance::Derived: return 3;
    case Provenance::ThirdParty: return 4;
    case Provenance::Measured: return 5;
    case Provenance::Engine: return 6;
    case Provenance::Paper: return 7;
    case Provenance::Count: break;
  }
  return 1;
}

// Every figure's static facts and value, its provenance for this scenario, and whether it is shown.
// Every figure's table row with its texts' lengths measured once (a describe() per scenario would measure
// them again).
const std::vector<Figure>& figure_rows() {
  static const std::vector<Figure> rows = [] {
    std::vector<Figure> r(static_cast<std::size_t>(kFigureCount));
    for (int i = 0; i < kFigureCount; ++i) {
      const FigureInfo& info = figure_info(static_cast<FigureId>(i));
      Figure& f = r[static_cast<std::size_t>(i)];
      f.id = info.id;
      f.fid = info.fid;
      f.label = info.label;
      f.unit = info.unit;
      f.deps = info.deps;
      f.tier = info.tier;
      f.lifetime = info.lifetime;
    }
    return r;
  }();
  return rows;
}

// The keys of layer kinds the model lacks: a model without linear-attention layers has no state dims or
// checkpoint interval in force, one whose local layers share the full layers' heads no heads of their own,
// one without a per-layer list the dense_layers rule, one whose experts take the hidden width no latent.
void mark_inert_inputs(const Scenario& s, std::vector<InputSourceOf>& inputs) {
  const ModelArch& m = s.model;
  bool linear = false;
  for (int i = 0; i < m.layer_count; ++i) linear = linear || m.layers[static_cast<std::size_t>(i)].mode == LayerMode::Linear;
  const bool local_heads = m.swa_kv_heads > 0 || m.swa_head_dim > 0 || m.swa_v_dim > 0;
  for (InputSourceOf& in : inputs) {
    const std::string_view k = in.key;
    if (k.starts_with("lin_") || k == "state_ckpt") in.inert = !linear;
    else if (k == "swa_kv_heads" || k == "swa_head_dim" || k == "swa_v_dim") in.inert = !local_heads;
    else if (k == "ffn") in.inert = m.ffn_count == 0;
    else if (k == "ffn_mats") in.inert = m.ffn_mats == 0;
    else if (k == "expert_latent") in.inert = !has_latent_experts(m);
  }
}

void fill_facts(Figures& out, const Scenario& s) {
  const Values& v = out.computed.values;
  const Terms& t = out.computed.terms;
  out.list = figure_rows();
  bool any_override = false;
  for (const InputSourceOf& in : out.inputs) any_override = any_override || in.provenance == Provenance::Override;
  for (int i = 0; i < kFigureCount; ++i) {
    const FigureId fid = static_cast<FigureId>(i);
    const FigureInfo& info = figure_info(fid);
    Figure& f = out.list[static_cast<std::size_t>(i)];
    f.value = v.v[i];
    f.provenance = Provenance::Derived;
    // A fact (not a computation) takes the weakest provenance among its inputs for this scenario; a
    // computation is Derived unless an input is overridden (none is in a preset as it stands).
    if (info.provenance != Provenance::Derived) {
      Provenance weakest = Provenance::Paper;
      for (std::uint8_t idx : figure_dep_indices(fid)) {
        if (out.inputs[idx].inert) continue;
        const Provenance p = out.inputs[idx].provenance;
        if (strength(p) < strength(weakest)) weakest = p;
      }
      f.provenance = weakest;
    } else if (any_override) {
      for (std::uint8_t idx : figure_dep_indices(fid)) {
        if (out.inputs[idx].provenance == Provenance::Override) f.provenance = Provenance::Override;
      }
    }
    if (!figure_shown(t, fid)) {
      f.feasible = false;
      f.value = std::numeric_limits<double>::quiet_NaN();
    }
  }
  // The Engram tables sit in the tier they live in.
  const EngramHome home = s.model.engram_home;
  for (FigureId id : {FigureId::EngramParams, FigureId::EngramBytesPerToken, FigureId::EngramTableBytes}) {
    out.list[static_cast<std::size_t>(id)].tier = home == EngramHome::Hbm ? Tier::Hbm : home == EngramHome::Dram ? Tier::Dram : Tier::Remote;
  }
}

}  // namespace

namespace topics {

Say::Say(FormulaPage& formulas, const Computed& computed, const Scenario& scenario)
    : s(scenario),
      m(scenario.model),
      hw(scenario.hw),
      w(scenario.work),
      v(computed.values),
      t(computed.terms),
      page(formulas),
      z(kv_sizes(scenario.model)),
      plan_counts(count_layers(scenario.model)),
      said(static_cast<std::size_t>(kFigureCount)) {
  why_not = t.feasible() ? std::string() : infeasible_summary(t);
  bw = human(t.bw_raw, "B/s") + " × streaming share " + num_sig(t.bw_raw > 0 ? t.bw / t.bw_raw : 0.0, 3);
  peak = human(t.peak_raw, "FLOP/s") + " × FLOP share " + num_sig(t.peak_raw > 0 ? t.peak / t.peak_raw : 0.0, 3);
  per_gpu_note = " (one GPU of " + num(t.gpus) + ")";
  per_gpu = " / (" + bw + ")";
  tp = num(t.tp);
  gpus = num(t.gpus);
  link = " / " + human(t.host_bw, "B/s") + " " + link_info(hw.host_link).label;
  share = t.kv_share < 1 ? (t.kv_share * t.tp == 1 ? " / tp " + tp : " / kv_heads " + num(m.kv_heads)) : std::string();
  win = has_swa(m);
  replays = replays_window(m);
  no_replay = !win ? "no sliding window, nothing to replay" : "this model caches its window with the prefix: no replay";
  hit = std::min(w.prefix_hit, w.prompt);
}

Expr Say::classes_expr(const Pass& p) const {
  std::vector<Expr> parts;
  for (int i = 0; i < kWorkClasses; ++i) {
    if (p.flop_c[i] <= 0 && p.bytes_c[i] <= 0 && p.floor_c[i] <= 0 && p.small_c[i] <= 0) continue;
    // Each class at its own achieved rates in this pass (class_rates) and the pass's launch floor.
    const double kernels = p.launch_s > 0 ? p.floor_c[i] / p.launch_s : 0.0;
    std::vector<Expr> roofs;
    if (p.flop_c[i] > 0 && p.rate_c[i] > 0) roofs.push_back(q(p.flop_c[i], "FLOP") / q(p.rate_c[i], "FLOP/s"));
    if (p.bytes_c[i] > 0 && p.bw_c[i] > 0) roofs.push_back(q(p.bytes_c[i], "B") / q(p.bw_c[i], "B/s"));
    const bool has_roofs = !roofs.empty();
    if (!has_roofs && p.floor_c[i] <= 0) continue;
    // Each kernel takes its launch floor, or its roofline time plus its ramp, whichever is longer.
    Expr part = !has_roofs ? n(kernels, "kernels") * q(p.launch_s, "s") : roofs.size() == 1 ? std::move(roofs[0]) : max_of(std::move(roofs));
    if (has_roofs && p.floor_c[i] > 0) {
      if (p.ramp_s > 0) part = std::move(part) + n(kernels, "kernels") * q(p.ramp_s, "s", "ramp");
      part = max_of({n(kernels, "kernels") * q(p.launch_s, "s"), std::move(part)});
    }
    // Small kernels (norms, RoPE, quantise, top-k, combine) launch beside the roofs, so they add.
    if (p.small_c[i] > 0) part = std::move(part) + n(p.small_c[i] / p.launch_s, "small kernels") * q(p.launch_s, "s");
    part.named(work_class_name(static_cast<WorkClass>(i)));
    parts.push_back(std::move(part));
  }
  return sum_of(std::move(parts));
}

}  // namespace topics

namespace {

using Topic = void (*)(topics::Say&);
struct TopicRow {
  const char* name;  // as figure_topics.inc names it
  Topic write;
};
// The topics in the order their formulas were always written (where two write one figure, the first keeps it).
constexpr TopicRow kTopics[] = {
    {"params", topics::describe_params},
    {"kv", topics::describe_kv},
    {"placement", topics::describe_placement},
    {"decode_experts", topics::describe_decode_experts},
    {"decode_bytes", topics::describe_decode_bytes},
    {"decode_terms", topics::describe_decode_terms},
    {"engram", topics::describe_engram},
    {"decode_rates", topics::describe_decode_rates},
    {"serving", topics::describe_serving},
    {"sparse_reads", topics::describe_sparse_reads},
    {"swa", topics::describe_swa},
    {"replay", topics::describe_replay},
    {"prefill", topics::describe_prefill},
    {"prefix", topics::describe_prefix},
    {"ssd", topics::describe_ssd},
    {"turn_cost", topics::describe_turn_cost},
    {"hardware", topics::describe_hardware},
    {"offload", topics::describe_offload},
    {"handoff", topics::describe_handoff},
};
constexpr int kTopicCount = static_cast<int>(sizeof(kTopics) / sizeof(kTopics[0]));

// Which topic writes each figure first, as tools/regen-figure-topics recorded it over every preset. Reading
// one formula then writes one topic, not all of them (the page's first frame reads a few). A figure the
// list lacks (new since it was recorded) is found by writing the topics in order, which is slower, never
// wrong; test_roofline holds the list to the topics.
struct FigureTopic {
  const char* figure;
  const char* topic;
};
constexpr FigureTopic kFigureTopics[] = {
#include "roofline/figure_topics.inc"
    {"", ""},  // the end (and a list not yet written: every figure then found in order)
};

const std::array<int, kFigureCount>& topic_of() {
  static const std::array<int, kFigureCount> table = [] {
    std::array<int, kFigureCount> a;
    a.fill(-1);
    for (const FigureTopic& row : kFigureTopics) {
      const FigureId id = figure_id(row.figure);
      if (id == FigureId::Count) continue;
      for (int k = 0; k < kTopicCount; ++k)
        if (std::string_view(kTopics[k].name) == row.topic) a[static_cast<std::size_t>(id)] = k;
    }
    return a;
  }();
  return table;
}

}  // namespace

// What one describe()'s formulas need (the scenario and its computed numbers, which figures show a number)
// and the texts written so far, a topic at a time.
class FormulaBook {
 public:
  FormulaBook(const Scenario& s, const Computed& c, const std::vector<Figure>& list) : s_(s), c_(c) {
    for (int i = 0; i < kFigureCount; ++i) shown_[i] = list[static_cast<std::size_t>(i)].feasible;
  }
  const std::string& text(FigureId id) {
    const int i = static_cast<int>(id);
    written(i);
    return page_->text[i];
  }
  const Expr& expr(FigureId id) {
    const int i = static_cast<int>(id);
    written(i);
    return page_->expr[i];
  }

 private:
  // Writes figure i's topic unless written; where that topic leaves it unwritten, the others in order.
  void written(int i) {
    if (!page_) {  // the page and the shared phrases on the first read, not in describe()
      page_ = std::make_unique<topics::FormulaPage>();
      for (int j = 0; j < kFigureCount; ++j) page_->shown[j] = shown_[j];
      say_ = std::make_unique<topics::Say>(*page_, c_, s_);
    }
    if (page_->written[i]) return;
    const int k = topic_of()[static_cast<std::size_t>(i)];
    if (k >= 0) write(k);
    for (int j = 0; j < kTopicCount && !page_->written[i]; ++j) write(j);
  }
  void write(int k) {
    if (done_[k]) return;
    done_[k] = true;
    kTopics[k].write(*say_);
  }
  const Scenario s_;
  const Computed c_;
  bool shown_[kFigureCount] = {};
  std::unique_ptr<topics::FormulaPage> page_;
  std::unique_ptr<topics::Say> say_;
  bool done_[kTopicCount] = {};
};

const std::string& Figure::formula() const {
  static const std::string none;
  return book ? book->text(fid) : none;
}

const Expr& Figure::expr() const {
  static const Expr none;
  return book ? book->expr(fid) : none;
}

std::vector<std::pair<std::string_view, std::string_view>> figure_first_topics(const Scenario& s) {
  Computed c;
  compute_values(s, c);
  auto page = std::make_unique<topics::FormulaPage>();
  topics::Say y(*page, c, s);
  std::vector<std::pair<std::string_view, std::string_view>> out;
  bool seen[kFigureCount] = {};
  for (const TopicRow& topic : kTopics) {
    topic.write(y);
    for (int i = 0; i < kFigureCount; ++i) {
      if (!page->written[i] || seen[i]) continue;
      seen[i] = true;
      out.emplace_back(figure_info(static_cast<FigureId>(i)).id, topic.name);
    }
  }
  return out;
}

std::vector<std::pair<std::string_view, std::string_view>> figure_topics_over_presets(std::vector<std::string>& conflicts) {
  std::array<std::string_view, kFigureCount> topic_of_figure{};
  std::array<std::string_view, kFigureCount> first_preset{};
  for (const PresetInfo& p : presets()) {
    Scenario s;
    if (!make_preset(p.name, s)) continue;
    for (const auto& [figure, topic] : figure_first_topics(s)) {
      const auto i = static_cast<std::size_t>(figure_id(figure));
      if (topic_of_figure[i].empty()) {
        topic_of_figure[i] = topic;
        first_preset[i] = p.name;
      } else if (topic_of_figure[i] != topic) {
        conflicts.push_back(std::string(figure) + ": topic " + std::string(topic_of_figure[i]) + " in " + std::string(first_preset[i]) +
                            ", topic " + std::string(topic) + " in " + p.name);
      }
    }
  }
  std::vector<std::pair<std::string_view, std::string_view>> out;
  for (int i = 0; i < kFigureCount; ++i)
    if (!topic_of_figure[static_cast<std::size_t>(i)].empty())
      out.emplace_back(figure_info(static_cast<FigureId>(i)).id, topic_of_figure[static_cast<std::size_t>(i)]);
  return out;
}

std::string_view listed_figure_topic(FigureId id) {
  const int k = topic_of()[static_cast<std::size_t>(id)];
  return k < 0 ? std::string_view() : std::string_view(kTopics[k].name);
}

Figures describe(const Scenario& s) {
  Figures out;
  // Every figure, the offload flips' search too.
  LayerPlan plan;
  plan_layers(s.model, plan);
  compute_values(s, plan, out.computed, kScopeAll | kScopeOffload);
  // Where every input comes from, once.
  out.origin = s.origin;
  all_input_provenance(s, out.inputs);
  mark_inert_inputs(s, out.inputs);
  fill_facts(out, s);
  const auto book = std::make_shared<FormulaBook>(s, out.computed, out.list);
  for (Figure& f : out.list) f.book = book;
  return out;
}

}  // namespace tierscope::model
