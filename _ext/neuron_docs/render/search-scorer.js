/* The site's search scorer (conf.py's html_search_scorer; Sphinx puts it in language_data.js, before
   searchtools.js, which keeps it). Sphinx's weights are kept; on top:
   - where a model's answers are comes before anything else: the advisor (its answer for the query:
     advisor.html?model=<query>), then the performance tables, then the history's index, each on the
     row the query names when it has one;
   - a page appears once: every result of a page takes the place of its best one, and Sphinx's own
     removal of duplicate results keeps that one. */
var Scorer = {
  objNameMatch: 11,
  objPartialMatch: 6,
  objPrio: { 0: 15, 1: 5, 2: -5 },
  objPrioDefault: 0,
  title: 15,
  partialTitle: 7,
  term: 5,
  partialTerm: 2,

  /** Pages first, by docname, and their bonus. */
  first: [
    [/^advisor$/, 3000],
    [/^performance\//, 2000],
    [/^history\/[^/]+$/, 1000],
  ],

  /** docname -> the results of that page so far (reset for each query). */
  _pages: new Map(),
  _query: null,

  _currentQuery: function () {
    try {
      return new URLSearchParams(window.location.search).get("q") || "";
    } catch (e) {
      return "";
    }
  },

  score: function (result) {
    var query = Scorer._currentQuery();
    if (query !== Scorer._query) {
      Scorer._query = query;
      Scorer._pages = new Map();
    }
    var docname = result[0];
    var score = result[4];
    for (var i = 0; i < Scorer.first.length; i++) {
      if (Scorer.first[i][0].test(docname)) {
        score += Scorer.first[i][1];
        break;
      }
    }
    // on one page, a result that lands on the thing (a row, a configuration) before the page's top
    if (result[2]) {
      score += 20;
    }
    if (docname === "advisor" && query) {
      // The advisor's answer for the query. Its "anchor" is a query string, so it comes with a
      // description: searchtools.js then shows that (escaped) instead of fetching the page for a
      // summary, where it would read the anchor as a CSS selector ('[role="main"] ?model=...'),
      // which throws; and the page's static text is not the answer anyway.
      result[2] = "?model=" + encodeURIComponent(query.trim());
      result[3] = "its answer for " + query.trim();
    }
    result[4] = score;
    var mine = Scorer._pages.get(docname);
    if (!mine) {
      mine = [];
      Scorer._pages.set(docname, mine);
    }
    mine.push(result);
    var best = mine[0];
    mine.forEach(function (r) { if (r[4] > best[4]) { best = r; } });
    mine.forEach(function (r) {
      r[1] = best[1];
      r[2] = best[2];
      r[3] = best[3];
      r[5] = best[5];
    });
    return score;
  },
};
