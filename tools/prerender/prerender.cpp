// Prints, as one JSON object, what the page's views read from the app when it starts with no link: the
// state, the catalog, the ledger panel's rows, every figure and the card check. The site's build
// (tools/prerender.mjs) feeds it to the page's own view modules and writes their markup into index.html,
// so the text a visitor reads before the WebAssembly arrives is the app's text, computed by the same C++.
// usage: prerender            (the default scenario, as the page opens it without a hash)
#include <cstdio>
#include <string>

#include "app/app.h"
#include "app/page_json.h"
#include "base/errors.h"
#include "base/json_writer.h"

using namespace tierscope;

namespace {

// The page's own start-up, in the order the page makes its calls (web/lib/init.mjs buildPage): the page
// applies the (empty) hash, then opens the walkthrough's first screen (that it shows playback and counters
// itself changes only the canvas's toolbar, which the JSON does not hold).
bool start_as_page(app::App& a, model::Errors& errors) {
  app::init(a);
  app::apply_hash(a, "", errors);
  return app::open_tour_step(a, -1, false, errors) && errors.empty();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1) {
    std::fprintf(stderr, "prerender: '%s' is not allowed: it takes no arguments (it prints the default view's JSON)\n", argv[1]);
    return 2;
  }
  app::App a;
  model::Errors errors;
  if (!start_as_page(a, errors)) {
    std::fprintf(stderr, "prerender: the default view did not open: %s\n", app::errors_json(errors).c_str());
    return 1;
  }
  std::string card;
  if (!app::card_export(a, "json", card, errors)) {
    std::fprintf(stderr, "prerender: the card check failed: %s\n", app::errors_json(errors).c_str());
    return 1;
  }
  // Each member is the app's own JSON text, as the bridge hands it to the page; the card check is the
  // download's text, which the page parses itself (tables-view.mjs renderCard).
  model::JsonWriter w;
  w.object();
  w.key("state").raw(app::state_json(a));
  w.key("catalog").raw(app::catalog_json(a));
  w.key("ledgerView").raw(app::ledger_view_json(a, anim::LedgerFilter{}));
  w.key("figuresView").raw(app::figures_view_json(a, {}));
  w.str("card", card);
  const std::string out = w.end().newline().take();
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}
