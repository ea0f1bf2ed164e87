// Recorded request traces in the Mooncake FAST'25 format: JSON lines of arrival time, input and output
// lengths and the hash of every block of the prompt. Parsing is strict and all-or-nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "base/errors.h"

namespace tierscope::sim {

// Limits that keep a bad file from taking the machine: larger inputs are refused with a named error.
constexpr std::size_t kMaxTraceBytes = 256u << 20;      // 256 MiB of text
constexpr std::size_t kMaxTraceRequests = 10000000;     // lines with a request
constexpr std::uint32_t kMaxTraceTokens = 16777216;     // input or output tokens of one request

// One request per line: {"timestamp": ms, "input_length": n, "output_length": n, "hash_ids": [id, ...]}.
// Hash ids name 512-token blocks (block_tokens) of the prompt; two requests share a prefix of blocks
// exactly as far as their lists start with the same ids. Ids are renumbered densely in order of first
// appearance, so maps indexed by id stay as small as the trace.
struct Trace {
  std::vector<double> arrival_s;         // timestamp / 1000
  std::vector<std::uint32_t> input;      // input tokens
  std::vector<std::uint32_t> output;     // output tokens
  std::vector<std::uint32_t> first;      // request i's blocks are ids[first[i] .. first[i + 1])
  std::vector<std::uint32_t> ids;        // dense block ids
  std::vector<std::uint32_t> line;       // the file line each request came from (for messages)
  std::uint32_t distinct = 0;            // number of distinct block ids
  std::size_t size() const { return input.size(); }
};

// Parses the whole text or nothing: on error `out` is untouched and `err` names the line ("trace line 7"),
// the offending text and what is allowed. Blank lines are skipped; timestamps may repeat but never go back;
// a line has exactly the four keys; each request has 1 to ⌈input_length / block_tokens⌉ hash ids.
bool parse_trace(std::string_view text, int block_tokens, Trace& out, model::Error& err);

// The best any cache could do on this trace: each request's longest prefix of blocks that appeared in an
// earlier request, in tokens (a partial last block counts its own tokens), summed over the trace.
struct TraceBound {
  double hit_tokens = 0;
  double input_tokens = 0;
};
TraceBound trace_prefix_bound(const Trace& trace, int block_tokens);

}  // namespace tierscope::sim
