// The one rule for a prefix hit's reload into HBM: the path it climbs from its tier (the node's drives or a
// storage pool, host DRAM, the GPU's host link) with what each hop shares (a PCIe switch's uplink, the node's
// host memory, the drives, the other direction's offloads) and the store's own costs (a fixed cost per
// stored object, copies per rank, read amplification). The figures, the fleet simulator, the serving replay
// and the ledger all time reloads with these functions, so a hit can never be timed two ways.
#pragma once

#include "model/kv_store.h"
#include "model/scenario.h"

namespace tierscope::model {

// What a reload of one instance's hit climbs on the scenario's platform and store.
struct ReloadPath {
  // Host DRAM → HBM, per GPU: its host link's DMA rate and latency, and what the link shares.
  double link_bw = 0, link_lat = 0;
  double switch_gpus = 1;   // GPUs behind the link's PCIe switch uplink (which runs at one link's rate)
  double inst_gpus = 1;     // GPUs of one instance (they load their shares of a hit at once)
  double node_gpus = 1;     // GPUs of the node drawing on its host memory
  double mem_bw = 0;        // the node's host memory, achieved
  double duplex = 1;        // share of one direction a link keeps while offloads run the other way
  // The store below DRAM.
  double object_tokens = 64;  // tokens per stored object
  double object_s = 0;        // fixed cost per object read
  double streams = 1;         // objects read at once
  double read_amp = 1;        // bytes read per byte used
  double reader_bw = 0;       // one rank's serial reader of the SSD tier (0: the drives set the rate)
  double rank_share = 1;      // share of a hit one rank holds, and so reads (1/TP for heads split, 1 for a latent)
  double copies = 1;          // copies of a hit the store keeps and reads (one per rank where ranks keep their own)
  bool layerwise = false;     // DRAM → HBM runs layer by layer beside the prefill of the rest
  bool stalls_step = false;   // the load runs inside the batch's step
  bool remote_dram = false;   // DRAM tier on other nodes: the hit comes over the NICs into host DRAM first
  bool remote_ssd = false;    // SSD tier on a storage cluster: read over the NICs
  double nic_bw = 0, nic_lat = 0;  // per GPU
  double drive_bw = 0, ssd_lat = 0;  // the node's drives together, and one I/O's latency
  double instances = 1;       // instances per node sharing its drives and host memory
  double layers = 1;          // layers a layer-wise load fills one at a time
  double extra_per_token = 0; // bytes per hit token the store keeps beyond the cache's own (full-length windows)
};

// Each shared resource's rate at `load` (the share of time an instance is prefilling or loading): the GPUs
// of one instance always load together; another instance's GPUs join them `load` of the time.
struct ReloadRates {
  double up = 0;           // DRAM → HBM per GPU
  double drives = 0;       // SSD → DRAM for one instance (or the storage pool over its NICs)
  double nic = 0;          // a remote DRAM pool → host DRAM for one instance
  double switch_sharers = 1, mem_sharers = 1, drive_sharers = 1;
  bool reader_bound = false;  // SSD → DRAM runs at the ranks' serial readers' rate, below the drives'
  double duplex = 1;       // the share of the link's rate left by offloads running the other way
};
ReloadRates reload_rates(const ReloadPath& p, double load);

// A hit's two hops alone (no queue): `tokens` tokens whose KV is `bytes` on the node (one copy) and
// `gpu_bytes` on each GPU of the instance.
struct ReloadHops {
  double ssd = 0;          // SSD (or pool) → host DRAM: latency, objects in rounds of `streams`, bytes read ÷ rate
  double up = 0;           // host DRAM → HBM: latency + a GPU's bytes ÷ its rate (a remote DRAM pool first over the NICs)
  double objects = 0;      // objects read from the SSD tier
  double read_bytes = 0;   // bytes read from the SSD tier
  double fetch = 0;        // of `up`, the remote pool's hop over the NICs (0 for local DRAM)
  double node_bytes = 0;   // the hit as the store keeps it on the node (its copies, full-length windows)
  double gpu_bytes = 0;    // what each GPU of the instance uploads
  ReloadRates rates;
};
ReloadHops reload_hops(const ReloadPath& p, double tokens, double bytes, double gpu_bytes, double load);
// The read into HBM from the tier that holds the hit: nothing, the upload, or both hops in turn (a store
// stages an SSD hit in DRAM before it goes up).
double reload_time(const ReloadHops& h, PrefixTier from);

// The engine's prefill with the read: what a request waits from its start to its first token, and how long
// it holds the GPU, when its hit comes from `from` and the rest prefills in `rest` seconds.
struct HitService {
  double latency = 0;  // the request alone: the read (exposed) plus the rest
  double gpu = 0;      // the GPU's busy time for it
  double path = 0;     // the load path's busy time for it
};
HitService hit_service(const ReloadPath& p, const ReloadHops& h, PrefixTier from, double rest);

// An M/D/1 queue's mean wait: utilisation rho, service s (rho held below kMaxUtilisation: beyond it the
// server cannot keep up and the wait is that of a queue at the edge).
constexpr double kMaxUtilisation = 0.98;
double queue_wait(double rho, double service);

// The reload path of a scenario at its layout (the figures fill Terms::reload with it).
struct Terms;
ReloadPath reload_path(const Scenario& s, const Terms& t);

}  // namespace tierscope::model
