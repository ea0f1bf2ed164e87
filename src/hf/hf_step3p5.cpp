// Step 3.5 (step3p5; the language model of Step 3.7, a step3p7 file's text_config): grouped-query attention
// whose KV heads are num_attention_groups, sliding-window and full layers from layer_types, the sliding
// layers' own heads in attention_other_setting, the MoE layers listed in moe_layers_enum. No published
// config.json was found whole: the fields are those vLLM's and SGLang's Step3p5 model and config code read
// (vllm/model_executor/models/step3p5.py, python/sglang/srt/models/step3p5.py).
#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "hf/hf_reader.h"

namespace tierscope::model::hf {

namespace {

// num_nextn_predict_layers, checked here (layer_types may hold an entry per MTP layer); 0 when absent or wrong.
long long mtp_layers(Reader& r) { return r.integer("num_nextn_predict_layers", 0, 16, false, "MTP layers the checkpoint holds").value_or(0); }

// layer_types: sliding_attention or full_attention per layer; checkpoints with MTP layers append one entry
// per MTP layer (vLLM's Step3p5Config accepts num_hidden_layers + num_nextn_predict_layers entries).
bool read_kinds(Reader& r, int layers, long long mtp, Layout& l) {
  const Reader::Found f = r.look("layer_types");
  if (!f.v || f.v->is_null()) {
    // vLLM's Step3p5Attention without layer_types: the even layers slide.
    for (int i = 0; i < layers; ++i) l.kind[static_cast<std::size_t>(i)] = i % 2 == 0 ? 'S' : 'D';
    l.fields = "no layer_types: the even layers slide (vLLM's Step3p5Attention default)";
    l.prov = P::Derived;
    return true;
  }
  const std::string lengths = std::to_string(layers) + (mtp > 0 ? " or " + std::to_string(layers + mtp) : std::string());
  if (!f.v->is_array()) {
    r.error(ErrorCode::WrongType, f.path, dump(*f.v), "a list of layer types (" + lengths + " entries)");
    return false;
  }
  if (f.v->size() != static_cast<std::size_t>(layers) && f.v->size() != static_cast<std::size_t>(layers + mtp)) {
    r.error(ErrorCode::Inconsistent, f.path, std::to_string(f.v->size()) + " entries",
            lengths + " entries: one per layer (num_hidden_layers " + std::to_string(layers) + ")" +
                (mtp > 0 ? ", then one per MTP layer (num_nextn_predict_layers " + std::to_string(mtp) + ")" : std::string()));
    return false;
  }
  std::vector<int> odd;
  std::string odd_types;
  for (std::size_t i = 0; i < f.v->size(); ++i) {
    const Json& t = (*f.v)[i];
    const std::string s = t.is_string() ? t.get<std::string>() : dump(t);
    if (s != "sliding_attention" && s != "full_attention") {
      odd.push_back(static_cast<int>(i));
      if (odd_types.find(s) == std::string::npos) odd_types += (odd_types.empty() ? "" : ", ") + s;
    } else if (i < static_cast<std::size_t>(layers)) {
      l.kind[i] = s == "sliding_attention" ? 'S' : 'D';
    }
  }
  if (!odd.empty()) {
    r.error(ErrorCode::BadEnum, f.path, "layers " + ranges(odd) + " (" + odd_types + ")", "sliding_attention or full_attention");
    return false;
  }
  l.fields = "layer_types (sliding_attention, full_attention)";
  if (f.v->size() > static_cast<std::size_t>(layers)) l.fields += "; its last " + std::to_string(mtp) + " entries the MTP layers'";
  return true;
}

// moe_layers_enum: the MoE layers' indices, a comma-separated string as vLLM and SGLang split it (a list of
// integers is taken too, as the Step 3.7 config class writes its default); absent, vLLM's default (every layer
// but the first). Indices past the decoder layers are the MTP layers'.
std::optional<std::vector<long long>> moe_indices(Reader& r, int layers, long long mtp) {
  const Reader::Found f = r.look("moe_layers_enum");
  const long long hi = layers + mtp - 1;
  const std::string allowed = "layer indices from 0 to " + std::to_string(hi) + ", comma-separated (\"3,4,5\") or a list";
  std::vector<long long> out;
  if (!f.v || f.v->is_null()) {
    for (long long i = 1; i < layers; ++i) out.push_back(i);
    return out;
  }
  if (f.v->is_array()) return int_array(r, f.v, f.path, 0, hi);
  if (!f.v->is_string()) {
    r.error(ErrorCode::WrongType, f.path, dump(*f.v), allowed);
    return std::nullopt;
  }
  const std::string text = f.v->get<std::string>();
  for (std::string_view item : split(text, ',')) {
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    long long v = 0;
    bool digits = !item.empty() && item.size() <= 6;
    for (char c : item) digits = digits && c >= '0' && c <= '9', v = v * 10 + (c - '0');
    if (!digits || v > hi) {
      r.error(digits ? ErrorCode::OutOfRange : ErrorCode::BadEnum, f.path, "\"" + std::string(item) + "\"", allowed);
      return std::nullopt;
    }
    out.push_back(v);
  }
  return out;
}

// An integer of attention_other_setting, required (the engines index it without a default).
std::optional<long long> other_field(Reader& r, const Reader::Found& cfg, const char* key, const char* param, const char* what) {
  const std::string path = cfg.path + "." + key;
  const auto it = cfg.v->find(key);
  if (it == cfg.v->end() || it->is_null()) {
    r.missing(path, what);
    return std::nullopt;
  }
  const ParamDef* d = find_param(param);
  const long long lo = std::max(1LL, static_cast<long long>(d->min)), hi = static_cast<long long>(d->max);
  if (!it->is_number_integer() || it->get<long long>() < lo || it->get<long long>() > hi) {
    r.error(it->is_number_integer() ? ErrorCode::OutOfRange : ErrorCode::WrongType, path, dump(*it),
            "an integer from " + std::to_string(lo) + " to " + std::to_string(hi) + " (" + what + ")");
    return std::nullopt;
  }
  return it->get<long long>();
}

int count_mode(const ModelArch& m, LayerMode mode) {
  int n = 0;
  for (int i = 0; i < m.layer_count; ++i) n += m.layers[static_cast<std::size_t>(i)].mode == mode ? 1 : 0;
  return n;
}

}  // namespace

bool step3p5_layout(Reader& r, int layers, long long max_pos, std::optional<long long>& window, Layout& l) {
  if (const auto impl = r.text("att_impl_type"); impl && *impl != "GQA") {
    r.error(ErrorCode::BadEnum, r.prefix + "att_impl_type", *impl, "GQA (the only attention vLLM's and SGLang's Step3p5 run)");
    return true;
  }
  const long long mtp = mtp_layers(r);
  if (!read_kinds(r, layers, mtp, l)) return true;
  const bool sliding = std::find(l.kind.begin(), l.kind.end(), 'S') != l.kind.end();
  if (sliding) {
    window = r.param_int("sliding_window", "n_win", true, "tokens in the sliding layers' window");
    if (window && *window >= max_pos) {
      r.notes.push_back("sliding_window " + std::to_string(*window) + " ≥ max_position_embeddings " + std::to_string(max_pos) +
                        ": the window never bites, so every layer is read as full attention");
      std::fill(l.kind.begin(), l.kind.end(), 'D');
      window.reset();
    }
    l.fields += ", sliding_window";
  }
  const std::optional<std::vector<long long>> moe = moe_indices(r, layers, mtp);
  if (!moe) return true;
  l.ffn.assign(static_cast<std::size_t>(layers), FfnKind::Dense);
  std::vector<int> drafts;
  for (long long i : *moe) {
    if (i < layers) l.ffn[static_cast<std::size_t>(i)] = FfnKind::Moe;
    else if (std::find(drafts.begin(), drafts.end(), static_cast<int>(i)) == drafts.end()) drafts.push_back(static_cast<int>(i));
  }
  if (!drafts.empty()) {
    std::sort(drafts.begin(), drafts.end());
    r.notes.push_back("moe_layers_enum: layers " + ranges(drafts) + " are MTP layers with routed experts (draft layers are not in the parameter "
                      "count)");
  }
  l.fields += r.present("moe_layers_enum") ? "; moe_layers_enum" : "; no moe_layers_enum: every layer but the first MoE (vLLM's Step3p5 default)";
  // Fields of the older Step configuration the Step 3.5 model code does not read: named, not passed as read.
  std::string unread;
  for (const char* k : {"use_moe", "moe_every_n_layer", "moe_layer_offset"})
    if (r.present(k)) unread += (unread.empty() ? "" : ", ") + std::string(k);
  if (!unread.empty()) {
    r.notes.push_back(unread + ": not read — vLLM's and SGLang's Step 3.5 models take the MoE layers from moe_layers_enum alone");
  }
  return true;
}

void step3p5_local_heads(Reader& r, ModelArch& m) {
  const int sliding = count_mode(m, LayerMode::SwaOnly), full = m.layer_count - sliding;
  long long swa_q = m.q_heads;
  const Reader::Found cfg = r.look("attention_other_setting");
  if (!cfg.v || cfg.v->is_null() || sliding == 0) {
    m.swa_kv_heads = m.swa_head_dim = m.swa_v_dim = 0;
    r.read("swa_kv_heads,swa_head_dim,swa_v_dim",
           sliding == 0 ? "no sliding layer" : "attention_other_setting (absent: the sliding layers' heads are the full layers')");
  } else if (!cfg.v->is_object()) {
    r.error(ErrorCode::WrongType, cfg.path, dump(*cfg.v), "an object: the sliding layers' attention_type, heads, KV heads and head_dim");
    return;
  } else {
    const auto type = cfg.v->find("attention_type");
    if (type == cfg.v->end() || !type->is_string() || type->get<std::string>() != "sliding_attention") {
      r.error(type == cfg.v->end() ? ErrorCode::MissingField : ErrorCode::Unrepresentable, cfg.path + ".attention_type",
              type == cfg.v->end() ? "" : dump(*type), "sliding_attention: tierscope gives the sliding layers, and only them, heads of their own");
      return;
    }
    const auto q = other_field(r, cfg, "num_attention_heads", "q_heads", "the sliding layers' query heads");
    const auto kv = other_field(r, cfg, "num_attention_groups", "swa_kv_heads", "the sliding layers' KV heads");
    const auto hd = other_field(r, cfg, "head_dim", "swa_head_dim", "the sliding layers' dims per head");
    if (!q || !kv || !hd) return;
    swa_q = *q;
    m.swa_kv_heads = static_cast<std::int32_t>(*kv);
    m.swa_head_dim = m.swa_v_dim = static_cast<std::int32_t>(*hd);
    r.read("swa_kv_heads", "attention_other_setting.num_attention_groups");
    r.read("swa_head_dim,swa_v_dim", "attention_other_setting.head_dim");
    if (*hd != m.head_dim) {
      r.notes.push_back("attention_other_setting.head_dim " + std::to_string(*hd) + ": vLLM takes it for the sliding layers, SGLang keeps head_dim (" +
                        std::to_string(m.head_dim) + "); read as vLLM does");
    }
    if (*q != m.q_heads) {
      // The scenario has one query-head count: the sliding layers' query and output projections are counted at it.
      const double diff = 2.0 * sliding * m.hidden * static_cast<double>(*q - m.q_heads) * static_cast<double>(*hd);
      r.notes.push_back("attention_other_setting.num_attention_heads " + std::to_string(*q) + ": the " + std::to_string(sliding) +
                        " sliding layers' query heads are taken as num_attention_heads (" + std::to_string(m.q_heads) +
                        "), so their query and output projections count " + std::to_string(sliding) + " × 2 × " + std::to_string(m.hidden) +
                        " × " + std::to_string(std::abs(*q - m.q_heads)) + " × " + std::to_string(*hd) + " = " + num(std::abs(diff)) +
                        " parameters " + (diff > 0 ? "fewer" : "more") + " than the checkpoint holds, and their attention " +
                        (diff > 0 ? "less" : "more") + " compute; the KV cache is as read");
    }
  }
  if (r.boolean("use_head_wise_attn_gate").value_or(false)) {
    const double gate = static_cast<double>(m.hidden) * (static_cast<double>(full) * m.q_heads + static_cast<double>(sliding) * static_cast<double>(swa_q));
    r.notes.push_back("use_head_wise_attn_gate: the head-wise output gate (g_proj, hidden × heads per layer: " + std::to_string(full) + " × " +
                      std::to_string(m.hidden) + " × " + std::to_string(m.q_heads) + " + " + std::to_string(sliding) + " × " +
                      std::to_string(m.hidden) + " × " + std::to_string(swa_q) + " = " + num(gate) + " parameters) is not counted");
  }
}

void step3p5_unmodelled(Reader& r, const ModelArch& m) {
  if (m.experts == 0 || !r.boolean("need_fp32_gate").value_or(false)) return;
  int moe = m.layer_count - m.dense_layers;
  if (m.ffn_count > 0) {
    moe = 0;
    for (int i = 0; i < m.layer_count; ++i) moe += m.ffn[static_cast<std::size_t>(i)] == FfnKind::Moe ? 1 : 0;
  }
  const double weights = static_cast<double>(moe) * m.experts * m.hidden;
  r.notes.push_back("need_fp32_gate: the router's weights and GEMM are FP32 (vLLM's FP32ReplicatedLinear); its " + std::to_string(moe) + " layers × " +
                    std::to_string(m.experts) + " × " + std::to_string(m.hidden) + " = " + num(weights) +
                    " weights are counted at the head format, not at 4 B each");
}

}  // namespace tierscope::model::hf
