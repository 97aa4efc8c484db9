// Ranks a query as the site's search page does: Sphinx's own searchtools.js and language_data.js (with
// the site's scorer, html_search_scorer) from a built site, run under node with the little of a DOM
// they touch. Usage: node rank.js <build/html> <query>; prints the results as JSON [[docname, anchor, score], ...],
// best first.
"use strict";
const fs = require("fs");
const path = require("path");
const vm = require("vm");
const [outdir, query] = process.argv.slice(2);
const context = {
  document: { getElementById: () => null, addEventListener: () => {}, readyState: "complete" },
  localStorage: { setItem: () => {}, getItem: () => null },
  location: { search: "?q=" + encodeURIComponent(query) },
  _: (s) => s, _ready: () => {}, SPHINX_HIGHLIGHT_ENABLED: false, console, URLSearchParams, Map, Set,
  DOCUMENTATION_OPTIONS: {},
};
context.window = context;  // language_data.js exports to window
context.addEventListener = () => {};
vm.createContext(context);
for (const file of ["_static/language_data.js", "_static/searchtools.js"]) {
  vm.runInContext(fs.readFileSync(path.join(outdir, file), "utf8"), context, { filename: file });
}
vm.runInContext("Search.setIndex = (index) => { Search._index = index; };", context);
vm.runInContext(fs.readFileSync(path.join(outdir, "searchindex.js"), "utf8"), context);
context.__query = query;
const results = vm.runInContext("Search._performSearch(...Search._parseQuery(__query))", context);
// searchtools.js shows the last result first
process.stdout.write(JSON.stringify(results.reverse().map((r) => [r[0], r[2], r[4]])));
