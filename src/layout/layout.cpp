// compute_layout(): places the toolbar, the docked panel column, the token row, the encoder and decoder
// schematics, H[t], the four tier bands and the blocks in them; then the state's highlights and packet.
//
// Sections: metrics · the hierarchy's bands and blocks · the schematic (token row, encoder, H[t], decoder)
// and its fit · where a move starts and ends (anchor), the packet's room · kind keys, find and hit, item ids
// · compute_layout.
#include <algorithm>
#include <cmath>

#include "layout/layout.h"

namespace tierscope::layout {

using anim::Endpoint;
using anim::ObjectKind;

namespace {

constexpr Endpoint kTiers[4] = {Endpoint::Sram, Endpoint::Hbm, Endpoint::Dram, Endpoint::Ssd};
constexpr float kMaxContentWidth = 1600;  // wider screens centre the schematic instead of stretching rows
constexpr float kMinTarget = 24;          // the least a finger or a pointer should have to hit, CSS px

int tier_index(Endpoint e) { return anim::is_tier(e) ? static_cast<int>(e) : -1; }

float clampf(float v, float lo, float hi) { return std::max(lo, std::min(hi, v)); }
float F(int v) { return static_cast<float>(v); }

// Sizes that scale with the text. `tight` (0..1) squeezes the spacing on short canvases before the text has
// to shrink; `grow_row`/`grow_block` take up spare height on tall ones.
struct Metrics {
  float s = 1, lh = 18, cw = 7.5f, tight = 0;
  float gap = 8, title_h = 20, token_h = 28, row_h = 22, row_gap = 4, stream_h = 26;
  float band_pad = 6, band_title_h = 22, block_h = 24, block_gap = 6, band_gap = 6;
  float grow_row = 0, grow_block = 0;
  float min_target = kMinTarget;  // least height of what a reader taps; 0 on canvases too short for it
  bool drop_titles = false;  // very short canvases: the token-row and hierarchy titles give way
  void set(float scale, float squeeze, TextMetrics tm) {
    s = scale;
    tight = squeeze;
    lh = tm.line_height * s;
    cw = tm.char_width * s;
    auto sp = [&](float roomy, float tight_px) { return (roomy + (tight_px - roomy) * tight) * s; };
    gap = sp(10, 4);
    title_h = lh + sp(4, 0);
    token_h = lh + sp(10, 3);
    row_h = lh + sp(4, 0) + grow_row;
    row_gap = sp(4, 2);
    stream_h = lh + sp(10, 3);
    band_pad = sp(6, 3);
    band_title_h = lh + sp(4, 0);
    block_h = lh + sp(8, 3) + grow_block;
    block_gap = sp(6, 3);
    band_gap = sp(6, 3);
    // What a reader taps (token cells, layer rows, blocks) is never under a target's size, even where the
    // text shrinks to fit.
    token_h = std::max(token_h, min_target);
    row_h = std::max(row_h, min_target);
    block_h = std::max(block_h, min_target);
  }
};

// Band widths: log of capacity mapped onto [40 %, 100 %] of the width, one decade below the smallest tier
// at the low end so the smallest band keeps room for its block.
void band_widths(const Scene& sc, float width, float min_w, float out[4]) {
  double lo = 1e300, hi = 0;
  for (const TierSpec& t : sc.tiers) {
    const double c = std::max(t.capacity, 1.0);
    lo = std::min(lo, c);
    hi = std::max(hi, c);
  }
  const double llo = std::log10(lo) - 1.0, lhi = std::log10(hi);
  for (int i = 0; i < 4; ++i) {
    const double c = std::max(sc.tiers[static_cast<std::size_t>(i)].capacity, 1.0);
    const double t = lhi > llo ? (std::log10(c) - llo) / (lhi - llo) : 1.0;
    out[i] = std::min(width, std::max(min_w, width * static_cast<float>(0.4 + 0.6 * t)));
  }
  // Keep the order by capacity after the minimum-width clamp (ties stay ties).
  int order[4] = {0, 1, 2, 3};
  std::stable_sort(order, order + 4, [&](int a, int b) {
    return sc.tiers[static_cast<std::size_t>(a)].capacity < sc.tiers[static_cast<std::size_t>(b)].capacity;
  });
  for (int k = 1; k < 4; ++k) out[order[k]] = std::max(out[order[k]], out[order[k - 1]]);
}

// Stripe spacing from latency, log scale over five decades (1 ns … 100 µs): slow tiers get dense stripes.
float stripe_spacing(double latency, float s) {
  const double decades = std::log10(std::max(latency, 1e-10) / 1e-9);  // 0 at 1 ns, 5 at 100 µs
  const double t = std::clamp(decades / 5.0, 0.0, 1.0);
  return static_cast<float>((40.0 - 34.0 * t) * s);
}

// Block width from footprint: log scale from 1 MB (12 % of the band) to 10 TB (55 %), never narrower than
// its label.
float block_width(double bytes, float inner_w, float label_w) {
  const double t = std::clamp((std::log10(std::max(bytes, 1.0)) - 6.0) / 7.0, 0.0, 1.0);
  const float w = inner_w * static_cast<float>(0.12 + 0.43 * t);
  return std::min(inner_w, std::max(w, label_w));
}

// A block's label at the frame's text size, padded as the renderer pads it (8 px a side) plus a little slack.
float label_room(const char* text, const Metrics& m, const TextMetrics& tm) {
  return tm.width(text, tm.font_px * m.s) + 18 * m.s;
}

// The way to another node: the NIC the KV leaves by, then the decode node's HBM it lands in, side by side in
// `room` with space between them for the arrow.
void place_remote(const Metrics& m, const TextMetrics& tm, Rect room, Layout& out) {
  const float gap = 12 * m.s;
  // "NIC · RDMA" where it leaves the decode node's box the larger share, else "NIC" alone.
  const float px = tm.font_px * m.s, pad = 18 * m.s;
  const float full = tm.width("NIC · RDMA", px) + pad;
  const float nic_w = full <= room.w * 0.4f ? full : std::min(room.w * 0.4f, tm.width("NIC", px) + pad);
  const auto box = [&](Endpoint e, Rect r) {
    Item it;
    it.kind = Kind::Remote;
    it.index = static_cast<int>(e);
    it.rect = r;
    it.role = Role::Neutral;
    out.items.push_back(it);
  };
  box(Endpoint::Nic, {room.x, room.y, nic_w, room.h});
  box(Endpoint::PeerHbm, {room.x + nic_w + gap, room.y, room.w - nic_w - gap, room.h});
}

// Room for the way to another node beside the narrowest band (SRAM's, moved to the left edge), when its shortest
// names fit there: the two boxes then cost the canvas no height.
bool remote_fits_beside(const Metrics& m, const TextMetrics& tm, float width, float sram_w) {
  const float px = tm.font_px * m.s;
  const float need = tm.width("NIC", px) + tm.width("Decode HBM", px) + 2 * 18 * m.s + 2 * 12 * m.s;
  return width - sram_w >= need;
}

// Places the hierarchy's bands and blocks from y; returns the bottom.
float place_hierarchy(const Scene& sc, const Metrics& m, const TextMetrics& tm, float x0, float width, float y, Layout& out) {
  float bw[4];
  float min_w = 0;
  for (int i = 0; i < anim::kObjectCount; ++i) {
    const ObjectSpec& o = sc.objects[static_cast<std::size_t>(i)];
    if (o.present) min_w = std::max(min_w, label_room(block_label(static_cast<ObjectKind>(i), sc), m, tm) + 2 * m.band_pad);
  }
  // The band title ("Host DRAM") and a little of its figures.
  min_w = std::max(min_w, tm.width("Host DRAM", tm.font_px * m.s) + 6 * m.cw);
  band_widths(sc, width, min_w, bw);
  const bool beside = sc.remote && remote_fits_beside(m, tm, width, bw[0]);
  for (int b = 0; b < 4; ++b) {
    const float w = bw[b];
    Rect band{b == 0 && beside ? x0 : x0 + (width - w) * 0.5f, y, w, 0};
    const float inner_x = band.x + m.band_pad, inner_w = w - 2 * m.band_pad;
    BandInfo& info = out.bands[static_cast<std::size_t>(b)];
    info.tier = kTiers[b];
    info.capacity = sc.tiers[static_cast<std::size_t>(b)].capacity;
    info.latency = sc.tiers[static_cast<std::size_t>(b)].latency;
    info.stripe_spacing = stripe_spacing(info.latency, m.s);
    info.overflow = !sc.overflow[static_cast<std::size_t>(b)].empty();
    // HBM fills with the KV of the turns being served, DRAM and SSD with prefixes and histories.
    info.level_role = b == 0 ? Role::Neutral : object_role(b == 1 ? ObjectKind::GlobalKv : ObjectKind::PrefixCache, sc.fp4_kv);
    info.title = {inner_x, y + m.band_pad, inner_w, m.band_title_h};
    // Blocks flow left to right and wrap.
    float bx = inner_x, by = info.title.bottom();
    int rows = 0;
    for (int i = 0; i < anim::kObjectCount; ++i) {
      const ObjectSpec& o = sc.objects[static_cast<std::size_t>(i)];
      if (!o.present || o.tier != kTiers[b]) continue;
      const float label_w = label_room(block_label(static_cast<ObjectKind>(i), sc), m, tm);
      const float bwid = block_width(o.footprint, inner_w, label_w);
      if (rows == 0) rows = 1;
      if (bx > inner_x && bx + bwid > inner_x + inner_w + 0.01f) {
        bx = inner_x;
        by += m.block_h + m.block_gap;
        ++rows;
      }
      Item it;
      it.kind = Kind::Block;
      it.index = i;
      it.rect = {bx, by, bwid, m.block_h};
      it.role = o.role;
      out.items.push_back(it);
      bx += bwid + m.block_gap;
    }
    const float content = rows > 0 ? F(rows) * m.block_h + F(rows - 1) * m.block_gap : 0.0f;
    band.h = m.band_pad + m.band_title_h + content + m.band_pad;
    Item it;
    it.kind = Kind::Band;
    it.index = b;
    it.rect = band;
    it.role = Role::Neutral;
    out.items.push_back(it);
    if (b == 0 && beside) {
      const float x = band.right() + 12 * m.s;
      place_remote(m, tm, {x, band.y + m.band_pad, x0 + width - x, band.h - 2 * m.band_pad}, out);
    }
    y = band.bottom() + (b < 3 ? m.band_gap : 0.0f);
  }
  if (sc.remote && !beside) {
    // Too narrow to sit beside: a row of their own below the tiers.
    place_remote(m, tm, {x0, y + m.band_gap, width, m.block_h}, out);
    y += m.band_gap + m.block_h;
  }
  return y;
}

int count_block_rows(const Layout& out) {
  // Distinct block tops per band.
  int rows = 0;
  for (int b = 0; b < 4; ++b) {
    float last = -1;
    for (const Item& it : out.items) {
      if (it.kind != Kind::Block) continue;
      const Rect& band = out.find(Kind::Band, b)->rect;
      if (!it.rect.inside(band)) continue;
      if (it.rect.y != last) {
        ++rows;
        last = it.rect.y;
      }
    }
  }
  return rows;
}

// Places everything below the toolbar from `top`; returns the bottom of the content.
float place_schematic(const Scene& sc, const Metrics& m, const TextMetrics& tm, float x0, float width, float top, Layout& out) {
  out.items.clear();
  float y = top;
  // Token row.
  const float minor_title_h = m.drop_titles ? 0.0f : m.title_h;
  out.titles[static_cast<int>(TitleId::Tokens)] = {x0, y, m.drop_titles ? 0.0f : width, minor_title_h};
  y += minor_title_h;
  const int cells = std::clamp(static_cast<int>(width / (m.cw * 10)), 4, 12);
  const float cgap = 6 * m.s;
  const float cw = (width - F(cells - 1) * cgap) / F(cells);
  for (int c = 0; c < cells; ++c) {
    Item it;
    it.kind = Kind::Token;
    it.index = c;
    it.rect = {x0 + F(c) * (cw + cgap), y, cw, m.token_h};
    it.role = Role::Compute;
    out.items.push_back(it);
  }
  out.token_cells = cells;
  y += m.token_h + m.gap;

  // Layer stacks: encoder and decoder side by side, or one stack for decoder-only models.
  const float col_gap = 16 * m.s;
  const float col_w = sc.ced ? (width - col_gap) * 0.5f : width;
  const int dec_real = sc.layer_count - sc.enc_layers;
  out.encoder_rows = sc.ced ? drawn_rows(sc.enc_layers) : 0;
  out.decoder_rows = drawn_rows(dec_real);
  const float dec_x = sc.ced ? x0 + col_w + col_gap : x0;
  out.titles[static_cast<int>(TitleId::Encoder)] = sc.ced ? Rect{x0, y, col_w, m.title_h} : Rect{};
  out.titles[static_cast<int>(TitleId::Decoder)] = {dec_x, y, col_w, m.title_h};
  y += m.title_h;
  auto stack = [&](Kind kind, float x, int real, int first_real, int rows) {
    for (int r = 0; r < rows; ++r) {
      Item it;
      it.kind = kind;
      it.index = r;
      it.rect = {x, y + F(r) * (m.row_h + m.row_gap), col_w, m.row_h};
      it.role = Role::Compute;
      row_layers(real, rows, r, it.first_layer, it.last_layer);
      it.first_layer += first_real;
      it.last_layer += first_real;
      out.items.push_back(it);
    }
  };
  if (sc.ced) stack(Kind::EncoderLayer, x0, sc.enc_layers, 0, out.encoder_rows);
  stack(Kind::DecoderLayer, dec_x, dec_real, sc.enc_layers, out.decoder_rows);
  const int rows = std::max(out.encoder_rows, out.decoder_rows);
  y += F(rows) * m.row_h + F(std::max(0, rows - 1)) * m.row_gap + m.gap;

  // The final hidden stream.
  {
    Item it;
    it.kind = Kind::Stream;
    it.rect = {x0, y, width, m.stream_h};
    it.role = Role::Compute;
    out.items.push_back(it);
    y += m.stream_h + m.gap;
  }

  out.titles[static_cast<int>(TitleId::Hierarchy)] = {x0, y, m.drop_titles ? 0.0f : width, minor_title_h};
  y += minor_title_h;
  return place_hierarchy(sc, m, tm, x0, width, y, out);
}

// The schematic in out.schematic at the largest text that fits: measured at full size, spacing squeezed
// first, then everything (text included) shrunk until it fits; on tall canvases rows and blocks grow into
// the spare height.
struct Fit {
  Metrics m;
  float used = 0;
};
Fit fit_schematic(const Scene& sc, const TextMetrics& tm, Layout& out, float min_target) {
  const float x0 = out.schematic.x, width = out.schematic.w, top = out.schematic.y, avail = out.schematic.h;
  Metrics m;
  m.min_target = min_target;
  m.set(1.0f, 0.0f, tm);
  float used = place_schematic(sc, m, tm, x0, width, top, out) - top;
  if (used > avail + 0.5f) {
    m.set(1.0f, 1.0f, tm);
    used = place_schematic(sc, m, tm, x0, width, top, out) - top;
  }
  // Text size converges on the largest that fits (sizes are nearly proportional to it); dropping the minor
  // titles frees room, so the scale may then grow back a little.
  for (int i = 0; i < 8 && (used > avail + 0.5f || (m.drop_titles && used < avail * 0.97f && m.s < 1.0f)); ++i) {
    const float s = clampf(m.s * avail / used * 0.995f, 0.45f, 1.0f);
    m.drop_titles = m.drop_titles || s < 0.7f;
    m.set(s, 1.0f, tm);
    used = place_schematic(sc, m, tm, x0, width, top, out) - top;
  }
  for (int i = 0; i < 4 && used > avail + 0.5f; ++i) {
    m.set(std::max(0.45f, m.s * 0.97f), 1.0f, tm);
    used = place_schematic(sc, m, tm, x0, width, top, out) - top;
  }
  if (used < avail && m.tight == 0.0f) {
    const float spare = avail - used;
    const int rows = std::max(out.encoder_rows, out.decoder_rows);
    const int block_rows = std::max(1, count_block_rows(out));
    m.grow_row = std::min(spare * 0.35f / F(std::max(rows, 1)), m.lh * 0.9f);
    m.grow_block = std::min(spare * 0.45f / F(block_rows), m.lh * 1.2f);
    m.set(m.s, 0.0f, tm);
    used = place_schematic(sc, m, tm, x0, width, top, out) - top;
  }
  return {m, used};
}
// Targets of at least kMinTarget where the canvas has the height for them without costing the text much; a
// canvas too short for that (a small embed, a phone's sheet-sized schematic) keeps its text and everything on
// screen with shorter rows instead.
Fit fit_schematic(const Scene& sc, const TextMetrics& tm, Layout& out) {
  const Fit sized = fit_schematic(sc, tm, out, kMinTarget);
  const bool fits = sized.used <= out.schematic.h + 0.5f;
  if (fits && sized.m.s >= 0.8f) return sized;
  const Fit plain = fit_schematic(sc, tm, out, 0.0f);
  if (fits && sized.m.s >= 0.6f && sized.m.s >= plain.m.s - 0.1f) return fit_schematic(sc, tm, out, kMinTarget);
  return plain;
}

// The point a packet leaves from or arrives at.
void anchor(const Layout& out, const Scene& sc, Endpoint e, ObjectKind obj, float& x, float& y) {
  const Rect* r = nullptr;
  const int t = tier_index(e);
  if (t >= 0) {
    if (obj != ObjectKind::Count && sc.objects[static_cast<std::size_t>(obj)].present &&
        sc.objects[static_cast<std::size_t>(obj)].tier == e) {
      if (const Item* b = out.find(Kind::Block, static_cast<int>(obj))) r = &b->rect;
    }
    if (!r) r = &out.find(Kind::Band, t)->rect;
  } else if (e == Endpoint::Nic || e == Endpoint::PeerHbm) {
    if (const Item* it = out.find(Kind::Remote, static_cast<int>(e))) r = &it->rect;
  } else if (e == Endpoint::Stream) {
    r = &out.find(Kind::Stream, 0)->rect;
  } else if (e == Endpoint::Tokens) {
    // The row's middle: the first and last cells' span.
    const Rect& a = out.find(Kind::Token, 0)->rect;
    const Rect& b = out.find(Kind::Token, out.token_cells - 1)->rect;
    x = (a.x + b.right()) * 0.5f;
    y = a.cy();
    return;
  } else {
    const Kind k = (e == Endpoint::Encoder && sc.ced) ? Kind::EncoderLayer : Kind::DecoderLayer;
    const int rows = k == Kind::EncoderLayer ? out.encoder_rows : out.decoder_rows;
    // The first highlighted row of the stack, else the stack's middle row.
    const Item* pick = nullptr;
    for (int i = 0; i < rows && !pick; ++i) {
      const Item* row = out.find(k, i);
      if (row && row->highlighted) pick = row;
    }
    if (!pick) pick = out.find(k, rows / 2);
    if (pick) r = &pick->rect;
  }
  if (r) {
    x = r->cx();
    y = r->cy();
  }
}

// The packet hides no text: where it covers a label (not its own figure), it moves to the nearest place
// within the schematic that covers none, searched outwards along the row and the column through its centre,
// where its figure, placed again beside it, stays off the panels' area too.
void clear_packet(const Scene& sc, const anim::StepState& st, const TextMetrics& tm, Layout& out, const Occupancy& occ) {
  int own = -1;
  for (std::size_t i = 0; i < out.items.size(); ++i)
    if (out.items[i].kind == Kind::Packet) own = static_cast<int>(i);
  if (own < 0) return;
  const auto covers_text = [&](const Rect& r) {
    for (const Label& l : out.labels)
      if (l.item != own && l.width > 0 && r.overlaps(Rect{l.x(), l.y(), l.width, l.px})) return true;
    return false;
  };
  const Rect start = out.items[static_cast<std::size_t>(own)].rect;
  if (!covers_text(start)) return;
  const std::vector<Label> before = out.labels;
  const auto figure_clear = [&] {
    for (const Label& l : out.labels)
      if (l.item == own && out.dock.w > 0 && l.box.overlaps(out.dock)) return false;
    return true;
  };
  constexpr float kStep = 3;
  const float reach = std::max(out.schematic.w, out.schematic.h);
  for (float d = kStep; d <= reach; d += kStep) {
    const float offsets[4][2] = {{d, 0}, {-d, 0}, {0, -d}, {0, d}};
    for (const auto& o : offsets) {
      const Rect r{start.x + o[0], start.y + o[1], start.w, start.h};
      if (!r.inside(out.schematic) || covers_text(r)) continue;
      out.items[static_cast<std::size_t>(own)].rect = r;
      place_labels(sc, st, tm, out, occ);
      if (figure_clear()) return;
      out.labels = before;  // the text to keep clear of is the first placement's
    }
  }
  out.items[static_cast<std::size_t>(own)].rect = start;
  out.labels = before;
}

bool layers_hit(const anim::LayerSet& set, int first, int last) {
  for (int l = first; l <= last; ++l)
    if (set.has(l)) return true;
  return false;
}

}  // namespace

const char* kind_key(Kind k) {
  switch (k) {
    case Kind::Title: return "title";
    case Kind::Token: return "token";
    case Kind::EncoderLayer: return "encoder-layer";
    case Kind::DecoderLayer: return "decoder-layer";
    case Kind::Stream: return "stream";
    case Kind::Band: return "band";
    case Kind::Block: return "block";
    case Kind::Packet: return "packet";
    case Kind::Remote: return "remote";
    case Kind::Count: break;
  }
  return "";
}

const Item* Layout::find(Kind kind, int index) const {
  for (const Item& it : items)
    if (it.kind == kind && it.index == index) return &it;
  return nullptr;
}

const Item* Layout::hit(float x, float y) const {
  const Item* best = nullptr;
  int best_rank = 99;
  for (const Item& it : items) {
    if (!it.rect.contains(x, y)) continue;
    const int rank = it.kind == Kind::Packet ? 0 : it.kind == Kind::Block ? 1 : 2;
    if (rank < best_rank) {
      best = &it;
      best_rank = rank;
    }
  }
  return best;
}

std::string item_id(const Item& item) {
  std::string id = kind_key(item.kind);
  switch (item.kind) {
    case Kind::Stream:
    case Kind::Packet: return id;
    case Kind::Band: return id + ":" + anim::endpoint_key(kTiers[std::clamp(item.index, 0, 3)]);
    case Kind::Block: return id + ":" + anim::object_key(static_cast<ObjectKind>(item.index));
    case Kind::Remote: return id + ":" + anim::endpoint_key(static_cast<Endpoint>(item.index));
    default: return id + ":" + std::to_string(item.index);
  }
}

void compute_layout(const Scene& sc, const anim::StepState& st, Viewport vp, TextMetrics tm, Layout& out,
                    const Options& opt) {
  out.viewport = vp;
  out.flight = {};
  const float W = std::max(vp.width, 1.0f), H = std::max(vp.height, 1.0f);
  const float m0 = std::min(opt.margin, W * 0.03f);

  // Toolbar: one line of controls on wide canvases, two on narrow ones.
  const float line = tm.line_height + 10;
  // Controls and panel buttons on one line, the counters on the next unless the canvas is very wide.
  // Phones put the panel buttons on a line of their own.
  // Phones put the panel buttons on a line of their own, and drop the counters line when short (the page's
  // header lists the counters too).
  const int toolbar_lines = opt.host_playback ? 1 : W < 560 ? (H < 480 ? 2 : 3) : W < 1200 ? 2 : 1;
  out.toolbar = {m0, m0, W - 2 * m0, F(toolbar_lines) * line + F(toolbar_lines - 1) * 4};
  const float top = out.toolbar.bottom() + 8;

  // The panels' area is reserved, never laid over the schematic: a column on the right on wide canvases
  // (always from dock_min_canvas, so opening a panel there moves nothing), and on narrower ones only while a
  // panel is open: a column beside the schematic or a sheet below it, whichever leaves the schematic the
  // larger text (a column from side_min_canvas when they tie: the schematic keeps its height).
  const float full_h = std::max(1.0f, H - m0 - top);
  const float dock_w = clampf(W * 0.3f, 300, 440);
  const float min_beside = 340;  // narrowest schematic worth keeping beside a column
  const auto arrange = [&](DockSide side) {
    float x0 = m0, width = W - 2 * m0, avail = full_h;
    out.dock = {};
    out.dock_side = side;
    if (side == DockSide::Right) {
      out.dock = {W - m0 - dock_w, top, dock_w, full_h};
      width = out.dock.x - 16 - x0;
    } else if (side == DockSide::Bottom) {
      // The sheet takes what the schematic does not need at full size, within bounds.
      Metrics natural;
      natural.set(1.0f, 0.0f, tm);
      const float need = place_schematic(sc, natural, tm, x0, width, top, out) - top;
      const float sheet = clampf(full_h - need - 8, std::min(200.0f, full_h * 0.45f), full_h * 0.6f);
      out.dock = {m0, H - m0 - sheet, W - 2 * m0, sheet};
      avail = std::max(1.0f, out.dock.y - 8 - top);
    }
    if (width > kMaxContentWidth) {
      x0 += (width - kMaxContentWidth) * 0.5f;
      width = kMaxContentWidth;
    }
    out.schematic = {x0, top, width, avail};
    return fit_schematic(sc, tm, out);
  };
  Fit fit;
  if (W >= opt.dock_min_canvas) {
    fit = arrange(DockSide::Right);
  } else if (!opt.panel_open) {
    fit = arrange(DockSide::None);
  } else if (W - 2 * m0 - dock_w - 16 < min_beside) {
    fit = arrange(DockSide::Bottom);
  } else {
    const float below = arrange(DockSide::Bottom).m.s;
    const float beside = arrange(DockSide::Right).m.s;
    const bool prefer_beside = W >= opt.side_min_canvas ? beside >= below - 0.02f : beside > below + 0.02f;
    fit = prefer_beside ? arrange(DockSide::Right) : arrange(DockSide::Bottom);
  }
  out.text_scale = fit.m.s;
  // A sheet below takes whatever height the schematic left over.
  if (out.dock_side == DockSide::Bottom && top + fit.used + 8 < out.dock.y) {
    const float y = top + fit.used + 8;
    out.dock.h += out.dock.y - y;
    out.dock.y = y;
    out.schematic.h = fit.used;
  }

  // State: highlights, fills, the packet. Nothing below moves a rectangle.
  const anim::Highlight& hl = st.highlight;
  const Occupancy& occ = opt.occupancy;
  const bool any_layers = hl.layers.count() > 0;
  for (Item& it : out.items) {
    switch (it.kind) {
      case Kind::Token: it.highlighted = hl.has(Endpoint::Tokens); break;
      case Kind::EncoderLayer:
      case Kind::DecoderLayer: {
        const Endpoint side = it.kind == Kind::EncoderLayer ? Endpoint::Encoder : Endpoint::Decoder;
        const bool side_lit = hl.has(side) || (!sc.ced && hl.has(Endpoint::Encoder));
        it.highlighted = any_layers ? layers_hit(hl.layers, it.first_layer, it.last_layer) : side_lit;
        break;
      }
      case Kind::Stream: it.highlighted = hl.has(Endpoint::Stream); break;
      case Kind::Remote: it.highlighted = hl.has(static_cast<Endpoint>(it.index)); break;
      case Kind::Band: {
        it.highlighted = hl.has(kTiers[it.index]);
        const float level = occ.on ? occ.tier[static_cast<std::size_t>(it.index)] : -1.0f;
        it.fill = level >= 0 ? clampf(level, 0, 1) : -1.0f;
        break;
      }
      case Kind::Block: {
        const anim::ObjectState& o = st.objects[static_cast<std::size_t>(it.index)];
        const double fp = sc.objects[static_cast<std::size_t>(it.index)].footprint;
        it.highlighted = o.highlighted;
        it.fill = fp > 0 ? static_cast<float>(std::clamp(o.bytes / fp, 0.0, 1.0)) : 0.0f;
        const float level = occ.on ? occ.object[static_cast<std::size_t>(it.index)] : -1.0f;
        if (level >= 0) it.fill = clampf(level, 0, 1);
        break;
      }
      default: break;
    }
  }

  if (st.packet.active && st.steps > 0) {
    Flight& f = out.flight;
    f.active = true;
    f.from = st.packet.from;
    f.to = st.packet.to;
    f.object = st.packet.object;
    anchor(out, sc, f.from, f.object, f.x0, f.y0);
    anchor(out, sc, f.to, f.object, f.x1, f.y1);
    f.stays = std::fabs(f.x1 - f.x0) < 1 && std::fabs(f.y1 - f.y0) < 1;
    // Ease in and out so the packet leaves and lands gently.
    const float p = clampf(static_cast<float>(st.packet.progress), 0, 1);
    const float e = p * p * (3 - 2 * p);
    const float pw = std::max(fit.m.lh * 1.6f, kMinTarget), ph = std::max(fit.m.lh * 0.9f, kMinTarget);
    const float px = f.x0 + (f.x1 - f.x0) * e, py = f.y0 + (f.y1 - f.y0) * e;
    Item it;
    it.kind = Kind::Packet;
    it.rect = {px - pw * 0.5f, py - ph * 0.5f, pw, ph};
    it.role = f.object != ObjectKind::Count ? object_role(f.object, sc.fp4_kv) : Role::Compute;
    it.highlighted = true;
    out.items.push_back(it);
  }
  place_labels(sc, st, tm, out, occ);
  clear_packet(sc, st, tm, out, occ);
}

}  // namespace tierscope::layout
