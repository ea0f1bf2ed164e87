// Word-at-a-time mixing, cheap enough to run over every drawn frame's vertices.
#include "base/hash.h"

#include <cstring>

namespace tierscope::model {

namespace {
constexpr std::uint64_t kMul = 0x9E3779B97F4A7C15ull;
std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  h ^= v + kMul + (h << 6) + (h >> 2);
  h *= 0xBF58476D1CE4E5B9ull;
  return h ^ (h >> 31);
}
}  // namespace

std::uint64_t hash_bytes(const void* data, std::size_t size, std::uint64_t seed) {
  const auto* p = static_cast<const unsigned char*>(data);
  std::uint64_t h = mix(seed, size);
  std::size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, p + i, 8);
    h = mix(h, w);
  }
  std::uint64_t tail = 0;
  if (i < size) std::memcpy(&tail, p + i, size - i);
  return mix(h, tail);
}

}  // namespace tierscope::model
