// The inspector's "why here" words: each object's read rate set against the bandwidth of the tier it would
// otherwise sit in, so the reader sees the cost that keeps it where it is.
#include "ui/why.h"

#include "base/text.h"

namespace tierscope::ui {

using anim::Endpoint;
using anim::ObjectKind;

namespace {

using F = model::FigureId;

// A figure as the page shows it ("not computed" where the setup cannot run).
std::string V(const model::Figures& f, F id) {
  const model::Figure& x = f[id];
  return x.feasible ? model::figure_value_text(x) : std::string("not computed");
}

// Seconds to move `bytes` over a link of `bw` bytes per second after `latency` seconds, as text.
std::string move_time(double bytes, double bw, double latency = 0) {
  return bw > 0 ? model::human(latency + bytes / bw, "s") : std::string("no time (no link)");
}

std::vector<std::string> weights(const model::Scenario& s, const model::Figures& f) {
  const double host = f[F::HwHostLinkBw].value;
  const bool moe = s.model.experts > 0;
  return {
      std::string("Read every decode step: each GPU streams ") + V(f, F::DecodeWeightBytes) + " of " + (moe ? "expert and shared " : "") +
          "weights per step, " + V(f, F::DecodeTWeights) + " from HBM. Over the host link (" + V(f, F::HwHostLinkBw) + ") the same bytes would take " +
          move_time(f[F::DecodeWeightBytes].value, host) + " per step from host DRAM, so the weights stay in HBM.",
      "What would move them: nothing while this model serves. They take " + V(f, F::HbmWeightsPerGpu) + " of each GPU's " +
          V(f, F::HwHbmPerGpu) + "; weights that do not fit mean the setup cannot run, not that they spill to DRAM.",
  };
}

std::vector<std::string> global_kv(const model::Figures& f) {
  return {
      "Read every decode step: each GPU reads " + V(f, F::DecodeKvBytes) + " of KV per step for the sessions it serves. Over the host link (" +
          V(f, F::HwHostLinkBw) + ") that would take " + move_time(f[F::DecodeKvBytes].value, f[F::HwHostLinkBw].value) +
          " per step from host DRAM, so a served session's KV stays in HBM (" + V(f, F::HbmKvSessionPerGpu) + " per session on each GPU, room for " +
          V(f, F::HbmSessions) + ").",
      "What would move it: the session going quiet. Its KV is kept on SSD in the prefix cache and returns in " + V(f, F::ResumeKvSsdTime) +
          " (SSD → host DRAM) and " + V(f, F::ResumeKvReloadTime) + " (→ HBM) when the session comes back.",
  };
}

std::vector<std::string> engram(const model::Scenario& s, const model::Figures& f) {
  const double per_token = f[F::EngramBytesPerToken].value;
  std::vector<std::string> out = {
      "Read by address for every token: " + V(f, F::EngramBytesPerToken) +
      " per token, rows picked by hashing the last few tokens, so each read is known ahead and can be prefetched. From where the tables live a "
      "token's rows take " + V(f, F::EngramFetchTime) + ", stalling the step by " + V(f, F::EngramStall) + "."};
  switch (s.model.engram_home) {
    case model::EngramHome::Hbm:
      out.push_back("Kept in HBM (" + V(f, F::EngramTableBytes) + " of trained weights, never written). Only a few rows per token are read: from host DRAM a token's rows would take " +
                    move_time(per_token, f[F::HwHostLinkBw].value, f[F::HwHostLatency].value) +
                    " over the host link, so engram_home = dram would free that HBM at that cost.");
      break;
    case model::EngramHome::Dram:
      out.push_back("Kept in host DRAM: " + V(f, F::EngramTableBytes) + " of trained weights would take HBM the KV needs, and only " +
                    V(f, F::EngramBytesPerToken) + " per token crosses the host link (" + V(f, F::HwHostLinkBw) + ").");
      break;
    default:
      out.push_back("Kept in remote memory over RDMA: " + V(f, F::EngramTableBytes) +
                    " of trained weights stay off the node, and only the rows a token needs are fetched.");
      break;
  }
  return out;
}

std::vector<std::string> prefix(const model::Figures& f) {
  return {
      "Read once per returning turn, never per step: a hit of " + V(f, F::PrefixHitBytes) + " reaches HBM in " + V(f, F::PrefixHitTime) +
          " (SSD → host DRAM " + V(f, F::PrefixSsdReadTime) + ", then → HBM " + V(f, F::PrefixUploadTime) + "), where recomputing the prefix takes " +
          V(f, F::PrefixRecomputeTime) + ".",
      "Kept on SSD: worth keeping, but not worth HBM's room between turns. The node's drives hold " + V(f, F::SsdCapacity) + ", " +
          V(f, F::SsdRetentionHours) + " of history at this serving rate; a hit moves up through host DRAM just before its turn.",
  };
}

std::vector<std::string> swa_window(const model::Figures& f) {
  return {
      "Read every decode step: " + V(f, F::SwaWindowBytes) + " per session per step, the last tokens' uncompressed KV. Over the host link that would take " +
          move_time(f[F::SwaWindowBytes].value, f[F::HwHostLinkBw].value) + " per session per step, against " + V(f, F::SwaWindowTime) +
          " from HBM, so an active session's window stays in HBM.",
      "What would move it: the session going quiet. Its window (" + V(f, F::KvSwaPerSession) + ") is parked in the SWA pool in host DRAM and returns in " +
          V(f, F::SwaRestoreSessionTime) + ".",
  };
}

std::vector<std::string> swa_pool(const model::Figures& f) {
  return {
      "Kept in host DRAM: read once, when a quiet session returns (" + V(f, F::KvSwaPerSession) + " in " + V(f, F::SwaRestoreSessionTime) +
          " over the host link), never during decode steps, so it does not need HBM.",
      "It holds " + V(f, F::SwaPoolSessions) + ", " + V(f, F::SwaPoolVsHbm) + " the sessions HBM serves; a window evicted from it is rebuilt by replaying the last tokens (" +
          V(f, F::ReplayTime) + ").",
  };
}

// The 2026 families' state: each against the host link it would otherwise cross, with what moves it.
std::vector<std::string> recurrent_state(const model::Figures& f) {
  return {
      "Read and written back every decode step: the linear layers' state is " + V(f, F::KvRecurrentPerSession) +
          " per session, whatever the context, and one step takes " + V(f, F::DecodeTState) + " on it from HBM. Over the host link (" +
          V(f, F::HwHostLinkBw) + ") reading and writing it would take " + move_time(2 * f[F::KvRecurrentPerSession].value, f[F::HwHostLinkBw].value) +
          " per session per step, so a served session's state stays in HBM.",
      "What would move it: nothing token by token; it is a fixed size. A prefix hit does not rebuild it from token rows: it restores the last of its checkpoints, one every " +
          V(f, F::KvRecurrentCkptInterval) + ".",
  };
}

std::vector<std::string> state_checkpoints(const model::Figures& f) {
  return {
      "Read once per returning turn: a prefix hit restores the recurrent state's last checkpoint before the hit's end (" + V(f, F::KvRecurrentCkptBytes) +
          ") with the full-attention layers' rows, " + V(f, F::PrefixHitBytes) + " in all, in " + V(f, F::PrefixHitTime) + ".",
      "Kept with the prefix cache on SSD, through host DRAM: a copy of the state every " + V(f, F::KvRecurrentCkptInterval) +
          " is worth keeping between turns but not worth HBM's room; the tokens after the checkpoint are computed again.",
  };
}

std::vector<std::string> indexer_keys(const model::Figures& f) {
  return {
      "Read every decode step: the sparse indexer scores every stored position with these keys, " + V(f, F::KvIndexerPerToken) +
          " of the global KV's " + V(f, F::KvGlobalPerToken) + " (the block shows that part of it), " + V(f, F::IndexFullpoolBytes) +
          " per session per step in " + V(f, F::IndexFullpoolTime) + ". Over the host link the same read would take " +
          move_time(f[F::IndexFullpoolBytes].value, f[F::HwHostLinkBw].value) + ", so the keys stay in HBM beside the rows they point into.",
      "Only the top rows they pick are read from the KV itself: " + V(f, F::KvTopkRows) + " per step. What would move them: the session going quiet, with its KV.",
  };
}

std::vector<std::string> chunk_kv(const model::Figures& f) {
  return {
      "Read every decode step: each chunked layer attends the tokens of its chunk in progress, " + V(f, F::KvChunkPerSession) +
          " per session at most, whatever the context; over the host link that would take " +
          move_time(f[F::KvChunkPerSession].value, f[F::HwHostLinkBw].value) + " per session per step, so it stays in HBM.",
      "What would move it: nothing; a full chunk starts over, so it never grows past one chunk per layer.",
  };
}

}  // namespace

std::vector<std::string> why_here(ObjectKind o, Endpoint tier, const model::Scenario& s, const model::Figures& f) {
  (void)tier;
  switch (o) {
    case ObjectKind::MoeWeights: return weights(s, f);
    case ObjectKind::GlobalKv: return global_kv(f);
    case ObjectKind::EngramTables: return engram(s, f);
    case ObjectKind::PrefixCache: return prefix(f);
    case ObjectKind::SwaWindow: return swa_window(f);
    case ObjectKind::SwaPool: return swa_pool(f);
    case ObjectKind::SparseIndex:
      return {"Read every decode step: scoring the candidate pool reads " + V(f, F::IndexCandidateBytes) + " per session per step (" +
              V(f, F::IndexCandidateTime) + " from HBM), beside the KV it points into, so it stays in HBM with it."};
    case ObjectKind::WorkingSet:
      return {"Lives for one kernel only: activations, scores and the top-k sort are made and used inside a kernel, so they stay in the " +
              V(f, F::HwSramPerGpu) + " of on-chip memory (" + V(f, F::HwSramLatency) + " away) and never travel to HBM."};
    case ObjectKind::RecurrentState: return recurrent_state(f);
    case ObjectKind::StateCheckpoints: return state_checkpoints(f);
    case ObjectKind::IndexerKeys: return indexer_keys(f);
    case ObjectKind::ChunkKv: return chunk_kv(f);
    case ObjectKind::Tokens:
    case ObjectKind::HiddenStream:
    case ObjectKind::Count: break;
  }
  return {};
}

std::vector<std::string> why_empty(Endpoint tier, const model::Scenario& s, const model::Figures& f) {
  std::vector<std::string> out = {"Holds nothing for this model now."};
  if (tier != Endpoint::Dram) return out;
  const model::ModelArch& m = s.model;
  out.push_back("Host DRAM (" + V(f, F::HwHostDram) + " per node) would hold the sliding windows of quiet sessions" +
                (m.n_win > 0 ? "" : " (this model keeps no sliding window)") + " and Engram tables placed there" +
                (m.engram_count > 0 ? " (this scenario keeps them elsewhere)" : " (this model has none)") + ".");
  out.push_back("Prefix-cache rows still pass through it on their way from SSD to HBM: " + V(f, F::PrefixHitBytes) + " per hit, " +
                V(f, F::PrefixUploadTime) + " over the host link.");
  return out;
}

}  // namespace tierscope::ui
