// Kimi K3's fields beyond Kimi-Linear's (a kimi_linear text_config in a kimi_k3 file): the routed experts' latent
// (routed_expert_hidden_size) read into expert_latent, and each field that changes parameters or activations but
// that the scenario does not represent named in a note, with what it leaves out.
#include <string>

#include "base/text.h"
#include "hf/hf_reader.h"

namespace tierscope::model::hf {

namespace {

// Where the latent sits, as engines run it: SGLang's KimiK3MoE projects the hidden state down
// (routed_expert_down_proj) before the experts and their dispatch, and back up (routed_expert_up_proj) after
// the combine and the latent's norm, both BF16 and whole on every GPU (ReplicatedLinear).
constexpr const char* kLatentSource =
    "routed_expert_hidden_size (the routed experts run between a down-projection from hidden_size and an up-projection back; "
    "https://github.com/sgl-project/sglang/blob/main/python/sglang/srt/models/kimi_k3.py, KimiK3MoE)";

}  // namespace

bool read_expert_latent(Reader& r, Fam fam, bool routed, ModelArch& m) {
  if (fam != Fam::KimiLinear || !r.present("routed_expert_hidden_size")) {
    r.set("expert_latent", P::Paper,
          r.src(fam == Fam::KimiLinear ? "no routed_expert_hidden_size: the routed experts take hidden_size in and out"
                                       : "no latent MoE in this family: the routed experts take hidden_size in and out"));
    return true;
  }
  const std::string what = "the routed experts' latent width, at most hidden_size";
  const auto latent = r.integer("routed_expert_hidden_size", 1, m.hidden, false, what.c_str());
  if (!latent) return false;
  if (!routed) {
    m.expert_latent = 0;
    r.notes.push_back("routed_expert_hidden_size " + std::to_string(*latent) + ": no routed experts, so no latent");
    r.read("expert_latent", "routed_expert_hidden_size (no routed experts: no latent)");
    return true;
  }
  m.expert_latent = static_cast<std::int32_t>(*latent);
  r.read("expert_latent", *latent == m.hidden ? std::string("routed_expert_hidden_size (equal to hidden_size: no latent)") : std::string(kLatentSource));
  const std::optional<bool> norm = r.boolean("latent_moe_use_norm");
  if (has_latent_experts(m) && norm.value_or(false)) {
    r.notes.push_back("latent_moe_use_norm: the RMSNorm on the combined latent before the up-projection (" + num(static_cast<double>(*latent)) +
                      " weights per MoE layer) is not counted, like every norm; its kernel is, one of the three a latent MoE layer launches");
  }
  return true;
}

void kimi_k3_unmodelled(Reader& r, const ModelArch& m) {
  int mla_layers = 0;
  for (int i = 0; i < m.layer_count; ++i) mla_layers += m.layers[static_cast<std::size_t>(i)].mode == LayerMode::Linear ? 0 : 1;
  if (r.boolean("mla_use_output_gate").value_or(false)) {
    const double per_layer = static_cast<double>(m.hidden) * m.q_heads * m.v_dim;
    r.notes.push_back("mla_use_output_gate: the MLA layers' output gate (a sigmoid of hidden_size × heads × v_head_dim = " + num(per_layer) +
                      " parameters per layer, " + num(mla_layers * per_layer) + " over the " + num(mla_layers) +
                      " MLA layers) is not counted; it adds no state");
  }
  if (const auto block = r.integer("attn_res_block_size", 1, 1 << 20, false, "layers per attention-residual block")) {
    r.notes.push_back("attn_res_block_size " + std::to_string(*block) + ": attention residuals (each layer mixes the sums of the earlier " +
                      "blocks of " + std::to_string(*block) + " layers by learned scores) are not modelled: their score weights are a " +
                      "few hidden_size vectors per layer, and the block sums are activations of the step, not state kept between steps");
  }
  const bool beta = r.present("activation_situ_beta"), linear_beta = r.present("activation_situ_linear_beta");
  if (beta || linear_beta) {
    r.notes.push_back("activation_situ_beta, activation_situ_linear_beta: the SiTU activation's shape (hidden_act " +
                      r.text("hidden_act").value_or("situ") + "), one elementwise step like SiLU: no bearing on parameters, bytes or time");
  }
}

}  // namespace tierscope::model::hf
