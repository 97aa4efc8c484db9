/* The advisor: "which device for my model?" answered from the data embedded once in the page.
 *
 * Reads <script type="application/json" id="neuron-advisor-data"> (written at build time), builds a
 * form (model family, or a model name; workload; framework), and shows per Neuron device the fit
 * with its rationale, support, known issues and roadmap items, and the best measured configuration
 * for throughput and latency with its cost. State lives in the URL query (?family=, ?model=,
 * ?workload=, ?framework=), so a result can be shared. No network, no framework; text is set with
 * textContent only. Without this script the page's static table says the same.
 */
(function () {
  "use strict";

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function init() {
    var source = document.getElementById("neuron-advisor-data");
    var box = document.getElementById("neuron-advisor-app");
    if (!source || !box) return;
    var data = JSON.parse(source.textContent);
    var field = {};
    data.run_fields.forEach(function (name, i) { field[name] = i; });

    var form = el("form", { "class": "neuron-advisor-form", "role": "search", "aria-label": "Advisor" });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      if (model.value) family.value = "";
      update(true);
    });

    function labelled(id, text, control) {
      var wrap = el("div", { "class": "neuron-advisor-field" });
      wrap.appendChild(el("label", { "for": id }, text));
      wrap.appendChild(control);
      return wrap;
    }
    var family = el("select", { id: "advisor-family", name: "family" });
    family.appendChild(el("option", { value: "" }, "(pick a family, or type a model below)"));
    data.families.forEach(function (f) { family.appendChild(el("option", { value: f.id }, f.name)); });
    var model = el("input", { id: "advisor-model", name: "model", type: "text", list: "advisor-names",
                               autocomplete: "off", placeholder: "e.g. BERT, Llama-3-8B, ViT" });
    var names = el("datalist", { id: "advisor-names" });
    Object.keys(data.models).concat(Object.keys(data.names)).forEach(function (n) {
      names.appendChild(el("option", { value: n }));
    });
    var workload = el("select", { id: "advisor-workload", name: "workload" });
    ["inference", "training"].forEach(function (w) {
      workload.appendChild(el("option", { value: w }, w === "inference" ? "Inference" : "Training"));
    });
    var framework = el("select", { id: "advisor-framework", name: "framework" });
    framework.appendChild(el("option", { value: "" }, "Any framework"));
    data.frameworks.forEach(function (f) { framework.appendChild(el("option", { value: f.id }, f.label)); });

    form.appendChild(labelled("advisor-family", "Model family", family));
    form.appendChild(labelled("advisor-model", "or a model name", model));
    form.appendChild(names);
    form.appendChild(labelled("advisor-workload", "Workload", workload));
    form.appendChild(labelled("advisor-framework", "Framework (optional)", framework));
    form.appendChild(el("button", { type: "submit" }, "Show devices"));
    var result = el("div", { id: "advisor-result", "class": "neuron-advisor-result", "aria-live": "polite" });
    box.appendChild(form);
    box.appendChild(result);

    family.addEventListener("change", function () { model.value = ""; update(true); });
    workload.addEventListener("change", function () { update(true); });
    framework.addEventListener("change", function () { update(true); });
    model.addEventListener("change", function () { if (model.value) family.value = ""; update(true); });

    var params = new URLSearchParams(window.location.search);
    family.value = params.get("family") || "";
    model.value = params.get("model") || "";
    workload.value = params.get("workload") === "training" ? "training" : "inference";
    framework.value = params.get("framework") || "";
    if (family.value || model.value) update(false);

    /* A typed name -> {family, model} (model: a benchmarked model's exact name), or null. */
    function resolve(text) {
      var wanted = text.trim().toLowerCase();
      if (!wanted) return null;
      var exact = function (table) {
        return Object.keys(table).filter(function (n) { return n.toLowerCase() === wanted; })[0];
      };
      var hit = exact(data.models);
      if (hit) return { family: data.models[hit], model: hit };
      hit = exact(data.names);
      if (hit) return { family: data.names[hit], model: null };
      var partial = Object.keys(data.models).filter(function (n) { return n.toLowerCase().indexOf(wanted) >= 0; });
      var families = partial.map(function (n) { return data.models[n]; })
        .filter(function (f, i, all) { return all.indexOf(f) === i; });
      if (families.length === 1) return { family: families[0], model: null, matches: partial };
      return null;
    }

    function link(key, text) {
      var href = data.links[key];
      if (!href) return el("span", {}, text);
      return el("a", { href: href }, text);
    }

    function update(push) {
      var query = new URLSearchParams();
      if (family.value) query.set("family", family.value);
      if (model.value) query.set("model", model.value);
      query.set("workload", workload.value);
      if (framework.value) query.set("framework", framework.value);
      if (push) window.history.replaceState(null, "", "?" + query.toString() + window.location.hash);
      result.textContent = "";
      var subject = family.value ? { family: family.value, model: null } : resolve(model.value);
      if (!subject) {
        if (model.value) {
          result.appendChild(el("p", { "class": "neuron-advisor-unknown", role: "status" },
            "No model family or benchmarked model named \u201c" + model.value + "\u201d is in the data. " +
            "Pick a model family from the list, or try a name such as BERT, Llama or ViT."));
        }
        return;
      }
      var fam = data.families.filter(function (f) { return f.id === subject.family; })[0];
      var heading = subject.model ? subject.model + " (" + (fam ? fam.name : subject.family) + ")"
        : (fam ? fam.name : subject.family);
      result.appendChild(el("h2", { id: "advisor-heading", tabindex: "-1" },
        heading + ": " + workload.value + (framework.value ? ", " + framework.value : "")));
      if (subject.matches) {
        result.appendChild(el("p", {}, "Models matching \u201c" + model.value + "\u201d: " +
          subject.matches.join(", ") + ". Shown: their family."));
      }
      var wrap = el("div", { "class": "neuron-advisor-scroll", tabindex: "0", role: "region",
                             "aria-label": "Devices for " + heading });
      var table = el("table", { "class": "neuron-table neuron-advisor-result-table" });
      var head = el("tr");
      ["Device", "Architecture fit", "Support", "Known issues and roadmap", "Best throughput",
        "Best latency", "More"].forEach(function (h) { head.appendChild(el("th", { scope: "col" }, h)); });
      table.appendChild(el("thead")).appendChild(head);
      var body = el("tbody");
      data.devices.forEach(function (device) {
        var advice = (data.table[subject.family + "|" + device.id + "|"] || {}).advice || {};
        var key = (subject.model ? "model:" + subject.model : subject.family) + "|" + device.id + "|" + framework.value;
        var best = (data.table[key] || {})[workload.value] || [null, null];
        var row = el("tr", { "data-device": device.id });
        row.appendChild(el("th", { scope: "row" })).appendChild(link("device:" + device.id, device.name));
        var fit = el("td");
        if (advice.fit) {
          fit.appendChild(el("strong", {}, advice.fit_text));
          if (advice.rationale) fit.appendChild(document.createTextNode(": " + advice.rationale));
        } else fit.textContent = "Unknown: no published fit or support for this device";
        row.appendChild(fit);
        var support = el("td");
        var entries = (advice.support || []).filter(function (s) {
          return (!framework.value || s.framework === framework.value) &&
            (!workload.value || !s.workload || s.workload === workload.value);
        });
        if (!advice.fit) support.textContent = "Unknown: no published support matrix for this device";
        else if (!entries.length) support.textContent = "Not applicable: the framework does not run on this device";
        else {
          var list = el("ul");
          entries.forEach(function (s) {
            list.appendChild(el("li", {}, s.label + ": " + s.text + (s.note ? " (" + s.note + ")" : "") +
              (s.since ? ", since " + s.since : "")));
          });
          support.appendChild(list);
        }
        row.appendChild(support);
        var issues = el("td");
        var items = (advice.issues || []).filter(function (id) {
          var issue = data.issues[id];
          return !framework.value || !issue || !issue.frameworks.length || issue.frameworks.indexOf(framework.value) >= 0;
        }).map(function (id) { return link("issue:" + id, (data.issues[id] || {}).title || id); })
          .concat((advice.roadmap || []).map(function (id) { return link("roadmap:" + id, data.roadmap[id] || id); }));
        if (!items.length) issues.textContent = "None known";
        items.forEach(function (a, i) { if (i) issues.appendChild(document.createTextNode("; ")); issues.appendChild(a); });
        row.appendChild(issues);
        [0, 1].forEach(function (which) {
          var index = best[which];
          var text = index === null || index === undefined
            ? (workload.value === "training" && which === 1 ? "Not applicable" : "None measured")
            : data.runs[index][field[which ? "latency_text" : "throughput_text"]];
          row.appendChild(el("td", { "class": which ? "advisor-latency" : "advisor-throughput" }, text));
        });
        var more = el("td");
        more.appendChild(link("family:" + subject.family, "Architecture fit"));
        if (subject.model && data.links["model:" + subject.model]) {
          more.appendChild(document.createTextNode("; "));
          more.appendChild(link("model:" + subject.model, "Measurements"));
        }
        more.appendChild(document.createTextNode("; "));
        more.appendChild(link("device:" + device.id, "Device page"));
        row.appendChild(more);
        body.appendChild(row);
      });
      table.appendChild(body);
      wrap.appendChild(table);
      result.appendChild(wrap);
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
