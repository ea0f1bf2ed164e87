// Internal to src/anim: the context every path builder shares (figures, layer roles, entry helpers). Every
// duration comes from a model figure or the model's transfer rules (roofline/timing.h): nothing is re-timed here.
#pragma once

#include <string>
#include <string_view>

#include "anim/ledger.h"
#include "model/layers.h"
#include "model/scenario.h"
#include "roofline/figures.h"

namespace tierscope::anim::detail {

// Storage unit of DeepSeek's on-disk context cache: a hit must match whole 64-token units
// (FACTS §3, https://api-docs.deepseek.com/guides/kv_cache).
constexpr double kPrefixUnitTokens = 64;
constexpr const char* kPrefixUnitSource = "FACTS §3: https://api-docs.deepseek.com/guides/kv_cache (64-token storage unit)";
// Selected positions are stored as 4-byte ids; an assumption of this module, stated in every formula using it.
constexpr double kPositionBytes = 4;

class Builder {
 public:
  Builder(const model::Scenario& scenario, const model::Figures& figures, Ledger& ledger);

  const model::Scenario& s;
  const model::ModelArch& m;
  const model::Figures& f;
  const model::Values& v;
  const model::Terms& t;
  Ledger& out;
  model::KvSizes z;
  bool ced = false;  // causal encoder-decoder (enc_layers > 0)

  // Appends an entry laid after the previous one.
  LedgerEntry& add(std::string_view step, Endpoint from, Endpoint to, ObjectKind object, double duration);
  // Appends an entry lasting exactly `share` of a time figure; the formula shows the share when it is not 1.
  LedgerEntry& add_timed(std::string_view step, Endpoint from, Endpoint to, ObjectKind object, model::FigureId time,
                         double share = 1.0);
  // Bytes/time quoted from a figure: copies its provenance and sources; the formula is the caller's.
  void cite(LedgerEntry& e, model::FigureId id, std::string formula);
  const model::Figure& fig(model::FigureId id) const { return f[id]; }
  double val(model::FigureId id) const { return v[id]; }
  // "0.8 × 1.2 ms (decode.t_gather)" for a share, or the figure's own text.
  std::string share_text(model::FigureId time, double share) const;

  // Layer roles.
  Endpoint side(int layer) const { return ced && layer >= m.enc_layers ? Endpoint::Decoder : (ced ? Endpoint::Encoder : Endpoint::Decoder); }
  Endpoint prefill_side() const { return ced ? Endpoint::Encoder : Endpoint::Decoder; }
  model::LayerRead read(int layer) const { return model::layer_read(m, layer, s.work.ctx); }
  double ratio(int layer) const;
  LayerSet all_layers() const;
  LayerSet layers_where(bool (*pred)(const model::LayerRead&)) const;
  // A list of layer indices in words: "2, 8, 14" or "21–39".
  std::string layer_list(const LayerSet& set) const;
  Endpoint engram_home() const;
  // Residency every path starts from, per GPU for HBM (weights, and `sessions` sessions of `tokens`
  // context on this GPU's replica) and per node for host DRAM and SSD.
  void base_residency(double sessions, double tokens);
  // Chunked-local layers' KV of one session at `tokens` of context (each keeps at most its chunk), bytes
  // and the tokens of the longest chunk held; one session's recurrent state on this GPU (its heads' share).
  double chunk_bytes(double tokens) const;
  double chunk_tokens(double tokens) const;
  double state_on_gpu() const { return val(model::FigureId::KvRecurrentPerSession) * t.lin_share; }
  LayerSet linear_layers() const;
  // "1 session × " / "8 sessions × "
  static std::string sessions_x(double n);
};

// One builder per path (paths_*.cpp), named in its row of kPaths (ledger.h).

// Short text helpers over model::num / model::human.
std::string B(double bytes);
std::string S(double seconds);
std::string N(double value);
std::string FL(double flop);
// A figure formula quoted inside a product: "(12.67 kB = 2 layers × …)".
inline std::string paren(const std::string& formula) { return "(" + formula + ")"; }
// A number format's label ("BF16", "FP8 (per-tensor scale)").
std::string fmt_label(model::NumFormat f);
// Whether a layer keeps a sliding window (for layers_where).
bool has_win(const model::LayerRead& r);

// The KV-owning layers in [first, last]: bytes they store per token (main + index keys), Σ 1/ratio: who
// writes the prompt's KV (paths_token.cpp) and who appends the new token's (paths_decode.cpp).
struct Authoring {
  double per_token = 0;
  double idx_per_token = 0;  // of it, the index keys (Full layers)
  double rows = 0;
  LayerSet layers;
};
Authoring authoring(const Builder& b, int first, int last);

}  // namespace tierscope::anim::detail
