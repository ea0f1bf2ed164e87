// The canvas's text, chosen by the layout: for every title, token cell, layer row, the stream, each band and
// block and the packet, the longest of a few wordings that fits its room at the frame's text size. Shorter
// words replace cut ones, so no label ever ends in a clipped half-word; the inspector holds the details.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "base/text.h"
#include "layout/layout.h"

namespace tierscope::layout {

using anim::ObjectKind;

float TextMetrics::width(std::string_view text, float px) const {
  if (measure) return measure(measure_ctx, text, px);
  // Code points, not bytes: "–", "×" and "…" are one character each.
  float n = 0;
  for (const char c : text)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) n += 1;
  return n * char_width * px / std::max(1.0f, font_px);
}

std::string fit_variant(const TextMetrics& tm, float px, float max_w, std::initializer_list<std::string> variants) {
  for (const std::string& v : variants)
    if (!v.empty() && tm.width(v, px) <= max_w) return v;
  return "";
}

const char* tier_short_name(int tier) {
  static constexpr const char* kTierShort[4] = {"GPU SRAM", "GPU HBM", "Host DRAM", "NVMe SSD"};
  return kTierShort[std::clamp(tier, 0, 3)];
}

namespace {

// What tells layers of one mode apart in a row's words: V4's CSA (Full) and HCA (Dense), compressed with no
// candidate pool, and a window or chunk of the layer's own. Layers of one kind share a key.
enum class Compression : std::uint8_t { Plain, Csa, Hca };
struct LayerKind {
  model::LayerMode mode;
  Compression kind;
  int span;
  bool operator==(const LayerKind&) const = default;
};

LayerKind kind_of(const Scene& sc, int l) {
  const auto i = static_cast<std::size_t>(l);
  const model::LayerMode m = sc.modes[i];
  const bool compressed = sc.ratios[i] > 1 && !sc.cand_pool;
  const Compression k = compressed && m == model::LayerMode::Full ? Compression::Csa : compressed && m == model::LayerMode::Dense ? Compression::Hca : Compression::Plain;
  const bool local = m == model::LayerMode::SwaOnly || m == model::LayerMode::Chunked;
  return {m, k, local ? sc.spans[i] : 0};
}

// 8,192 → "8.2k", 1,048,576 → "1M": a token count that fits a small cell.
std::string compact(int v) {
  char buf[32];
  if (v >= 1000000) std::snprintf(buf, sizeof buf, "%.3gM", v / 1e6);
  else if (v >= 1000) std::snprintf(buf, sizeof buf, "%.3gk", v / 1e3);
  else std::snprintf(buf, sizeof buf, "%d", v);
  return buf;
}

std::string kind_letters(const LayerKind& k) {
  if (k.kind == Compression::Csa) return "CSA";
  if (k.kind == Compression::Hca) return "HCA";
  std::string s(1, model::layer_mode_letter(k.mode));
  // Windows and chunks are powers of two as the configs give them: 8,192 reads "8K", 512 stays "512".
  if (k.span >= 1024 && k.span % 1024 == 0) s += std::to_string(k.span / 1024) + "K";
  else if (k.span > 0) s += compact(k.span);
  return s;
}

std::string kind_name(const LayerKind& k) {
  if (k.kind == Compression::Csa) return "CSA";
  if (k.kind == Compression::Hca) return "HCA";
  std::string s = model::layer_mode_name(k.mode);
  if (k.span > 0) s += " " + model::num(k.span);
  return s;
}

std::string mode_summary(const Scene& sc, int first, int last, bool letters) {
  LayerKind order[model::kMaxLayers];
  int counts[model::kMaxLayers] = {};
  int n = 0;
  for (int l = first; l <= last; ++l) {
    const LayerKind k = kind_of(sc, l);
    int at = 0;
    while (at < n && !(order[at] == k)) ++at;
    if (at == n) order[n++] = k;
    ++counts[at];
  }
  std::string s;
  for (int i = 0; i < n; ++i) {
    if (i) s += letters ? " " : ", ";
    s += letters ? kind_letters(order[i]) : kind_name(order[i]);
    if (counts[i] > 1) s += (letters ? "×" : " ×") + std::to_string(counts[i]);
  }
  return s;
}

// What each kind of layer keeps and reads, in a few plain words (the letters' key).
std::string kind_meaning(const LayerKind& k, int ratio) {
  if (k.kind == Compression::Csa)
    return "compressed sparse attention: one KV row per " + std::to_string(ratio) + " tokens, its indexer picks the rows it reads";
  if (k.kind == Compression::Hca) return "heavily compressed attention: one KV row per " + std::to_string(ratio) + " tokens, all of them read";
  switch (k.mode) {
    case model::LayerMode::Dense: return "keeps its own KV and attends over all of it";
    case model::LayerMode::Full: return "writes its own global KV and index keys and scores every stored position";
    case model::LayerMode::Reindex: return "picks its own top-k over an earlier layer's KV";
    case model::LayerMode::Reuse: return "reuses the previous layer's selection unchanged";
    case model::LayerMode::SwaOnly:
      return k.span > 0 ? "keeps only a window of its own " + model::num(k.span) + " recent tokens, no global KV"
                        : "keeps only a short window of recent tokens, no global KV";
    case model::LayerMode::Linear: return "keeps a fixed recurrent state per session, no KV";
    case model::LayerMode::Chunked: return "keeps and attends only the tokens of its current chunk of " + model::num(k.span);
    case model::LayerMode::Count: break;
  }
  return "";
}

std::string span(int first, int last) {
  return first == last ? std::to_string(first) : std::to_string(first) + "–" + std::to_string(last);
}

}  // namespace

std::string layers_text(int first, int last) { return (first == last ? "layer " : "layers ") + span(first, last); }

std::string mode_key(const Scene& sc, int first, int last) {
  std::string s = mode_summary(sc, first, last, true) + " = " + mode_summary(sc, first, last, false) + ".";
  LayerKind seen[model::kMaxLayers];
  int kinds = 0;
  for (int l = first; l <= last; ++l) {
    const LayerKind k = kind_of(sc, l);
    bool known = false;
    for (int i = 0; i < kinds; ++i) known = known || seen[i] == k;
    if (known) continue;
    seen[kinds++] = k;
    s += " " + kind_letters(k) + ": " + kind_meaning(k, sc.ratios[static_cast<std::size_t>(l)]) + ".";
  }
  if (last - first + 1 > kinds) s += " ×n: n layers of that kind in a row.";
  return s;
}

std::string layer_kind_letters(const Scene& sc, int l) { return kind_letters(kind_of(sc, l)); }
std::string layer_kind_name(const Scene& sc, int l) { return kind_name(kind_of(sc, l)); }

namespace {

struct Placer {
  const TextMetrics& tm;
  Layout& out;
  float size, small, pad;

  void add(std::string text, Rect box, float px, Align align, Tone tone, int item) {
    if (text.empty() || box.w <= 0 || box.h <= 0) return;
    Label l;
    l.width = tm.width(text, px);
    l.text = std::move(text);
    l.box = box;
    l.px = px;
    l.align = align;
    l.tone = tone;
    l.item = item;
    out.labels.push_back(std::move(l));
  }
  // The inner room of an item: padded left and right, full height.
  Rect inner(const Rect& r) const { return {r.x + pad, r.y, std::max(0.0f, r.w - 2 * pad), r.h}; }
};

void title_labels(const Scene& sc, Placer& P) {
  const Layout& L = P.out;
  const std::string enc_n = std::to_string(L.encoder_rows) + " of " + std::to_string(sc.enc_layers);
  const int dec_real = sc.layer_count - sc.enc_layers;
  const std::string dec_n = std::to_string(L.decoder_rows) + " of " + std::to_string(dec_real);
  const auto put = [&](TitleId id, std::initializer_list<std::string> variants) {
    const Rect& r = L.titles[static_cast<std::size_t>(id)];
    if (r.w <= 0) return;
    P.add(fit_variant(P.tm, P.small, r.w, variants), r, P.small, Align::Left, Tone::Muted, -1);
  };
  if (!sc.cannot_run.empty()) {
    // A setup beyond the model's positions: said on the token row's title, in the alert colour.
    const Rect& r = L.titles[static_cast<std::size_t>(TitleId::Tokens)];
    for (const std::string& v : sc.cannot_run) {
      if (r.w <= 0 || P.tm.width(v, P.small) > r.w) continue;
      P.add(v, r, P.small, Align::Left, Tone::Alert, -1);
      break;
    }
  } else {
    put(TitleId::Tokens, {"INPUT / OUTPUT TOKENS", "TOKENS"});
  }
  if (sc.ced) {
    put(TitleId::Encoder, {"CAUSAL ENCODER — runs in prefill · " + enc_n + " layers drawn",
                           "CAUSAL ENCODER · " + enc_n + " layers drawn", "ENCODER · " + enc_n + " drawn", "ENCODER"});
    put(TitleId::Decoder, {"DECODER — mostly skipped in prompt prefill · " + dec_n + " drawn",
                           "DECODER · " + dec_n + " layers drawn", "DECODER · " + dec_n + " drawn", "DECODER"});
  } else {
    put(TitleId::Decoder, {"LAYERS — decoder-only · " + dec_n + " layers drawn", "LAYERS · " + dec_n + " drawn", "LAYERS"});
  }
  put(TitleId::Hierarchy, {"MEMORY HIERARCHY — width ≈ capacity · stripes ≈ latency (log scales)",
                           "MEMORY HIERARCHY — width ≈ capacity · stripes ≈ latency", "MEMORY HIERARCHY", "MEMORY"});
}

std::string block_value(const Scene& sc, const anim::StepState& st, int object, bool with_footprint) {
  const double bytes = st.objects[static_cast<std::size_t>(object)].bytes;
  const double fp = sc.objects[static_cast<std::size_t>(object)].footprint;
  std::string v = model::human(bytes, "B");
  if (with_footprint && fp > bytes * 1.0001 && fp > 0) v += " of " + model::human(fp, "B");
  return v;
}

// What a tier's numbers count: on-chip memory and HBM are one GPU's (the blocks hold the busiest GPU's
// share, docs/paths.md), host DRAM and the SSDs the node's. Long words first, then a short form.
bool per_node(anim::Endpoint tier) { return tier == anim::Endpoint::Dram || tier == anim::Endpoint::Ssd; }
const char* scope_words(anim::Endpoint tier) { return per_node(tier) ? "per node" : "per GPU"; }
const char* scope_short(anim::Endpoint tier) { return per_node(tier) ? "/node" : "/GPU"; }
constexpr anim::Endpoint kBandTier[4] = {anim::Endpoint::Sram, anim::Endpoint::Hbm, anim::Endpoint::Dram, anim::Endpoint::Ssd};

}  // namespace

void place_labels(const Scene& sc, const anim::StepState& st, const TextMetrics& tm, Layout& out, const Occupancy& occ) {
  out.labels.clear();
  const float s = out.text_scale;
  Placer P{tm, out, tm.font_px * s, tm.font_px * s * 0.86f, 8 * s};
  title_labels(sc, P);
  const int prompt = std::max(1, sc.prompt_tokens);

  for (int i = 0; i < static_cast<int>(out.items.size()); ++i) {
    const Item& it = out.items[static_cast<std::size_t>(i)];
    const Rect room = P.inner(it.rect);
    switch (it.kind) {
      case Kind::Token: {
        const int cells = out.token_cells;
        std::string text;
        if (it.index == cells - 1) text = fit_variant(tm, P.size, room.w, {"next ▶", "▶"});
        else if (it.index == cells - 2) text = fit_variant(tm, P.size, room.w, {"t" + model::num(prompt), model::num(prompt), compact(prompt)});
        else if (it.index == cells - 3 && cells - 3 < prompt) text = "…";
        else if (it.index < prompt) text = fit_variant(tm, P.size, room.w, {"t" + std::to_string(it.index + 1), std::to_string(it.index + 1)});
        if (tm.width(text, P.size) <= room.w) P.add(text, room, P.size, Align::Centre, Tone::OnItem, i);
        break;
      }
      case Kind::EncoderLayer:
      case Kind::DecoderLayer: {
        const std::string tag = std::string(1, it.kind == Kind::EncoderLayer ? 'E' : (sc.ced ? 'D' : 'L')) + std::to_string(it.index + 1);
        const std::string worded = tag + " · " + layers_text(it.first_layer, it.last_layer);
        P.add(fit_variant(tm, P.size, room.w,
                          {worded + " · " + mode_summary(sc, it.first_layer, it.last_layer, false),
                           worded + " · " + mode_summary(sc, it.first_layer, it.last_layer, true), worded,
                           tag + " · " + span(it.first_layer, it.last_layer), tag}),
              room, P.size, Align::Left, Tone::OnItem, i);
        break;
      }
      case Kind::Stream:
        P.add(sc.ced ? fit_variant(tm, P.size, room.w,
                                   {"Encoder final hidden stream H[t] → projected global KV (read by the decoder)",
                                    "Encoder final hidden stream H[t] → projected global KV", "H[t] → projected global KV",
                                    "H[t]"})
                     : fit_variant(tm, P.size, room.w,
                                   {"Final hidden stream → next-token logits", "Hidden stream → logits", "Hidden stream"}),
              room, P.size, Align::Centre, Tone::OnItem, i);
        break;
      case Kind::Band: {
        const BandInfo& b = out.bands[static_cast<std::size_t>(it.index)];
        const Rect title{b.title.x + 2, b.title.y, std::max(0.0f, b.title.w - 4), b.title.h};
        const std::string name = fit_variant(tm, P.size, title.w, {tier_short_name(it.index), "SRAM"});
        P.add(name, title, P.size, Align::Left, Tone::Text, -1);
        const float room_w = title.w - tm.width(name, P.size) - 12;
        // Why the setup cannot run: the tier's own overflow, or (when the token row has no title to say it
        // on) a reason that is no tier's, on the HBM band.
        const bool untitled = out.titles[static_cast<std::size_t>(TitleId::Tokens)].w <= 0;
        const auto& over = !sc.overflow[static_cast<std::size_t>(std::clamp(it.index, 0, 3))].empty()
                               ? sc.overflow[static_cast<std::size_t>(std::clamp(it.index, 0, 3))]
                               : (it.index == 1 && untitled ? sc.cannot_run : sc.overflow[static_cast<std::size_t>(std::clamp(it.index, 0, 3))]);
        if (!over.empty()) {
          // Why this tier keeps the setup from running, in place of its capacity and latency.
          for (const std::string& v : over) {
            if (tm.width(v, P.small) > room_w) continue;
            P.add(v, title, P.small, Align::Right, Tone::Alert, -1);
            break;
          }
          break;
        }
        // The fleet view says what the tier holds now; otherwise its capacity and latency.
        const auto& held = occ.tier_text[static_cast<std::size_t>(std::clamp(it.index, 0, 3))];
        if (occ.on && !held.empty()) {
          for (const std::string& v : held) {
            if (tm.width(v, P.small) > room_w) continue;
            P.add(v, title, P.small, Align::Right, Tone::Text, -1);  // over the level: the text colour reads
            break;
          }
          break;
        }
        // Capacity with what it counts ("180 GB per GPU", "2 TB per node"), then latency; shorter forms
        // where the band is narrow, and the bare figures last.
        const anim::Endpoint tier = kBandTier[std::clamp(it.index, 0, 3)];
        const std::string cap = model::human(b.capacity, "B"), lat = model::human(b.latency, "s");
        const std::string figs = fit_variant(tm, P.small, room_w, {cap + " " + scope_words(tier) + " · " + lat, cap + scope_short(tier) + " · " + lat,
                                                                   cap + " · " + lat});
        if (!figs.empty()) P.add(figs, title, P.small, Align::Right, Tone::Muted, -1);
        break;
      }
      case Kind::Block: {
        const std::string label = block_label(static_cast<ObjectKind>(it.index), sc);
        // What the block holds: the fleet view's words for it, else the path's resident bytes.
        const auto& held = occ.object_text[static_cast<std::size_t>(it.index)];
        const bool fleet = occ.on && !held.empty();
        // Resident bytes with what they count: one GPU's in SRAM and HBM, the node's in DRAM and on SSD.
        const anim::Endpoint tier = sc.objects[static_cast<std::size_t>(it.index)].tier;
        const std::string scope = fleet ? std::string() : std::string(" ") + scope_words(tier);
        const std::string full = fleet ? held.front() : block_value(sc, st, it.index, true) + scope;
        const std::string brief = fleet ? held.back() : block_value(sc, st, it.index, false) + scope;
        const std::string bare = fleet ? held.back() : block_value(sc, st, it.index, false);
        const float bar = 3;
        const float avail_h = it.rect.h - bar;
        const Rect body{room.x, it.rect.y, room.w, avail_h};
        if (avail_h >= P.size * 2.1f) {
          // Two lines: the name, then what is resident (of the largest footprint over the path).
          const float y = it.rect.y + (avail_h - P.size - P.small) * 0.5f;
          P.add(fit_variant(tm, P.size, room.w, {label}), Rect{room.x, y, room.w, P.size}, P.size, Align::Left, Tone::OnItem, i);
          P.add(fit_variant(tm, P.small, room.w, {full, brief, bare}), Rect{room.x, y + P.size, room.w, P.small}, P.small, Align::Left,
                Tone::OnItem, i);
        } else {
          P.add(fit_variant(tm, P.size, room.w, {label + " · " + brief, label + " · " + bare, label}), body, P.size, Align::Left, Tone::OnItem, i);
        }
        break;
      }
      case Kind::Remote:
        // Another node, over the network: the NIC the KV leaves by and the decode node's HBM.
        P.add(it.index == static_cast<int>(anim::Endpoint::Nic)
                  ? fit_variant(tm, P.size, room.w, {"NIC · RDMA", "NIC"})
                  : fit_variant(tm, P.size, room.w, {"Decode node · GPU HBM", "Decode node HBM", "Decode HBM", "Decode"}),
              room, P.size, Align::Centre, Tone::OnItem, i);
        break;
      default: break;
    }
  }

  // The packet's bytes (or FLOP) beside it: right, left, above or below, the first place that covers no
  // other text, no token and stays on screen. While it moves past crowded text it may show no number (the
  // ledger panel and the inspector say it anyway).
  if (const Item* pk = out.find(Kind::Packet, 0)) {
    const anim::Packet& p = st.packet;
    const std::string text = p.bytes > 0 ? model::human(p.bytes, "B") : (p.flop > 0 ? model::human(p.flop, "FLOP") : "");
    if (!text.empty()) {
      const float w = tm.width(text, P.small), h = P.small;
      const Rect& r = pk->rect;
      const Rect tries[] = {{r.right() + 6, r.cy() - h * 0.5f, w, h},
                            {r.x - w - 6, r.cy() - h * 0.5f, w, h},
                            {r.cx() - w * 0.5f, r.y - h - 4, w, h},
                            {r.cx() - w * 0.5f, r.bottom() + 4, w, h}};
      const Rect screen{0, 0, out.viewport.width, out.viewport.height};
      for (const Rect& c : tries) {
        bool clear = c.inside(screen);
        for (const Label& l : out.labels) clear = clear && !c.overlaps(Rect{l.x(), l.y(), l.width, l.px});
        for (const Item& it : out.items) clear = clear && !(it.kind == Kind::Token && c.overlaps(it.rect));
        if (!clear) continue;
        P.add(text, c, P.small, Align::Left, Tone::Text, static_cast<int>(pk - out.items.data()));
        break;
      }
    }
  }
}

}  // namespace tierscope::layout
