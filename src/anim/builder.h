// Internal to src/anim: the context every path builder shares (figures, rates, layer roles, entry helpers).
#pragma once

#include <string>
#include <string_view>

#include "anim/ledger.h"
#include "model/figures.h"
#include "model/scenario.h"

namespace tierscope::anim::detail {

// What one layer reads in one decode step for one session, split the way compute_values() splits it, so
// the per-layer figures add up to the model's totals (tests hold them to that).
struct LayerRead {
  model::LayerMode mode = model::LayerMode::SwaOnly;
  int source = -1;       // the KV-owning layer whose cache it reads
  double rows = 0;       // rows in that cache at the context length (ctx / ratio)
  double fullpool = 0;   // index keys scanned over the whole pool
  double pool = 0;       // index keys scored inside the HSI candidate pool
  double gather = 0;     // selected main rows gathered
  double dense = 0;      // all main rows read (dense attention)
  double window = 0;     // SWA window rows read
  bool pool_scorer = false;
  double total() const { return fullpool + pool + gather + dense + window; }
};

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

  // Rates and latencies in base units.
  double lat_hbm = 0, lat_sram = 0, lat_ssd = 0, lat_rdma = 0, host_lat = 0;
  double bw_total = 0, host_bw = 0, ssd_bw = 0, nic_bw = 0, pflops = 0;
  double batch = 1, ctx = 1, prompt = 0;
  bool ced = false;  // causal encoder-decoder (enc_layers > 0)

  // Appends an entry laid after the previous one.
  LedgerEntry& add(std::string_view step, Endpoint from, Endpoint to, ObjectKind object, double duration);
  // Bytes/time quoted from a figure: copies its provenance and sources; formula starts with the figure's.
  void cite(LedgerEntry& e, model::FigureId id, std::string formula);
  const model::Figure& fig(model::FigureId id) const { return f[id]; }
  double val(model::FigureId id) const { return v[id]; }

  // Layer roles.
  Endpoint side(int layer) const { return ced && layer >= m.enc_layers ? Endpoint::Decoder : (ced ? Endpoint::Encoder : Endpoint::Decoder); }
  Endpoint prefill_side() const { return ced ? Endpoint::Encoder : Endpoint::Decoder; }
  LayerRead layer_read(int layer) const;
  double ratio(int layer) const;
  // Layers that pick a fresh top-k (Full + Reindex).
  int selecting_layers() const;
  LayerSet all_layers() const;
  LayerSet layers_where(bool (*pred)(const LayerRead&)) const;
  // A list of layer indices in words: "2, 8, 14" or "21–39".
  std::string layer_list(const LayerSet& set) const;
  // Engram row reads from wherever the tables live.
  Endpoint engram_home() const;
  double engram_time(double bytes) const;
  std::string engram_time_formula(double bytes) const;
  // Residency every path starts from: weights and tables in place, `sessions` sessions of `tokens` context.
  void base_residency(double sessions, double tokens);
  // A step inside one kernel: shown at the SRAM latency.
  std::string kernel_formula() const;
};

// One builder per path (paths_*.cpp).
void build_prefill(Builder& b);
void build_decode(Builder& b);
void build_engram(Builder& b);
void build_csa2_modes(Builder& b);
void build_swa_resume(Builder& b);
void build_prefix_cache(Builder& b);
void build_step_budget(Builder& b);

// Short text helpers over model::num / model::human.
std::string B(double bytes);
std::string S(double seconds);
std::string N(double value);
std::string FL(double flop);
// A figure formula quoted inside a product: "(12.67 kB = 2 layers × …)".
inline std::string paren(const std::string& formula) { return "(" + formula + ")"; }

}  // namespace tierscope::anim::detail
