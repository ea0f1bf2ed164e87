// Every chart kind once: its link key (view=chart-<key>), its tab's name and what it is drawn from, and the
// lookups the links, the CLI and the page make of it.
#include "charts/charts.h"

#include <cstdint>
#include <iterator>
#include <string>

namespace tierscope::model {

namespace {

// What a chart is drawn from: the scenario's figures, a finished fleet run, one serving replay per point, or
// one serving replay (the page's Serve panel draws that one, not the Charts panel).
enum class ChartSource : std::uint8_t { Figures, Fleet, Replays, Serve };

// Every chart kind once, in ChartKind's order: its link key (view=chart-<key>), its tab's name, its source.
struct ChartRow {
  ChartKind kind;
  const char* key;
  const char* label;
  ChartSource source;
};
constexpr ChartRow kCharts[] = {
    {ChartKind::Roofline, "roofline", "Roofline", ChartSource::Figures},
    {ChartKind::Sweep, "sweep", "Sweep", ChartSource::Figures},
    {ChartKind::Breakdown, "breakdown", "Where the time goes", ChartSource::Figures},
    {ChartKind::FleetOccupancy, "fleet-occupancy", "Occupancy over the run", ChartSource::Fleet},
    {ChartKind::FleetHits, "fleet-hits", "Hit rates by hour", ChartSource::Fleet},
    {ChartKind::FleetSweep, "fleet-sweep", "Hit rate against capacity", ChartSource::Fleet},
    {ChartKind::Frontier, "frontier", "Frontier", ChartSource::Replays},
    {ChartKind::ServeLatency, "serve-latency", "Latency by percentile", ChartSource::Serve},
};
static_assert(std::size(kCharts) == static_cast<std::size_t>(ChartKind::Count));
constexpr bool charts_in_order() {
  for (std::size_t i = 0; i < std::size(kCharts); ++i)
    if (static_cast<std::size_t>(kCharts[i].kind) != i) return false;
  return true;
}
static_assert(charts_in_order(), "kCharts lists the kinds in ChartKind's order");

const ChartRow* chart_row(ChartKind k) {
  const auto i = static_cast<std::size_t>(k);
  return i < std::size(kCharts) ? &kCharts[i] : nullptr;
}
bool chart_from(ChartKind k, ChartSource s) {
  const ChartRow* r = chart_row(k);
  return r && r->source == s;
}

}  // namespace

const char* chart_key(ChartKind k) {
  const ChartRow* r = chart_row(k);
  return r ? r->key : "";
}

bool is_fleet_chart(ChartKind k) { return chart_from(k, ChartSource::Fleet); }

bool is_replay_chart(ChartKind k) { return chart_from(k, ChartSource::Replays); }

bool is_serve_chart(ChartKind k) { return chart_from(k, ChartSource::Serve); }

std::string chart_keys_text() {
  std::string s;
  for (const ChartRow& r : kCharts) s += (s.empty() ? "" : ", ") + std::string(r.key);
  return s;
}

const char* chart_label(ChartKind k) {
  const ChartRow* r = chart_row(k);
  return r ? r->label : "";
}

bool chart_from_key(std::string_view key, ChartKind& out) {
  for (const ChartRow& r : kCharts) {
    if (key == r.key) {
      out = r.kind;
      return true;
    }
  }
  return false;
}

}  // namespace tierscope::model
