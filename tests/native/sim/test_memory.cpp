// Memory stays flat: once a run has reached its steady state, handling events allocates nothing (the
// pools, heaps and queues already hold their high-water marks). Counted by replacing operator new in
// this test program.
#include "fleet_helpers.h"

#include <cstdlib>
#include <new>

// Under AddressSanitizer the sanitizer owns new and delete, so the count is left to the plain build; under
// ASan the test is tagged [.noasan], a hidden tag, and ctest lists it as not run.
#if defined(__SANITIZE_ADDRESS__)
#define TS_COUNT_ALLOCATIONS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TS_COUNT_ALLOCATIONS 0
#endif
#endif
#ifndef TS_COUNT_ALLOCATIONS
#define TS_COUNT_ALLOCATIONS 1
#endif

#if TS_COUNT_ALLOCATIONS
#define TS_MEMORY_TAGS "[memory]"
namespace {
std::size_t g_allocations = 0;
}  // namespace

// Every form of the global new and delete is replaced, so allocations and releases always pair up.
void* operator new(std::size_t size) {
  ++g_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return operator new(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
#else
#define TS_MEMORY_TAGS "[.noasan][memory]"
#endif

using namespace tierscope;

TEST_CASE("fleet: no allocation per event once the run is in its steady state", TS_MEMORY_TAGS) {
#if !TS_COUNT_ALLOCATIONS
  FAIL("allocations are counted only without AddressSanitizer, which owns operator new: run the plain build");
#else
  // One hour of SSD retention and a 50 GB DRAM tier let every tier reach its steady size within the two
  // hours of warm-up; the next two hours handle well over 100,000 events.
  sim::FleetConfig c = fleet_test::config(fleet_test::scenario({{"hours", "5"}, {"day_amp", "0"}}));
  c.retention_s = 3600;
  c.dram_bytes = 50e9;
  sim::FleetSim sim;
  sim.start(c);
  sim.run_until(2 * 3600.0);
  const std::size_t before = g_allocations;
  const std::size_t memory = sim.memory_bytes();
  const std::uint64_t events = sim.run_until(4 * 3600.0);
  const std::size_t allocations = g_allocations - before;
  INFO(events << " events, " << allocations << " allocations, memory " << memory << " → " << sim.memory_bytes());
  CHECK(events > 100000);
  CHECK(allocations <= 8);  // at most a new page of records now and then (16,384 a page), never one per event
#endif
}
