/* Sortable, filterable Neuron tables: progressive enhancement, no dependencies, no network.
 *
 * Every table.neuron-sortable gets a sort button in each header cell (state in aria-sort) and a
 * filter box above it; without this script the tables read as they are. A table.neuron-columns
 * (the performance tables) shows its reader's columns (th.neuron-col-key) and a column chooser for
 * the others (th.neuron-col-more), and a price-basis choice for its costs (th.neuron-basis-*).
 * Choices live in the address (query string, replaced, never pushed): sort-<table id>=<column>.<asc|desc>,
 * filter-<table id>=<text>, cols=<column>,-<column> (shown beyond or hidden among the reader's
 * columns, page-wide), basis=<basis>|all, and the sphinx-design tab group (neuron-view=<view>, which
 * sphinx-design restores itself). Columns are named by their th.neuron-col-<field> class, else by
 * their position. Note markers in cells get their note's text as a tooltip.
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

  /* The address: read once, written on every choice (history.replaceState keeps the #fragment). */
  var params = new URLSearchParams(window.location.search);

  function remember(key, value) {
    if (value === null || value === "") { params.delete(key); } else { params.set(key, value); }
    var query = params.toString();
    var url = window.location.pathname + (query ? "?" + query : "") + window.location.hash;
    try { window.history.replaceState(window.history.state, "", url); } catch (err) { /* file: URLs */ }
  }

  function columnName(th, index) {
    var match = /(?:^|\s)neuron-col-(?!key\b|more\b|hidden\b)(\S+)/.exec(th.className);
    return match ? match[1] : String(index);
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

  function sortBy(table, index, headers, wanted) {
    var header = headers[index];
    var direction = wanted || (header.getAttribute("aria-sort") === "ascending" ? "descending" : "ascending");
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
    if (table.id) {
      remember("sort-" + table.id, columnName(header, index) + "." + (direction === "ascending" ? "asc" : "desc"));
    }
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
    var saved = table.id ? /^(.+)\.(asc|desc)$/.exec(params.get("sort-" + table.id) || "") : null;
    if (saved) {
      var index = headers.map(columnName).indexOf(saved[1]);
      if (index !== -1) { sortBy(table, index, headers, saved[2] === "asc" ? "ascending" : "descending"); }
    }
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
    if (table.id) {
      input.setAttribute("aria-controls", table.id);
      tools.id = table.id + "-tools";
    }
    var anchor = table.closest(".table-wrapper") || table;
    anchor.parentNode.insertBefore(tools, anchor);
    function apply() {
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
    }
    input.addEventListener("input", function () {
      apply();
      if (table.id) { remember("filter-" + table.id, input.value.trim()); }
    });
    var saved = table.id ? params.get("filter-" + table.id) : null;
    if (saved) {
      input.value = saved;
      apply();
    }
    return tools;
  }

  /* Columns: the reader's shown, the others on request (cols=); costs on the basis chosen (basis=). */
  var columnTables = [];

  function columnChoices() {
    var extra = {};
    (params.get("cols") || "").split(",").filter(Boolean).forEach(function (name) {
      if (name.charAt(0) === "-") { extra[name.slice(1)] = false; } else { extra[name] = true; }
    });
    return extra;
  }

  function basisOf(th) {
    var match = /(?:^|\s)neuron-basis-(\S+)/.exec(th.className);
    return match ? match[1] : null;
  }

  function shownColumn(th, index, choices, basis) {
    var name = columnName(th, index);
    var cost = basisOf(th);
    if (cost && basis !== "all") { return cost === basis; }
    if (Object.prototype.hasOwnProperty.call(choices, name)) { return choices[name]; }
    return isKey(th);
  }

  /* A reader's column: shown unless chosen away; one marked neuron-col-wide only on a wide screen
     (on a phone it waits behind the chooser, so that the figure and its cost stay in view). */
  var NARROW = window.matchMedia("(max-width: 40em)");
  function isKey(th) {
    return th.classList.contains("neuron-col-key") && !(NARROW.matches && th.classList.contains("neuron-col-wide"));
  }

  function applyColumns() {
    var choices = columnChoices();
    columnTables.forEach(function (entry) {
      var basis = entry.basis ? entry.basis.value : null;
      var shown = 0;
      entry.headers.forEach(function (th, index) {
        var visible = shownColumn(th, index, choices, basis);
        if (visible) { shown += 1; }
        th.classList.toggle("neuron-col-hidden", !visible);
        bodyRows(entry.table).forEach(function (row) {
          if (row.cells[index]) { row.cells[index].classList.toggle("neuron-col-hidden", !visible); }
        });
        var box = entry.boxes[index];
        if (box) { box.checked = visible; }
      });
      entry.summary.textContent = "Columns: " + shown + " of " + entry.headers.length + " shown";
    });
    markScrollers();
  }

  function chooseColumn(name, wanted, isKey) {
    var choices = columnChoices();
    if (wanted === isKey) { delete choices[name]; } else { choices[name] = wanted; }
    remember("cols", Object.keys(choices).map(function (n) { return (choices[n] ? "" : "-") + n; }).join(","));
    applyColumns();
  }

  var BASIS_TEXT = { "reserved-effective": "Reserved-instance effective", "on-demand": "On-demand", "all": "Both" };

  function makeColumnChooser(table, tools) {
    var head = table.tHead;
    var headers = Array.prototype.slice.call(head.rows[head.rows.length - 1].cells);
    counter += 1;
    var entry = { table: table, headers: headers, boxes: {}, basis: null, summary: null };
    var bases = [];
    headers.forEach(function (th) {
      var basis = basisOf(th);
      if (basis && bases.indexOf(basis) === -1) { bases.push(basis); }
    });
    if (bases.length > 1) {
      var basisId = "neuron-basis-" + counter;
      var basisLabel = document.createElement("label");
      basisLabel.htmlFor = basisId;
      basisLabel.textContent = "Price basis";
      var select = document.createElement("select");
      select.id = basisId;
      select.className = "neuron-basis-choice";
      bases.concat(["all"]).forEach(function (basis) {
        var option = document.createElement("option");
        option.value = basis;
        option.textContent = BASIS_TEXT[basis] || basis;
        select.appendChild(option);
      });
      var wanted = params.get("basis");
      select.value = wanted && bases.concat(["all"]).indexOf(wanted) !== -1 ? wanted : bases[0];
      select.addEventListener("change", function () {
        remember("basis", select.value === bases[0] ? null : select.value);
        columnTables.forEach(function (other) { if (other.basis) { other.basis.value = select.value; } });
        applyColumns();
      });
      entry.basis = select;
      tools.appendChild(basisLabel);
      tools.appendChild(select);
    }
    var details = document.createElement("details");
    details.className = "neuron-column-chooser";
    var summary = document.createElement("summary");
    details.appendChild(summary);
    entry.summary = summary;
    var list = document.createElement("fieldset");
    var legend = document.createElement("legend");
    legend.className = "neuron-visually-hidden";
    legend.textContent = "Columns to show";
    list.appendChild(legend);
    headers.forEach(function (th, index) {
      if (basisOf(th)) { return; }  /* costs follow the price basis */
      var name = columnName(th, index);
      var label = document.createElement("label");
      var box = document.createElement("input");
      box.type = "checkbox";
      box.addEventListener("change", function () {
        chooseColumn(name, box.checked, isKey(th));
      });
      label.appendChild(box);
      label.appendChild(document.createTextNode(" " + cellText(th)));
      list.appendChild(label);
      entry.boxes[index] = box;
    });
    details.appendChild(list);
    tools.appendChild(details);
    columnTables.push(entry);
  }

  /* A tab chosen (sphinx-design's synced tabs) is written into the address, which sphinx-design reads. */
  function rememberTabs() {
    Array.prototype.forEach.call(document.querySelectorAll(".sd-tab-set > input"), function (input) {
      var label = input.nextElementSibling;
      var group = label && label.getAttribute("data-sync-group");
      var id = label && label.getAttribute("data-sync-id");
      if (!group || !id) { return; }
      input.addEventListener("change", function () { if (input.checked) { remember(group, id); } });
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
      var tools = makeFilterable(table);
      if (table.classList.contains("neuron-columns") && table.tHead) { makeColumnChooser(table, tools); }
      makeSortable(table);
      table.classList.add("neuron-enhanced");
    });
    noteTooltips();
    rememberTabs();
    if (columnTables.length) { applyColumns(); } else { markScrollers(); }
    var pending = null;
    window.addEventListener("resize", function () {
      if (pending) { window.clearTimeout(pending); }
      pending = window.setTimeout(markScrollers, 150);
    });
    if (columnTables.length && NARROW.addEventListener) { NARROW.addEventListener("change", applyColumns); }
    /* A region in a <details> has no width until opened: marked again when one opens or closes
       ("toggle" does not bubble: listened to on its way down). */
    document.addEventListener("toggle", markScrollers, true);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
}());
