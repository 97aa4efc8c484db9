/* Sortable, filterable Neuron tables: progressive enhancement, no dependencies, no network.
 *
 * Every table.neuron-sortable gets a sort button in each header cell (state in aria-sort) and a
 * filter box above it; without this script the tables read as they are. Note markers in cells get
 * their note's text as a tooltip.
 */
(function () {
  "use strict";

  var NUMBER = /^[-+\u2212]?\$?\s*(\d[\d,]*(?:\.\d+)?|\.\d+)/;

  function cellText(cell) {
    if (!cell) { return ""; }
    var copy = cell.cloneNode(true);
    Array.prototype.forEach.call(copy.querySelectorAll("sup, .neuron-visually-hidden"), function (n) {
      n.remove();
    });
    return copy.textContent.replace(/\s+/g, " ").trim();
  }

  function numberOf(text) {
    var match = NUMBER.exec(text);
    if (!match) { return null; }
    var value = parseFloat(match[1].replace(/,/g, ""));
    return /^[-\u2212]/.test(text) ? -value : value;
  }

  function bodyRows(table) {
    var body = table.tBodies[0];
    return body ? Array.prototype.slice.call(body.rows) : [];
  }

  function restripe(table) {
    var visible = 0;
    bodyRows(table).forEach(function (row) {
      if (row.hidden) { return; }
      row.classList.remove("row-odd", "row-even");
      row.classList.add(visible % 2 === 0 ? "row-odd" : "row-even");
      visible += 1;
    });
  }

  function sortBy(table, index, headers) {
    var header = headers[index];
    var direction = header.getAttribute("aria-sort") === "ascending" ? "descending" : "ascending";
    var rows = bodyRows(table);
    var keys = rows.map(function (row, position) {
      var text = cellText(row.cells[index]);
      return { row: row, text: text, number: numberOf(text), position: position };
    });
    var numeric = keys.every(function (k) { return k.text === "" || k.number !== null; });
    var sign = direction === "ascending" ? 1 : -1;
    keys.sort(function (a, b) {
      if (a.text === "" || b.text === "") {          /* empty cells always last */
        return (a.text === "") - (b.text === "") || a.position - b.position;
      }
      var order = numeric ? a.number - b.number
        : a.text.localeCompare(b.text, undefined, { numeric: true, sensitivity: "base" });
      return sign * order || a.position - b.position;
    });
    var body = table.tBodies[0];
    keys.forEach(function (k) { body.appendChild(k.row); });
    headers.forEach(function (h) { h.removeAttribute("aria-sort"); });
    header.setAttribute("aria-sort", direction);
    restripe(table);
  }

  function makeSortable(table) {
    var head = table.tHead;
    if (!head || !head.rows.length) { return; }
    var headers = Array.prototype.slice.call(head.rows[head.rows.length - 1].cells);
    headers.forEach(function (th, index) {
      var label = cellText(th);
      var button = document.createElement("button");
      button.type = "button";
      button.className = "neuron-sort-button";
      button.textContent = label;
      var arrow = document.createElement("span");
      arrow.className = "neuron-sort-indicator";
      arrow.setAttribute("aria-hidden", "true");
      button.appendChild(arrow);
      button.title = "Sort by " + label;
      button.addEventListener("click", function () { sortBy(table, index, headers); });
      while (th.firstChild) { th.removeChild(th.firstChild); }
      th.appendChild(button);
    });
  }

  var counter = 0;

  function makeFilterable(table) {
    var rows = bodyRows(table);
    counter += 1;
    var id = "neuron-filter-" + counter;
    var tools = document.createElement("div");
    tools.className = "neuron-table-tools";
    var label = document.createElement("label");
    label.htmlFor = id;
    label.textContent = "Filter rows";
    var input = document.createElement("input");
    input.type = "search";
    input.id = id;
    input.className = "neuron-filter";
    input.placeholder = "Type to filter, e.g. a model or instance";
    input.autocomplete = "off";
    var status = document.createElement("span");
    status.className = "neuron-filter-status";
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");
    tools.appendChild(label);
    tools.appendChild(input);
    tools.appendChild(status);
    if (table.id) { input.setAttribute("aria-controls", table.id); }
    var anchor = table.closest(".table-wrapper") || table;
    anchor.parentNode.insertBefore(tools, anchor);
    input.addEventListener("input", function () {
      var terms = input.value.toLowerCase().split(/\s+/).filter(Boolean);
      var shown = 0;
      rows.forEach(function (row) {
        var text = cellText(row).toLowerCase();
        var match = terms.every(function (t) { return text.indexOf(t) !== -1; });
        row.hidden = !match;
        if (match) { shown += 1; }
      });
      status.textContent = terms.length ? shown + " of " + rows.length + " rows" : "";
      restripe(table);
    });
  }

  function noteTooltips() {
    Array.prototype.forEach.call(document.querySelectorAll("a.neuron-note-marker"), function (a) {
      var target = document.getElementById((a.getAttribute("href") || "").slice(1));
      if (target) { a.title = target.textContent.replace(/\s+/g, " ").trim(); }
    });
  }

  /* A region that scrolls sideways (a wide table, a chart) is reachable from the keyboard, named
     for screen readers, and says so on screen: "scroll sideways for more". */
  var SCROLLERS = ".table-wrapper, .neuron-chart-canvas, .neuron-advisor-scroll, div.highlight > pre";

  function nameOf(region, index) {
    var table = region.querySelector("table");
    var caption = table && table.caption ? cellText(table.caption) : "";
    var heading = "";
    var section = region.closest("section");
    var title = section && section.querySelector("h1, h2, h3, h4");
    if (title) { heading = cellText(title).replace(/[\u00b6#]$/, "").trim(); }
    var what = table ? "Table" : (region.matches("pre") ? "Code" : "Chart");
    var label = caption || (table && table.id) || heading;
    return what + (label ? ": " + label : "") + " (" + (index + 1) + ", scrolls sideways)";
  }

  function markScrollers() {
    Array.prototype.forEach.call(document.querySelectorAll(SCROLLERS), function (region, index) {
      var overflowing = region.scrollWidth > region.clientWidth + 1;
      var cue = region.previousElementSibling;
      var hasCue = cue && cue.classList.contains("neuron-scroll-cue");
      region.classList.toggle("neuron-overflowing", overflowing);
      if (overflowing) {
        region.tabIndex = 0;
        region.setAttribute("role", "group");
        region.setAttribute("aria-label", nameOf(region, index));
        if (!hasCue) {
          cue = document.createElement("p");
          cue.className = "neuron-scroll-cue";
          cue.setAttribute("aria-hidden", "true");
          cue.textContent = "Scroll sideways for more \u2192";
          region.parentNode.insertBefore(cue, region);
        }
      } else if (region.getAttribute("role") === "group") {
        region.removeAttribute("tabindex");
        region.removeAttribute("role");
        region.removeAttribute("aria-label");
        if (hasCue) { cue.remove(); }
      }
    });
  }

  function init() {
    Array.prototype.forEach.call(document.querySelectorAll("table.neuron-sortable"), function (table) {
      makeSortable(table);
      makeFilterable(table);
      table.classList.add("neuron-enhanced");
    });
    noteTooltips();
    markScrollers();
    var pending = null;
    window.addEventListener("resize", function () {
      if (pending) { window.clearTimeout(pending); }
      pending = window.setTimeout(markScrollers, 150);
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
}());
