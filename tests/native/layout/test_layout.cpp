// Layout tests: nothing overlaps, everything stays inside the viewport from phones to 4K, bands order by
// capacity and stripes by latency, rectangles stay put between steps, for every preset and every path.
//
// Sections: helpers (overlap, inside, the text metrics) · every preset, path and viewport · stability between
// steps, bands and blocks · layer rows, highlights and the packet · hit-testing and the panel column ·
// labels, the page's playback, a setup that cannot run, fleet fills · tap targets.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "anim/ledger.h"
#include "anim/state.h"
#include "hf/hf_config.h"
#include "layout/layout.h"
#include "model/params.h"
#include "model/presets.h"
#include "roofline/figures.h"

using namespace tierscope;
using layout::Kind;

namespace {

struct Fixture {
  model::Scenario s;
  model::Figures f;
  anim::Ledger ledger;
  layout::Scene scene;
};

Fixture make(const char* preset, anim::PathId path) {
  Fixture fx;
  REQUIRE(model::make_preset(preset, fx.s));
  fx.f = model::describe(fx.s);
  fx.ledger = anim::build_ledger(fx.s, fx.f, path);
  fx.scene = layout::make_scene(fx.s, fx.f, fx.ledger);
  return fx;
}

// Text measured the way the layout estimates it (7.5 px a character at 15 px), and a font whose capitals
// and wide glyphs run wider, as a real one does: labels must fit under either.
const layout::TextMetrics kTm{18, 7.5f, 15, nullptr, nullptr};
layout::TextMetrics wide_font() {
  layout::TextMetrics tm = kTm;
  tm.measure = [](const void*, std::string_view text, float px) {
    float w = 0;
    for (const char c : text) {
      if ((static_cast<unsigned char>(c) & 0xC0) == 0x80) continue;
      w += (c >= 'A' && c <= 'Z') || c == 'm' || c == 'w' || c == '_' ? 10.5f : c == ' ' || c == '.' ? 4.5f : 7.8f;
    }
    return w * px / 15.0f;
  };
  return tm;
}

const layout::Viewport kViewports[] = {
    {360, 360}, {360, 640}, {390, 844}, {412, 500}, {768, 1024}, {800, 600}, {1024, 768},
    {1280, 800}, {1440, 900}, {1920, 1080}, {2560, 1440}, {3840, 2160}, {792, 820}, {1272, 1000},
};

std::string describe(const layout::Item& it) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s [%.1f %.1f %.1f %.1f]", layout::item_id(it).c_str(), it.rect.x, it.rect.y,
                it.rect.w, it.rect.h);
  return buf;
}

// True when the item hides some of the canvas's text (a label that is not its own).
bool covers_text(const layout::Layout& L, const layout::Rect& r, int own) {
  for (const layout::Label& l : L.labels)
    if (l.item != own && l.width > 0 && r.overlaps(layout::Rect{l.x(), l.y(), l.width, l.px})) return true;
  return false;
}
bool covers_text(const layout::Layout& L, const layout::Item& it) {
  return covers_text(L, it.rect, static_cast<int>(&it - L.items.data()));
}
// The item's rectangle moved to centre on (x, y).
layout::Rect centred(const layout::Item& it, float x, float y) { return {x - it.rect.w * 0.5f, y - it.rect.h * 0.5f, it.rect.w, it.rect.h}; }

// Every rectangle the canvas draws, with whether it may sit inside another (blocks inside their band).
std::vector<layout::Rect> fixed_rects(const layout::Layout& L) {
  std::vector<layout::Rect> out;
  out.push_back(L.toolbar);
  if (L.dock.w > 0) out.push_back(L.dock);
  for (const layout::Rect& t : L.titles)
    if (t.w > 0) out.push_back(t);
  for (const layout::BandInfo& b : L.bands) out.push_back(b.title);
  for (const layout::Item& it : L.items)
    if (it.kind != Kind::Packet) out.push_back(it.rect);
  return out;
}

void check_geometry(const layout::Scene& scene, const anim::StepState& st, layout::Viewport vp, const char* what,
                    const layout::Options& opt = {}, const layout::TextMetrics& tm = kTm) {
  layout::Layout L;
  layout::compute_layout(scene, st, vp, tm, L, opt);
  INFO(what << " at " << vp.width << "x" << vp.height);
  const layout::Rect screen{0, 0, vp.width, vp.height};

  // Inside the viewport, with positive size.
  REQUIRE(L.toolbar.inside(screen));
  if (L.dock.w > 0) REQUIRE(L.dock.inside(screen));
  for (const layout::Item& it : L.items) {
    INFO(describe(it));
    REQUIRE(it.rect.w > 0);
    REQUIRE(it.rect.h > 0);
    REQUIRE(it.rect.inside(screen));
    REQUIRE(std::isfinite(it.rect.x + it.rect.y + it.rect.w + it.rect.h));
  }

  // Blocks sit inside their tier's band, below its title, and do not overlap each other.
  for (const layout::Item& b : L.items) {
    if (b.kind != Kind::Block) continue;
    const auto& spec = scene.objects[static_cast<std::size_t>(b.index)];
    const int tier = static_cast<int>(spec.tier);
    const layout::Item* band = L.find(Kind::Band, tier);
    INFO(describe(b));
    REQUIRE(band);
    REQUIRE(b.rect.inside(band->rect));
    REQUIRE_FALSE(b.rect.overlaps(L.bands[static_cast<std::size_t>(tier)].title));
    for (const layout::Item& o : L.items) {
      if (&o == &b || o.kind != Kind::Block) continue;
      INFO("vs " << describe(o));
      REQUIRE_FALSE(b.rect.overlaps(o.rect));
    }
  }

  // Nothing else overlaps: top-level rectangles (not blocks, not band titles) are pairwise disjoint.
  std::vector<layout::Rect> top;
  std::vector<std::string> names;
  top.push_back(L.toolbar);
  names.push_back("toolbar");
  if (L.dock.w > 0) {
    top.push_back(L.dock);
    names.push_back("dock");
  }
  for (int i = 0; i < static_cast<int>(L.titles.size()); ++i)
    if (L.titles[static_cast<std::size_t>(i)].w > 0) {
      top.push_back(L.titles[static_cast<std::size_t>(i)]);
      names.push_back("title " + std::to_string(i));
    }
  for (const layout::Item& it : L.items)
    if (it.kind != Kind::Block && it.kind != Kind::Packet) {
      top.push_back(it.rect);
      names.push_back(describe(it));
    }
  for (std::size_t i = 0; i < top.size(); ++i)
    for (std::size_t j = i + 1; j < top.size(); ++j) {
      INFO(names[i] << " vs " << names[j]);
      REQUIRE_FALSE(top[i].overlaps(top[j]));
    }

  // The schematic keeps clear of the panels' area: no item, highlighted or not, and no label under it.
  if (L.dock.w > 0) {
    REQUIRE_FALSE(L.dock.overlaps(L.toolbar));
    REQUIRE_FALSE(L.dock.overlaps(L.schematic));
    for (const layout::Item& it : L.items) {
      INFO(describe(it) << (it.highlighted ? " (highlighted)" : ""));
      REQUIRE_FALSE(it.rect.overlaps(L.dock));
    }
    for (const layout::Label& l : L.labels) {
      INFO("label '" << l.text << "'");
      REQUIRE_FALSE(l.box.overlaps(L.dock));
    }
  }
  if (opt.panel_open) REQUIRE(L.dock.w > 0);

  // No text is cut: every label fits its room as measured, its room lies inside the viewport and, for text on
  // an item, inside that item.
  for (const layout::Label& l : L.labels) {
    INFO("label '" << l.text << "' " << l.width << " px in [" << l.box.x << " " << l.box.y << " " << l.box.w << " " << l.box.h << "]");
    REQUIRE_FALSE(l.text.empty());
    REQUIRE(std::fabs(l.width - tm.width(l.text, l.px)) < 0.01f);
    REQUIRE(l.width <= l.box.w + 0.01f);
    REQUIRE(l.box.inside(screen));
    if (l.tone == layout::Tone::OnItem && l.item >= 0) {
      const layout::Item& it = L.items[static_cast<std::size_t>(l.item)];
      REQUIRE(l.box.inside(it.rect));
    }
  }
  // Text never overlaps other text, and text not on a token never covers a token box.
  auto drawn = [](const layout::Label& l) { return layout::Rect{l.x(), l.y(), l.width, l.px}; };
  for (std::size_t i = 0; i < L.labels.size(); ++i) {
    const layout::Rect a = drawn(L.labels[i]);
    for (std::size_t j = i + 1; j < L.labels.size(); ++j) {
      INFO("label '" << L.labels[i].text << "' vs '" << L.labels[j].text << "'");
      REQUIRE_FALSE(a.overlaps(drawn(L.labels[j])));
    }
    for (const layout::Item& it : L.items) {
      if (it.kind != Kind::Token || (L.labels[i].item >= 0 && &L.items[static_cast<std::size_t>(L.labels[i].item)] == &it)) continue;
      INFO("label '" << L.labels[i].text << "' vs " << describe(it));
      REQUIRE_FALSE(a.overlaps(it.rect));
    }
  }
  // Every layer row, every block and the stream say at least their name.
  for (int i = 0; i < static_cast<int>(L.items.size()); ++i) {
    const layout::Item& it = L.items[static_cast<std::size_t>(i)];
    if (it.kind != Kind::Block && it.kind != Kind::EncoderLayer && it.kind != Kind::DecoderLayer && it.kind != Kind::Stream) continue;
    bool named = false;
    for (const layout::Label& l : L.labels) named = named || l.item == i;
    INFO(describe(it));
    REQUIRE(named);
  }

  // Text stays readable.
  REQUIRE(L.text_scale >= 0.6f);
  REQUIRE(L.text_scale <= 1.0f);
}

}  // namespace

TEST_CASE("a tier's short name and a row's layers are spelled once, for the canvas and the inspector") {
  CHECK(std::string(layout::tier_short_name(0)) == "GPU SRAM");
  CHECK(std::string(layout::tier_short_name(1)) == "GPU HBM");
  CHECK(std::string(layout::tier_short_name(2)) == "Host DRAM");
  CHECK(std::string(layout::tier_short_name(3)) == "NVMe SSD");
  CHECK(std::string(layout::tier_short_name(-1)) == "GPU SRAM");  // out of range: the nearest tier
  CHECK(std::string(layout::tier_short_name(7)) == "NVMe SSD");
  CHECK(layout::layers_text(3, 3) == "layer 3");
  CHECK(layout::layers_text(3, 5) == "layers 3–5");
}

TEST_CASE("every preset and path lays out inside every viewport without overlaps") {
  for (const model::PresetInfo& p : model::presets()) {
    for (int pi = 0; pi < anim::kPathCount; ++pi) {
      const Fixture fx = make(p.name, static_cast<anim::PathId>(pi));
      const int steps = std::max<int>(1, static_cast<int>(fx.ledger.entries.size()));
      for (const layout::Viewport& vp : kViewports) {
        for (int step : {0, steps / 2, steps - 1}) {
          const std::string what = std::string(p.name) + " / " + anim::path_key(static_cast<anim::PathId>(pi)) +
                                   " step " + std::to_string(step);
          check_geometry(fx.scene, anim::state_at(fx.ledger, step, 0.5), vp, what.c_str());
        }
      }
    }
  }
}

// Each 2026 family as a person imports it (its published config.json, on the hardware of a preset that holds
// it): every path lays out at the page's desktop and phone sizes without overlaps, its own objects included.
TEST_CASE("every 2026 family's config.json lays out at 1440×900 and 390×844 without overlaps") {
  const std::pair<const char*, const char*> files[] = {
      {"deepseek-ai--DeepSeek-V4-Flash.json", "v4-flash-8xb200"},  {"deepseek-ai--DeepSeek-V4-Pro.json", "kimi-k25-8xh200"},
      {"deepseek-ai--DeepSeek-V3.2.json", "glm5-fp8-8xb200"},      {"moonshotai--Kimi-K2.5.json", "kimi-k25-8xh200"},
      {"zai-org--GLM-5.json", "glm5-fp8-8xb200"},                  {"MiniMaxAI--MiniMax-M2.5.json", "minimax-m25-8xh200"},
      {"Qwen--Qwen3.5-397B-A17B.json", "qwen35-397b-8xh200"},      {"Qwen--Qwen3.5-0.8B.json", "llama31-8b-1xh100"},
      {"nvidia--NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.json", "qwen3-30b-a3b-1xb200"}};
  for (const auto& [file, preset] : files) {
    std::ifstream in(std::string(TIERSCOPE_SOURCE_DIR) + "/tests/data/hf_configs/" + file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    REQUIRE(!text.str().empty());
    Fixture fx;
    REQUIRE(model::make_preset(preset, fx.s));
    model::Errors errors;
    std::vector<std::string> notes;
    INFO(file);
    REQUIRE(model::apply_hf_config(fx.s, text.str(), file, errors, notes));
    fx.f = model::describe(fx.s);
    for (int pi = 0; pi < anim::kPathCount; ++pi) {
      fx.ledger = anim::build_ledger(fx.s, fx.f, static_cast<anim::PathId>(pi));
      fx.scene = layout::make_scene(fx.s, fx.f, fx.ledger);
      const int steps = std::max<int>(1, static_cast<int>(fx.ledger.entries.size()));
      for (const layout::Viewport vp : {layout::Viewport{1440, 900}, layout::Viewport{390, 844}}) {
        for (int step : {0, steps / 2, steps - 1}) {
          const std::string what = std::string(file) + " / " + anim::path_key(static_cast<anim::PathId>(pi)) + " step " + std::to_string(step);
          check_geometry(fx.scene, anim::state_at(fx.ledger, step, 0.5), vp, what.c_str());
        }
      }
    }
  }
}

TEST_CASE("with a panel open the schematic reflows beside or above it, and text fits in a wider font too") {
  // From phone size up (the page makes a phone's canvas taller while a panel is open).
  // Also the short, wide canvases of embeds (an 800×500 frame leaves about 690×390).
  const layout::Viewport open_viewports[] = {{360, 640}, {390, 844}, {412, 700}, {768, 1024}, {745, 660}, {800, 600},
                                             {688, 390}, {790, 420}, {1024, 768}, {1280, 800}, {1440, 900},
                                             {1920, 1080}, {2560, 1440}, {3840, 2160}};
  const layout::TextMetrics wide = wide_font();
  for (const model::PresetInfo& p : model::presets()) {
    for (int pi = 0; pi < anim::kPathCount; ++pi) {
      const Fixture fx = make(p.name, static_cast<anim::PathId>(pi));
      const int steps = std::max<int>(1, static_cast<int>(fx.ledger.entries.size()));
      for (const layout::Viewport& vp : open_viewports) {
        for (const bool hosted : {false, true}) {
          layout::Options opt;
          opt.panel_open = true;
          opt.host_playback = hosted;
          for (int step : {0, steps - 1}) {
            const std::string what = std::string(p.name) + " / " + anim::path_key(static_cast<anim::PathId>(pi)) +
                                     " step " + std::to_string(step) + " panel open";
            check_geometry(fx.scene, anim::state_at(fx.ledger, step, 0.5), vp, what.c_str(), opt);
            check_geometry(fx.scene, anim::state_at(fx.ledger, step, 0.5), vp, (what + ", wide font").c_str(), opt, wide);
          }
        }
      }
      for (const layout::Viewport& vp : kViewports)
        check_geometry(fx.scene, anim::state_at(fx.ledger, 0, 0.5), vp, (std::string(p.name) + " wide font").c_str(), {}, wide);
    }
  }
}

TEST_CASE("rectangles are stable between steps, only highlights, fills and the packet change") {
  for (const model::PresetInfo& p : model::presets()) {
    for (int pi = 0; pi < anim::kPathCount; ++pi) {
      const Fixture fx = make(p.name, static_cast<anim::PathId>(pi));
      for (const layout::Viewport& vp : {layout::Viewport{390, 844}, layout::Viewport{1440, 900}}) {
        layout::Layout first;
        layout::compute_layout(fx.scene, anim::state_at(fx.ledger, 0, 0), vp, kTm, first);
        const std::vector<layout::Rect> ref = fixed_rects(first);
        for (int step = 0; step < static_cast<int>(fx.ledger.entries.size()); ++step) {
          for (double frac : {0.0, 0.37, 1.0}) {
            layout::Layout L;
            layout::compute_layout(fx.scene, anim::state_at(fx.ledger, step, frac), vp, kTm, L);
            INFO(p.name << " / " << anim::path_key(static_cast<anim::PathId>(pi)) << " step " << step);
            REQUIRE(fixed_rects(L) == ref);
            REQUIRE(L.text_scale == first.text_scale);
          }
        }
      }
    }
  }
}

TEST_CASE("band widths order by capacity and stripe density by latency") {
  for (const model::PresetInfo& p : model::presets()) {
    const Fixture fx = make(p.name, anim::PathId::Decode);
    for (const layout::Viewport& vp : kViewports) {
      layout::Layout L;
      layout::compute_layout(fx.scene, anim::state_at(fx.ledger, 0, 0), vp, kTm, L);
      INFO(p.name << " at " << vp.width << "x" << vp.height);
      for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b) {
          const auto& A = L.bands[static_cast<std::size_t>(a)];
          const auto& B = L.bands[static_cast<std::size_t>(b)];
          const float wa = L.find(Kind::Band, a)->rect.w, wb = L.find(Kind::Band, b)->rect.w;
          if (A.capacity < B.capacity) REQUIRE(wa <= wb);
          if (A.latency < B.latency) REQUIRE(A.stripe_spacing >= B.stripe_spacing);
        }
    }
  }
  // On a wide canvas the default node's bands differ visibly: SRAM (about 1 GB) is far narrower than the
  // SSD array (about 31 TB), and the SSD's stripes are denser than SRAM's.
  const Fixture fx = make(model::kDefaultPreset, anim::PathId::Decode);
  layout::Layout L;
  layout::compute_layout(fx.scene, anim::state_at(fx.ledger, 0, 0), {1440, 900}, kTm, L);
  REQUIRE(L.find(Kind::Band, 0)->rect.w < 0.7f * L.find(Kind::Band, 3)->rect.w);
  REQUIRE(L.bands[0].stripe_spacing > 2.5f * L.bands[3].stripe_spacing);
}

TEST_CASE("blocks follow the scenario: tiers from the ledger, sized by footprint on a log scale") {
  const Fixture fx = make(model::kDefaultPreset, anim::PathId::Decode);
  layout::Layout L;
  layout::compute_layout(fx.scene, anim::state_at(fx.ledger, 0, 0), {1440, 900}, kTm, L);
  const auto* weights = L.find(Kind::Block, static_cast<int>(anim::ObjectKind::MoeWeights));
  const auto* index = L.find(Kind::Block, static_cast<int>(anim::ObjectKind::SparseIndex));
  const auto* engram = L.find(Kind::Block, static_cast<int>(anim::ObjectKind::EngramTables));
  REQUIRE(weights);
  REQUIRE(index);
  REQUIRE(engram);
  // Hundreds of GB of weights against a few kB of selected positions.
  REQUIRE(weights->rect.w > index->rect.w);
  REQUIRE(weights->rect.inside(L.find(Kind::Band, 1)->rect));
  const int engram_tier = static_cast<int>(fx.scene.objects[static_cast<std::size_t>(anim::ObjectKind::EngramTables)].tier);
  REQUIRE(engram->rect.inside(L.find(Kind::Band, engram_tier)->rect));
  // The token row and the hidden stream are compute-side objects, not blocks.
  REQUIRE(L.find(Kind::Block, static_cast<int>(anim::ObjectKind::Tokens)) == nullptr);
  REQUIRE(L.find(Kind::Block, static_cast<int>(anim::ObjectKind::HiddenStream)) == nullptr);
  // Global KV is FP4 in V4.1 and BF16 in Llama-3: the colour role follows the format.
  REQUIRE(fx.scene.objects[static_cast<std::size_t>(anim::ObjectKind::GlobalKv)].role == layout::Role::Fp4);
  const Fixture llama = make("llama31-70b-8xh100", anim::PathId::Decode);
  REQUIRE(llama.scene.objects[static_cast<std::size_t>(anim::ObjectKind::GlobalKv)].role == layout::Role::Shared);
}

// The 2026 families' own state is drawn where it lives: the recurrent state in HBM and its checkpoints with the
// prefix cache (Qwen3.5), the indexer's keys in HBM beside the KV (GLM-5, V4, V4.1), a chunked model's chunk in
// HBM; a model without them draws none. Their layer rows name their kinds: V4's CSA and HCA, linear layers, a
// chunk of the layer's own; V4.1's rows read as before.
TEST_CASE("the 2026 families' state objects are drawn in their tiers, and their layer rows name their kinds") {
  using anim::ObjectKind;
  auto tier_of = [](const Fixture& fx, ObjectKind o) { return fx.scene.objects[static_cast<std::size_t>(o)].tier; };
  auto drawn = [](const Fixture& fx, ObjectKind o) {
    layout::Layout L;
    layout::compute_layout(fx.scene, anim::state_at(fx.ledger, 0, 0), {1440, 900}, kTm, L);
    const layout::Item* b = L.find(Kind::Block, static_cast<int>(o));
    if (!b) return false;
    const int tier = static_cast<int>(fx.scene.objects[static_cast<std::size_t>(o)].tier);
    return b->rect.inside(L.find(Kind::Band, tier)->rect);
  };
  const Fixture qwen = make("qwen35-397b-8xh200", anim::PathId::Decode);
  CHECK(drawn(qwen, ObjectKind::RecurrentState));
  CHECK(tier_of(qwen, ObjectKind::RecurrentState) == anim::Endpoint::Hbm);
  CHECK(drawn(qwen, ObjectKind::StateCheckpoints));
  CHECK(tier_of(qwen, ObjectKind::StateCheckpoints) == anim::Endpoint::Ssd);
  CHECK_FALSE(drawn(qwen, ObjectKind::IndexerKeys));
  CHECK_FALSE(drawn(qwen, ObjectKind::SwaWindow));
  CHECK(layout::mode_key(qwen.scene, 0, 3) == "L×3 D = Linear ×3, Dense attention. L: keeps a fixed recurrent state per session, no KV. D: keeps its own KV "
                                              "and attends over all of it. ×n: n layers of that kind in a row.");
  for (const char* name : {"glm5-fp8-8xb200", "v4-flash-8xb200", model::kDefaultPreset}) {
    INFO(name);
    const Fixture fx = make(name, anim::PathId::Decode);
    CHECK(drawn(fx, ObjectKind::IndexerKeys));
    CHECK(tier_of(fx, ObjectKind::IndexerKeys) == anim::Endpoint::Hbm);
    CHECK_FALSE(drawn(fx, ObjectKind::RecurrentState));
    CHECK_FALSE(drawn(fx, ObjectKind::ChunkKv));
  }
  const Fixture v4 = make("v4-flash-8xb200", anim::PathId::Decode);
  CHECK(layout::mode_key(v4.scene, 0, 4).starts_with("S×2 CSA×2 HCA = SWA-only ×2, CSA ×2, HCA."));
  CHECK(layout::mode_key(v4.scene, 2, 2).find("one KV row per 4 tokens") != std::string::npos);
  CHECK(layout::mode_key(v4.scene, 3, 3).find("one KV row per 128 tokens") != std::string::npos);
  const Fixture v41 = make(model::kDefaultPreset, anim::PathId::Decode);
  CHECK(layout::mode_key(v41.scene, 0, 3).starts_with("S×2 F U = SWA-only ×2, Full, Reuse."));
  // A chunked model (Llama 4's attention_chunk_size) keeps its chunk in HBM; a window of a layer's own is named.
  Fixture chunked = make("llama31-8b-1xh100", anim::PathId::Decode);
  model::Error e;
  REQUIRE(model::set_param_text(chunked.s, *model::find_param("modes"), "C8192C8192C8192DC8192C8192C8192DS512S512S512DC8192C8192C8192DC8192C8192C8192D"
                                                                      "C8192C8192C8192DC8192C8192C8192DC8192C8192C8192DC8192C8192C8192D", e));
  REQUIRE(model::set_param_text(chunked.s, *model::find_param("n_win"), "512", e));
  REQUIRE(model::validate(chunked.s).empty());
  chunked.f = model::describe(chunked.s);
  chunked.ledger = anim::build_ledger(chunked.s, chunked.f, anim::PathId::Decode);
  chunked.scene = layout::make_scene(chunked.s, chunked.f, chunked.ledger);
  CHECK(drawn(chunked, ObjectKind::ChunkKv));
  CHECK(tier_of(chunked, ObjectKind::ChunkKv) == anim::Endpoint::Hbm);
  CHECK(layout::mode_key(chunked.scene, 0, 3).starts_with("C8K×3 D = Chunked 8,192 ×3, Dense attention."));
  CHECK(layout::mode_key(chunked.scene, 8, 10).starts_with("S512×3 = SWA-only 512 ×3."));
}

TEST_CASE("drawn layer rows stand for groups that cover every real layer once") {
  for (int real : {1, 3, 5, 7, 20, 23, 43, 61, 80}) {
    const int rows = layout::drawn_rows(real);
    REQUIRE(rows == std::min(real, 5));
    int next = 0;
    for (int r = 0; r < rows; ++r) {
      int first = 0, last = 0;
      layout::row_layers(real, rows, r, first, last);
      REQUIRE(first == next);
      REQUIRE(last >= first);
      next = last + 1;
    }
    REQUIRE(next == real);
  }
  // V4.1 Flash: 5 encoder rows over its 20 encoder layers, 5 decoder rows over the rest.
  const Fixture fx = make(model::kDefaultPreset, anim::PathId::Prefill);
  REQUIRE(fx.scene.ced);
  layout::Layout L;
  layout::compute_layout(fx.scene, anim::state_at(fx.ledger, 0, 0), {1440, 900}, kTm, L);
  REQUIRE(L.encoder_rows == 5);
  REQUIRE(L.decoder_rows == 5);
  REQUIRE(L.find(Kind::EncoderLayer, 0)->first_layer == 0);
  REQUIRE(L.find(Kind::EncoderLayer, 4)->last_layer == fx.s.model.enc_layers - 1);
  REQUIRE(L.find(Kind::DecoderLayer, 0)->first_layer == fx.s.model.enc_layers);
  REQUIRE(L.find(Kind::DecoderLayer, 4)->last_layer == fx.s.model.layer_count - 1);
  // A decoder-only model draws one stack of all its layers.
  const Fixture llama = make("llama31-70b-8xh100", anim::PathId::Prefill);
  layout::Layout M;
  layout::compute_layout(llama.scene, anim::state_at(llama.ledger, 0, 0), {1440, 900}, kTm, M);
  REQUIRE(M.encoder_rows == 0);
  REQUIRE(M.find(Kind::DecoderLayer, 4)->last_layer == llama.s.model.layer_count - 1);
}

TEST_CASE("highlights and the packet follow the state") {
  const Fixture fx = make(model::kDefaultPreset, anim::PathId::Decode);
  REQUIRE(!fx.ledger.entries.empty());
  for (int step = 0; step < static_cast<int>(fx.ledger.entries.size()); ++step) {
    const anim::StepState st0 = anim::state_at(fx.ledger, step, 0.0);
    const anim::StepState st1 = anim::state_at(fx.ledger, step, 1.0);
    layout::Layout A, B;
    layout::compute_layout(fx.scene, st0, {1280, 800}, kTm, A);
    layout::compute_layout(fx.scene, st1, {1280, 800}, kTm, B);
    INFO("step " << step << " " << fx.ledger.entries[static_cast<std::size_t>(step)].step);
    for (const layout::Item& it : A.items) {
      if (it.kind == Kind::Block) {
        REQUIRE(it.highlighted == st0.highlight.has(static_cast<anim::ObjectKind>(it.index)));
        REQUIRE(it.fill >= 0.0f);
        REQUIRE(it.fill <= 1.0f);
      }
      if (it.kind == Kind::Band) REQUIRE(it.highlighted == st0.highlight.has(static_cast<anim::Endpoint>(it.index)));
    }
    REQUIRE(A.flight.active);
    REQUIRE(A.flight.from == st0.packet.from);
    REQUIRE(A.flight.to == st0.packet.to);
    const layout::Item* p0 = A.find(Kind::Packet, 0);
    const layout::Item* p1 = B.find(Kind::Packet, 0);
    REQUIRE(p0);
    REQUIRE(p1);
    // Progress 0 sits on the source, 1 on the destination, unless text is there: then as near as it can
    // without hiding any (see the next test).
    const int own0 = static_cast<int>(p0 - A.items.data()), own1 = static_cast<int>(p1 - B.items.data());
    if (!covers_text(A, centred(*p0, A.flight.x0, A.flight.y0), own0)) {
      REQUIRE(std::fabs(p0->rect.cx() - A.flight.x0) < 0.01f);
      REQUIRE(std::fabs(p0->rect.cy() - A.flight.y0) < 0.01f);
    }
    if (!covers_text(B, centred(*p1, B.flight.x1, B.flight.y1), own1)) {
      REQUIRE(std::fabs(p1->rect.cx() - B.flight.x1) < 0.01f);
      REQUIRE(std::fabs(p1->rect.cy() - B.flight.y1) < 0.01f);
    }
    // The anchors lie on the endpoints' rectangles.
    if (anim::is_tier(A.flight.to)) {
      const layout::Item* band = A.find(Kind::Band, static_cast<int>(A.flight.to));
      REQUIRE(band->rect.contains(A.flight.x1, A.flight.y1));
    }
    // Hit-testing the packet's centre finds the packet first.
    REQUIRE(A.hit(p0->rect.cx(), p0->rect.cy())->kind == Kind::Packet);
  }
}

TEST_CASE("the packet hides no text: at rest or under way it sits where no label is, near its place") {
  for (const model::PresetInfo& p : model::presets()) {
    for (int pi = 0; pi < anim::kPathCount; ++pi) {
      const Fixture fx = make(p.name, static_cast<anim::PathId>(pi));
      for (int step = 0; step < static_cast<int>(fx.ledger.entries.size()); ++step) {
        for (const double progress : {0.0, 0.5, 1.0}) {
          for (const layout::Viewport vp : {layout::Viewport{372, 722}, layout::Viewport{750, 598}, layout::Viewport{1440, 900}}) {
            layout::Layout L;
            layout::compute_layout(fx.scene, anim::state_at(fx.ledger, step, progress), vp, kTm, L);
            const layout::Item* pk = L.find(Kind::Packet, 0);
            if (!pk) continue;
            INFO(p.name << " / " << anim::path_key(static_cast<anim::PathId>(pi)) << " step " << step << " progress "
                        << progress << " at " << vp.width << "x" << vp.height << ": " << describe(*pk));
            REQUIRE_FALSE(covers_text(L, *pk));
          }
        }
      }
    }
  }
}

TEST_CASE("hit-testing finds blocks before their band, and nothing outside") {
  const Fixture fx = make(model::kDefaultPreset, anim::PathId::Prefill);
  layout::Layout L;
  anim::StepState st = anim::state_at(fx.ledger, 0, 0);
  st.packet.active = false;
  layout::compute_layout(fx.scene, st, {1280, 800}, kTm, L);
  const auto* kv = L.find(Kind::Block, static_cast<int>(anim::ObjectKind::GlobalKv));
  REQUIRE(kv);
  REQUIRE(L.hit(kv->rect.cx(), kv->rect.cy()) == kv);
  const auto* band = L.find(Kind::Band, 1);
  REQUIRE(L.hit(band->rect.x + 2, band->rect.bottom() - 2)->kind == Kind::Band);
  REQUIRE(L.hit(-5, -5) == nullptr);
  REQUIRE(layout::item_id(*kv) == "block:global-kv");
  REQUIRE(layout::item_id(*band) == "band:hbm");
}

TEST_CASE("wide canvases keep a panel column, narrower ones make room only while a panel is open") {
  const Fixture fx = make(model::kDefaultPreset, anim::PathId::Decode);
  const anim::StepState st = anim::state_at(fx.ledger, 0, 0);
  layout::Options open;
  open.panel_open = true;
  layout::Layout wide, wide_open, narrow, narrow_open, phone, phone_open;
  layout::compute_layout(fx.scene, st, {1600, 900}, kTm, wide);
  layout::compute_layout(fx.scene, st, {1600, 900}, kTm, wide_open, open);
  layout::compute_layout(fx.scene, st, {800, 900}, kTm, narrow);
  layout::compute_layout(fx.scene, st, {800, 900}, kTm, narrow_open, open);
  layout::compute_layout(fx.scene, st, {390, 900}, kTm, phone);
  layout::compute_layout(fx.scene, st, {390, 900}, kTm, phone_open, open);
  REQUIRE(wide.dock_side == layout::DockSide::Right);
  REQUIRE(wide.dock.w >= 320);
  REQUIRE(wide.schematic.right() <= wide.dock.x);
  // On a wide canvas opening a panel moves nothing.
  REQUIRE(fixed_rects(wide_open) == fixed_rects(wide));
  REQUIRE(narrow.dock.w == 0);
  REQUIRE(narrow.schematic.w > 700);
  // A mid-size canvas gives the open panel a column and the schematic reflows beside it.
  REQUIRE(narrow_open.dock_side == layout::DockSide::Right);
  REQUIRE(narrow_open.schematic.right() <= narrow_open.dock.x);
  REQUIRE(narrow_open.schematic.w >= 400);
  // A phone puts it in a sheet below the schematic, which keeps its full width.
  REQUIRE(phone.dock_side == layout::DockSide::None);
  REQUIRE(phone_open.dock_side == layout::DockSide::Bottom);
  REQUIRE(phone_open.schematic.bottom() <= phone_open.dock.y);
  REQUIRE(phone_open.schematic.w == phone.schematic.w);
  REQUIRE(phone_open.dock.h >= 200);
}

TEST_CASE("labels shorten rather than cut: long wordings where there is room, short ones where there is not") {
  const Fixture fx = make(model::kDefaultPreset, anim::PathId::Prefill);
  const anim::StepState st = anim::state_at(fx.ledger, 0, 0);
  const auto text_of = [](const layout::Layout& L, Kind kind, int index) {
    for (const layout::Label& l : L.labels) {
      if (l.item < 0) continue;
      const layout::Item& it = L.items[static_cast<std::size_t>(l.item)];
      if (it.kind == kind && it.index == index) return l.text;
    }
    return std::string();
  };
  layout::Layout big, small;
  layout::compute_layout(fx.scene, st, {2560, 1440}, kTm, big);
  layout::compute_layout(fx.scene, st, {390, 844}, kTm, small);
  const std::string row_big = text_of(big, Kind::EncoderLayer, 0), row_small = text_of(small, Kind::EncoderLayer, 0);
  INFO(row_big << " / " << row_small);
  REQUIRE(row_big.find("layers 0–3") != std::string::npos);
  REQUIRE(row_big.find("SWA-only") != std::string::npos);
  REQUIRE(row_small.rfind("E1", 0) == 0);
  REQUIRE(row_small.size() < row_big.size());
  REQUIRE(row_small.find("…") == std::string::npos);
  // Dense models name their weights for what they are.
  const Fixture llama = make("llama31-70b-8xh100", anim::PathId::Decode);
  REQUIRE(std::string(layout::block_label(anim::ObjectKind::MoeWeights, llama.scene)) == "Dense weights");
  REQUIRE(std::string(layout::block_label(anim::ObjectKind::MoeWeights, fx.scene)) == "MoE weights");
  REQUIRE(layout::fit_variant(kTm, 15, 30, {"a long wording", "ab"}) == "ab");
  REQUIRE(layout::fit_variant(kTm, 15, 5, {"a long wording", "ab"}).empty());
}

TEST_CASE("when the page shows playback (and counters), the toolbar shrinks to one line and everything still fits") {
  const Fixture fx = make(model::kDefaultPreset, anim::PathId::Decode);
  const anim::StepState st = anim::state_at(fx.ledger, 0, 0);
  for (const bool counters : {false, true})
  for (const layout::Viewport& vp : kViewports) {
    layout::Options hosted;
    hosted.host_playback = true;
    hosted.host_counters = counters;
    check_geometry(fx.scene, st, vp, "hosted decode", hosted);
    layout::Layout own, host;
    layout::compute_layout(fx.scene, st, vp, kTm, own);
    layout::compute_layout(fx.scene, st, vp, kTm, host, hosted);
    INFO(vp.width << "x" << vp.height);
    CHECK(host.toolbar.h <= own.toolbar.h);
    CHECK(host.toolbar.h < 18 * 2);  // one line of buttons
  }
}

TEST_CASE("a setup that cannot run shows the tier it overflows, with the numbers, and nothing moves") {
  for (const char* set : {"gpus=1", "batch=100000", "ctx=16000000"}) {
    INFO(set);
    model::Scenario s = model::default_scenario();
    const std::string kv(set);
    const auto eq = kv.find('=');
    model::Error err;
    model::Adjustments moved;
    REQUIRE(model::edit_param(s, *model::find_param(kv.substr(0, eq)), kv.substr(eq + 1), moved, err));
    const model::Figures f = model::describe(s);
    REQUIRE_FALSE(f.computed.terms.feasible());
    const anim::Ledger l = anim::build_ledger(s, f, anim::PathId::Decode);
    CHECK(l.entries.empty());
    const layout::Scene sc = layout::make_scene(s, f, l);
    for (const layout::Viewport& vp : kViewports) {
      layout::Layout L;
      layout::compute_layout(sc, anim::state_at(l, 0, 0), vp, kTm, L);
      bool said = false;
      for (const layout::Label& lab : L.labels) said = said || lab.tone == layout::Tone::Alert;
      CHECK(said);
      if (kv == "ctx=16000000") CHECK_FALSE(sc.cannot_run.empty());
      else CHECK(L.bands[1].overflow);
      CHECK_FALSE(L.flight.active);
      check_geometry(sc, anim::state_at(l, 0, 0), vp, set);
    }
  }
}

TEST_CASE("fleet fills: a run's occupancy fills the bands and blocks, moves nothing, and its words fit") {
  // Occupancy as the fleet view gives it: shares of each tier's room with the words, longest first.
  const auto occupancy = [](float level) {
    layout::Occupancy o;
    o.on = true;
    o.tier = {-1, level, level * 0.5f, level * 0.25f};
    o.tier_text[1] = {"KV 1.234 TB of 1.13 TB in use", "1.234 TB of 1.13 TB", "1.234 TB"};
    o.tier_text[2] = {"prefixes 412.3 GB of 900 GB · pool 12,345 of 73,982", "prefixes 412.3 GB of 900 GB", "412.3 GB"};
    o.tier_text[3] = {"prefixes 12.34 TB of 61.44 TB", "12.34 TB of 61.44 TB", "12.34 TB"};
    o.object[static_cast<std::size_t>(anim::ObjectKind::GlobalKv)] = level;
    o.object_text[static_cast<std::size_t>(anim::ObjectKind::GlobalKv)] = {"1.234 TB of 1.13 TB", "1.234 TB"};
    o.object[static_cast<std::size_t>(anim::ObjectKind::SwaPool)] = level * 0.5f;
    o.object_text[static_cast<std::size_t>(anim::ObjectKind::SwaPool)] = {"12,345 of 73,982 windows", "12,345"};
    return o;
  };
  for (const model::PresetInfo& p : model::presets()) {
    const Fixture fx = make(p.name, anim::PathId::Decode);
    const anim::StepState st = anim::state_at(fx.ledger, 0, 0);
    for (const layout::Viewport& vp : kViewports) {
      layout::Layout plain;
      layout::compute_layout(fx.scene, st, vp, kTm, plain);
      for (float level : {0.0f, 0.37f, 1.0f, 1.5f}) {
        layout::Options opt;
        opt.occupancy = occupancy(level);
        INFO(p.name << " at " << vp.width << "x" << vp.height << ", level " << level);
        // The same rectangles with and without a run's fills (layout stays a function of the scene).
        layout::Layout L;
        layout::compute_layout(fx.scene, st, vp, kTm, L, opt);
        REQUIRE(fixed_rects(L) == fixed_rects(plain));
        REQUIRE(L.text_scale == plain.text_scale);
        for (const layout::Item& it : L.items) {
          if (it.kind == Kind::Band) {
            // SRAM shows no level; the others their share, never past full.
            if (it.index == 0) REQUIRE(it.fill < 0);
            else REQUIRE(it.fill == std::min(1.0f, opt.occupancy.tier[static_cast<std::size_t>(it.index)]));
          }
          if (it.kind == Kind::Block && it.index == static_cast<int>(anim::ObjectKind::GlobalKv)) REQUIRE(it.fill == std::min(1.0f, level));
        }
        check_geometry(fx.scene, st, vp, p.name, opt);
        check_geometry(fx.scene, st, vp, p.name, opt, wide_font());
      }
    }
  }
  // Without a run, bands show no level and blocks the path's fills.
  const Fixture fx = make("v41-flash-8xb200", anim::PathId::Decode);
  layout::Layout L;
  layout::compute_layout(fx.scene, anim::state_at(fx.ledger, 0, 0), {1280, 800}, kTm, L);
  for (const layout::Item& it : L.items)
    if (it.kind == Kind::Band) REQUIRE(it.fill < 0);
}

TEST_CASE("what a reader taps is at least 24 px each way, on a phone and on a laptop, with a panel open or not") {
  // The canvas the page gives a 390×844 phone (372×722) and a 1440×900 laptop (750×598), and those sizes; the
  // page shows playback and the counters itself, so the canvas's toolbar is one line.
  const layout::Viewport sizes[] = {{372, 722}, {390, 844}, {750, 598}, {1440, 900}};
  for (const model::PresetInfo& p : model::presets()) {
    for (int pi = 0; pi < anim::kPathCount; ++pi) {
      const Fixture fx = make(p.name, static_cast<anim::PathId>(pi));
      const int steps = std::max<int>(1, static_cast<int>(fx.ledger.entries.size()));
      for (const layout::Viewport& vp : sizes) {
        for (const bool open : {false, true}) {
          layout::Options opt;
          opt.panel_open = open;
          opt.host_playback = opt.host_counters = true;  // as the page shows them, beside the canvas
          for (int step : {0, steps / 2, steps - 1}) {
            layout::Layout L;
            layout::compute_layout(fx.scene, anim::state_at(fx.ledger, step, 0.5), vp, kTm, L, opt);
            INFO(p.name << " / " << anim::path_key(static_cast<anim::PathId>(pi)) << " step " << step << " at " << vp.width
                        << "x" << vp.height << (open ? " panel open" : ""));
            for (const layout::Item& it : L.items) {
              const bool target = it.kind == Kind::Token || it.kind == Kind::EncoderLayer || it.kind == Kind::DecoderLayer ||
                                  it.kind == Kind::Block || it.kind == Kind::Packet;
              if (!target) continue;
              INFO(describe(it));
              REQUIRE(it.rect.h >= 24.0f);
              REQUIRE(it.rect.w >= 24.0f);
            }
          }
        }
      }
    }
  }
}

// A layer row names its attention kind, which on a MoE model must not read as its feed-forward kind: the
// rows of a decoder-only MoE model said "Dense ×19".
TEST_CASE("the layer rows of a MoE model call plain attention layers dense attention, never just dense") {
  const Fixture fx = make("qwen3-235b-a22b-4xh200", anim::PathId::Prefill);
  REQUIRE(fx.s.model.experts > 0);
  layout::Layout L;
  layout::compute_layout(fx.scene, anim::state_at(fx.ledger, 0, 0), {1440, 900}, kTm, L);
  int rows = 0;
  for (const layout::Label& l : L.labels) {
    if (l.item < 0 || L.items[static_cast<std::size_t>(l.item)].kind != Kind::DecoderLayer) continue;
    INFO(l.text);
    ++rows;
    CHECK(l.text.find("Dense ×") == std::string::npos);
    CHECK(l.text.find("Dense attention ×") != std::string::npos);
  }
  CHECK(rows == 5);
}

// The hand-off reaches another node: its NIC and the decode node's HBM are drawn for that path only, on the
// schematic, clear of every other item, tappable, and the move of the pages runs from the one to the other.
TEST_CASE("the hand-off draws a NIC and the decode node's HBM, clear of the tiers, on a phone and a laptop") {
  model::Scenario s;
  REQUIRE(model::make_preset("v41-flash-8xb200", s));
  model::Error err;
  REQUIRE(model::set_param_text(s, *model::find_param("pd_link"), "nic", err));
  const model::Figures f = model::describe(s);
  const anim::Ledger ledger = anim::build_ledger(s, f, anim::PathId::Handoff);
  const layout::Scene scene = layout::make_scene(s, f, ledger);
  REQUIRE(scene.remote);
  int send = -1;
  for (const auto& e : ledger.entries)
    if (e.step == "send-pages") send = e.index;
  REQUIRE(send >= 0);
  for (const layout::Viewport vp : {layout::Viewport{372, 722}, layout::Viewport{390, 844}, layout::Viewport{750, 598}, layout::Viewport{1440, 900}}) {
    INFO(vp.width << "x" << vp.height);
    layout::Options opt;
    opt.host_playback = opt.host_counters = true;
    layout::Layout L;
    layout::compute_layout(scene, anim::state_at(ledger, send, 0.0), vp, kTm, L, opt);
    const layout::Item* nic = L.find(Kind::Remote, static_cast<int>(anim::Endpoint::Nic));
    const layout::Item* peer = L.find(Kind::Remote, static_cast<int>(anim::Endpoint::PeerHbm));
    REQUIRE(nic);
    REQUIRE(peer);
    CHECK(layout::item_id(*nic) == "remote:nic");
    CHECK(layout::item_id(*peer) == "remote:peer-hbm");
    for (const layout::Item* r : {nic, peer}) {
      CHECK(r->rect.inside(L.schematic));
      CHECK(r->rect.h >= 24.0f);
      for (const layout::Item& it : L.items)
        if (&it != r && it.kind != Kind::Packet) CHECK_FALSE(r->rect.overlaps(it.rect));
    }
    CHECK(nic->highlighted);
    CHECK(peer->highlighted);
    REQUIRE(L.flight.active);
    CHECK(L.flight.x0 == nic->rect.cx());
    CHECK(L.flight.x1 == peer->rect.cx());
    bool named = false;
    for (const layout::Label& l : L.labels) named = named || l.text.starts_with("Decode");
    CHECK(named);
  }
  // A path that stays on its node draws neither.
  const anim::Ledger decode = anim::build_ledger(s, f, anim::PathId::Decode);
  const layout::Scene plain = layout::make_scene(s, f, decode);
  CHECK_FALSE(plain.remote);
  layout::Layout L;
  layout::compute_layout(plain, anim::state_at(decode, 0, 0), {1440, 900}, kTm, L);
  CHECK(L.find(Kind::Remote, static_cast<int>(anim::Endpoint::Nic)) == nullptr);
}
