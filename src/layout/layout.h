// Canvas geometry as a pure function: from the scene (scenario + path), the state at a step, the viewport
// and text metrics to the rectangles the renderer draws and the inspector hit-tests. No GL, no ImGui.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "anim/ledger.h"
#include "anim/state.h"
#include "model/scenario.h"
#include "roofline/figures.h"

namespace tierscope::layout {

struct Rect {
  float x = 0, y = 0, w = 0, h = 0;
  float right() const { return x + w; }
  float bottom() const { return y + h; }
  float cx() const { return x + w * 0.5f; }
  float cy() const { return y + h * 0.5f; }
  bool contains(float px, float py) const { return px >= x && px < x + w && py >= y && py < y + h; }
  // Interiors intersect (touching edges do not count).
  bool overlaps(const Rect& o) const { return x < o.right() && o.x < right() && y < o.bottom() && o.y < bottom(); }
  bool inside(const Rect& o) const { return x >= o.x && y >= o.y && right() <= o.right() && bottom() <= o.bottom(); }
  bool operator==(const Rect&) const = default;
};

struct Viewport {
  float width = 0, height = 0;  // CSS pixels
};

// Measured by the caller from its font (CSS pixels). Labels are chosen with `measure` (the app passes its
// font's own advance widths); without one, widths are estimated from the average character width.
struct TextMetrics {
  float line_height = 18;  // height of one line of text at font_px
  float char_width = 7.5f; // average advance of one character at font_px
  float font_px = 15;      // the size the two above were measured at
  // The caller's measure: width of `text` at `px` CSS px (`ctx` is passed back as given); null: estimate.
  float (*measure)(const void* ctx, std::string_view text, float px) = nullptr;
  const void* measure_ctx = nullptr;

  // Width of `text` at `px` CSS pixels.
  float width(std::string_view text, float px) const;
};

// Colour role of an item, matching the legend.
enum class Role : std::uint8_t { Neutral, Compute, Shared, Swa, Fp4, Count };
const char* role_key(Role r);  // "neutral", "compute", "shared", "swa", "fp4"
// The legend role of a state object (global KV is "FP4 stored values" only when stored in FP4).
Role object_role(anim::ObjectKind o, bool fp4_kv);
struct Scene;
// The short name a block shows, naming what the model has (a dense model's weights are not "MoE weights");
// its width sets the block's minimum width.
const char* block_label(anim::ObjectKind o, const Scene& scene);

enum class Kind : std::uint8_t {
  Title,         // a section title (text only)
  Token,         // one cell of the token row (index: cell)
  EncoderLayer,  // one drawn row of the causal encoder (index: row; layers first..last)
  DecoderLayer,  // one drawn row of the decoder (or of all layers for decoder-only models)
  Stream,        // the encoder's final hidden stream H[t]
  Band,          // one memory tier (index: tier 0..3 = SRAM, HBM, DRAM, SSD)
  Block,         // one state object inside its tier (index: ObjectKind)
  Packet,        // the move in flight (index 0)
  Remote,        // beyond this node's tiers (index: its anim::Endpoint): the NIC, the decode node's HBM
  Count
};
const char* kind_key(Kind k);  // "title", "token", "encoder-layer", ...

enum class TitleId : std::uint8_t { Tokens, Encoder, Decoder, Hierarchy, Count };

struct Item {
  Kind kind = Kind::Title;
  int index = 0;
  Rect rect;
  Role role = Role::Neutral;
  bool highlighted = false;
  float fill = 1;       // blocks: resident bytes / footprint, [0, 1]; bands: occupancy in the fleet view
                        // ([0, 1]; below 0 when no level is shown)
  int first_layer = -1; // layer rows: the real layers the row stands for
  int last_layer = -1;
};

// A tier band's drawing facts beyond its rectangle.
struct BandInfo {
  anim::Endpoint tier = anim::Endpoint::Sram;
  double capacity = 0;        // bytes (whole node)
  double latency = 0;         // seconds
  float stripe_spacing = 0;   // px between stripes: smaller = denser = slower tier
  Rect title;                 // the band's own title line
  bool overflow = false;      // the setup cannot run because this tier is too small: drawn in the alert colour
  Role level_role = Role::Neutral;  // the fleet view's level is a tint of what fills the tier (KV, prefixes)
};

// The arrow and the packet of the move in flight.
struct Flight {
  bool active = false;
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // source and destination anchors
  bool stays = false;                     // source and destination are the same place (a pulse, no arrow)
  anim::Endpoint from = anim::Endpoint::Hbm, to = anim::Endpoint::Hbm;
  anim::ObjectKind object = anim::ObjectKind::Count;
};

// What stays fixed while one path plays: built once per (scenario, ledger).
struct ObjectSpec {
  bool present = false;       // lives in a tier (the token row and hidden stream do not)
  anim::Endpoint tier = anim::Endpoint::Hbm;
  double footprint = 0;       // largest resident bytes (or reserved capacity) over the path
  Role role = Role::Neutral;
};
struct TierSpec {
  double capacity = 0;  // bytes
  double latency = 0;   // seconds
};
struct Scene {
  int layer_count = 0;
  int enc_layers = 0;   // 0: decoder-only (one stack of all layers)
  bool ced = false;     // causal encoder-decoder
  std::array<model::LayerMode, model::kMaxLayers> modes{};
  // What names a layer beyond its mode: its compression ratio (a KV owner's) and its own window or chunk.
  std::array<std::int32_t, model::kMaxLayers> ratios{};
  std::array<std::int32_t, model::kMaxLayers> spans{};
  bool cand_pool = false;  // a candidate pool bounds later indexers (V4.1's CSA2); without one a compressed
                           // Full layer is V4's CSA and a compressed Dense layer its HCA
  std::array<TierSpec, 4> tiers{};
  std::array<ObjectSpec, anim::kObjectCount> objects{};
  int prompt_tokens = 0;
  bool fp4_kv = false;  // global KV stored in an FP4 format
  bool moe = false;     // the feed-forward weights are experts
  model::AttnKind attn = model::AttnKind::Latent;  // names the KV block: global KV, MLA latent, KV cache
  // A setup that cannot run: per tier, what overflows it, longest wording first ("" when it fits), and
  // the reasons that are no tier's (a context beyond the model's positions), for the token row.
  std::array<std::vector<std::string>, 4> overflow{};
  std::vector<std::string> cannot_run;
  bool remote = false;  // the path hands KV to another node: a NIC and the decode node's HBM are drawn below the tiers
};
Scene make_scene(const model::Scenario& s, const model::Figures& f, const anim::Ledger& ledger);

// How many rows a stack of `real` layers is drawn with (5, or fewer when the stack is smaller).
constexpr int kDrawnLayers = 5;
int drawn_rows(int real);
// The real layers [first, last] that drawn row `row` of `rows` stands for, in a stack of `real` layers.
void row_layers(int real, int rows, int row, int& first, int& last);

// What a fleet run holds at one moment, as shares of each tier's room (0 to 1; below 0: not shown), with
// the words the labels say. With `on`, each band shows its share as a level filling it from the left, and
// the blocks named by `object` show theirs in place of the path's; rectangles never depend on any of it.
struct Occupancy {
  bool on = false;
  std::array<float, 4> tier{-1, -1, -1, -1};  // SRAM, HBM, DRAM, SSD
  std::array<float, anim::kObjectCount> object = filled(-1);
  // Label words, longest first: in place of a band's capacity · latency, and of a block's resident bytes.
  std::array<std::vector<std::string>, 4> tier_text{};
  std::array<std::vector<std::string>, anim::kObjectCount> object_text{};

  static constexpr std::array<float, anim::kObjectCount> filled(float v) {
    std::array<float, anim::kObjectCount> a{};
    for (float& x : a) x = v;
    return a;
  }
};

struct Options {
  float dock_min_canvas = 1100;  // canvas widths from here up always keep a panel column
  float side_min_canvas = 720;   // from here up an open panel gets a column; narrower, a sheet below
  float margin = 12;
  bool panel_open = false;       // a panel has something to show: the layout reserves room for it
  // The page around the canvas already shows playback and status (host_playback) and the counters
  // (host_counters). With the first, the toolbar is one line: the panel buttons, then the counters that
  // fit, unless the page shows those too.
  bool host_playback = false;
  bool host_counters = false;
  Occupancy occupancy;           // the fleet view: tiers fill with a run's occupancy
};

// Where the panels sit: beside the schematic, below it, or nowhere (no panel open on a narrow canvas).
enum class DockSide : std::uint8_t { None, Right, Bottom };
const char* dock_side_key(DockSide d);  // "none", "right", "bottom"

// Text the canvas draws, fitted by the layout: `text` is the longest wording that fits `box` at `px`
// (a shorter wording rather than a cut one; nothing when not even the shortest fits).
enum class Tone : std::uint8_t { OnItem, Text, Muted, Alert };
enum class Align : std::uint8_t { Left, Centre, Right };
struct Label {
  std::string text;
  Rect box;            // the room the text was fitted into; the renderer places it inside
  float px = 15;       // font size, CSS px
  float width = 0;     // measured width of `text` at `px`
  Align align = Align::Left;
  Tone tone = Tone::OnItem;
  int item = -1;       // index into Layout::items whose colours the text takes (OnItem), or -1
  float x() const { return align == Align::Left ? box.x : align == Align::Right ? box.right() - width : box.cx() - width * 0.5f; }
  float y() const { return box.y + (box.h - px) * 0.5f; }
};

struct Layout {
  Viewport viewport;
  float text_scale = 1;  // < 1 when the viewport is too short for full-size text
  Rect toolbar;          // status strip with counters and panel buttons (ImGui)
  Rect dock;             // the panels' area, beside or below the schematic (w == 0: none)
  DockSide dock_side = DockSide::None;
  Rect schematic;        // the area the schematic items live in (never overlaps the dock)
  std::vector<Item> items;
  std::vector<Label> labels;
  std::array<BandInfo, 4> bands{};
  std::array<Rect, static_cast<int>(TitleId::Count)> titles{};
  Flight flight;
  int encoder_rows = 0, decoder_rows = 0, token_cells = 0;

  // First item of a kind and index, or nullptr.
  const Item* find(Kind kind, int index) const;
  // Topmost item under a point (packet, then blocks, then everything else), or nullptr.
  const Item* hit(float x, float y) const;
};

// The whole canvas for one frame. Rectangles depend only on (scene, viewport, metrics, options): the state
// decides highlights, fills and the packet, never where anything sits.
void compute_layout(const Scene& scene, const anim::StepState& state, Viewport vp, TextMetrics tm, Layout& out,
                    const Options& opt = {});

// Stable id of an item for the page and tests: "block:global-kv", "band:hbm", "encoder-layer:2", "packet",
// "remote:nic", "remote:peer-hbm".
std::string item_id(const Item& item);

// The first of `variants` (longest first) whose width at `px` fits `max_w`, or "" when none does.
std::string fit_variant(const TextMetrics& tm, float px, float max_w, std::initializer_list<std::string> variants);
// A memory tier's short name (tier 0..3, clamped): "GPU SRAM", "GPU HBM", "Host DRAM", "NVMe SSD" — the
// band's title on the canvas and its name in the inspector.
const char* tier_short_name(int tier);
// The layers a row stands for, in words: "layer 3" or "layers 3–5".
std::string layers_text(int first, int last);
// A layer row's short label spelled out: "S×2 F U = SWA-only ×2, Full, Reuse. S: …; F: …; U: …" — each
// letter in the row with what that kind of layer keeps and reads (tooltips, the inspector, the page). Layers
// of one mode that differ in what they keep are told apart: V4's CSA and HCA (compressed Full and Dense layers
// without a candidate pool), a window or chunk of the layer's own ("S512", "C8192"), linear layers ("L").
std::string mode_key(const Scene& sc, int first, int last);
// The kind of layer `l` in the row's words: its letters ("F", "CSA", "S512") and its name ("Full", "CSA",
// "SWA-only 512").
std::string layer_kind_letters(const Scene& sc, int l);
std::string layer_kind_name(const Scene& sc, int l);

// The canvas's text for a laid-out frame (labels of titles, tokens, layer rows, the stream, bands, blocks
// and the packet), each the longest wording that fits its room. Called by compute_layout.
void place_labels(const Scene& scene, const anim::StepState& state, const TextMetrics& tm, Layout& out,
                  const Occupancy& occupancy = {});

}  // namespace tierscope::layout
