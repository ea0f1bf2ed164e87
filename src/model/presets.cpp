// Preset scenarios. Values trace to the fact sheet (FACTS.md) sections and URLs named in each table.
#include "model/presets.h"

#include <string>

namespace tierscope::model {

namespace {

void set_modes(ModelArch& m, const char* text) {
  std::string why;
  layers_from_text(m, text, why);  // preset text is fixed and covered by tests
}

// DeepSeek V4.1 Flash as released (FACTS §1.4.1 config, §1.4.4 cache layout, §1.4.6 Engram).
void v41_model(ModelArch& m) {
  m = ModelArch{};
  // 0-1 SWA-only; 2/8/14 Full at ratio 2 with Reuse between; 20 Full ratio 1 (candidate source);
  // 24/28/32/36 Reindex; the other decoder layers Reuse.
  set_modes(m, "SSF2UUUUUF2UUUUUF2UUUUUF1UUUIUUUIUUUIUUUIUUU");
  m.enc_layers = 20;
  m.hidden = 5120;
  m.vocab = 129280;
  m.attn = AttnKind::Latent;
  m.q_heads = 64;
  m.kv_heads = 1;
  m.head_dim = 512;
  m.v_dim = 512;
  m.q_lora = 1280;
  m.rope_dim = 64;
  m.o_lora = 1024;
  m.o_groups = 8;
  m.n_win = 128;
  m.swa_all = 1;
  m.kv_fmt = NumFormat::FP4_G16;
  m.idx_fmt = NumFormat::FP4_G32;
  m.swa_fmt = NumFormat::FP8_G32;
  m.idx_heads = 32;
  m.idx_dim = 128;
  m.top_k = 512;
  m.cand_src = 20;
  m.cand_blocks = 2048;
  m.cand_block = 8;
  m.experts = 384;
  m.shared_experts = 1;
  m.experts_per_token = 6;
  m.expert_inter = 2304;
  m.experts_fmt = NumFormat::FP4_G32;
  m.dense_fmt = NumFormat::FP8_B1024;
  m.head_fmt = NumFormat::BF16;
  m.engram_count = 2;
  m.engram_layers = {1, 14, 0, 0};
  m.engram_rows = {384006168, 384016682, 0, 0};
  m.engram_ngram = 4;
  m.engram_heads = 8;
  m.engram_dim = 256;
  m.engram_fmt = NumFormat::FP8_G32;
  m.engram_home = EngramHome::Hbm;
  m.checkpoint_gb = 510.29;
}

// 8×B200 node (FACTS §2.1-2.4, §5.1 defaults).
void b200_node(Hardware& h) {
  h = Hardware{};
  h.gpu = GpuKind::B200;
  h.gpus = 8;
  h.mbu = 0.7;
  h.compute = ComputeFormat::FP8;
  h.lat_sram_ns = 20;
  h.lat_hbm_us = 0.5;
  h.lat_ssd_us = 60;
  h.lat_rdma_us = 1.75;
  h.host_dram_gb = 2000;
  h.host_link = HostLink::Pcie5;
  h.nic_gbps = 50;
  h.ssd_count = 8;
  h.ssd_gbps = 14;
  h.ssd_tb = 3.84;  // 8 × 3.84 TB NVMe data cache (FACTS §2.4)
  h.retention_h = 72;
}

void flash_prices(Workload& w) {
  w.price_miss = 0.30;
  w.price_hit = 0.006;
  w.price_out = 1.20;
}

void build_v41_b200(Scenario& s) {
  v41_model(s.model);
  b200_node(s.hw);
  s.work = Workload{};
  flash_prices(s.work);
}

void build_v41_h200(Scenario& s) {
  build_v41_b200(s);
  s.hw.gpu = GpuKind::H200;
}

// The design card's own assumptions (FACTS §5.3): BF16 weights, MBU 1, 8 GPUs at 8 TB/s, FP4 replay
// compute, the card's latency bands, Engram tables in host DRAM, a short prefix hit.
void build_v41_card(Scenario& s) {
  build_v41_b200(s);
  s.model.experts_fmt = NumFormat::BF16;
  s.model.dense_fmt = NumFormat::BF16;
  s.model.head_fmt = NumFormat::BF16;
  s.model.checkpoint_gb = 0;  // the published FP4/FP8 checkpoint no longer applies
  s.model.engram_home = EngramHome::Dram;
  s.hw.mbu = 1.0;
  s.hw.compute = ComputeFormat::FP4;
  s.hw.lat_sram_ns = 3;
  s.hw.lat_hbm_us = 0.5;
  s.hw.host_lat_us = 1.5;
  s.hw.lat_ssd_us = 60;
  s.hw.lat_rdma_us = 1.75;
  s.work.prefix_hit = 1024;
}

// DeepSeek-V4-Flash (FACTS §1.3): 43 layers, [0,0,4] + [128,4]×20, FP8 main rows of ≈584 B.
void build_v4_b200(Scenario& s) {
  ModelArch& m = s.model;
  m = ModelArch{};
  std::string modes = "SSF4";
  for (int i = 0; i < 20; ++i) modes += "D128F4";
  set_modes(m, modes.c_str());
  m.hidden = 4096;
  m.vocab = 129280;
  m.attn = AttnKind::Latent;
  m.q_heads = 64;
  m.kv_heads = 1;
  m.head_dim = 512;
  m.v_dim = 512;
  m.q_lora = 1024;
  m.rope_dim = 64;
  m.o_lora = 1024;
  m.o_groups = 8;
  m.n_win = 128;
  m.swa_all = 1;
  // 448 FP8 values + 7 E8M0 scales + 64 BF16 RoPE dims + 1 pad = 584 B.
  m.kv_fmt = NumFormat::FP8_G64;
  m.swa_fmt = NumFormat::FP8_G64;
  m.kv_rope_bf16 = 1;
  m.kv_pad = 1;
  m.idx_fmt = NumFormat::FP4_G32;
  m.idx_heads = 64;
  m.idx_dim = 128;
  m.top_k = 512;
  m.cand_src = -1;
  m.experts = 256;
  m.shared_experts = 1;
  m.experts_per_token = 6;
  m.expert_inter = 2048;
  m.experts_fmt = NumFormat::FP4_G32;
  m.dense_fmt = NumFormat::FP8_B1024;
  m.head_fmt = NumFormat::BF16;
  b200_node(s.hw);
  s.work = Workload{};
  s.work.price_miss = 0.14;
  s.work.price_hit = 0.0028;
  s.work.price_out = 0.28;
}

// DeepSeek-V3: MLA (512 latent + 64 RoPE) in BF16 over 61 layers; 3 dense FFN layers, then MoE.
void build_v3_h200(Scenario& s) {
  ModelArch& m = s.model;
  m = ModelArch{};
  set_modes(m, std::string(61, 'D').c_str());
  m.hidden = 7168;
  m.vocab = 129280;
  m.attn = AttnKind::MLA;
  m.q_heads = 128;
  m.kv_heads = 128;
  m.head_dim = 192;
  m.v_dim = 128;
  m.q_lora = 1536;
  m.kv_lora = 512;
  m.rope_dim = 64;
  m.kv_fmt = NumFormat::BF16;
  m.experts = 256;
  m.shared_experts = 1;
  m.experts_per_token = 8;
  m.expert_inter = 2048;
  m.dense_layers = 3;
  m.dense_inter = 18432;
  m.experts_fmt = NumFormat::FP8_B128;
  m.dense_fmt = NumFormat::FP8_B128;
  m.head_fmt = NumFormat::BF16;
  b200_node(s.hw);
  s.hw.gpu = GpuKind::H200;
  s.work = Workload{};
}

// Llama-3-70B: dense GQA, 8 KV heads × 128 dims, BF16 weights and KV.
void build_llama3_h100(Scenario& s) {
  ModelArch& m = s.model;
  m = ModelArch{};
  set_modes(m, std::string(80, 'D').c_str());
  m.hidden = 8192;
  m.vocab = 128256;
  m.attn = AttnKind::MHA;
  m.q_heads = 64;
  m.kv_heads = 8;
  m.head_dim = 128;
  m.v_dim = 128;
  m.kv_fmt = NumFormat::BF16;
  m.dense_layers = 80;
  m.dense_inter = 28672;
  m.experts_fmt = NumFormat::BF16;
  m.dense_fmt = NumFormat::BF16;
  m.head_fmt = NumFormat::BF16;
  b200_node(s.hw);
  s.hw.gpu = GpuKind::H100;
  s.work = Workload{};
}

using P = Provenance;

constexpr const char* kV41Config =
    "FACTS §1.4.1: https://huggingface.co/deepseek-ai/DeepSeek-V4.1-Flash/blob/dba1be0a40aa45a94ad051997016db3960a90277/config.json";

const InputSource kV41Inputs[] = {
    {"modes,enc_layers,hidden,vocab,q_heads,head_dim,q_lora,o_lora,o_groups,n_win", P::Paper, kV41Config},
    {"idx_heads,idx_dim,top_k,cand_src,cand_blocks,cand_block", P::Paper, kV41Config},
    {"experts,shared_experts,experts_per_token,expert_inter", P::Paper, kV41Config},
    {"kv_fmt,idx_fmt,swa_fmt", P::Paper,
     "FACTS §1.4.4: https://huggingface.co/deepseek-ai/DeepSeek-V4.1-Flash/blob/2cba9e42aa026125f3ed06c6d98c1db82f7ca027/inference/kernel.py"},
    {"experts_fmt,dense_fmt,head_fmt", P::Paper, "FACTS §1.4.1 quantization_config, §1.4.7"},
    {"engram,engram_ngram,engram_heads,engram_dim", P::Paper, kV41Config},
    {"engram_fmt", P::ThirdParty, "FACTS §1.4.6: https://github.com/JustVugg/colibri/blob/master/docs/deepseek-v41.md"},
    {"checkpoint_gb", P::ThirdParty, "FACTS §1.4: https://huggingface.co/api/models/deepseek-ai/DeepSeek-V4.1-Flash (third-party derivation, ~510.3 GB)"},
    {"gpu,gpus,hbm_usable,workspace_gb", P::ThirdParty, "FACTS §2.1, §4 #11: https://docs.nvidia.com/dgx/dgxb200-user-guide/introduction-to-dgxb200.html"},
    {"mbu", P::ThirdParty, "FACTS §1.4.7, §5.1: 0.7-MBU roofline, https://inferencex.semianalysis.com/inference/deepseek-v41-flash"},
    {"host_link,host_dram_gb,ssd_count,ssd_gbps,ssd_tb", P::Paper, "FACTS §2.3-2.4: https://docs.nvidia.com/dgx/dgxb200-user-guide/introduction-to-dgxb200.html ; https://knlb.pages.dev/ai/numbers.html"},
    {"nic_gbps,lat_rdma_us", P::Paper, "FACTS §2.3, §5.3: https://docs.nvidia.com/networking/display/ConnectX7VPI/Introduction"},
    {"lat_hbm_us,lat_ssd_us,lat_sram_ns", P::ThirdParty, "FACTS §2.2, §2.4, §5.1: https://fp4-site.pages.dev/silicon/gpu-memory-hierarchy/ ; https://nvme-storage.com/glossary/latency"},
    {"retention_h,swa_pool", P::Card, "design card (FACTS §1.6, §4 #18: DeepSeek documents only hours to days)"},
    {"price_miss,price_hit,price_out", P::Paper, "FACTS §3: https://api-docs.deepseek.com/quick_start/pricing/?ref=voluntas.ghost.io"},
    {"ctx,batch,prompt,output,prefix_hit", P::Derived, "FACTS §5.1 workload defaults (128K context, batch 1)"},
};

const InputSource kCardInputs[] = {
    {"experts_fmt,dense_fmt,head_fmt", P::Card, "design card: ~32 GB/token = 16B × 2 B (FACTS §4 #2, §5.3)"},
    {"mbu,gpus,gpu", P::Card, "design card: ~0.4-0.5 ms floor needs 8 GPUs at 8 TB/s, MBU 1 (FACTS §4 #3)"},
    {"compute", P::Card, "FACTS §5.3: bounded replay 58 µs on 8×B200 at FP4"},
    {"lat_sram_ns,lat_hbm_us,host_lat_us,lat_ssd_us,lat_rdma_us", P::Card, "design card latency bands (FACTS §4 #9-#19, §5.3)"},
    {"engram_home", P::Card, "design card: Engram tables in host DRAM"},
    {"prefix_hit", P::Card, "FACTS §4 #19: the card's 60-100 µs hit fits prefixes of about 1K tokens"},
};

const InputSource kH200Inputs[] = {
    {"gpu", P::ThirdParty, "FACTS §2.1: https://aiwiki.ai/wiki/nvidia_h200 (141 GB, 4.8 TB/s)"},
};

const InputSource kV4Inputs[] = {
    {"modes,hidden,q_heads,head_dim,o_lora,o_groups,experts,shared_experts,experts_per_token,expert_inter", P::Engine,
     "FACTS §1.3: https://docs.nvidia.com/nemo/automodel/model-coverage/large-language-models/deepseek-ai/DeepSeek-V4-Flash ; https://github.com/antirez/ds4/blob/main/MODEL_CARD.md"},
    {"kv_fmt,kv_rope_bf16,kv_pad,idx_fmt", P::ThirdParty, "FACTS §1.3: third-party reconstruction, FP8 main row ≈584 B, FP4 index row 68 B"},
    {"q_lora", P::Derived, "assumed 1024 (not in the fact sheet)"},
    {"price_miss,price_hit,price_out", P::Paper, "FACTS §3: https://api-docs.deepseek.com/quick_start/pricing?model_version=DeepSeek-V4-Pro-0813"},
};

const InputSource kV3Inputs[] = {
    {"modes,hidden,q_heads,head_dim,v_dim,q_lora,kv_lora,rope_dim,experts,shared_experts,experts_per_token,expert_inter,dense_layers,dense_inter",
     P::Paper, "deepseek-ai/DeepSeek-V3 config.json; MLA latent 512 + 64 RoPE (FACTS §1.2: https://web3.ouyizh.info/de/discover/post/56399586864448)"},
    {"gpu", P::ThirdParty, "FACTS §2.1: https://aiwiki.ai/wiki/nvidia_h200"},
};

const InputSource kLlamaInputs[] = {
    {"modes,hidden,q_heads,kv_heads,head_dim,dense_inter,vocab", P::Paper, "meta-llama/Meta-Llama-3-70B config.json"},
    {"gpu", P::ThirdParty, "FACTS §2.1: https://lzwjava.github.io/nvidia-h200-gpu-specs-en (H100 80 GB, 3.35 TB/s)"},
};

const PresetInfo kPresets[] = {
    {"v41-flash-8xb200", "DeepSeek V4.1 Flash · 8×B200 (as shipped)",
     "The released model (FP4 KV, FP4 experts, FP8 dense) on a DGX B200-class node.", build_v41_b200, kV41Inputs},
    {"v41-flash-card", "DeepSeek V4.1 Flash · the design card's assumptions",
     "BF16 weights, MBU 1, 8 GPUs at 8 TB/s and the card's latency bands, so the card's figures come out.",
     build_v41_card, kCardInputs},
    {"v41-flash-8xh200", "DeepSeek V4.1 Flash · 8×H200", "The released model on an H200 node (141 GB, 4.8 TB/s).",
     build_v41_h200, kH200Inputs},
    {"v4-flash-8xb200", "DeepSeek V4 Flash · 8×B200 (predecessor)",
     "CSA ratio 4 / HCA ratio 128 layers with FP8 main KV: about 4× the V4.1 global KV.", build_v4_b200, kV4Inputs},
    {"deepseek-v3-8xh200", "DeepSeek-V3 · 8×H200 (MLA)", "MLA with a BF16 576-value latent per layer, 61 layers.",
     build_v3_h200, kV3Inputs},
    {"llama3-70b-8xh100", "Llama-3-70B · 8×H100 (dense GQA)", "80 layers, 8 KV heads × 128 dims, BF16 KV.",
     build_llama3_h100, kLlamaInputs},
};

}  // namespace

std::span<const PresetInfo> presets() { return {kPresets, sizeof kPresets / sizeof kPresets[0]}; }

const PresetInfo* find_preset(std::string_view name) {
  for (const PresetInfo& p : kPresets) {
    if (name == p.name) return &p;
  }
  return nullptr;
}

bool make_preset(std::string_view name, Scenario& out) {
  const PresetInfo* p = find_preset(name);
  if (!p) return false;
  Scenario s;
  p->build(s);
  s.preset = p->name;
  out = s;
  return true;
}

Scenario default_scenario() {
  Scenario s;
  make_preset(kDefaultPreset, s);
  return s;
}

}  // namespace tierscope::model
