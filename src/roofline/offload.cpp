// A prefix hit's reload: the scenario's path (its store and platform), each hop's rate at a load, the hops
// alone, the read from a tier, and the queue a server at a utilisation adds (offload.h).
#include "roofline/offload.h"

#include <algorithm>
#include <cmath>

#include "roofline/figures.h"

namespace tierscope::model {

ReloadPath reload_path(const Scenario& s, const Terms& t) {
  ReloadPath p;
  const StoreInfo& st = store_info(store_of(s));
  p.link_bw = t.host_bw;
  p.link_lat = t.host_lat;
  p.inst_gpus = std::max(1.0, std::min(t.gpus, t.node_gpus));
  p.node_gpus = std::max(1.0, t.node_gpus);
  // NVLink-C2C gives each GPU a link of its own into its Grace's memory: nothing to share on the way.
  p.switch_gpus = s.hw.host_link == HostLink::NvlinkC2c ? 1.0 : std::max(1.0, gpus_per_switch(s));
  p.mem_bw = host_mem_gbps(s) * 1e9 * kHostMemEfficiency;
  p.duplex = kDuplexShare;
  p.object_tokens = std::max(1.0, store_object_tokens(s));
  p.object_s = st.object_us * 1e-6;
  p.streams = std::max(1.0, st.streams);
  p.read_amp = std::max(1.0, st.read_amp);
  p.reader_bw = std::max(0.0, st.reader_gbps) * 1e9;
  p.rank_share = std::clamp(t.kv_share, 1.0 / p.inst_gpus, 1.0);
  // Where every rank holds the whole KV (a latent, or heads copied past kv_heads), a store whose ranks keep
  // their own copies keeps and reads one per rank.
  p.copies = st.rank_copies ? std::max(1.0, t.kv_share * t.tp) : 1.0;
  p.layerwise = st.layerwise;
  p.stalls_step = st.stalls_step;
  p.remote_dram = st.remote_dram;
  p.remote_ssd = st.remote_ssd;
  p.nic_bw = t.nic_bw;
  p.nic_lat = t.rdma_lat;
  p.drive_bw = t.ssd_bw;
  p.ssd_lat = t.ssd_lat;
  p.instances = t.gpus <= t.node_gpus ? std::max(1.0, std::floor(t.node_gpus / t.gpus)) : 1.0;
  p.layers = std::max(1.0, t.layers);
  return p;
}

ReloadRates reload_rates(const ReloadPath& p, double load) {
  const double rho = std::clamp(load, 0.0, 1.0);
  ReloadRates r;
  // One instance's GPUs behind a switch load together; the switch's other GPUs belong to other instances.
  const double same = std::min(p.switch_gpus, p.inst_gpus);
  r.switch_sharers = same + (p.switch_gpus - same) * rho;
  r.mem_sharers = p.inst_gpus + std::max(0.0, p.node_gpus - p.inst_gpus) * rho;
  r.drive_sharers = 1 + (p.instances - 1) * rho;
  // Offloads of freshly computed KV run the other way on the same links `load` of the time.
  r.duplex = 1 - rho * (1 - p.duplex);
  const double link = p.link_bw * r.duplex;
  const double uplink = p.link_bw / r.switch_sharers;
  const double mem = p.mem_bw > 0 ? p.mem_bw / r.mem_sharers : link;
  r.up = std::min({link, uplink, mem});
  // Each instance's share of the node's drives, and of host memory, which the drives write into.
  const double mem_inst = p.mem_bw > 0 ? p.mem_bw * p.inst_gpus / r.mem_sharers : HUGE_VAL;
  const double nics = p.nic_bw * p.inst_gpus;
  r.drives = p.remote_ssd ? std::min(nics, mem_inst) : std::min(p.drive_bw / r.drive_sharers, mem_inst);
  // A store whose ranks each read their own share of a hit one object after another moves it no faster than
  // one reader moves a share, however fast the drives: TP ranks splitting the heads read in parallel, ranks
  // each holding the whole latent each read all of it.
  const double readers = p.reader_bw / std::max(1e-9, p.rank_share);
  if (!p.remote_ssd && readers > 0 && readers < r.drives) {
    r.drives = readers;
    r.reader_bound = true;
  }
  r.nic = std::min(nics, mem_inst);
  return r;
}

ReloadHops reload_hops(const ReloadPath& p, double tokens, double bytes, double gpu_bytes, double load) {
  ReloadHops h;
  h.rates = reload_rates(p, load);
  if (!(tokens > 0) || !(bytes > 0)) return h;
  const double extra = p.extra_per_token * tokens;
  const double node = (bytes + extra) * p.copies;
  h.objects = std::ceil(tokens / p.object_tokens) * p.copies;
  h.read_bytes = node * p.read_amp;
  const double lat = p.remote_ssd ? p.nic_lat : p.ssd_lat;
  h.ssd = lat + std::ceil(h.objects / p.streams) * p.object_s + h.read_bytes / h.rates.drives;
  // A GPU's bytes grow with the store's extra bytes in the same share as its cache's.
  const double gpu = gpu_bytes + (bytes > 0 ? extra * gpu_bytes / bytes : 0.0);
  h.node_bytes = node;
  h.gpu_bytes = gpu;
  if (p.remote_dram) h.fetch = p.nic_lat + std::ceil(h.objects / p.streams) * p.object_s + node / h.rates.nic;
  h.up = h.fetch + p.link_lat + gpu / h.rates.up;
  return h;
}

double reload_time(const ReloadHops& h, PrefixTier from) {
  switch (from) {
    case PrefixTier::Hbm: return 0.0;
    case PrefixTier::Dram: return h.up;
    case PrefixTier::Ssd:
    case PrefixTier::Auto:
    case PrefixTier::Count: break;
  }
  return h.ssd + h.up;
}

HitService hit_service(const ReloadPath& p, const ReloadHops& h, PrefixTier from, double rest) {
  HitService s;
  const double read = reload_time(h, from);
  s.path = read;
  if (read <= 0) {
    s.latency = s.gpu = rest;
    return s;
  }
  const double staged = from == PrefixTier::Ssd ? h.ssd : 0.0;  // staged in DRAM before the upload starts
  const double up = read - staged;
  if (p.layerwise) {
    // Layer by layer: each layer's prefill waits for its KV, so the longer of the two runs with one layer
    // of the shorter in front (the pipeline's fill); the GPU waits on the loads it cannot hide.
    const double overlap = std::max(up, rest) + std::min(up, rest) / p.layers;
    s.latency = staged + overlap;
    s.gpu = overlap;
  } else if (p.stalls_step) {
    // The load runs inside the step: the GPU (and every request in its batch) waits for it.
    s.latency = read + rest;
    s.gpu = read + rest;
  } else {
    // Loaded beside the running batch: the request waits, the GPU serves others meanwhile.
    s.latency = read + rest;
    s.gpu = rest;
  }
  return s;
}

double queue_wait(double rho, double service) {
  if (!(rho > 0) || !(service > 0)) return 0.0;
  const double r = std::min(rho, kMaxUtilisation);
  return r * service / (2 * (1 - r));
}

}  // namespace tierscope::model
