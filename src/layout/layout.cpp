// compute_layout(): places the toolbar, the docked panel column, the token row, the encoder and decoder
// schematics, H[t], the four tier bands and the blocks in them; then the state's highlights and packet.
//
// Sections: the schematic (token row, encoder, H[t], decoder) and its fit · where a move starts and ends
// (anchor), the packet's room · kind keys, find and hit, item ids · compute_layout. The sizes that scale with
// the text: metrics.h; the hierarchy's bands and blocks: hierarchy.cpp.
#include <algorithm>
#include <cmath>

#include "layout/layout.h"
#include "layout/metrics.h"

namespace tierscope::layout {

using anim::Endpoint;
using anim::ObjectKind;

namespace {

using detail::F;
using detail::kMinTarget;
using detail::kTiers;
using detail::Metrics;

constexpr float kMaxContentWidth = 1600;  // wider screens centre the schematic instead of stretching rows

int tier_index(Endpoint e) { return anim::is_tier(e) ? static_cast<int>(e) : -1; }

float clampf(float v, float lo, float hi) { return std::max(lo, std::min(hi, v)); }

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
  return detail::place_hierarchy(sc, m, tm, x0, width, y, out);
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
    const int block_rows = std::max(1, detail::count_block_rows(out));
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
