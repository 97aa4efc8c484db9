/* The advisor: "which device for my model?" answered from the data embedded once in the page.
 *
 * Reads <script type="application/json" id="neuron-advisor-data"> (written at build time), builds a
 * form (model family, or a model name; workload; framework), and shows per Neuron device the fit
 * with its rationale, support, known issues and roadmap items, and the configurations of one model
 * with one task and shape that give the best throughput, the best latency and the lowest cost.
 * The answer to a choice is a verdict sentence and the devices ranked for the reader's goal (highest
 * throughput, lowest latency or lowest cost per 1M: ?goal=), one compact line each (figure, unit,
 * configuration, cost and its price basis, fit or the lack of support); costs on the price basis the
 * reader picks (?basis=on-demand; as published by default: the lowest cost is chosen on each basis); fit, support, issues and all
 * three figures per device are behind a click. Before a choice, a short start: the whole table of
 * every family on every device (what a reader without JavaScript sees) is folded away.
 * A typed name is looked up by its key, made by the rule the build states in data.key_rule (NFKC,
 * lower case, a leading "organisation/" dropped, letters and digits only: nameKey below); the keys
 * of every model's and family's names are computed by the build (data.keys), so this script only
 * makes the key of what is typed. A name that is the start of one model's names finds it; one that
 * finds nothing gets the nearest models and families (shared letter pairs) and the guidelines.
 * For a model with a size (data.fit: the data's, or read from its name by NeuronFit.sizeFromName), the
 * answer ends with "Will it fit?": the estimate of neuron-fit.js for the sequence length and batch the
 * reader gives (?seq=, ?batch=), after the measured figures, labelled as an estimate; a name the data
 * does not know but whose size it can read ("Qwen2-72B") gets that estimate under the nearest names.
 * State lives in the URL query (?family=, ?model=, ?workload=, ?framework=), so a result can be
 * shared. No network, no framework; text is set with textContent only. Without this script the
 * page's static table says the same.
 */
(function () {
  "use strict";

  /* The reader's goals: which of a device's best runs ranks it, the run's sentence and number, the verdict. */
  var GOALS = [
    { id: "throughput", label: "Highest throughput", text: "throughput_text", value: "throughput_value",
      verdict: "gives the highest throughput" },
    { id: "latency", label: "Lowest latency", text: "latency_text", value: "latency_value",
      verdict: "gives the lowest latency" },
    { id: "cost", label: "Lowest cost per 1M", text: "cost_text", value: "cost_value",
      verdict: "costs the least per 1M" }
  ];

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
    Object.keys(data.models).forEach(function (id) {
      names.appendChild(el("option", { value: data.models[id].name }));
    });
    data.families.forEach(function (f) { names.appendChild(el("option", { value: f.name })); });
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
    var goal = el("select", { id: "advisor-goal", name: "goal" });
    GOALS.forEach(function (g) { goal.appendChild(el("option", { value: g.id }, g.label)); });
    form.appendChild(labelled("advisor-goal", "Rank devices by", goal));
    var basis = el("select", { id: "advisor-basis", name: "basis" });
    [["published", "As published (reserved-instance effective)"], ["on-demand", "On-demand"]].forEach(function (b) {
      basis.appendChild(el("option", { value: b[0] }, b[1]));
    });
    form.appendChild(labelled("advisor-basis", "Costs at the price", basis));
    var fitData = data.fit || null;
    var sequence = el("input", { id: "advisor-sequence", name: "seq", type: "number", min: "1", step: "1",
                                 placeholder: fitData ? String(fitData.defaults.sequence) : "" });
    var batchSize = el("input", { id: "advisor-batch", name: "batch", type: "number", min: "1", step: "1",
                                  placeholder: fitData ? String(fitData.defaults.batch) : "" });
    if (fitData) {
      form.appendChild(labelled("advisor-sequence", "Sequence length (tokens, for Will it fit?)", sequence));
      form.appendChild(labelled("advisor-batch", "Batch (for Will it fit?)", batchSize));
      sequence.addEventListener("change", function () { update(true); });
      batchSize.addEventListener("change", function () { update(true); });
    }
    form.appendChild(el("button", { type: "submit" }, "Show devices"));
    var result = el("div", { id: "advisor-result", "class": "neuron-advisor-result", "aria-live": "polite" });
    var start = el("div", { "class": "neuron-advisor-start" });
    start.appendChild(el("p", {}, "Pick a model family or type a model name (as on Hugging Face, or as people say it): " +
      "the devices come ranked by what you care about. Or start from a family:"));
    var quick = el("ul", { "class": "neuron-advisor-quick" });
    data.families.forEach(function (f) {
      var a = el("a", { href: "?family=" + encodeURIComponent(f.id) }, f.name);
      a.addEventListener("click", function (event) {
        event.preventDefault();
        family.value = f.id; model.value = "";
        update(true);
      });
      quick.appendChild(el("li")).appendChild(a);
    });
    start.appendChild(quick);
    box.appendChild(form);
    box.appendChild(start);
    box.appendChild(result);
    foldWholeTable();

    family.addEventListener("change", function () { model.value = ""; update(true); });
    workload.addEventListener("change", function () { update(true); });
    framework.addEventListener("change", function () { update(true); });
    goal.addEventListener("change", function () { update(true); });
    basis.addEventListener("change", function () { update(true); });
    model.addEventListener("change", function () { if (model.value) family.value = ""; update(true); });

    var params = new URLSearchParams(window.location.search);
    family.value = params.get("family") || "";
    model.value = params.get("model") || "";
    workload.value = params.get("workload") === "training" ? "training" : "inference";
    framework.value = params.get("framework") || "";
    basis.value = params.get("basis") === "on-demand" ? "on-demand" : "published";
    sequence.value = /^[1-9][0-9]{0,6}$/.test(params.get("seq") || "") ? params.get("seq") : "";
    batchSize.value = /^[1-9][0-9]{0,4}$/.test(params.get("batch") || "") ? params.get("batch") : "";
    goal.value = GOALS.some(function (g) { return g.id === params.get("goal"); }) ? params.get("goal") : GOALS[0].id;
    if (family.value || model.value) update(false);

    /* The page's static table of every family on every device, folded into a <details>: a short start. */
    function foldWholeTable() {
      var whole = document.querySelector("table.neuron-advisor-table");
      if (!whole) return;
      var wrapper = whole.closest(".table-wrapper") || whole;
      var cue = wrapper.previousElementSibling;  /* "scrolls sideways" (neuron-a11y.js), if already there */
      var fold = el("details", { "class": "neuron-advisor-all" });
      fold.appendChild(el("summary", {}, "Every model family on every device: the whole table"));
      wrapper.parentNode.insertBefore(fold, wrapper);
      if (cue && cue.classList.contains("neuron-scroll-cue")) fold.appendChild(cue);
      fold.appendChild(wrapper);
    }

    /* What a device says for the chosen subject, workload and framework: fit, support, the runs. */
    function deviceAnswer(subject, device) {
      var advice = (data.table[subject.family + "|" + device.id + "|"] || {}).advice || {};
      var key = (subject.model ? "model:" + subject.model : subject.family) + "|" + device.id + "|" + framework.value;
      var entries = (advice.support || []).filter(function (s) {
        return (!framework.value || s.framework === framework.value) &&
          (!workload.value || !s.workload || s.workload === workload.value);
      });
      return { device: device, advice: advice, entries: entries,
               best: basisBest((data.table[key] || {})[workload.value] || [null, null, null, null]) };
    }

    /* The runs chosen for throughput, latency and cost on the price basis picked (the lowest cost on
       demand may be another configuration: the fourth of the build's choices). */
    function basisBest(chosen) {
      return [chosen[0], chosen[1], basis.value === "on-demand" ? chosen[3] : chosen[2]];
    }
    /* The index of a run's field on the basis picked: a sentence or figure naming a cost has its own. */
    function col(name) {
      return field[basis.value === "on-demand" && field[name + "_od"] !== undefined ? name + "_od" : name];
    }

    /* Fit and support in one phrase that never contradicts itself: no fit is claimed for a workload
       (or framework) the device does not support. */
    function standing(answer) {
      if (!answer.advice.fit) return "no published fit or support";
      if (!answer.entries.length) {
        return framework.value ? "the framework does not run on this device"
          : "no " + workload.value + " support on this device";
      }
      return answer.advice.fit_text;
    }

    /* A figure the device has none of: a training run has no latency to compare (as the static table says). */
    function unmeasured(which, capital) {
      var text = workload.value === "training" && which === 1 ? "not applicable" : "none measured";
      return capital ? text.charAt(0).toUpperCase() + text.slice(1) : text;
    }

    /* The devices for the goal: measured ones best first (figures compared only in one unit), then the rest. */
    function ranked(answers, which) {
      var valueField = GOALS[which].value;
      var measured = answers.filter(function (a) { return a.best[which] !== null && a.best[which] !== undefined; });
      var rest = answers.filter(function (a) { return measured.indexOf(a) < 0; });
      var unitOf = function (a) { return which === 0 ? data.runs[a.best[which]][field.throughput_unit] : ""; };
      measured.sort(function (a, b) {
        var ua = unitOf(a), ub = unitOf(b);
        if (ua !== ub) return ua < ub ? -1 : 1;
        var va = data.runs[a.best[which]][col(valueField)], vb = data.runs[b.best[which]][col(valueField)];
        return which === 0 ? vb - va : va - vb;
      });
      return { measured: measured, rest: rest };
    }

    function answerList(answers, heading) {
      var which = GOALS.map(function (g) { return g.id; }).indexOf(goal.value);
      var order = ranked(answers, which);
      var verdict = el("p", { "class": "neuron-advisor-verdict" });
      var top = order.measured[0];
      if (top) {
        verdict.appendChild(el("strong", {}, top.device.name));
        verdict.appendChild(document.createTextNode(" " + GOALS[which].verdict + " for " + heading + ", " +
          workload.value + ": " + data.runs[top.best[which]][col(GOALS[which].text)] + "."));
        var next = order.measured[1];
        if (next && (which !== 0 || data.runs[next.best[which]][field.throughput_unit] ===
                     data.runs[top.best[which]][field.throughput_unit])) {
          verdict.appendChild(document.createTextNode(" Next: " + next.device.name + "."));
        }
      } else {
        var suited = order.rest.filter(function (a) { return a.advice.fit && a.entries.length; })
          .map(function (a) { return a.device.name + " (" + a.advice.fit_text + ")"; });
        verdict.textContent = (workload.value === "training" && which === 1
          ? "Latency is not measured for training. " : "No device has a measured " + GOALS[which].id + " for " +
            heading + ", " + workload.value + ". ") +
          (suited.length ? "By architecture fit and support: " + suited.join(", ") + "." : "");
      }
      var list = el("ol", { "class": "neuron-advisor-ranking", "aria-label": "Devices, " + GOALS[which].label.toLowerCase() + " first" });
      order.measured.concat(order.rest).forEach(function (a) {
        var index = a.best[which];
        var item = el("li", { "data-device": a.device.id });
        item.appendChild(el("strong")).appendChild(link("device:" + a.device.id, a.device.name));
        var figure = index === null || index === undefined
          ? unmeasured(which, false)
          : data.runs[index][col(GOALS[which].text)];
        item.appendChild(document.createTextNode(": " + figure));
        item.appendChild(el("span", { "class": "neuron-advisor-standing" }, " \u2014 " + standing(a)));
        list.appendChild(item);
      });
      var gaps = order.measured.map(function (a) { return data.runs[a.best[which]][col("price_unstated")]; });
      var note = unstatedSentence(gaps);
      return note ? [verdict, list, el("p", { "class": "neuron-price-note" }, note)] : [verdict, list];
    }

    /* Said once under the answer: what the sources of its prices leave unsaid, in the build's words
       (data.unstated: every sentence of prices.unstated_sentence, by the facets left unsaid). */
    function unstatedSentence(gaps) {
      var missing = data.unstated.facets.filter(function (n) { return gaps.some(function (g) { return g.indexOf(n) >= 0; }); });
      if (!missing.length) return null;
      var all = gaps.every(function (g) { return missing.every(function (n) { return g.indexOf(n) >= 0; }); });
      return data.unstated.sentences[missing.join("|")][all ? "all" : "some"];
    }

    /* The key of a name: the rule of data.key_rule (neuron_docs/data/records/names.py). */
    function nameKey(text) {
      var t = text.normalize("NFKC").toLowerCase().trim();
      t = t.replace(/^[\p{L}\p{N}_.\-]+\/(?=\p{L})/u, "");
      return t.replace(/[^\p{L}\p{N}]+/gu, "");
    }

    /* Letter pairs shared by two keys (Dice's coefficient): how near an unknown name is to a known one. */
    function pairs(key) {
      var out = {};
      for (var i = 0; i < key.length - 1; i++) out[key.slice(i, i + 2)] = (out[key.slice(i, i + 2)] || 0) + 1;
      return out;
    }
    function nearness(a, b) {
      var pa = pairs(a), pb = pairs(b), shared = 0, total = Math.max(a.length - 1, 0) + Math.max(b.length - 1, 0);
      Object.keys(pa).forEach(function (p) { shared += Math.min(pa[p], pb[p] || 0); });
      return total ? 2 * shared / total : 0;
    }

    function familyName(id) {
      var known = data.families.filter(function (f) { return f.id === id; })[0];
      return known ? known.name : id;
    }

    /* The nearest models and families of a key: [{kind, id, name}], models first. */
    function suggest(key) {
      var all = Object.keys(data.keys).map(function (k) { return [nearness(key, k), data.keys[k]]; })
        .sort(function (a, b) { return b[0] - a[0]; });
      var scored = all.filter(function (s) { return s[0] >= 0.3; });
      if (!scored.length) scored = all.slice(0, 3);  /* nothing close: the nearest anyway */
      var seen = {}, models = [], families = [];
      scored.forEach(function (s) {
        if (seen[s[1]]) return;
        seen[s[1]] = true;
        var kind = s[1].slice(0, s[1].indexOf(":")), id = s[1].slice(kind.length + 1);
        if (kind === "model" && models.length < 5) models.push({ kind: kind, id: id, name: data.models[id].name });
        else if (kind === "family") families.push(id);
      });
      models.forEach(function (m) {
        if (families.indexOf(data.models[m.id].family) < 0) families.push(data.models[m.id].family);
      });
      return models.concat(families.slice(0, 5).map(function (id) {
        return { kind: "family", id: id, name: familyName(id) };
      }));
    }

    /* A typed name -> {family, model (an identity id), partial, matches} or {unknown, suggestions}; null if empty. */
    function resolve(text) {
      var key = nameKey(text);
      if (!key) return null;
      var hit = data.keys[key];
      if (hit && hit.indexOf("model:") === 0) {
        var id = hit.slice(6);
        return { family: data.models[id].family, model: id };
      }
      if (hit && hit.indexOf("size:") === 0 && fitData && fitData.sizes[hit]) {
        return { family: fitData.sizes[hit].family, model: null, size: hit };
      }
      var starting = Object.keys(data.keys).filter(function (k) {
        return k.indexOf(key) === 0 && data.keys[k].indexOf("model:") === 0;
      }).map(function (k) { return data.keys[k].slice(6); })
        .filter(function (id, i, all) { return all.indexOf(id) === i; });
      if (starting.length === 1) return { family: data.models[starting[0]].family, model: starting[0], partial: true };
      var named = fitData ? NeuronFitScript().sizeFromName(text, fitData) : null;
      var families = starting.map(function (id) { return data.models[id].family; })
        .filter(function (f, i, all) { return all.indexOf(f) === i; });
      var family = hit ? hit.slice(7) : (families.length === 1 ? families[0] : null);
      var matches = starting.map(function (id) { return data.models[id].name; });
      if (family && !named) return { family: family, model: null, matches: matches };
      return { unknown: true, named: named, suggestions: starting.length
        ? starting.slice(0, 5).map(function (id) { return { kind: "model", id: id, name: data.models[id].name }; })
        : suggest(key) };
    }

    /* The link of a model: its first name (or seed model id) that has a place on the site. */
    function modelLink(id) {
      var model = data.models[id];
      return model.names.concat(model.seed || []).map(function (n) { return "model:" + n; })
        .filter(function (k) { return data.links[k]; })[0];
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
      if (goal.value !== GOALS[0].id) query.set("goal", goal.value);
      if (basis.value !== "published") query.set("basis", basis.value);
      if (sequence.value) query.set("seq", sequence.value);
      if (batchSize.value) query.set("batch", batchSize.value);
      if (push) window.history.replaceState(null, "", "?" + query.toString() + window.location.hash);
      result.textContent = "";
      var subject = family.value ? { family: family.value, model: null } : resolve(model.value);
      start.hidden = !!subject;
      if (!subject) return;
      if (push) bringIntoView();
      if (subject.unknown) {
        var box = el("div", { "class": "neuron-advisor-unknown", role: "status" });
        box.appendChild(el("p", {}, "No model family or benchmarked model named \u201c" + model.value +
          "\u201d is in the data." + (subject.suggestions.length ? " The nearest:" : "")));
        if (subject.suggestions.length) {
          var list = el("ul", { "class": "neuron-advisor-suggestions" });
          subject.suggestions.forEach(function (s) {
            var query = s.kind === "model" ? "?model=" + encodeURIComponent(s.name) : "?family=" + encodeURIComponent(s.id);
            var a = el("a", { href: query + "&workload=" + workload.value }, s.name);
            a.addEventListener("click", function (event) {
              event.preventDefault();
              if (s.kind === "model") { family.value = ""; model.value = s.name; } else { family.value = s.id; model.value = ""; }
              update(true);
            });
            var item = el("li", {}, s.kind === "family" ? "Model family: " : "Model: ");
            item.appendChild(a);
            list.appendChild(item);
          });
          box.appendChild(list);
        }
        var guide = el("p", {}, "Which family a model belongs to, and how each family runs on each device: ");
        guide.appendChild(el("a", { href: data.guidelines_url || "#" }, "the architecture fit guidelines"));
        guide.appendChild(document.createTextNode("."));
        box.appendChild(guide);
        result.appendChild(box);
        if (subject.named) result.appendChild(fitSection(subject.named));
        return;
      }
      var fam = data.families.filter(function (f) { return f.id === subject.family; })[0];
      var modelName = subject.model ? data.models[subject.model].name
        : subject.size ? fitData.sizes[subject.size].name : null;
      var heading = modelName ? modelName + " (" + (fam ? fam.name : subject.family) + ")"
        : (fam ? fam.name : subject.family);
      result.appendChild(el("h2", { id: "advisor-heading", tabindex: "-1" },
        heading + ": " + workload.value + (framework.value ? ", " + framework.value : "")));
      if (subject.size) {
        result.appendChild(el("p", {}, modelName + " has no measured figures in the data: below, its family's " +
          "(measured on the family's representative model), then the estimate from its size."));
      }
      if (subject.partial) {
        result.appendChild(el("p", {}, "\u201c" + model.value + "\u201d is the start of the names of one model: " +
          modelName + "."));
      } else if (subject.matches && subject.matches.length) {
        result.appendChild(el("p", {}, "Models whose names start with \u201c" + model.value + "\u201d: " +
          subject.matches.join(", ") + ". Shown: their family, on its representative model."));
      }
      var answers = data.devices.map(function (device) { return deviceAnswer(subject, device); });
      answerList(answers, heading).forEach(function (node) { result.appendChild(node); });
      var details = el("details", { "class": "neuron-advisor-details" });
      details.appendChild(el("summary", {}, "Fit, support, known issues and every figure, device by device"));
      result.appendChild(details);
      var wrap = el("div", { "class": "neuron-advisor-scroll", tabindex: "0", role: "region",
                             "aria-label": "Devices for " + heading });
      var table = el("table", { "class": "neuron-table neuron-advisor-result-table" });
      var head = el("tr");
      ["Device", "Architecture fit", "Support", "Known issues and roadmap", "Best throughput",
        "Best latency", "Lowest cost", "More"].forEach(function (h) { head.appendChild(el("th", { scope: "col" }, h)); });
      table.appendChild(el("thead")).appendChild(head);
      var body = el("tbody");
      answers.forEach(function (answer) {
        var device = answer.device, advice = answer.advice, best = answer.best, entries = answer.entries;
        var row = el("tr", { "data-device": device.id });
        row.appendChild(el("th", { scope: "row" })).appendChild(link("device:" + device.id, device.name));
        var fit = el("td");
        if (advice.fit && !entries.length) {
          fit.textContent = "Not applicable: " + standing(answer);
        } else if (advice.fit) {
          fit.appendChild(el("strong", {}, advice.fit_text));
          if (advice.rationale) fit.appendChild(document.createTextNode(": " + advice.rationale));
        } else fit.textContent = "Unknown: no published fit or support for this device";
        row.appendChild(fit);
        var support = el("td");
        if (!advice.fit) support.textContent = "Unknown: no published support matrix for this device";
        else if (!entries.length) support.textContent = "Not applicable: " + standing(answer);
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
        ["throughput_text", "latency_text", "cost_text"].forEach(function (name, which) {
          var index = best[which];
          var text = index === null || index === undefined
            ? unmeasured(which, true)
            : data.runs[index][col(name)];
          row.appendChild(el("td", { "class": "advisor-" + name.split("_")[0] }, text));
        });
        var more = el("td");
        more.appendChild(link("family:" + subject.family, "Architecture fit"));
        var measured = subject.model ? modelLink(subject.model) : null;
        if (measured) {
          more.appendChild(document.createTextNode("; "));
          more.appendChild(link(measured, "Measurements"));
        }
        more.appendChild(document.createTextNode("; "));
        more.appendChild(link("device:" + device.id, "Device page"));
        row.appendChild(more);
        body.appendChild(row);
      });
      table.appendChild(body);
      wrap.appendChild(table);
      details.appendChild(wrap);
      var size = subject.size ? fitData.sizes[subject.size]
        : subject.model && fitData ? fitData.sizes[subject.model] : null;
      if (size) result.appendChild(fitSection(size));
    }

    /* The script of the estimate (neuron-fit.js, loaded before this one). */
    function NeuronFitScript() { return window.NeuronFit; }

    /* "Will it fit?": the estimate's sentences for the size, the reader's sequence length and batch. */
    function fitSection(size) {
      var section = el("section", { "class": "neuron-advisor-fit", "aria-labelledby": "advisor-fit-heading" });
      section.appendChild(el("h3", { id: "advisor-fit-heading" }, "Will it fit?"));
      var lines = NeuronFitScript().lines(fitData, size, null, Number(sequence.value) || null,
                                          Number(batchSize.value) || null);
      section.appendChild(el("p", { "class": "neuron-fit-label" }, lines[0]));
      var list = el("ul", { "class": "neuron-fit-lines" });
      lines.slice(1).forEach(function (line) { list.appendChild(el("li", {}, line)); });
      section.appendChild(list);
      return section;
    }

    /* After a choice, the answer where the reader looks: scrolled to when it starts low on the
       screen (under the form on a phone); the focus stays in the form. */
    function bringIntoView() {
      window.requestAnimationFrame(function () {
        if (result.getBoundingClientRect().top > window.innerHeight * 0.5) result.scrollIntoView({ block: "start" });
      });
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
