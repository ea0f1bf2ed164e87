// Inside the layout room (not its face, layout.h): the sizes that scale with the text, and the memory
// hierarchy's placement (hierarchy.cpp) that compute_layout (layout.cpp) calls.
#pragma once

#include <algorithm>

#include "layout/layout.h"

namespace tierscope::layout::detail {

inline constexpr anim::Endpoint kTiers[4] = {anim::Endpoint::Sram, anim::Endpoint::Hbm, anim::Endpoint::Dram, anim::Endpoint::Ssd};
inline constexpr float kMinTarget = 24;  // the least a finger or a pointer should have to hit, CSS px

inline float F(int v) { return static_cast<float>(v); }

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

// Places the hierarchy's bands and blocks (and the remote tier beside or below them) from y; returns the bottom.
float place_hierarchy(const Scene& sc, const Metrics& m, const TextMetrics& tm, float x0, float width, float y, Layout& out);
// The rows of blocks the bands hold (distinct block tops per band), for the fit's arithmetic.
int count_block_rows(const Layout& out);

}  // namespace tierscope::layout::detail
