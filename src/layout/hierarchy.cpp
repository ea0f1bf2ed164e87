// The memory hierarchy's placement: the four tier bands (widths from their capacities, stripes from their
// latencies), the blocks of state in them, and the remote tier beside or below them.
#include <algorithm>
#include <cmath>

#include "layout/metrics.h"

namespace tierscope::layout::detail {

using anim::Endpoint;
using anim::ObjectKind;

namespace {

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

}  // namespace

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

}  // namespace tierscope::layout::detail
