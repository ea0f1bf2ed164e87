// A fast 64-bit hash of bytes, mixed in word-sized steps: cheap enough to sum up every drawn frame's output.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tierscope::model {

std::uint64_t hash_bytes(const void* data, std::size_t size, std::uint64_t seed);

}  // namespace tierscope::model
