// The tables of docs/anchors.md written from `tierscope anchors --format json`: the summaries, every carried
// point with its single-step and replayed ratios, and the points beyond 2×. test_cli holds the document's
// generated part to what the command prints now; tools/regen-anchors-doc rewrites it.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace tierscope::testing {

// The lines that open and close the generated part of docs/anchors.md.
inline constexpr std::string_view kAnchorsDocBegin =
    "<!-- The tables from here to the closing marker are written from `tierscope anchors --format json` by tools/regen-anchors-doc; test_cli holds them to it. -->";
inline constexpr std::string_view kAnchorsDocEnd = "<!-- End of the tables written from `tierscope anchors`. -->";

// The generated part, markers included, from the command's JSON document.
std::string anchors_doc_tables(const nlohmann::json& doc);

// The document with its generated part replaced by `tables`; false when the markers are missing or out of order.
bool splice_anchors_doc(const std::string& document, const std::string& tables, std::string& out);
// The generated part of a document, markers included (empty when missing).
std::string generated_part(const std::string& document);

}  // namespace tierscope::testing
