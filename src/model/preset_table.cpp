// The preset scenarios as data: each a table entry of settings strings in the parameter registry's keys and
// value words (the same `key=value&…` a share link carries), applied in order over the preset it builds on,
// and the sources of its inputs. Every input of every preset names where it comes from (fact-sheet section
// and URL), or says it is assumed and why; layouts follow the engine recipe each preset cites.
//
// Sections: [SECTION] shared groups of inputs · [SECTION] DeepSeek V4.1 Flash · [SECTION] other models ·
// [SECTION] models of the measured serving points · [SECTION] the presets.
#include "model/presets.h"

namespace tierscope::model {

namespace {

using P = Provenance;

// ---------------------------------------------------------------------------------------------
// [SECTION] shared groups of inputs

// Engine and runtime constants every preset shares: one set, never tuned per preset or per point.
constexpr const char* kEngineSettings =
    "mbu=0&mfu=0&kernel_us=0&kernel_ramp_us=0&cuda_graphs=auto&host_us=0&host_per_seq_us=0&host_res_us=0&topk_gkeys=0&gemm_bw_eff=0&gemm_flop_eff=0&gemm_m_half=0&expert_bw_eff=0&expert_flop_eff=0&"
    "expert_m_half=0&attn_bw_eff=0&attn_flop_eff=0&index_bw_eff=0&index_flop_eff=0&compute=formats&link_eff=0.8&ar_lat_us=15&ar_rdma_lat_us=47&a2a_lat_us=25&a2a_rdma_lat_us=80&hbm_usable=0.9&"
    "workspace_gb=4&lat_sram_ns=20&lat_hbm_us=0.5&lat_ssd_us=60&lat_rdma_us=1.75&ssd_dwpd=1&retention_h=72&"
    "chunk=8192&spec_tokens=0&spec_accept=0.7&spec_accept_len=0&swa_pool=0.1&route_skew=0&eplb_residual=0.11&a2a_kind=auto&tbo=auto";

// A DGX/HGX B200-class node (FACTS §2.1-2.4).
constexpr const char* kB200NodeSettings = "gpu=b200&host_dram_gb=2000&host_link=pcie5&nic_gbps=50&ssd_count=8&ssd_gbps=14&ssd_tb=3.84";

constexpr const char* kWorkloadSettings = "ctx=131072&batch=1&prompt=8192&output=1024&prefix_hit=7168&prefix_tier=auto";

constexpr const char* kV41Config =
    "FACTS §1.4.1: https://huggingface.co/deepseek-ai/DeepSeek-V4.1-Flash/blob/dba1be0a40aa45a94ad051997016db3960a90277/config.json";

const InputSource kEngine[] = {
    {"mbu,mfu", P::Derived,
     "0: each kernel class at its own achieved shares from the engine profile (model/engine.cpp); a value above 0 forces one share on every class"},
    {"kernel_us", P::Derived,
     "0: the engine profile's launch floor: 3 µs for a small decode kernel replayed from a CUDA graph, 2-4 µs measured for norm, RoPE, quantise and top-k kernels with their own work against 0.9-1.3 µs for a trivial one (https://github.com/pytorch/pytorch/issues/161104 ; "
     "https://github.com/ahrefs/ocannl/issues/488), eager 9 µs on Hopper (Llama 3.1 8B, 8.4 ms eager over ~360 kernels, FACTS-parallel §5.3, "
     "https://cloudai.pt/tag/cuda-graphs/) and 7 µs on Blackwell (assumed: faster hosts); CDNA 3.5 µs from a graph and 10 µs eager, assumed from "
     "HIP graph nodes at ~3.9 µs (https://github.com/ROCm/rocm-systems/issues/10834); a prompt pass's kernel its host dispatch, SGLang 50 µs "
     "(https://github.com/sgl-project/sglang/pull/12160), TensorRT-LLM 35 µs (https://github.com/NVIDIA/TensorRT-LLM/pull/12653), vLLM its eager launch"},
    {"kernel_ramp_us", P::Engine,
     "0: the engine profile's 2.3 µs per kernel on top of its roofline time, with dense GEMMs streaming 0.84 of HBM: a least-squares fit of "
     "time = bytes / (0.84 × 3.35 TB/s) + 2.3 µs to DeepGEMM's six FP8 dense shapes at M = 64 on H800 (1,688-2,668 GB/s; four within 1 %, "
     "the other two −16 % and +24 %; https://github.com/deepseek-ai/DeepGEMM/blob/55ab91f/README.md); Blackwell and CDNA assumed the same"},
    {"cuda_graphs", P::Engine,
     "auto: decode replays CUDA graphs up to the engine's largest captured batch per replica and runs eagerly above it (vLLM 512, "
     "https://github.com/vllm-project/vllm/blob/main/vllm/config/vllm.py ; SGLang 256 below TP4 on Hopper, else 512, https://github.com/sgl-project/sglang/blob/main/python/sglang/srt/server_args.py ; "
     "TRT-LLM 128, https://nvidia.github.io/TensorRT-LLM/1.3.0rc27/llm-api/reference/DecodeCudaGraphConfig.html ; DeepSeek 128, https://github.com/deepseek-ai/profile-data)"},
    {"host_per_seq_us,host_res_us", P::Engine,
     "0: the engine profile's h1 per running request (29 µs TensorRT-LLM, 45 ms at 1,536 requests, https://github.com/NVIDIA/TensorRT-LLM/pull/10273 ; "
     "15 µs SGLang and DeepSeek assumed; 4 µs vLLM, from https://github.com/vllm-project/vllm/pull/46112, assumed ×3-4) and its always-exposed residual (0.45 ms "
     "TensorRT-LLM, https://github.com/NVIDIA/TensorRT-LLM/issues/13957 ; 0.2 ms SGLang, https://lmsys.org/blog/2024-12-04-sglang-v0-4/ ; 0.35 ms vLLM, "
     "https://github.com/vllm-project/vllm/pull/23569 ; 0.2 ms DeepSeek, assumed)"},
    {"topk_gkeys", P::Engine,
     "0: a radix-select top-k over the candidates at 288 G scores/s on Blackwell (TensorRT-LLM's radix kernel: top-2,048 of 1,024 rows × ~131K FP32 "
     "scores in 461-497 µs, https://github.com/NVIDIA/TensorRT-LLM/blob/main/docs/source/blogs/tech_blog/blog29_GVR_V2_Self_Sampling_Exact_TopK_for_Sparse_Attention.md) "
     "and 150 G scores/s on Hopper and CDNA (assumed: about half the HBM bandwidth, no measurement found), plus ~13 µs a call"},
    {"host_us", P::Engine,
     "0: the engine profile's 0.5 ms per step plus 4-29 µs per running request, run one step ahead by the overlap scheduler (on by default in vLLM V1, "
     "SGLang and TRT-LLM) so only what outlasts the GPU step shows, plus a residual of 0.2-0.45 ms (https://github.com/NVIDIA/TensorRT-LLM/pull/10273 ; "
     "https://github.com/NVIDIA/TensorRT-LLM/issues/13957 ; https://github.com/vllm-project/vllm/pull/23569 ; https://lmsys.org/blog/2024-12-04-sglang-v0-4/)"},
    {"gemm_bw_eff,gemm_flop_eff,gemm_m_half,expert_bw_eff,expert_flop_eff,expert_m_half", P::Engine,
     "0: the engine profile's GEMM curves: a flat HBM share, dense 0.84 with each kernel's 2.3 µs ramp on top (fitted to DeepGEMM FP8 at M = 64, "
     "1,688-2,668 GB/s of 3.35 TB/s as measured, https://github.com/deepseek-ai/DeepGEMM/blob/55ab91f/README.md ; a graphed BF16 batch-1 step 0.94, FACTS-parallel §5.3) and grouped experts 0.70 (masked grouped FP8 0.42-0.65, https://github.com/deepseek-ai/DeepGEMM/issues/114 ; "
     "NVFP4 0.56-0.58, https://github.com/flashinfer-ai/flashinfer/pull/2503 ; 0.70 fitted on the measured runs of data/silicon as a whole), and a FLOP share eff × M / (M + 128): 0.75 on Hopper, 0.55 on Blackwell, fitted to the same tables (NVFP4 W4A4 grouped GEMMs on Blackwell: M + 250, 0.27 measured at 227 rows per expert); "
     "CDNA assumed lower: dense 0.55, grouped experts 0.45, FLOP 0.45"},
    {"attn_bw_eff,attn_flop_eff,index_bw_eff,index_flop_eff", P::Engine,
     "0: the engine profile's kernel rates: FlashMLA on H800 ~3000 GB/s and ~660 TFLOP/s BF16, 0.90 and 0.67 (https://github.com/deepseek-ai/FlashMLA), "
     "0.60 / 0.45 on Blackwell (https://github.com/vllm-project/vllm/pull/41778); paged GQA decode 0.55 of HBM on Hopper (https://github.com/Dao-AILab/flash-attention/issues/1572), "
     "0.63 on Blackwell (https://github.com/Dao-AILab/flash-attention/pull/2104); the indexer's FP8 logits 0.79 of HBM on B200 (https://github.com/vllm-project/vllm/pull/48582), "
     "0.60 on Hopper (assumed), 0.50 of FP8 peak (https://github.com/sgl-project/sglang/issues/11989); CDNA assumed"},
    {"link_eff", P::Engine,
     "FACTS-parallel §2.1, §3.4: NCCL reaches ~370 of 450 GB/s on NVLink 4 (https://github.com/NVIDIA/nccl-tests/issues/212); one-sided all-to-all ~80 % of 900 GB/s"},
    {"ar_lat_us", P::Derived,
     "fitted on the measured runs shipped in data/silicon as a whole (one value for every engine and GPU): the mean TPOT of the dense "
     "models at TP 2-8 sat 1.2-1.8× below the measured with a bare all-reduce's 3.5 µs (1 KB on 4×H800, FACTS-parallel §2.1, "
     "https://github.com/NVIDIA/nccl/issues/1984); an all-reduce as the engines run it in decode (fused with the residual and norm, "
     "waiting for the slowest rank) takes ~15 µs (docs/validation.md)"},
    {"ar_rdma_lat_us", P::Measured,
     "an all-reduce across nodes runs in NCCL (the engines' own one-shot kernels need the GPUs on one NVLink domain): "
     "4 B to 1 KB over 2 nodes of 8 H20 with IB NDR, NCCL 2.21.5, NVLS tree: 46-48 µs (https://github.com/NVIDIA/nccl/issues/1244)"},
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
    {"spec_accept_len", P::Derived,
     "0: the tokens a step yields follow from spec_accept, (1 − p^(d+1))/(1 − p); set it to an engine's measured acceptance length, e.g. DeepSeek-R1 MTP on "
     "TensorRT-LLM 1.92 / 2.58 / 2.82 for 1 / 2 / 3 drafts, strict acceptance "
     "(https://github.com/NVIDIA/TensorRT-LLM/blob/main/docs/source/blogs/tech_blog/blog1_Pushing_Latency_Boundaries_Optimizing_DeepSeek-R1_Performance_on_NVIDIA_B200_GPUs.md)"},
    {"route_skew", P::Measured,
     "0: the skew real traffic shows without balancing at the layout's EP size, log-linear from 1 at EP1 through 1.8 at EP8 (assumed) to 2.56 at "
     "EP32, DeepSeek-R1 on 32 GB200 with no EPLB: hottest rank 2.56× the mean (FACTS-parallel §4.3, "
     "https://nvidia.github.io/TensorRT-LLM/blogs/tech_blog/blog4_Scaling_Expert_Parallelism_in_TensorRT-LLM.html); "
     "the skew depends on the dataset: set it per workload (1 = uniform routing)"},
    {"eplb_residual", P::Engine,
     "FACTS-parallel §4.3: offline EPLB with 288 slots leaves (max − mean)/mean 0.109-0.115 at EP32-EP36 "
     "(https://nvidia.github.io/TensorRT-LLM/blogs/tech_blog/blog4_Scaling_Expert_Parallelism_in_TensorRT-LLM.html); applies only with redundant slots"},
    {"a2a_kind", P::Engine,
     "auto: DeepEP low-latency kernels in decode, normal kernels in prefill, as SGLang (--deepep-mode auto) and DeepSeek run them "
     "(FACTS-parallel §1.3, §3.2: https://lmsys.org/blog/2025-05-05-large-scale-ep/ ; https://github.com/deepseek-ai/DeepEP)"},
    {"tbo", P::Engine,
     "auto: two-batch overlap where the engine runs it, DeepSeek always and SGLang's large-EP recipes (its flag enable_two_batch_overlap is off by default), "
     "with data-parallel attention over expert parallelism across nodes; "
     "off on NVLink-only GB200 (FACTS-parallel §3.7: https://lmsys.org/blog/2025-05-05-large-scale-ep/ ; https://lmsys.org/blog/2025-06-16-gb200-part-1/)"},
    {"pd_tp,pd_nics,kv_page,rdma_eff,pd_fixed_us,pd_desc_us,pd_link,pd_overlap", P::Engine,
     "0 / auto: the engine's own transfer engine for the prefill→decode hand-off (roofline/topic_handoff.cpp): vLLM's NixlConnector, "
     "SGLang's Mooncake backend, TensorRT-LLM's cache transceiver, each with its page, fixed cost per transfer, cost per descriptor and "
     "overlap, sourced there; RDMA at 0.85 of the NICs' rate (Mooncake's transfer engine 87 GB/s on 4 × 200 Gb/s RoCE, "
     "https://github.com/kvcache-ai/Mooncake); the prefill workers at the scenario's TP, one NIC per GPU as on HGX nodes (FACTS §2.3: https://docs.nvidia.com/networking/display/ConnectX7VPI/Introduction)"},
    {"max_batch", P::Derived, "0: the engine's own default running-batch cap for this GPU (docs/model.md, model/engine.cpp)"},
    {"compute", P::Derived, "formats: each GEMM at the rate of its weight and activation formats (docs/model.md)"},
    {"pcie_share,host_mem_gbps", P::Derived,
     "0: the platform's host path (model/kv_store.cpp): GPUs behind one PCIe switch and the node's host-memory channels, each row with its source"},
    {"kv_store", P::Engine,
     "auto: the store the engine's prefix cache spills to (model/kv_store.cpp): vLLM with LMCache (https://docs.lmcache.ai/kv_cache/cpu_ram.html), "
     "SGLang HiCache (https://docs.sglang.io/advanced_features/hicache_design.html), TensorRT-LLM with Dynamo's KVBM "
     "(https://docs.nvidia.com/dynamo/latest/kvbm/trtllm-setup.html), DeepSeek's 3FS (https://github.com/deepseek-ai/3FS)"},
    {"state_ckpt", P::Engine,
     "0: the engine's: SGLang every 256 tokens (--mamba-track-interval, https://github.com/sgl-project/sglang/blob/main/python/sglang/srt/server_args.py), "
     "vLLM at each attention block (https://github.com/vllm-project/vllm/blob/main/vllm/config/cache.py), others assumed as SGLang"},
    // Layer kinds the presets' models do not have: they set none of these keys, so every preset shares the source.
    {"swa_kv_heads,swa_head_dim,swa_v_dim,lin_k_heads,lin_v_heads,lin_k_dim,lin_v_dim,lin_conv,lin_fmt,ffn,ffn_mats", P::Paper,
     "the preset's model has none of these layer kinds and gated FFNs (its config.json, cited for its other keys)"},
    {"expert_latent", P::Paper, "0: the preset's model's routed experts take the hidden width in and out, no latent (its config.json, cited for its other keys)"},
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
    {"prefix_tier", P::Engine,
     "auto: the engines' prefix caches keep freed KV in HBM, spill it to a host-DRAM tier, then to storage "
     "(vLLM OffloadingConnector https://docs.vllm.ai/en/stable/features/kv_offloading_usage/ ; SGLang HiCache L1/L2/L3 "
     "https://docs.sglang.io/advanced_features/hicache_design.html); a returning session's prefix is the least recently used "
     "of the batch's, so it sits in the deepest tier the batch's prefixes reach (assumed)"},
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
    {"prefill_load", P::Assumed, "assumed 0: one request alone, the figures' single-request view; set it to the load a comparison ran at"},
    {"block_tokens", P::Engine, "the Mooncake FAST'25 traces hash 512-token blocks (https://github.com/kvcache-ai/Mooncake/tree/main/FAST25-release)"},
};

// ---------------------------------------------------------------------------------------------
// [SECTION] DeepSeek V4.1 Flash

// As released (FACTS §1.4.1 config, §1.4.4 cache layout, §1.4.6 Engram). Layers 0-1 SWA-only; 2/8/14
// Full at ratio 2 with Reuse between; 20 Full ratio 1 (candidate source); 24/28/32/36 Reindex; the other
// decoder layers Reuse.
constexpr const char* kV41ModelSettings =
    "modes=SSF2UUUUUF2UUUUUF2UUUUUFUUUIUUUIUUUIUUUIUUU&enc_layers=20&hidden=5120&vocab=129280&attn=latent&"
    "q_heads=64&kv_heads=1&head_dim=512&v_dim=512&q_lora=1280&rope_dim=64&o_lora=1024&o_groups=8&n_win=128&swa_all=1&"
    "kv_fmt=fp4_g16&idx_fmt=fp4_g32&swa_fmt=fp8_g32&idx_heads=32&idx_dim=128&top_k=512&cand_src=20&cand_blocks=2048&cand_block=8&"
    "experts=384&shared_experts=1&experts_per_token=6&expert_inter=2304&experts_fmt=fp4_g32&dense_fmt=fp8_b1024&head_fmt=bf16&act_fmt=fp8&"
    "engram=1:384006168,14:384016682&engram_ngram=4&engram_heads=8&engram_dim=256&engram_fmt=fp8_g32&engram_home=hbm&"
    "max_pos=1048576&bounded_replay=1&draft_layers=1&checkpoint_gb=510.29";

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
    {"engine", P::Measured, "vLLM: the engine InferenceX's measured V4.1 Flash points ran (https://inferencex.semianalysis.com/inference/deepseek-v41-flash)"},
};

const InputSource kV41H200[] = {
    {"gpu", P::ThirdParty, "FACTS §2.1: https://aiwiki.ai/wiki/nvidia_h200 (141 GB, 4.8 TB/s)"},
    {"gpus,tp,dp,ep", P::Engine,
     "FACTS-parallel §1.4: Dynamo's V4.1 Flash recipe runs TP4 workers on H200 (https://docs.nvidia.com/dynamo/recipes/deepseek-v4-1-flash)"},
    {"engram_home", P::Assumed,
     "assumed host DRAM: at TP4 on 141 GB GPUs the 203 GB of Engram tables leave no room for KV in HBM (FACTS §1.5: the paper's host-resident setup)"},
};

const InputSource kV41Gb300[] = {
    {"gpu,gpus,tp,dp,ep", P::Paper,
     "FACTS §1.4.7: NVIDIA's vLLM reference deployment, 4 × GB300 at TP4 (https://huggingface.co/nvidia/DeepSeek-V4.1-Flash-NVFP4)"},
    {"host_link,host_dram_gb", P::ThirdParty,
     "FACTS §2.3, FACTS-parallel §2.2: Grace over NVLink-C2C, ~480 GB LPDDR5X per Grace, two per 4-GPU tray "
     "(https://app.daily.dev/posts/the-evolution-of-nvidia-blackwell-gpu-memory-architecture-zp2tjxtaw)"},
    {"nic_gbps", P::Paper, "FACTS-parallel §2.3: one ConnectX-8, 800 Gb/s, per GPU (https://docs.nvidia.com/networking/display/connectx8supernic/introduction)"},
    {"ssd_count,ssd_gbps,ssd_tb", P::Assumed, "assumed four 3.84 TB Gen5 drives per tray at 14 GB/s (FACTS §2.4 drive class)"},
};

// The design card's own assumptions (FACTS §5.3): BF16 weights, MBU 1, 8 GPUs at 8 TB/s with every
// weight split evenly, FP4 compute, the card's latency bands, Engram tables in host DRAM, a 1K prefix hit.
const InputSource kCard[] = {
    {"experts_fmt,dense_fmt,head_fmt", P::Card, "design card: ~32 GB/token = 16B × 2 B (FACTS §4 #2, §5.3)"},
    {"mbu,gpus,gpu,tp,dp,ep", P::Card, "design card: ~0.4-0.5 ms floor needs 8 GPUs at 8 TB/s, MBU 1, weights split evenly (FACTS §4 #3)"},
    {"compute", P::Card, "FACTS §5.3: bounded replay 58 µs on 8×B200 at FP4"},
    {"lat_sram_ns,lat_hbm_us,host_lat_us,lat_ssd_us,lat_rdma_us", P::Card, "design card latency bands (FACTS §4 #9-#19, §5.3)"},
    {"engram_home", P::Card, "design card: Engram tables in host DRAM"},
    {"prefix_hit", P::Card, "FACTS §4 #19: the card's 60-100 µs hit fits prefixes of about 1K tokens"},
    {"prefix_tier", P::Card, "design card: the prefix hit is read from the node's SSDs (FACTS §4 #19)"},
    {"checkpoint_gb", P::Card, "the published FP4/FP8 checkpoint does not apply to BF16 weights"},
};

// ---------------------------------------------------------------------------------------------
// [SECTION] Other models

// DeepSeek-V4-Flash as its published config.json states it (FACTS §1.3): 43 layers, compress_ratios [0,0,4] + [128,4]×20
// (0: the window alone, 4: CSA with the indexer, 128: HCA), FP4 experts and FP8 weights in 128 × 128 blocks elsewhere
// (quantization_config.weight_block_size), FP8 main rows of ≈584 B (448 FP8 values + 7 E8M0 scales + 64 BF16 RoPE
// dims + 1 pad). No bounded replay: its sliding-window KV is cached with the prefix.
constexpr const char* kV4ModelSettings =
    "modes=SSF4D128F4D128F4D128F4D128F4D128F4D128F4D128F4D128F4D128F4D128F4D128F4D128F4D128F4D128F4D128F4D128F4D128F4D128F4D128F4D128F4&"
    "hidden=4096&vocab=129280&attn=latent&q_heads=64&kv_heads=1&head_dim=512&v_dim=512&q_lora=1024&rope_dim=64&o_lora=1024&o_groups=8&"
    "n_win=128&swa_all=1&kv_fmt=fp8_g64&swa_fmt=fp8_g64&kv_rope_bf16=1&kv_pad=1&idx_fmt=fp4_g32&idx_heads=64&idx_dim=128&top_k=512&"
    "cand_src=-1&experts=256&shared_experts=1&experts_per_token=6&expert_inter=2048&experts_fmt=fp4_g32&dense_fmt=fp8_b128&"
    "head_fmt=bf16&act_fmt=fp8&max_pos=1048576&bounded_replay=0&draft_layers=1";

const InputSource kV4Model[] = {
    {"modes,hidden,q_heads,head_dim,o_lora,o_groups,experts,shared_experts,experts_per_token,expert_inter,attn,kv_heads,v_dim,rope_dim,n_win,swa_all,"
     "idx_heads,idx_dim,top_k,vocab,max_pos,dense_layers,dense_inter,enc_layers,q_lora,draft_layers",
     P::Paper,
     "config.json of deepseek-ai/DeepSeek-V4-Flash (https://huggingface.co/deepseek-ai/DeepSeek-V4-Flash/blob/main/config.json): compress_ratios, "
     "sliding_window, head_dim, q_lora_rank, o_lora_rank, o_groups, index_*, n_routed_experts, num_nextn_predict_layers; FACTS §1.3"},
    {"kv_fmt,swa_fmt,kv_rope_bf16,kv_pad,idx_fmt,kv_lora,cand_src,cand_blocks,cand_block", P::ThirdParty,
     "FACTS §1.3: third-party reconstruction, FP8 main row ≈584 B, FP4 index row 68 B; no candidate pool before V4.1"},
    {"experts_fmt,dense_fmt,head_fmt,act_fmt", P::Paper,
     "config.json of deepseek-ai/DeepSeek-V4-Flash: expert_dtype fp4 (MXFP4 experts), quantization_config fp8 with weight_block_size [128, 128] "
     "and dynamic activations elsewhere (FACTS §1.3: FP4 MoE experts + FP8 everything else)"},
    {"engram,engram_ngram,engram_heads,engram_dim,engram_fmt,engram_home", P::Engine, "FACTS §1.3: V4-Flash has no Engram layers"},
    {"bounded_replay", P::Paper, "FACTS §1.4: bounded replay is new in V4.1 (https://huggingface.co/papers/2609.19969)"},
    {"tied_embed", P::Paper, "config.json of deepseek-ai/DeepSeek-V4-Flash: tie_word_embeddings false"},
    {"checkpoint_gb", P::Derived, "no published size carried"},
    {"gpus,tp,dp,ep,engine", P::Engine, "FACTS-parallel §1.3: SGLang serves V4-Flash on 4 B200 (https://docs.sglang.io/cookbook/autoregressive/DeepSeek/DeepSeek-V4)"},
    {"price_miss,price_hit,price_out", P::Paper, "FACTS §3: https://api-docs.deepseek.com/quick_start/pricing?model_version=DeepSeek-V4-Pro-0813"},
};

// DeepSeek-V3: MLA (512 latent + 64 RoPE) in BF16 over 61 layers; 3 dense FFN layers, then MoE.
constexpr const char* kV3ModelSettings =
    "modes=DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD&"
    "hidden=7168&vocab=129280&attn=mla&q_heads=128&kv_heads=128&head_dim=192&v_dim=128&q_lora=1536&kv_lora=512&rope_dim=64&kv_fmt=bf16&"
    "experts=256&shared_experts=1&experts_per_token=8&expert_inter=2048&dense_layers=3&dense_inter=18432&"
    "experts_fmt=fp8_b128&dense_fmt=fp8_b128&head_fmt=bf16&act_fmt=fp8&max_pos=163840&draft_layers=1";

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
    {"gpus,tp,dp,ep,engine", P::Engine,
     "FACTS-parallel §1.4: vLLM's low-load recipe for V3/R1 on 8×H200, TP8 with expert parallel (https://docs.vllm.ai/projects/recipes/en/latest/DeepSeek/DeepSeek-V3.html)"},
};

// Llama 3.1: dense GQA, 8 KV heads × 128 dims, BF16 weights and KV, 128K positions; the sizes differ in
// depth and width only.
constexpr const char* kLlama31Settings =
    "vocab=128256&attn=mha&kv_heads=8&head_dim=128&v_dim=128&kv_fmt=bf16&experts_fmt=bf16&dense_fmt=bf16&head_fmt=bf16&max_pos=131072";
constexpr const char* kLlama70Settings =
    "modes=DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD&"
    "hidden=8192&q_heads=64&dense_layers=80&dense_inter=28672";
constexpr const char* kLlama8Settings = "modes=DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD&hidden=4096&q_heads=32&dense_layers=32&dense_inter=14336";

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
    {"gpus,tp,dp,ep,engine", P::Engine, "FACTS-parallel §1.4: vLLM benchmarks Llama 3 70B on 4×H100 at TP4 (https://blog.vllm.ai/2024/09/05/perf-update.html)"},
};

const InputSource kLlama8Hw[] = {
    {"gpu", P::ThirdParty, "FACTS §2.1: https://lzwjava.github.io/nvidia-h200-gpu-specs-en (H100 80 GB, 3.35 TB/s)"},
    {"gpus,tp,dp,ep", P::Measured, "FACTS-parallel §5.3: one H100, batch-1 decode step measured with and without CUDA graphs (https://cloudai.pt/tag/cuda-graphs/)"},
    {"engine", P::Assumed, "assumed vLLM: the measurement names CUDA graphs, not the engine"},
};

// ---------------------------------------------------------------------------------------------
// [SECTION] models of the measured serving points (FACTS-parallel §6 rows 11-15, 30, 35, 36)

constexpr const char* kTrtPerfTable =
    "FACTS-parallel §1.5, §6 rows 15, 24, 30, 35, 36: TensorRT-LLM's perf table layouts (https://nvidia.github.io/TensorRT-LLM/developer-guide/perf-overview.html)";

// gpt-oss-120b: 36 layers alternating a 128-token banded window (S: the layer keeps and attends only its
// window) with full attention (D), GQA 64 query / 8 KV heads of 64, 128 experts top-4 of width 2880. The
// attention sinks are one learned scalar per head: no bytes or FLOPs worth a term, so they are left out.
constexpr const char* kGptOss120Settings =
    "modes=SDSDSDSDSDSDSDSDSDSDSDSDSDSDSDSDSDSD&hidden=2880&vocab=201088&attn=mha&q_heads=64&kv_heads=8&head_dim=64&v_dim=64&"
    "n_win=128&swa_all=0&kv_fmt=bf16&swa_fmt=bf16&experts=128&shared_experts=0&experts_per_token=4&expert_inter=2880&"
    "dense_layers=0&dense_inter=0&experts_fmt=fp4_g32&dense_fmt=bf16&head_fmt=bf16&act_fmt=bf16&max_pos=131072&bounded_replay=0&"
    "draft_layers=0&tied_embed=0&checkpoint_gb=0";

const InputSource kGptOss120Model[] = {
    {"modes,hidden,vocab,attn,q_heads,kv_heads,head_dim,v_dim,n_win,experts,experts_per_token,expert_inter,max_pos,tied_embed", P::Paper,
     "config.json of gpt-oss-120b (layer_types sliding_attention / full_attention → S / D, sliding_window 128): https://huggingface.co/openai/gpt-oss-120b/blob/main/config.json"},
    {"swa_all,shared_experts,dense_layers,dense_inter,bounded_replay", P::Paper,
     "config.json of gpt-oss-120b: only the sliding layers keep a window, every layer is MoE with no shared expert, the window's KV is cached with the prefix"},
    {"experts_fmt,dense_fmt,head_fmt", P::Paper,
     "config.json of gpt-oss-120b quantization_config: MXFP4 experts; attention, router, embedding and head not converted (BF16)"},
    {"kv_fmt,swa_fmt,act_fmt", P::Assumed, "assumed BF16 KV and activations (config.json does not say; an anchor sets FP8 where its engine ran it)"},
    {"enc_layers,q_lora,kv_lora,rope_dim,o_lora,o_groups,kv_rope_bf16,kv_pad,idx_fmt,idx_heads,idx_dim,top_k,cand_src,cand_blocks,cand_block,"
     "engram,engram_ngram,engram_heads,engram_dim,engram_fmt,engram_home,draft_layers",
     P::Paper, "gpt-oss is a GQA decoder: no MLA, indexer, Engram or draft module (https://huggingface.co/openai/gpt-oss-120b/blob/main/config.json); "
     "its per-head attention sinks are one scalar each and are ignored"},
    {"checkpoint_gb", P::Derived, "no published size carried"},
};

// Qwen3-235B-A22B: 94 GQA layers (64 query / 4 KV heads of 128), 128 experts top-8 of width 1536, no
// shared expert; the FP8 checkpoint has 128×128 weight blocks.
constexpr const char* kQwen235Settings =
    "modes=DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD&hidden=4096&vocab=151936&"
    "attn=mha&q_heads=64&kv_heads=4&head_dim=128&v_dim=128&kv_fmt=bf16&experts=128&shared_experts=0&experts_per_token=8&expert_inter=1536&"
    "dense_layers=0&dense_inter=0&experts_fmt=fp8_b128&dense_fmt=fp8_b128&head_fmt=bf16&act_fmt=fp8&max_pos=40960&tied_embed=0&checkpoint_gb=0";

// Qwen3-30B-A3B: 48 GQA layers (32 query / 4 KV heads of 128), 128 experts top-8 of width 768; NVIDIA's
// NVFP4 checkpoint quantizes the block's linear layers (weights and activations) and the KV cache to FP8.
constexpr const char* kQwen30Settings =
    "modes=DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD&hidden=2048&vocab=151936&attn=mha&q_heads=32&kv_heads=4&head_dim=128&"
    "v_dim=128&kv_fmt=fp8&experts=128&shared_experts=0&experts_per_token=8&expert_inter=768&dense_layers=0&dense_inter=0&"
    "experts_fmt=fp4_g16&dense_fmt=fp4_g16&head_fmt=bf16&act_fmt=fp4_g16&max_pos=40960&tied_embed=0&checkpoint_gb=0";

// What every Qwen3 MoE model lacks.
const InputSource kQwen3MoeNone[] = {
    {"enc_layers,q_lora,kv_lora,rope_dim,o_lora,o_groups,n_win,swa_all,kv_rope_bf16,kv_pad,idx_fmt,swa_fmt,idx_heads,idx_dim,top_k,cand_src,"
     "cand_blocks,cand_block,engram,engram_ngram,engram_heads,engram_dim,engram_fmt,engram_home,bounded_replay,draft_layers",
     P::Paper, "Qwen3 MoE is a GQA decoder with no sliding window (use_sliding_window false), MLA, indexer, Engram or draft module"},
    {"checkpoint_gb", P::Derived, "no published size carried"},
};

const InputSource kQwen235Model[] = {
    {"modes,hidden,vocab,attn,q_heads,kv_heads,head_dim,v_dim,experts,shared_experts,experts_per_token,expert_inter,dense_layers,dense_inter,max_pos,tied_embed",
     P::Paper, "config.json of Qwen3-235B-A22B (num_hidden_layers 94, moe_intermediate_size 1536, decoder_sparse_step 1): https://huggingface.co/Qwen/Qwen3-235B-A22B/blob/main/config.json"},
    {"experts_fmt,dense_fmt,head_fmt,act_fmt", P::Paper,
     "config.json of Qwen3-235B-A22B-FP8 quantization_config: fp8, weight_block_size [128, 128], dynamic activations; lm_head and gate kept "
     "(https://huggingface.co/Qwen/Qwen3-235B-A22B-FP8/blob/main/config.json)"},
    {"kv_fmt", P::Assumed, "assumed BF16 KV (config.json does not say; an anchor sets FP8 where its engine table ran it)"},
};

const InputSource kQwen30Model[] = {
    {"modes,hidden,vocab,attn,q_heads,kv_heads,head_dim,v_dim,experts,shared_experts,experts_per_token,expert_inter,dense_layers,dense_inter,max_pos,tied_embed",
     P::Paper, "config.json of Qwen3-30B-A3B (num_hidden_layers 48, moe_intermediate_size 768): https://huggingface.co/Qwen/Qwen3-30B-A3B/blob/main/config.json"},
    {"experts_fmt,dense_fmt,head_fmt,act_fmt,kv_fmt", P::Paper,
     "NVIDIA's NVFP4 checkpoint: NVFP4 weights and activations of the linear layers, FP8 KV cache, router and head kept "
     "(https://huggingface.co/nvidia/Qwen3-30B-A3B-FP4/blob/main/hf_quant_config.json)"},
};

// DeepSeek-R1-0528 as NVIDIA's NVFP4 checkpoint: the V3 architecture with NVFP4 routed experts (weights and
// activations), FP8 elsewhere and an FP8 KV cache.
const InputSource kR1B200[] = {
    {"experts_fmt,act_fmt,kv_fmt", P::Paper,
     "NVIDIA's DeepSeek-R1-0528 NVFP4 checkpoint: NVFP4 routed experts, FP8 KV cache (https://huggingface.co/nvidia/DeepSeek-R1-0528-FP4/blob/main/hf_quant_config.json)"},
    {"gpu,gpus,tp,dp,ep,engine", P::Engine,
     "FACTS-parallel §1.5, §6 rows 11-12: TensorRT-LLM's max-throughput R1 layout on 8×B200, DEP8 (attention DP8, experts EP8) "
     "(https://nvidia.github.io/TensorRT-LLM/latest/blogs/Best_perf_practice_on_DeepSeek-R1_in_TensorRT-LLM.html)"},
};

const InputSource kGptOssH200[] = {
    {"gpu", P::ThirdParty, "FACTS §2.1: https://aiwiki.ai/wiki/nvidia_h200 (141 GB, 4.8 TB/s)"},
    {"gpus,tp,dp,ep,engine", P::Engine, kTrtPerfTable},
};
// Qwen3 serves at most its 40,960 trained positions: the context where the shared workload's 128K would not fit.
constexpr const char* kQwen3Ctx = "Qwen3's 40,960 trained positions (max_position_embeddings in its config.json): the longest context it serves";
const InputSource kQwen235H200[] = {
    {"gpu", P::ThirdParty, "FACTS §2.1: https://aiwiki.ai/wiki/nvidia_h200 (141 GB, 4.8 TB/s)"},
    {"gpus,tp,dp,ep,engine", P::Engine, kTrtPerfTable},
    {"ctx", P::Paper, kQwen3Ctx},
};
const InputSource kQwen30B200[] = {
    {"gpus,tp,dp,ep,engine", P::Engine, kTrtPerfTable},
    {"ctx", P::Paper, kQwen3Ctx},
};

// ---------------------------------------------------------------------------------------------
// [SECTION] the 2026 families, each from its published config.json (tests/data/hf_configs; test_hf_families holds
// each file and its preset to the same model figures)

// Qwen3.5-397B-A17B: 60 layers, three Gated DeltaNet (linear) layers to each full-attention one, GQA 32/2 × 256 on the
// full layers, 512 experts top-10 of width 1024 plus one shared, BF16 weights; the recurrent state kept in FP32.
constexpr const char* kQwen35Settings =
    "modes=LLLDLLLDLLLDLLLDLLLDLLLDLLLDLLLDLLLDLLLDLLLDLLLDLLLDLLLDLLLD&hidden=4096&vocab=248320&attn=mha&q_heads=32&kv_heads=2&"
    "head_dim=256&v_dim=256&lin_k_heads=16&lin_v_heads=64&lin_k_dim=128&lin_v_dim=128&lin_conv=4&lin_fmt=fp32&kv_fmt=bf16&"
    "experts=512&shared_experts=1&experts_per_token=10&expert_inter=1024&dense_layers=0&dense_inter=0&experts_fmt=bf16&dense_fmt=bf16&"
    "head_fmt=bf16&act_fmt=bf16&max_pos=262144&bounded_replay=0&draft_layers=1&tied_embed=0&checkpoint_gb=0";
constexpr const char* kQwen35Config =
    "config.json of Qwen/Qwen3.5-397B-A17B, text_config (https://huggingface.co/Qwen/Qwen3.5-397B-A17B/blob/main/config.json): layer_types, "
    "linear_num_key_heads 16, linear_num_value_heads 64, linear_key_head_dim and linear_value_head_dim 128, linear_conv_kernel_dim 4, "
    "mamba_ssm_dtype float32, num_experts 512, num_experts_per_tok 10, moe_intermediate_size 1024, shared_expert_intermediate_size, "
    "mtp_num_hidden_layers 1, dtype bfloat16";
const InputSource kQwen35Model[] = {
    {"modes,hidden,vocab,attn,q_heads,kv_heads,head_dim,v_dim,lin_k_heads,lin_v_heads,lin_k_dim,lin_v_dim,lin_conv,lin_fmt,experts,shared_experts,"
     "experts_per_token,expert_inter,dense_layers,dense_inter,experts_fmt,dense_fmt,head_fmt,act_fmt,max_pos,draft_layers,tied_embed",
     P::Paper, kQwen35Config},
    {"kv_fmt", P::Assumed, "assumed BF16 KV (config.json does not say; vLLM's default kv_cache_dtype auto keeps the model's dtype)"},
    {"enc_layers,q_lora,kv_lora,rope_dim,o_lora,o_groups,n_win,swa_all,kv_rope_bf16,kv_pad,idx_fmt,swa_fmt,idx_heads,idx_dim,top_k,cand_src,"
     "cand_blocks,cand_block,engram,engram_ngram,engram_heads,engram_dim,engram_fmt,engram_home,bounded_replay,swa_kv_heads,swa_head_dim,swa_v_dim,"
     "ffn,ffn_mats",
     P::Paper, "Qwen3.5 has no MLA, sliding window, sparse indexer or Engram; every layer is MoE with gated experts (its config.json)"},
    {"checkpoint_gb", P::Derived, "no published size carried"},
};
const InputSource kQwen35H200[] = {
    {"gpu", P::ThirdParty, "FACTS §2.1: https://aiwiki.ai/wiki/nvidia_h200 (141 GB, 4.8 TB/s)"},
    {"gpus,tp,dp,ep,engine", P::Engine,
     "vLLM's Qwen3.5 recipe serves Qwen3.5-397B-A17B with --tensor-parallel-size 8 (https://docs.vllm.ai/projects/recipes/en/latest/Qwen/Qwen3.5.html); "
     "without expert parallel every expert is split 8 ways"},
};

// Kimi-K2.5: the DeepSeek-V3 architecture (MLA, 61 layers, the first dense) with 384 experts top-8, its routed experts in
// compressed-tensors INT4 (group 32) and the rest BF16; BF16 activations (W4A16).
constexpr const char* kKimiK25Settings =
    "modes=DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD&hidden=7168&vocab=163840&attn=mla&q_heads=64&kv_heads=64&"
    "head_dim=192&v_dim=128&q_lora=1536&kv_lora=512&rope_dim=64&kv_fmt=bf16&experts=384&shared_experts=1&experts_per_token=8&expert_inter=2048&"
    "dense_layers=1&dense_inter=18432&experts_fmt=int4_g32&dense_fmt=bf16&head_fmt=bf16&act_fmt=bf16&max_pos=262144&draft_layers=0&tied_embed=0&"
    "checkpoint_gb=0";
const InputSource kKimiK25Model[] = {
    {"modes,hidden,vocab,attn,q_heads,kv_heads,head_dim,v_dim,q_lora,kv_lora,rope_dim,experts,shared_experts,experts_per_token,expert_inter,"
     "dense_layers,dense_inter,max_pos,draft_layers,tied_embed",
     P::Paper,
     "config.json of moonshotai/Kimi-K2.5, text_config (https://huggingface.co/moonshotai/Kimi-K2.5/blob/main/config.json): the DeepSeek-V3 fields, "
     "n_routed_experts 384, first_k_dense_replace 1, max_position_embeddings 262144"},
    {"experts_fmt,dense_fmt,head_fmt,act_fmt", P::Paper,
     "config.json of moonshotai/Kimi-K2.5 quantization_config: compressed-tensors, INT4 weights in groups of 32 for the routed experts, its ignore "
     "list keeping attention, shared experts, dense layers and the head in BF16; no input_activations (W4A16)"},
    {"kv_fmt", P::Assumed, "assumed BF16 KV (config.json does not say; vLLM's default kv_cache_dtype auto keeps the model's dtype)"},
    {"enc_layers,o_lora,o_groups,n_win,swa_all,kv_rope_bf16,kv_pad,idx_fmt,swa_fmt,idx_heads,idx_dim,top_k,cand_src,cand_blocks,cand_block,"
     "engram,engram_ngram,engram_heads,engram_dim,engram_fmt,engram_home,bounded_replay",
     P::Paper, "Kimi-K2.5's language model has no sliding window, sparse indexer or Engram (its config.json); its vision tower is not modelled"},
    {"checkpoint_gb", P::Derived, "no published size carried"},
};
const InputSource kKimiK25H200[] = {
    {"gpu", P::ThirdParty, "FACTS §2.1: https://aiwiki.ai/wiki/nvidia_h200 (141 GB, 4.8 TB/s)"},
    {"gpus,tp,dp,ep,engine", P::Engine,
     "Moonshot's deployment guidance serves Kimi-K2.5 on one H200 node with TP8 in vLLM (https://huggingface.co/moonshotai/Kimi-K2.5/blob/main/docs/deploy_guidance.md)"},
};

// GLM-5: MLA with DeepSeek-V3.2's sparse attention (DSA) on all 78 layers, the first three dense, 256 experts top-8, as
// its FP8 checkpoint (zai-org/GLM-5-FP8) is served.
constexpr const char* kGlm5Settings =
    "modes=FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF&hidden=6144&vocab=154880&attn=mla&q_heads=64&"
    "kv_heads=64&head_dim=256&v_dim=256&q_lora=2048&kv_lora=512&rope_dim=64&kv_fmt=bf16&idx_fmt=fp8_s128&idx_heads=32&idx_dim=128&top_k=2048&"
    "cand_src=-1&experts=256&shared_experts=1&experts_per_token=8&expert_inter=2048&dense_layers=3&dense_inter=12288&experts_fmt=fp8_b128&"
    "dense_fmt=fp8_b128&head_fmt=bf16&act_fmt=fp8&max_pos=202752&draft_layers=1&tied_embed=0&checkpoint_gb=0";
const InputSource kGlm5Model[] = {
    {"modes,hidden,vocab,attn,q_heads,kv_heads,head_dim,v_dim,q_lora,kv_lora,rope_dim,idx_heads,idx_dim,top_k,experts,shared_experts,"
     "experts_per_token,expert_inter,dense_layers,dense_inter,max_pos,draft_layers,tied_embed,head_fmt",
     P::Paper,
     "config.json of zai-org/GLM-5 (https://huggingface.co/zai-org/GLM-5/blob/main/config.json): the MLA qk_nope/qk_rope/v_head dims, "
     "index_n_heads 32, index_head_dim 128, index_topk 2048, first_k_dense_replace 3, num_nextn_predict_layers 1"},
    {"experts_fmt,dense_fmt,act_fmt", P::Assumed,
     "the FP8 checkpoint engines serve on one 8-GPU node (https://huggingface.co/zai-org/GLM-5-FP8 ; ~89 GB of weights per GPU at TP8 on B200, "
     "https://docs.vultr.com/inference-cookbook/cuda/model-guides/glm5); 128 × 128 weight blocks and FP8 dynamic activations assumed, as DeepSeek-V3's "
     "layout this architecture follows (the scales are 0.02 % of the bytes)"},
    {"idx_fmt", P::Engine, "the lightning indexer's key cache as vLLM and SGLang store DeepSeek-V3.2's: FP8 with an FP32 scale per 128 values, 132 B per key"},
    {"kv_fmt", P::Assumed, "assumed BF16 KV (config.json does not say; vLLM's default kv_cache_dtype auto keeps the model's dtype)"},
    {"enc_layers,o_lora,o_groups,n_win,swa_all,kv_rope_bf16,kv_pad,swa_fmt,cand_src,cand_blocks,cand_block,engram,engram_ngram,engram_heads,"
     "engram_dim,engram_fmt,engram_home,bounded_replay",
     P::Paper, "GLM-5 has no sliding window, candidate pool or Engram: every layer's indexer scores the whole context (its config.json)"},
    {"checkpoint_gb", P::Derived, "no published size carried"},
};
const InputSource kGlm5B200[] = {
    {"gpus,tp,dp,ep,engine", P::Engine,
     "GLM-5-FP8 needs a whole 8-GPU node at TP8, served with vLLM (https://docs.vultr.com/inference-cookbook/cuda/model-guides/glm5)"},
};

// MiniMax-M2.5: 62 GQA layers (48 query / 8 KV heads of 128), every layer MoE with 256 experts top-8 of width 1536, FP8
// weights in 128 × 128 blocks with dynamic FP8 activations, one MTP module.
constexpr const char* kMiniMaxM25Settings =
    "modes=DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD&hidden=3072&vocab=200064&attn=mha&q_heads=48&kv_heads=8&"
    "head_dim=128&v_dim=128&kv_fmt=bf16&experts=256&shared_experts=0&experts_per_token=8&expert_inter=1536&dense_layers=0&dense_inter=0&"
    "experts_fmt=fp8_b128&dense_fmt=fp8_b128&head_fmt=bf16&act_fmt=fp8&max_pos=196608&draft_layers=1&tied_embed=0&checkpoint_gb=0";
const InputSource kMiniMaxM25Model[] = {
    {"modes,hidden,vocab,attn,q_heads,kv_heads,head_dim,v_dim,experts,shared_experts,experts_per_token,expert_inter,dense_layers,dense_inter,"
     "experts_fmt,dense_fmt,act_fmt,max_pos,draft_layers,tied_embed",
     P::Paper,
     "config.json of MiniMaxAI/MiniMax-M2.5 (https://huggingface.co/MiniMaxAI/MiniMax-M2.5/blob/main/config.json): num_local_experts 256, "
     "intermediate_size 1536, quantization_config fp8 with weight_block_size [128, 128] and dynamic activations, use_mtp"},
    {"head_fmt", P::Assumed, "config.json names no dtype: the unquantized head and embedding taken as BF16 (assumed)"},
    {"kv_fmt", P::Assumed, "assumed BF16 KV (config.json does not say; vLLM's default kv_cache_dtype auto keeps the model's dtype)"},
    {"enc_layers,q_lora,kv_lora,rope_dim,o_lora,o_groups,n_win,swa_all,kv_rope_bf16,kv_pad,idx_fmt,swa_fmt,idx_heads,idx_dim,top_k,cand_src,"
     "cand_blocks,cand_block,engram,engram_ngram,engram_heads,engram_dim,engram_fmt,engram_home,bounded_replay",
     P::Paper, "MiniMax-M2.5 is a GQA decoder with no MLA, sliding window, indexer or Engram (its config.json)"},
    {"checkpoint_gb", P::Derived, "no published size carried"},
};
const InputSource kMiniMaxM25H200[] = {
    {"gpu", P::ThirdParty, "FACTS §2.1: https://aiwiki.ai/wiki/nvidia_h200 (141 GB, 4.8 TB/s)"},
    {"gpus,tp,dp,ep,engine", P::Engine,
     "MiniMax's vLLM deployment guide runs MiniMax-M2.5 on 4 GPUs at --tensor-parallel-size 4 "
     "(https://huggingface.co/MiniMaxAI/MiniMax-M2.5/resolve/main/docs/vllm_deploy_guide.md); an 8-GPU node holds two such instances"},
};

// ---------------------------------------------------------------------------------------------
// [SECTION] the presets

// One serving instance of each recipe; the layout keys are all named (pp and redundant too). A root preset
// starts from a default-constructed Scenario, as the code these entries replace did: the keys no string
// names keep scenario.h's defaults, which are the catalog overrides at 0 (hbm_gb, link_gbps, host_gbps, …:
// the catalog's value) and the fleet traffic, whose sources kEngine and kWorkload list.
const PresetInfo kPresets[] = {
    {"v41-flash-8xb200", "DeepSeek V4.1 Flash · 8×B200 (two TP4 instances)",
     "The released model (FP4 KV, FP4 experts, FP8 dense) as NVIDIA's recipe serves it on a B200 node.", nullptr,
     {kV41ModelSettings, kB200NodeSettings, kEngineSettings, kWorkloadSettings,
      "gpus=4&tp=4&dp=1&ep=1&pp=1&redundant=0&engine=vllm&max_batch=0&price_miss=0.3&price_hit=0.006&price_out=1.2"},
     {kV41B200, kV41Model, kB200Node, kEngine, kWorkload}},
    {"v41-flash-4xgb300", "DeepSeek V4.1 Flash · 4×GB300 (TP4, the reference deployment)",
     "The deployment the measured V4.1 points ran on: one GB300 compute tray at TP4.", "v41-flash-8xb200",
     {"gpu=gb300&host_link=c2c&host_dram_gb=960&nic_gbps=100&ssd_count=4"}, {kV41Gb300}},
    {"v41-flash-card", "DeepSeek V4.1 Flash · the design card's assumptions",
     "BF16 weights, MBU 1, 8 GPUs at 8 TB/s and the card's latency bands: the card's figures, checked.", "v41-flash-8xb200",
     {"experts_fmt=bf16&dense_fmt=bf16&head_fmt=bf16&checkpoint_gb=0&engram_home=dram&gpus=8&tp=8&dp=1&ep=8&pp=1&redundant=0&"
      "mbu=1&compute=fp4&lat_sram_ns=3&lat_hbm_us=0.5&host_lat_us=1.5&lat_ssd_us=60&lat_rdma_us=1.75&prefix_hit=1024&prefix_tier=ssd"},
     {kCard}},
    {"v41-flash-8xh200", "DeepSeek V4.1 Flash · 8×H200 (TP4, Engram in host DRAM)",
     "The released model on H200 (141 GB, 4.8 TB/s): the Engram tables must leave HBM.", "v41-flash-8xb200",
     {"gpu=h200&engram_home=dram"}, {kV41H200}},
    {"v4-flash-8xb200", "DeepSeek V4 Flash · 8×B200 (predecessor)",
     "CSA ratio 4 / HCA ratio 128 layers with FP8 main KV: about 4× the V4.1 global KV, and no bounded replay.", nullptr,
     {kV4ModelSettings, kB200NodeSettings, kEngineSettings, kWorkloadSettings,
      "gpus=4&tp=4&dp=1&ep=1&pp=1&redundant=0&engine=sglang&max_batch=0&price_miss=0.14&price_hit=0.0028&price_out=0.28"},
     {kV4Model, kB200Node, kEngine, kWorkload}},
    {"deepseek-v3-8xh200", "DeepSeek-V3 · 8×H200 (MLA, TP8 + EP8)", "MLA with a BF16 576-value latent per layer, 61 layers.", nullptr,
     {kV3ModelSettings, kB200NodeSettings, kEngineSettings, kWorkloadSettings, "gpu=h200&gpus=8&tp=8&dp=1&ep=8&pp=1&redundant=0&engine=vllm&max_batch=0"},
     {kV3Model, kB200Node, kEngine, kWorkload}},
    {"llama31-70b-8xh100", "Llama 3.1 70B · 8×H100 (dense GQA, two TP4 instances)",
     "80 layers, 8 KV heads × 128 dims, BF16 KV, 128K positions.", nullptr,
     {kLlama70Settings, kLlama31Settings, kB200NodeSettings, kEngineSettings, kWorkloadSettings,
      "gpu=h100&gpus=4&tp=4&dp=1&ep=1&pp=1&redundant=0&engine=vllm&max_batch=0"},
     {kLlama70Hw, kLlamaModel, kB200Node, kEngine, kWorkload}},
    {"llama31-8b-1xh100", "Llama 3.1 8B · 1×H100 (batch-1 decode)", "A small dense model on one GPU: the launch-bound end of decode.",
     nullptr,
     {kLlama8Settings, kLlama31Settings, kB200NodeSettings, kEngineSettings, kWorkloadSettings,
      "gpu=h100&gpus=1&tp=1&dp=1&ep=1&pp=1&redundant=0&engine=vllm&max_batch=0"},
     {kLlama8Hw, kLlamaModel, kB200Node, kEngine, kWorkload}},
    {"gpt-oss-120b-1xh200", "gpt-oss-120b · 1×H200 (TP1, TensorRT-LLM)",
     "MXFP4 experts, BF16 attention alternating 128-token windows with full attention: the perf table's H200 layout.", nullptr,
     {kGptOss120Settings, kB200NodeSettings, kEngineSettings, kWorkloadSettings,
      "gpu=h200&gpus=1&tp=1&dp=1&ep=1&pp=1&redundant=0&engine=trtllm&max_batch=0&price_miss=0&price_hit=0&price_out=0"},
     {kGptOssH200, kGptOss120Model, kB200Node, kEngine, kWorkload}},
    {"qwen3-235b-a22b-4xh200", "Qwen3-235B-A22B FP8 · 4×H200 (DEP4, TensorRT-LLM)",
     "94 GQA layers, 128 experts top-8, FP8 blocks: attention DP4 with experts EP4, as TensorRT-LLM's perf table runs it.", nullptr,
     {kQwen235Settings, kB200NodeSettings, kEngineSettings, kWorkloadSettings,
      "gpu=h200&gpus=4&tp=1&dp=4&ep=4&pp=1&redundant=0&engine=trtllm&max_batch=0&ctx=40960&price_miss=0&price_hit=0&price_out=0"},
     {kQwen235H200, kQwen235Model, kQwen3MoeNone, kB200Node, kEngine, kWorkload}},
    {"qwen3-30b-a3b-1xb200", "Qwen3-30B-A3B NVFP4 · 1×B200 (TP1, TensorRT-LLM)",
     "48 GQA layers, 128 small experts top-8, NVFP4 weights and activations, FP8 KV on one B200.", nullptr,
     {kQwen30Settings, kB200NodeSettings, kEngineSettings, kWorkloadSettings,
      "gpus=1&tp=1&dp=1&ep=1&pp=1&redundant=0&engine=trtllm&max_batch=0&ctx=40960&price_miss=0&price_hit=0&price_out=0"},
     {kQwen30B200, kQwen30Model, kQwen3MoeNone, kB200Node, kEngine, kWorkload}},
    {"deepseek-r1-8xb200", "DeepSeek-R1-0528 NVFP4 · 8×B200 (DEP8, TensorRT-LLM)",
     "The V3 architecture with NVFP4 experts and an FP8 KV cache, in TensorRT-LLM's max-throughput layout.", "deepseek-v3-8xh200",
     {"gpu=b200&experts_fmt=fp4_g16&act_fmt=fp4_g16&kv_fmt=fp8&gpus=8&tp=1&dp=8&ep=8&engine=trtllm"}, {kR1B200}},
    {"qwen35-397b-8xh200", "Qwen3.5-397B-A17B · 8×H200 (TP8, vLLM)",
     "Gated DeltaNet layers with a fixed recurrent state per session, one full-attention layer in four, 512 experts top-10, BF16 weights.", nullptr,
     {kQwen35Settings, kB200NodeSettings, kEngineSettings, kWorkloadSettings,
      "gpu=h200&gpus=8&tp=8&dp=1&ep=1&pp=1&redundant=0&engine=vllm&max_batch=0&price_miss=0&price_hit=0&price_out=0"},
     {kQwen35H200, kQwen35Model, kB200Node, kEngine, kWorkload}},
    {"kimi-k25-8xh200", "Kimi-K2.5 · 8×H200 (TP8, vLLM)",
     "The DeepSeek-V3 architecture with 384 experts in INT4 (W4A16) and a BF16 MLA latent, on one H200 node.", nullptr,
     {kKimiK25Settings, kB200NodeSettings, kEngineSettings, kWorkloadSettings,
      "gpu=h200&gpus=8&tp=8&dp=1&ep=1&pp=1&redundant=0&engine=vllm&max_batch=0&price_miss=0&price_hit=0&price_out=0"},
     {kKimiK25H200, kKimiK25Model, kB200Node, kEngine, kWorkload}},
    {"glm5-fp8-8xb200", "GLM-5 FP8 · 8×B200 (TP8, vLLM)",
     "MLA with DeepSeek's sparse attention on every layer: FP8 indexer keys beside the latent, top-2,048 rows read per step.", nullptr,
     {kGlm5Settings, kB200NodeSettings, kEngineSettings, kWorkloadSettings,
      "gpus=8&tp=8&dp=1&ep=1&pp=1&redundant=0&engine=vllm&max_batch=0&price_miss=0&price_hit=0&price_out=0"},
     {kGlm5B200, kGlm5Model, kB200Node, kEngine, kWorkload}},
    {"minimax-m25-8xh200", "MiniMax-M2.5 FP8 · 8×H200 (two TP4 instances, vLLM)",
     "62 GQA layers with 256 experts top-8 in FP8 blocks: a full-attention KV cache on every layer.", nullptr,
     {kMiniMaxM25Settings, kB200NodeSettings, kEngineSettings, kWorkloadSettings,
      "gpu=h200&gpus=4&tp=4&dp=1&ep=1&pp=1&redundant=0&engine=vllm&max_batch=0&price_miss=0&price_hit=0&price_out=0"},
     {kMiniMaxM25H200, kMiniMaxM25Model, kB200Node, kEngine, kWorkload}},
};

struct Alias {
  const char* old_name;
  const char* name;
};
// Retired names keep old share links working.
const Alias kAliases[] = {{"llama3-70b-8xh100", "llama31-70b-8xh100"}};

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

}  // namespace tierscope::model
