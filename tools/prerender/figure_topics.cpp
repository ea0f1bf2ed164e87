// Prints src/roofline/figure_topics.inc: for every figure, the formula topic that writes it first over every
// preset, so reading one formula writes one topic (src/roofline/describe.cpp). Run by tools/regen-figure-topics.
// usage: figure-topics
#include <cstdio>
#include <string>
#include <vector>

#include "roofline/figures.h"

using namespace tierscope;

int main(int argc, char** argv) {
  if (argc > 1) {
    std::fprintf(stderr, "figure-topics: '%s' is not allowed: it takes no arguments (it prints the list)\n", argv[1]);
    return 2;
  }
  std::vector<std::string> conflicts;
  const auto rows = model::figure_topics_over_presets(conflicts);
  if (!conflicts.empty()) {
    // One figure must come from one topic in every setup, or reading it first would change its text.
    for (const std::string& c : conflicts) std::fprintf(stderr, "figure-topics: two topics write first %s\n", c.c_str());
    return 1;
  }
  std::printf("// Which formula topic writes each figure first (describe.cpp's kTopics), over every preset.\n"
              "// Written by tools/regen-figure-topics; test_roofline holds it to the topics.\n");
  for (const auto& [figure, topic] : rows) std::printf("{\"%.*s\", \"%.*s\"},\n", static_cast<int>(figure.size()), figure.data(),
                                                        static_cast<int>(topic.size()), topic.data());
  return 0;
}
