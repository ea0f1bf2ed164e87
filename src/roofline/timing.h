// The one timing rule for each kind of transfer. The figures and the animation ledger both call these, so
// the same move can never be timed two ways.
#pragma once

#include "roofline/figures.h"

namespace tierscope::model {

// Bytes moved within one GPU's HBM: bytes / (bandwidth × MBU).
inline double hbm_transfer_time(const Terms& t, double bytes) { return bytes / t.bw; }
// Host DRAM ↔ one GPU over the host link: DMA latency + bytes / link.
inline double host_transfer_time(const Terms& t, double bytes) { return t.host_lat + bytes / t.host_bw; }
// The node's NVMe drives read into host DRAM: I/O latency + bytes / (drives × per-drive read rate).
inline double ssd_read_time(const Terms& t, double bytes) { return t.ssd_lat + bytes / t.ssd_bw; }
// Writes run at a share of the read rate (TLC Gen5 mixed-use drives write ≈ 0.7 of their read rate,
// FACTS-parallel §8).
constexpr double kSsdWriteShare = 0.7;
inline double ssd_write_time(const Terms& t, double bytes) { return t.ssd_lat + bytes / (t.ssd_bw * kSsdWriteShare); }
// Engram rows from wherever the tables live: HBM, host DRAM over the host link, or another node over RDMA.
double engram_fetch_time(const Terms& t, EngramHome home, double bytes);

}  // namespace tierscope::model
