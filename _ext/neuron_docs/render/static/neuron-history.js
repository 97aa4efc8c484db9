/* The history index's filters (form.neuron-history-filter): model, instance and kind, kept in the
   URL's query (?model=...&instance=...&kind=...), so a filtered index is a link. Without the script the
   form submits the same query and the table shows every configuration. Vanilla, no network. */
(function () {
  "use strict";
  function apply(form, table) {
    var wanted = {};
    form.querySelectorAll("select").forEach(function (s) { if (s.value) { wanted[s.name] = s.value; } });
    var shown = 0;
    table.querySelectorAll("tbody tr").forEach(function (row) {
      var ok = Object.keys(wanted).every(function (k) { return row.getAttribute("data-" + k) === wanted[k]; });
      row.hidden = !ok;
      if (ok) { shown += 1; }
    });
    var out = form.querySelector("output");
    if (out) { out.textContent = shown + " configuration" + (shown === 1 ? "" : "s"); }
    return wanted;
  }
  function init() {
    var form = document.querySelector("form.neuron-history-filter");
    var table = document.querySelector("table.neuron-history-index");
    if (!form || !table) { return; }
    var query = new URLSearchParams(window.location.search);
    form.querySelectorAll("select").forEach(function (s) {
      var v = query.get(s.name);
      if (v !== null && Array.prototype.some.call(s.options, function (o) { return o.value === v; })) { s.value = v; }
    });
    apply(form, table);
    function update(event) {
      if (event) { event.preventDefault(); }
      var wanted = apply(form, table);
      var params = new URLSearchParams(wanted);
      var search = params.toString();
      window.history.replaceState(null, "", window.location.pathname + (search ? "?" + search : "") + window.location.hash);
    }
    form.addEventListener("change", function () { update(null); });
    form.addEventListener("submit", update);
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", init); } else { init(); }
})();
