// Preset scenarios. Every input of every preset names where it comes from (fact-sheet section and URL),
// or says it is assumed and why; layouts follow the engine recipe each preset cites.
#include "model/presets.h"


#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

#include "model/params.h"

namespace tierscope::model {

namespace {

void set_modes(ModelArch& m, const char* text) {
  std::string why;
  layers_from_text(m, text, why);  // preset text is fixed and covered by tests
}

// ---------------------------------------------------------------------------------------------
// [SECTION] shared groups of inputs

// Engine and runtime constants every preset shares: one set, never tuned per preset or per point.
void engine_defaults(Hardware& h, Workload& w) {
  h.mbu = 0.85;
  h.mfu = 0.35;
  h.kernel_us = 7.5;
  h.compute = ComputeFormat::Formats;
  h.link_eff = 0.8;
  h.ar_lat_us = 3.5;
  h.a2a_lat_us = 25;
  h.a2a_rdma_lat_us = 80;
  h.hbm_usable = 0.9;
  h.workspace_gb = 4;
  h.lat_sram_ns = 20;
  h.lat_hbm_us = 0.5;
  h.lat_ssd_us = 60;
  h.lat_rdma_us = 1.75;
  h.ssd_dwpd = 1;
  h.retention_h = 72;
  w.chunk = 8192;
  w.spec_tokens = 0;
  w.spec_accept = 0.7;
  w.swa_pool = 0.10;
}

// A DGX/HGX B200-class node (FACTS §2.1-2.4).
void b200_node(Hardware& h) {
  h.gpu = GpuKind::B200;
  h.host_dram_gb = 2000;
  h.host_link = HostLink::Pcie5;
  h.nic_gbps = 50;
  h.ssd_count = 8;
  h.ssd_gbps = 14;
  h.ssd_tb = 3.84;
}

void workload_defaults(Workload& w) {
  w.ctx = 131072;
  w.batch = 1;
  w.prompt = 8192;
  w.output = 1024;
  w.prefix_hit = 7168;
}

using P = Provenance;

constexpr const char* kV41Config =
    "FACTS §1.4.1: https://huggingface.co/deepseek-ai/DeepSeek-V4.1-Flash/blob/dba1be0a40aa45a94ad051997016db3960a90277/config.json";

const InputSource kEngine[] = {
    {"mbu", P::Assumed,
     "assumed 0.85: FACTS-parallel §5.3 measures a 92 % HBM streaming ceiling (https://techcommunity.microsoft.com/blog/azurehighperformancecomputingblog/azure%E2%80%99s-nd-gb200-v6-delivers-record-performance-for-inference-workloads/4399253) "
     "and 94 % for a batch-1 decode step under CUDA graphs (https://cloudai.pt/tag/cuda-graphs/); small grouped expert GEMMs reach less"},
    {"mfu", P::Measured,
     "FACTS-parallel §5.2-5.3: measured prefill reaches 27-41 % of FP8 peak (https://lmsys.org/blog/2025-05-05-large-scale-ep/ ; https://lmsys.org/blog/2025-09-25-gb200-part-2/), large-batch decode ~29 %; 0.35 taken"},
    {"kernel_us", P::Engine,
     "FACTS-parallel §5.4: fusing routing top-k into 2 kernels took it to 15 µs of kernel time, 7.5 µs per small kernel "
     "(https://nvidia.github.io/TensorRT-LLM/blogs/tech_blog/blog3_Optimizing_DeepSeek_R1_Throughput_on_NVIDIA_Blackwell_GPUs.html)"},
    {"link_eff", P::Engine,
     "FACTS-parallel §2.1, §3.4: NCCL reaches ~370 of 450 GB/s on NVLink 4 (https://github.com/NVIDIA/nccl-tests/issues/212); one-sided all-to-all ~80 % of 900 GB/s"},
    {"ar_lat_us", P::Measured, "FACTS-parallel §2.1: 1 KB all-reduce on 4×H800 ≈ 3.5 µs (https://github.com/NVIDIA/nccl/issues/1984)"},
    {"a2a_lat_us", P::Engine,
     "FACTS-parallel §3.4: one-sided NVLink all-to-all floor at 1 token, 18.9 µs dispatch and 31.0 µs combine, mean 25 µs "
     "(https://github.com/NVIDIA/TensorRT-LLM/blob/main/docs/source/blogs/tech_blog/blog18_Optimizing_MoE_Communication_with_One_Sided_AlltoAll_Over_NVLink.md)"},
    {"a2a_rdma_lat_us", P::Engine,
     "FACTS-parallel §3.5: IBGDA dispatch 103-126 µs and combine 55-63 µs at 1 token, EP16-EP128, ≈80 µs mean (https://github.com/perplexityai/pplx-kernels)"},
    {"hbm_usable", P::Engine, "vLLM's gpu_memory_utilization default 0.9 (FACTS §5.2 (6) uses the same share)"},
    {"workspace_gb", P::Assumed, "assumed 4 GB per GPU for activations, CUDA graphs and communication buffers"},
    {"lat_hbm_us,lat_ssd_us,lat_sram_ns", P::ThirdParty,
     "FACTS §2.2, §2.4, §5.1: https://fp4-site.pages.dev/silicon/gpu-memory-hierarchy/ ; https://nvme-storage.com/glossary/latency"},
    {"lat_rdma_us", P::Paper, "FACTS §2.3, §5.1: https://docs.nvidia.com/networking/display/ConnectX7VPI/Introduction"},
    {"ssd_dwpd", P::ThirdParty,
     "FACTS-parallel §8: read-intensive Gen5 drives are rated 1 DWPD (https://hardwaretimes.com/samsung-teases-pm1743-ssd-w-theoretical-speeds-of-up-to-15-7-gb-s/)"},
    {"retention_h", P::Card, "design card '≥72 h'; DeepSeek documents only 'a few hours to a few days' (FACTS §1.6, §4 #18: https://api-docs.deepseek.com/guides/kv_cache)"},
    {"swa_pool", P::Card, "design card: 10 % of host DRAM for recent sessions' SWA windows (FACTS §1.6)"},
    {"chunk", P::Engine, "chunked-prefill size 8192 tokens, SGLang's and vLLM's default token budget per step"},
    {"spec_tokens", P::Assumed, "speculative decoding off unless a measured point ran it"},
    {"spec_accept", P::Engine,
     "FACTS-parallel §5.4: MTP acceptance 0.70 per draft token after SGLang's V4-Pro fixes (https://pytorch.org/?p=114500)"},
    {"hbm_gb,hbm_tbps,link_gbps,link_domain,node_gpus,host_gbps,host_lat_us", P::Derived, "0: the GPU's or the host link's catalog entry"},
    {"pp", P::Derived, "pipeline stages are not modelled: no preset's engine recipe pipelines decode (docs/model.md)"},
    {"redundant", P::Assumed, "no redundant expert slots unless the engine recipe names them"},
    {"compute", P::Derived, "formats: each GEMM at the rate of its weight and activation formats (docs/model.md)"},
};

const InputSource kB200Node[] = {
    {"gpu,host_link,host_dram_gb,ssd_count,ssd_gbps,ssd_tb", P::Paper,
     "FACTS §2.1, §2.4: DGX B200, 2 TB DDR5, PCIe Gen5 hosts, 8 × 3.84 TB NVMe (https://docs.nvidia.com/dgx/dgxb200-user-guide/introduction-to-dgxb200.html)"},
    {"nic_gbps", P::Paper, "FACTS §2.3: one ConnectX-7 400 Gb/s per GPU (https://docs.nvidia.com/networking/display/ConnectX7VPI/Introduction)"},
};

const InputSource kWorkload[] = {
    {"ctx,batch,prompt,output,prefix_hit", P::Assumed,
     "FACTS §5.1 workload defaults: 128K context at batch 1, an 8K prompt with a 7K prefix hit, 1K output"},
    {"price_miss,price_hit,price_out", P::Assumed, "unpriced (0) for a model without a public price"},
    // Fleet traffic (docs/fleet.md): no public per-node arrival process is published, so the shape is assumed.
    {"arrivals,day_amp,day_peak_h", P::Assumed,
     "assumed: 2 sessions/s per fleet with a daily cycle of ±50 % peaking at 14:00 (no public per-node arrival rate)"},
    {"turns,think_dist,think_s,think_sigma", P::Assumed,
     "assumed: 4 turns per session on average (geometric) with exponential think times of mean 60 s"},
    {"user_tokens,out_tokens,len_sigma", P::Assumed, "assumed: 1,024 new prompt and 512 output tokens per turn, lognormal with σ 0.8"},
    {"prefixes,prefix_tokens,zipf", P::Assumed,
     "assumed: 1,000 shared system prompts and documents of 4,096 tokens on average, Zipf 1 popularity"},
    {"seed,hours,nodes,router,queue_max", P::Assumed, "run settings: seed 1, 24 simulated hours, one node, prefix-aware routing, 100,000 waiting turns"},
    {"dram_prefix", P::Assumed, "assumed: half of the host DRAM left after the SWA pool holds the prefix cache"},
    {"wm_high,wm_low", P::Engine, "FACTS §3: Mooncake Store evicts LRU entries past a 90 % high watermark down to 80 % (FACTS §3 sources: arXiv 2407.00079, https://arxiv.org/abs/2407.00079 ; https://deepwiki.com/kvcache-ai/Mooncake/1.3-performance-characteristics)"},
    {"ssd_write", P::Engine,
     "FACTS §3: DeepSeek persists a prefix at the end of user input and of model output, on SSD (https://api-docs.deepseek.com/guides/kv_cache)"},
    {"block_tokens", P::Engine, "the Mooncake FAST'25 traces hash 512-token blocks (https://github.com/kvcache-ai/Mooncake/tree/main/FAST25-release)"},
};

// ---------------------------------------------------------------------------------------------
// [SECTION] DeepSeek V4.1 Flash

// As released (FACTS §1.4.1 config, §1.4.4 cache layout, §1.4.6 Engram).
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
  m.act_fmt = NumFormat::FP8;
  m.engram_count = 2;
  m.engram_layers = {1, 14, 0, 0};
  m.engram_rows = {384006168, 384016682, 0, 0};
  m.engram_ngram = 4;
  m.engram_heads = 8;
  m.engram_dim = 256;
  m.engram_fmt = NumFormat::FP8_G32;
  m.engram_home = EngramHome::Hbm;
  m.max_pos = 1048576;
  m.bounded_replay = 1;
  m.draft_layers = 1;
  m.checkpoint_gb = 510.29;
}

const InputSource kV41Model[] = {
    {"modes,enc_layers,hidden,vocab,attn,q_heads,kv_heads,head_dim,v_dim,q_lora,rope_dim,o_lora,o_groups,n_win,swa_all", P::Paper, kV41Config},
    {"idx_heads,idx_dim,top_k,cand_src,cand_blocks,cand_block", P::Paper, kV41Config},
    {"experts,shared_experts,experts_per_token,expert_inter,dense_layers,dense_inter", P::Paper, kV41Config},
    {"max_pos", P::Paper, "FACTS §1.4.1: max_position_embeddings 1,048,576 (YaRN factor 16 over 65,536)"},
    {"kv_fmt,idx_fmt,swa_fmt,kv_rope_bf16,kv_pad,kv_lora", P::Paper,
     "FACTS §1.4.4: https://huggingface.co/deepseek-ai/DeepSeek-V4.1-Flash/blob/2cba9e42aa026125f3ed06c6d98c1db82f7ca027/inference/kernel.py"},
    {"experts_fmt,dense_fmt,head_fmt", P::Paper, "FACTS §1.4.1 quantization_config (MXFP4 experts, block FP8 elsewhere), §1.4.7"},
    {"act_fmt", P::Paper, "FACTS §1.4.1 quantization_config: FP8 dynamic activations"},
    {"engram,engram_ngram,engram_heads,engram_dim", P::Paper, kV41Config},
    {"engram_fmt", P::ThirdParty, "FACTS §1.4.6: https://github.com/JustVugg/colibri/blob/master/docs/deepseek-v41.md"},
    {"engram_home", P::ThirdParty, "FACTS §1.6: engines row-shard the tables in HBM (ParallelEngramEmbedding)"},
    {"bounded_replay", P::Paper, "FACTS §1.4.5: SWA Bounded Replay, https://huggingface.co/deepseek-ai/DeepSeek-V4.1-Flash/raw/main/README.md"},
    {"draft_layers", P::Assumed, "assumed 1: one DSpark/MTP block per draft token (FACTS §1.4.1: 3 DSpark blocks, block size 5)"},
    {"tied_embed", P::Paper, "FACTS §1.4.7: the embedding and the LM head are counted apart (0.66B + 0.66B)"},
    {"checkpoint_gb", P::ThirdParty,
     "FACTS §1.4: https://huggingface.co/api/models/deepseek-ai/DeepSeek-V4.1-Flash (third-party derivation, ~510.3 GB with ViT and DSpark blocks)"},
    {"price_miss,price_hit,price_out", P::Paper, "FACTS §3: https://api-docs.deepseek.com/quick_start/pricing/?ref=voluntas.ghost.io"},
};

const InputSource kV41B200[] = {
    {"gpus,tp,dp,ep", P::Engine,
     "FACTS-parallel §1.4: NVIDIA Dynamo's V4.1 Flash recipe runs two TP4 workers on 8 B200 (https://docs.nvidia.com/dynamo/recipes/deepseek-v4-1-flash); "
     "TP without expert parallel splits every expert 4 ways"},
};

void build_v41_b200(Scenario& s) {
  v41_model(s.model);
  s.hw = Hardware{};
  b200_node(s.hw);
  s.work = Workload{};
  engine_defaults(s.hw, s.work);
  workload_defaults(s.work);
  s.hw.gpus = 4;
  s.par = Parallel{4, 1, 1, 1, 0};
  s.work.price_miss = 0.30;
  s.work.price_hit = 0.006;
  s.work.price_out = 1.20;
}

const InputSource kV41H200[] = {
    {"gpu", P::ThirdParty, "FACTS §2.1: https://aiwiki.ai/wiki/nvidia_h200 (141 GB, 4.8 TB/s)"},
    {"gpus,tp,dp,ep", P::Engine,
     "FACTS-parallel §1.4: Dynamo's V4.1 Flash recipe runs TP4 workers on H200 (https://docs.nvidia.com/dynamo/recipes/deepseek-v4-1-flash)"},
    {"engram_home", P::Assumed,
     "assumed host DRAM: at TP4 on 141 GB GPUs the 203 GB of Engram tables leave no room for KV in HBM (FACTS §1.5: the paper's host-resident setup)"},
};

void build_v41_h200(Scenario& s) {
  build_v41_b200(s);
  s.hw.gpu = GpuKind::H200;
  s.model.engram_home = EngramHome::Dram;
}

const InputSource kV41Gb300[] = {
    {"gpu,gpus,tp,dp,ep", P::Paper,
     "FACTS §1.4.7: NVIDIA's vLLM reference deployment, 4 × GB300 at TP4 (https://huggingface.co/nvidia/DeepSeek-V4.1-Flash-NVFP4)"},
    {"host_link,host_dram_gb", P::ThirdParty,
     "FACTS §2.3, FACTS-parallel §2.2: Grace over NVLink-C2C, ~480 GB LPDDR5X per Grace, two per 4-GPU tray "
     "(https://app.daily.dev/posts/the-evolution-of-nvidia-blackwell-gpu-memory-architecture-zp2tjxtaw)"},
    {"nic_gbps", P::Paper, "FACTS-parallel §2.3: one ConnectX-8, 800 Gb/s, per GPU (https://docs.nvidia.com/networking/display/connectx8supernic/introduction)"},
    {"ssd_count,ssd_gbps,ssd_tb", P::Assumed, "assumed four 3.84 TB Gen5 drives per tray at 14 GB/s (FACTS §2.4 drive class)"},
};

void build_v41_gb300(Scenario& s) {
  build_v41_b200(s);
  s.hw.gpu = GpuKind::GB300;
  s.hw.host_link = HostLink::NvlinkC2c;
  s.hw.host_dram_gb = 960;
  s.hw.nic_gbps = 100;
  s.hw.ssd_count = 4;
}

// The design card's own assumptions (FACTS §5.3): BF16 weights, MBU 1, 8 GPUs at 8 TB/s with every
// weight split evenly, FP4 compute, the card's latency bands, Engram tables in host DRAM, a 1K prefix hit.
const InputSource kCard[] = {
    {"experts_fmt,dense_fmt,head_fmt", P::Card, "design card: ~32 GB/token = 16B × 2 B (FACTS §4 #2, §5.3)"},
    {"mbu,gpus,gpu,tp,dp,ep", P::Card, "design card: ~0.4-0.5 ms floor needs 8 GPUs at 8 TB/s, MBU 1, weights split evenly (FACTS §4 #3)"},
    {"compute", P::Card, "FACTS §5.3: bounded replay 58 µs on 8×B200 at FP4"},
    {"lat_sram_ns,lat_hbm_us,host_lat_us,lat_ssd_us,lat_rdma_us", P::Card, "design card latency bands (FACTS §4 #9-#19, §5.3)"},
    {"engram_home", P::Card, "design card: Engram tables in host DRAM"},
    {"prefix_hit", P::Card, "FACTS §4 #19: the card's 60-100 µs hit fits prefixes of about 1K tokens"},
    {"checkpoint_gb", P::Card, "the published FP4/FP8 checkpoint does not apply to BF16 weights"},
};

void build_v41_card(Scenario& s) {
  build_v41_b200(s);
  s.model.experts_fmt = NumFormat::BF16;
  s.model.dense_fmt = NumFormat::BF16;
  s.model.head_fmt = NumFormat::BF16;
  s.model.checkpoint_gb = 0;
  s.model.engram_home = EngramHome::Dram;
  s.hw.gpus = 8;
  s.par = Parallel{8, 1, 8, 1, 0};
  s.hw.mbu = 1.0;
  s.hw.compute = ComputeFormat::FP4;
  s.hw.lat_sram_ns = 3;
  s.hw.lat_hbm_us = 0.5;
  s.hw.host_lat_us = 1.5;
  s.hw.lat_ssd_us = 60;
  s.hw.lat_rdma_us = 1.75;
  s.work.prefix_hit = 1024;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Other models

// DeepSeek-V4-Flash (FACTS §1.3): 43 layers, [0,0,4] + [128,4]×20, FP8 main rows of ≈584 B. No bounded
// replay: its sliding-window KV is cached with the prefix.
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
  m.act_fmt = NumFormat::FP8;
  m.max_pos = 1048576;
  m.bounded_replay = 0;
  m.draft_layers = 1;
  s.hw = Hardware{};
  b200_node(s.hw);
  s.work = Workload{};
  engine_defaults(s.hw, s.work);
  workload_defaults(s.work);
  s.hw.gpus = 4;
  s.par = Parallel{4, 1, 1, 1, 0};
  s.work.price_miss = 0.14;
  s.work.price_hit = 0.0028;
  s.work.price_out = 0.28;
}

const InputSource kV4Model[] = {
    {"modes,hidden,q_heads,head_dim,o_lora,o_groups,experts,shared_experts,experts_per_token,expert_inter,attn,kv_heads,v_dim,rope_dim,n_win,swa_all,"
     "idx_heads,idx_dim,top_k,vocab,max_pos,dense_layers,dense_inter,enc_layers",
     P::Engine,
     "FACTS §1.3: https://docs.nvidia.com/nemo/automodel/model-coverage/large-language-models/deepseek-ai/DeepSeek-V4-Flash ; https://github.com/antirez/ds4/blob/main/MODEL_CARD.md"},
    {"kv_fmt,swa_fmt,kv_rope_bf16,kv_pad,idx_fmt,kv_lora,cand_src,cand_blocks,cand_block", P::ThirdParty,
     "FACTS §1.3: third-party reconstruction, FP8 main row ≈584 B, FP4 index row 68 B; no candidate pool before V4.1"},
    {"experts_fmt,dense_fmt,head_fmt,act_fmt", P::Engine, "FACTS §1.3: FP4 MoE experts + FP8 everything else (https://vllm-recipes-8amtuuhkr-inferact-inc.vercel.app/deepseek-ai/DeepSeek-V4-Flash)"},
    {"q_lora", P::Assumed, "assumed 1024 (not in the fact sheets)"},
    {"engram,engram_ngram,engram_heads,engram_dim,engram_fmt,engram_home", P::Engine, "FACTS §1.3: V4-Flash has no Engram layers"},
    {"bounded_replay", P::Paper, "FACTS §1.4: bounded replay is new in V4.1 (https://huggingface.co/papers/2609.19969)"},
    {"draft_layers", P::Assumed, "assumed one MTP block per draft token"},
    {"tied_embed", P::Assumed, "assumed 0: a separate LM head, as in DeepSeek-V3's config (tie_word_embeddings false)"},
    {"checkpoint_gb", P::Derived, "no published size carried"},
    {"gpus,tp,dp,ep", P::Engine, "FACTS-parallel §1.3: SGLang serves V4-Flash on 4 B200 (https://docs.sglang.io/cookbook/autoregressive/DeepSeek/DeepSeek-V4)"},
    {"price_miss,price_hit,price_out", P::Paper, "FACTS §3: https://api-docs.deepseek.com/quick_start/pricing?model_version=DeepSeek-V4-Pro-0813"},
};

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
  m.act_fmt = NumFormat::FP8;
  m.max_pos = 163840;
  m.draft_layers = 1;
  s.hw = Hardware{};
  b200_node(s.hw);
  s.hw.gpu = GpuKind::H200;
  s.work = Workload{};
  engine_defaults(s.hw, s.work);
  workload_defaults(s.work);
  s.hw.gpus = 8;
  s.par = Parallel{8, 1, 8, 1, 0};
}

const InputSource kV3Model[] = {
    {"modes,hidden,q_heads,head_dim,v_dim,q_lora,kv_lora,rope_dim,experts,shared_experts,experts_per_token,expert_inter,dense_layers,dense_inter,vocab,attn,kv_heads,max_pos",
     P::Paper, "deepseek-ai/DeepSeek-V3 config.json; MLA latent 512 + 64 RoPE (FACTS-parallel §1.6: 35,136 B/token in FP8 over 61 layers)"},
    {"experts_fmt,dense_fmt,head_fmt", P::Paper, "DeepSeek-V3 FP8 checkpoint, 128×128 block scales (https://arxiv.org/abs/2412.19437)"},
    {"act_fmt", P::Paper, "DeepSeek-V3 runs its GEMMs in FP8 with 1×128 activation tiles (https://arxiv.org/abs/2412.19437 §3.3)"},
    {"kv_fmt", P::Engine, "BF16 MLA cache, the engines' default (FACTS-parallel §1.6: 70,272 B/token)"},
    {"draft_layers", P::Paper, "one MTP module per draft token (https://arxiv.org/abs/2412.19437)"},
    {"tied_embed", P::Paper, "deepseek-ai/DeepSeek-V3 config.json: tie_word_embeddings false"},
    {"enc_layers,o_lora,o_groups,n_win,swa_all,kv_rope_bf16,kv_pad,idx_fmt,swa_fmt,idx_heads,idx_dim,top_k,cand_src,cand_blocks,cand_block,"
     "engram,engram_ngram,engram_heads,engram_dim,engram_fmt,engram_home,bounded_replay",
     P::Paper, "DeepSeek-V3 has no causal encoder, output LoRA, sliding window, sparse indexer or Engram"},
    {"checkpoint_gb", P::Derived, "no published size carried"},
    {"gpu", P::ThirdParty, "FACTS §2.1: https://aiwiki.ai/wiki/nvidia_h200"},
    {"gpus,tp,dp,ep", P::Engine,
     "FACTS-parallel §1.4: vLLM's low-load recipe for V3/R1 on 8×H200, TP8 with expert parallel (https://docs.vllm.ai/projects/recipes/en/latest/DeepSeek/DeepSeek-V3.html)"},
};

// Llama 3.1: dense GQA, 8 KV heads × 128 dims, BF16 weights and KV, 128K positions.
void llama31(ModelArch& m, int layers, int hidden, int q_heads, int inter) {
  m = ModelArch{};
  set_modes(m, std::string(static_cast<std::size_t>(layers), 'D').c_str());
  m.hidden = hidden;
  m.vocab = 128256;
  m.attn = AttnKind::MHA;
  m.q_heads = q_heads;
  m.kv_heads = 8;
  m.head_dim = 128;
  m.v_dim = 128;
  m.kv_fmt = NumFormat::BF16;
  m.dense_layers = layers;
  m.dense_inter = inter;
  m.experts_fmt = NumFormat::BF16;
  m.dense_fmt = NumFormat::BF16;
  m.head_fmt = NumFormat::BF16;
  m.max_pos = 131072;
}

void build_llama70_h100(Scenario& s) {
  llama31(s.model, 80, 8192, 64, 28672);
  s.hw = Hardware{};
  b200_node(s.hw);
  s.hw.gpu = GpuKind::H100;
  s.work = Workload{};
  engine_defaults(s.hw, s.work);
  workload_defaults(s.work);
  s.hw.gpus = 4;
  s.par = Parallel{4, 1, 1, 1, 0};
}

void build_llama8_h100(Scenario& s) {
  llama31(s.model, 32, 4096, 32, 14336);
  s.hw = Hardware{};
  b200_node(s.hw);
  s.hw.gpu = GpuKind::H100;
  s.work = Workload{};
  engine_defaults(s.hw, s.work);
  workload_defaults(s.work);
  s.hw.gpus = 1;
  s.par = Parallel{1, 1, 1, 1, 0};
}

const InputSource kLlamaModel[] = {
    {"modes,hidden,q_heads,kv_heads,head_dim,v_dim,dense_layers,dense_inter,vocab,attn,max_pos", P::Paper,
     "meta-llama/Llama-3.1 config.json (FACTS-parallel §1.6: https://huggingface.co/meta-llama/Llama-3.1-70B-Instruct/blob/main/config.json)"},
    {"kv_fmt,experts_fmt,dense_fmt,head_fmt,act_fmt", P::Paper, "BF16 checkpoint, activations and KV cache (FACTS-parallel §1.6: 327,680 B/token for 70B)"},
    {"enc_layers,q_lora,kv_lora,rope_dim,o_lora,o_groups,n_win,swa_all,kv_rope_bf16,kv_pad,idx_fmt,swa_fmt,idx_heads,idx_dim,top_k,cand_src,cand_blocks,"
     "cand_block,experts,shared_experts,experts_per_token,expert_inter,engram,engram_ngram,engram_heads,engram_dim,engram_fmt,engram_home,bounded_replay,draft_layers",
     P::Paper, "Llama 3.1 is a dense GQA decoder: no MLA, window, indexer, experts, Engram or draft module"},
    {"tied_embed", P::Paper, "meta-llama/Llama-3.1 config.json: tie_word_embeddings false"},
    {"checkpoint_gb", P::Derived, "no published size carried"},
};

const InputSource kLlama70Hw[] = {
    {"gpu", P::ThirdParty, "FACTS §2.1: https://lzwjava.github.io/nvidia-h200-gpu-specs-en (H100 80 GB, 3.35 TB/s)"},
    {"gpus,tp,dp,ep", P::Engine, "FACTS-parallel §1.4: vLLM benchmarks Llama 3 70B on 4×H100 at TP4 (https://blog.vllm.ai/2024/09/05/perf-update.html)"},
};

const InputSource kLlama8Hw[] = {
    {"gpu", P::ThirdParty, "FACTS §2.1: https://lzwjava.github.io/nvidia-h200-gpu-specs-en (H100 80 GB, 3.35 TB/s)"},
    {"gpus,tp,dp,ep", P::Measured, "FACTS-parallel §5.3: one H100, batch-1 decode step measured with and without CUDA graphs (https://cloudai.pt/tag/cuda-graphs/)"},
};

const PresetInfo kPresets[] = {
    {"v41-flash-8xb200", "DeepSeek V4.1 Flash · 8×B200 (two TP4 instances)",
     "The released model (FP4 KV, FP4 experts, FP8 dense) as NVIDIA's recipe serves it on a B200 node.", build_v41_b200,
     {kV41B200, kV41Model, kB200Node, kEngine, kWorkload}},
    {"v41-flash-4xgb300", "DeepSeek V4.1 Flash · 4×GB300 (TP4, the reference deployment)",
     "The deployment the measured V4.1 points ran on: one GB300 compute tray at TP4.", build_v41_gb300,
     {kV41Gb300, kV41Model, kB200Node, kEngine, kWorkload}},
    {"v41-flash-card", "DeepSeek V4.1 Flash · the design card's assumptions",
     "BF16 weights, MBU 1, 8 GPUs at 8 TB/s and the card's latency bands: the card's figures, checked.", build_v41_card,
     {kCard, kV41B200, kV41Model, kB200Node, kEngine, kWorkload}},
    {"v41-flash-8xh200", "DeepSeek V4.1 Flash · 8×H200 (TP4, Engram in host DRAM)",
     "The released model on H200 (141 GB, 4.8 TB/s): the Engram tables must leave HBM.", build_v41_h200,
     {kV41H200, kV41Model, kB200Node, kEngine, kWorkload}},
    {"v4-flash-8xb200", "DeepSeek V4 Flash · 8×B200 (predecessor)",
     "CSA ratio 4 / HCA ratio 128 layers with FP8 main KV: about 4× the V4.1 global KV, and no bounded replay.",
     build_v4_b200, {kV4Model, kB200Node, kEngine, kWorkload}},
    {"deepseek-v3-8xh200", "DeepSeek-V3 · 8×H200 (MLA, TP8 + EP8)", "MLA with a BF16 576-value latent per layer, 61 layers.",
     build_v3_h200, {kV3Model, kB200Node, kEngine, kWorkload}},
    {"llama31-70b-8xh100", "Llama 3.1 70B · 8×H100 (dense GQA, two TP4 instances)",
     "80 layers, 8 KV heads × 128 dims, BF16 KV, 128K positions.", build_llama70_h100,
     {kLlama70Hw, kLlamaModel, kB200Node, kEngine, kWorkload}},
    {"llama31-8b-1xh100", "Llama 3.1 8B · 1×H100 (batch-1 decode)", "A small dense model on one GPU: the launch-bound end of decode.",
     build_llama8_h100, {kLlama8Hw, kLlamaModel, kB200Node, kEngine, kWorkload}},
};

struct Alias {
  const char* old_name;
  const char* name;
};
// Retired names keep old share links working.
const Alias kAliases[] = {{"llama3-70b-8xh100", "llama31-70b-8xh100"}};

bool key_in_list(std::string_view list, std::string_view key) {
  std::size_t i = 0;
  while (i <= list.size()) {
    std::size_t end = list.find(',', i);
    if (end == std::string_view::npos) end = list.size();
    if (list.substr(i, end - i) == key) return true;
    i = end + 1;
  }
  return false;
}

}  // namespace

std::span<const PresetInfo> presets() { return {kPresets, sizeof kPresets / sizeof kPresets[0]}; }

const PresetInfo* find_preset(std::string_view name) {
  for (const Alias& a : kAliases) {
    if (name == a.old_name) name = a.name;
  }
  for (const PresetInfo& p : kPresets) {
    if (name == p.name) return &p;
  }
  return nullptr;
}

std::string preset_names_allowed() {
  std::string names = "one of: ";
  for (std::size_t i = 0; i < std::size(kPresets); ++i) {
    if (i) names += ", ";
    names += kPresets[i].name;
  }
  return names;
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

std::string_view base_preset_name(const Scenario& s) { return s.origin ? std::string_view(s.origin->base_preset) : s.preset; }

std::string_view config_name(const Scenario& s) {
  const std::string_view p = s.preset;
  return p.starts_with(kConfigPresetPrefix) ? p.substr(kConfigPresetPrefix.size()) : std::string_view();
}

std::string config_label(std::string_view name, const Scenario& s) {
  // On the kept preset's hardware and layout, its own words for them ("8×B200 (two TP4 instances)");
  // once they change, the GPUs of the instance.
  Scenario base;
  const PresetInfo* p = find_preset(base_preset_name(s));
  if (p && make_preset(p->name, base) && base.hw.gpus == s.hw.gpus && base.hw.gpu == s.hw.gpu && base.par.tp == s.par.tp &&
      base.par.dp == s.par.dp) {
    const std::string_view label = p->label;
    if (const std::size_t at = label.find(" · "); at != std::string_view::npos) return std::string(name) + " (config.json)" + std::string(label.substr(at));
  }
  return std::string(name) + " (config.json) · " + std::to_string(s.hw.gpus) + "×" + gpu_info(s.hw.gpu).label;
}

std::string InputSourceOf::text() const {
  if (provenance == Provenance::Override) {
    return std::string(source) + (from_file ? " (the loaded config.json has " : " (the preset has ") + preset_value + ")";
  }
  return std::string(source);
}

std::string scenario_label(const Scenario& s) {
  // A loaded model's name with the hardware it runs on now (the GPU count may have changed since).
  if (const std::string_view name = config_name(s); !name.empty()) return config_label(name, s);
  if (s.origin) return s.origin->label;
  const PresetInfo* p = find_preset(s.preset);
  return p ? std::string(p->label) : s.preset;
}


namespace {

constexpr const char* kOverride = "set by the user";
constexpr const char* kDefaultAssumed = "assumed: the model's default (docs/model.md)";

// Which of a preset's listed sources covers each parameter, found once for every preset: describe() asks
// for all of them on every call, and scanning the comma lists each time was a fifth of its time.
const InputSource* listed_source(const PresetInfo* preset, std::size_t param) {
  static const std::vector<const InputSource*> table = [] {
    const std::span<const ParamDef> all = params();
    std::vector<const InputSource*> t(std::size(kPresets) * all.size(), nullptr);
    // Each listed key found by binary search in the sorted keys (this runs at start-up, before the first
    // frame: matching every key against every list was ~10 ms of WebAssembly there). The first group that
    // lists a key gives its source.
    std::vector<std::pair<std::string_view, std::size_t>> names(all.size());
    for (std::size_t k = 0; k < all.size(); ++k) names[k] = {all[k].key, k};
    std::sort(names.begin(), names.end());
    for (std::size_t p = 0; p < std::size(kPresets); ++p) {
      for (const std::span<const InputSource>& group : kPresets[p].inputs) {
        for (const InputSource& i : group) {
          const std::string_view list = i.key;
          std::size_t a = 0;
          while (a <= list.size()) {
            std::size_t e = list.find(',', a);
            if (e == std::string_view::npos) e = list.size();
            const std::string_view key = list.substr(a, e - a);
            auto at = std::lower_bound(names.begin(), names.end(), key, [](const auto& n, std::string_view k) { return n.first < k; });
            for (; at != names.end() && at->first == key; ++at) {
              if (!t[p * all.size() + at->second]) t[p * all.size() + at->second] = &i;
            }
            a = e + 1;
          }
        }
      }
    }
    return t;
  }();
  const std::size_t n = params().size();
  const std::size_t p = static_cast<std::size_t>(preset - kPresets);
  return param < n && p < std::size(kPresets) ? table[p * n + param] : nullptr;
}

// The source of one key under `preset` (not checking for an override): a loaded file's record first,
// then catalog-backed hardware, then the preset's groups in order.
const char* static_source(const Scenario& s, const PresetInfo* preset, const ParamDef* def, std::string_view key, Provenance& prov) {
  // A loaded file records where each of its keys came from (the file's field, or why it was assumed).
  if (s.origin) {
    for (const InputOrigin& i : s.origin->inputs) {
      if (i.key == key) {
        prov = i.provenance;
        return i.source.c_str();
      }
    }
  }
  if (key == "gpu" || ((key == "hbm_gb" || key == "hbm_tbps" || key == "link_gbps" || key == "link_domain" || key == "node_gpus") &&
                       def && get_param_number(s, *def) == 0)) {
    const GpuInfo& g = gpu_info(s.hw.gpu);
    prov = g.provenance;
    return g.source;
  }
  if (key == "host_link" || ((key == "host_gbps" || key == "host_lat_us") && def && get_param_number(s, *def) == 0)) {
    const LinkInfo& l = link_info(s.hw.host_link);
    prov = l.provenance;
    return l.source;
  }
  if (preset) {
    const std::span<const ParamDef> all = params();
    const InputSource* found = nullptr;
    if (def && def >= all.data() && def < all.data() + all.size()) {
      found = listed_source(preset, static_cast<std::size_t>(def - all.data()));
    } else {
      for (const std::span<const InputSource>& group : preset->inputs) {
        for (const InputSource& i : group) {
          if (!found && key_in_list(i.key, key)) found = &i;
        }
      }
    }
    if (found) {
      prov = found->provenance;
      return found->source;
    }
  }
  prov = Provenance::Assumed;
  return kDefaultAssumed;
}

}  // namespace

InputProvenance input_provenance(const Scenario& s, std::string_view key) {
  InputProvenance out;
  const ScenarioOrigin* origin = s.origin.get();
  const PresetInfo* preset = find_preset(base_preset_name(s));
  const ParamDef* def = find_param(key);
  if (def && (origin || preset)) {
    // A loaded file's scenario is the base its later edits are measured against, as a preset is for its own.
    Scenario built;
    if (!origin) preset->build(built);
    const Scenario& base = origin ? origin->loaded : built;
    if (!param_equal(s, base, *def)) {
      out.provenance = Provenance::Override;
      out.source = std::string(kOverride) + " (" + (origin ? "the loaded config.json" : "the preset") + " has " + get_param_text(base, *def) + ")";
      return out;
    }
  }
  out.source = static_source(s, preset, def, key, out.provenance);
  return out;
}

void all_input_provenance(const Scenario& s, std::vector<InputSourceOf>& out) {
  out.clear();
  out.reserve(params().size());
  const ScenarioOrigin* origin = s.origin.get();
  const PresetInfo* preset = find_preset(base_preset_name(s));
  // A loaded file's scenario is the base its later edits are measured against, as a preset is for its own.
  Scenario built;
  if (!origin && preset) preset->build(built);
  const Scenario& base = origin ? origin->loaded : built;
  for (const ParamDef& p : params()) {
    InputSourceOf in;
    in.key = p.key;
    if ((origin || preset) && !param_equal(s, base, p)) {
      in.provenance = Provenance::Override;
      in.source = kOverride;
      in.from_file = origin != nullptr;
      in.preset_value = get_param_text(base, p);
    } else {
      in.source = static_source(s, preset, &p, p.key, in.provenance);
    }
    out.push_back(std::move(in));
  }
}

}  // namespace tierscope::model
