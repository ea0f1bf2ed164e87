// Containers the fleet simulator owns and reuses: a binary heap of timed events, a paged pool of records
// addressed by 32-bit indices, a growable FIFO ring and Walker's alias table. No allocation once each has
// reached its high-water mark.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/rng.h"

namespace tierscope::sim::detail {

constexpr std::int32_t kNone = -1;

// One pending event: its time, a payload (a session or a request) and a tag that orders equal times first
// come, first served (arrival order << 3 | kind).
struct Event {
  double t;
  std::uint32_t a;    // session or request
  std::uint32_t tag;  // arrival order << 3 | kind: equal times are handled first come, first served
};

class EventHeap {
 public:
  bool empty() const { return h_.empty(); }
  const Event& top() const { return h_[0]; }
  std::size_t size() const { return h_.size(); }
  std::size_t bytes() const { return h_.capacity() * sizeof(Event); }
  void push(double t, std::uint32_t kind, std::uint32_t a) {
    const Event e{t, a, (seq_++ << 3) | kind};
    std::size_t i = h_.size();
    h_.push_back(e);
    while (i > 0) {
      const std::size_t p = (i - 1) / 2;
      if (!less(e, h_[p])) break;
      h_[i] = h_[p];
      i = p;
    }
    h_[i] = e;
  }
  void pop() {
    const Event last = h_.back();
    h_.pop_back();
    const std::size_t n = h_.size();
    if (n == 0) return;
    std::size_t i = 0;
    for (;;) {
      std::size_t c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && less(h_[c + 1], h_[c])) ++c;
      if (!less(h_[c], last)) break;
      h_[i] = h_[c];
      i = c;
    }
    h_[i] = last;
  }

 private:
  static bool less(const Event& x, const Event& y) { return x.t < y.t || (x.t == y.t && x.tag < y.tag); }
  std::vector<Event> h_;
  std::uint32_t seq_ = 0;
};

// Records addressed by a 32-bit index, stored in fixed pages so that growing never moves (or copies) what
// is already there: a run that grows to millions of records never stalls on a reallocation. Freed records
// are chained through their own `Link` field and reused first.
template <class T, std::int32_t T::*Link>
class Pool {
 public:
  T& operator[](std::int32_t i) { return pages_[static_cast<std::size_t>(i) >> kShift][static_cast<std::size_t>(i) & kMask]; }
  const T& operator[](std::int32_t i) const {
    return pages_[static_cast<std::size_t>(i) >> kShift][static_cast<std::size_t>(i) & kMask];
  }
  std::int32_t alloc() {
    std::int32_t i = free_;
    if (i != kNone) {
      free_ = (*this)[i].*Link;
    } else {
      if ((size_ & kMask) == 0) pages_.push_back(std::make_unique<T[]>(kPage));
      i = static_cast<std::int32_t>(size_++);
    }
    (*this)[i] = T{};
    ++live_;
    return i;
  }
  void free(std::int32_t i) {
    (*this)[i].*Link = free_;
    free_ = i;
    --live_;
  }
  std::size_t live() const { return live_; }
  std::size_t capacity() const { return size_; }
  std::size_t bytes() const { return pages_.size() * kPage * sizeof(T) + pages_.capacity() * sizeof(pages_[0]); }

 private:
  static constexpr std::size_t kShift = 14, kPage = std::size_t{1} << kShift, kMask = kPage - 1;
  std::vector<std::unique_ptr<T[]>> pages_;
  std::size_t size_ = 0, live_ = 0;
  std::int32_t free_ = kNone;
};

// FIFO of waiting sessions; grows by doubling (bounded by queue_max), never shrinks.
struct Ring {
  std::vector<std::int32_t> buf;
  std::size_t head = 0, size = 0;
  void push(std::int32_t v) {
    if (size == buf.size()) {
      std::vector<std::int32_t> next(std::max<std::size_t>(16, buf.size() * 2));
      for (std::size_t i = 0; i < size; ++i) next[i] = buf[(head + i) % buf.size()];
      buf.swap(next);
      head = 0;
    }
    buf[(head + size) % buf.size()] = v;
    ++size;
  }
  std::int32_t front() const { return buf[head]; }
  void pop() {
    head = (head + 1) % buf.size();
    --size;
  }
};

// Walker's alias method: O(1) draws from a fixed discrete distribution (the prefixes' Zipf popularity).
struct Alias {
  std::vector<double> prob;
  std::vector<std::uint32_t> alias;
  void build(const std::vector<double>& w) {
    const std::size_t n = w.size();
    prob.assign(n, 1.0);
    alias.assign(n, 0);
    double sum = 0;
    for (double x : w) sum += x;
    std::vector<double> p(n);
    std::vector<std::uint32_t> small, large;
    for (std::size_t i = 0; i < n; ++i) {
      p[i] = w[i] * static_cast<double>(n) / sum;
      (p[i] < 1 ? small : large).push_back(static_cast<std::uint32_t>(i));
    }
    while (!small.empty() && !large.empty()) {
      const std::uint32_t s = small.back(), l = large.back();
      small.pop_back();
      prob[s] = p[s];
      alias[s] = l;
      p[l] = (p[l] + p[s]) - 1;
      if (p[l] < 1) {
        large.pop_back();
        small.push_back(l);
      }
    }
  }
  std::uint32_t sample(Rng& r) const {
    const std::uint32_t i = r.below(static_cast<std::uint32_t>(prob.size()));
    return r.uniform() < prob[i] ? i : alias[i];
  }
};

}  // namespace tierscope::sim::detail
