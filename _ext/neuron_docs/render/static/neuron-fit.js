/* Will it fit? The advisor's estimate of the memory a model needs, for the sequence length and batch a
 * reader gives. The formula and its sentences are the build's (neuron_docs/data/figures/fit.py,
 * lines_for); this script applies them to what is typed, with the constants, units, places and sizes
 * the build ships (data.fit, fit.fit_slice: the units a memory size and a parameter count are shown in,
 * the pattern of a size in a name; this script holds none of its own), and tests/test_fit.py checks
 * that both write the same sentences:
 *
 *   need = (parameters x bytes + 2 x layers x kv heads x head size x sequence x batch x bytes) x (1 + headroom)
 *
 * held by d NeuronCores when need <= d x memory per NeuronCore. Loaded before neuron-advisor.js (which
 * calls window.NeuronFit) and by node in the tests (module.exports). Integers throughout, as bytes.
 */
(function (root, factory) {
  var api = factory();
  if (typeof module === "object" && module.exports) module.exports = api;
  else root.NeuronFit = api;
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  /* formatting._scaled: three significant digits, rounded half up on the integer, zeros dropped; units as
   * fit.units ships them ([[size, suffix], ...], largest first). */
  function scaled(count, units) {
    var chosen = units[units.length - 1];
    for (var i = 0; i < units.length; i++) { if (count >= units[i][0]) { chosen = units[i]; break; } }
    var unit = chosen[0];
    var decimals = count >= 100 * unit ? 0 : count >= 10 * unit ? 1 : 2;
    var scale = Math.pow(10, decimals);
    var rounded = Math.floor((count * scale * 2 + unit) / (2 * unit));
    var whole = Math.floor(rounded / scale), part = rounded - whole * scale;
    var text = String(whole);
    if (decimals) {
      var digits = String(part);
      while (digits.length < decimals) digits = "0" + digits;
      text = (whole + "." + digits).replace(/0+$/, "").replace(/\.$/, "");
    }
    return text + chosen[1];
  }
  /* formatting.shown_memory and formatting.shown_parameters. */
  function memoryText(fit, bytes) { return scaled(Math.max(Math.floor(bytes), 0), fit.units.memory); }
  function parametersText(fit, count) { return scaled(Math.max(Math.round(count), 0), fit.units.parameters); }

  /* fit.size_from_name: "Qwen2-72B" is 72B parameters, "Mixtral-8x7B" 56B; null when the name gives none. */
  function sizeFromName(text, fit) {
    var match = new RegExp(fit.units.size_in_name).exec(text.toLowerCase());
    if (!match) return null;
    var parts = match[2].split("."), fraction = parts[1] || "", scale = Math.pow(10, fraction.length);
    var count = Math.floor((Number(parts[0]) * scale + Number(fraction || 0)) * fit.units.size_units[match[3]] /
      scale);
    count *= Number(match[1] || 1);
    if (count <= 0) return null;
    return { name: text.trim(), parameters: count, data_types: [fit.defaults.name_data_type],
             kv_values_per_token: null, family: null, from_name: true };
  }

  function estimate(fit, size, dtype, sequence, batch) {
    var bytes = fit.dtype_bytes[dtype];
    var weights = size.parameters * bytes;
    var kvCounted = size.kv_values_per_token !== null && size.kv_values_per_token !== undefined;
    var kv = kvCounted ? size.kv_values_per_token * sequence * batch * bytes : 0;
    var headroom = Math.floor(((weights + kv) * fit.headroom_percent + 99) / 100);
    return { weights: weights, kv: kv, headroom: headroom, need: weights + kv + headroom, counted: kvCounted };
  }

  function memory(place, degree) { return degree * place.core_bytes; }
  function top(place) { return place.degrees[place.degrees.length - 1]; }
  function smallestFit(places, need, dtype) {
    for (var i = 0; i < places.length; i++) {
      var place = places[i];
      if (dtype && place.data_types.indexOf(dtype) < 0) continue;
      for (var j = 0; j < place.degrees.length; j++) {
        if (memory(place, place.degrees[j]) >= need) return [place, place.degrees[j]];
      }
    }
    return null;
  }
  function largestOf(places) {
    var most = 0;
    places.forEach(function (p) { most = Math.max(most, memory(p, top(p))); });
    return places.filter(function (p) { return memory(p, top(p)) === most; })[0];
  }
  function plural(n) { return n > 1 ? "s" : ""; }

  /* fit.lines_for: the estimate in sentences. */
  function lines(fit, size, dataType, sequence, batch) {
    var places = fit.places, h = fit.headroom_percent;
    var dtype = dataType || size.data_types[0];
    var seq = sequence || fit.defaults.sequence, n = batch || fit.defaults.batch;
    var est = estimate(fit, size, dtype, seq, n);
    var each = fit.dtype_bytes[dtype];
    var out = [fit.label,
      size.name + ": " + parametersText(fit, size.parameters) + " parameters at " + dtype + ", " + each + " byte" +
      plural(each) + " each" + (size.from_name ? " (the size read from its name)." : ".")];
    if (est.counted) {
      out.push("Needs " + memoryText(fit, est.need) + ": weights " + memoryText(fit, est.weights) + " + KV cache " +
        memoryText(fit, est.kv) + " + " + h + "% headroom " + memoryText(fit, est.headroom) + ".");
    } else {
      var why = size.from_name ? "its layers and key-value heads are not known from its name"
        : "the data gives no decoder dimensions for it";
      out.push("Needs " + memoryText(fit, est.need) + ": weights " + memoryText(fit, est.weights) + " + " + h +
        "% headroom " + memoryText(fit, est.headroom) + "; no KV cache counted (" + why + ").");
    }
    var best = smallestFit(places, est.need);
    if (best) {
      out.push("Smallest fit: " + best[0].instance + " with " + best[1] + " NeuronCore" + plural(best[1]) + " (" +
        memoryText(fit, memory(best[0], best[1])) + " of device memory).");
      var devices = [];
      places.forEach(function (p) { if (devices.indexOf(p.device) < 0) devices.push(p.device); });
      devices.forEach(function (device) {
        var mine = places.filter(function (p) { return p.device === device; });
        var found = smallestFit(mine, est.need);
        if (!found) {
          var biggest = largestOf(mine);
          out.push("On " + biggest.device_name + ": too large (at most " +
            memoryText(fit, memory(biggest, top(biggest))) + ", on " + biggest.instance + ").");
        } else {
          out.push("On " + found[0].device_name + ": " + found[0].instance + ", " + found[1] + " NeuronCore" +
            plural(found[1]) + ".");
        }
      });
    } else if (places.length) {
      var largest = largestOf(places);
      out.push("Too large for every instance at " + dtype + ": it needs " + memoryText(fit, est.need) +
        "; the largest, " + largest.instance + ", has " + memoryText(fit, memory(largest, top(largest))) + " in " +
        top(largest) + " NeuronCores.");
      out.push(nearest(fit, size, dtype, seq, n, est, largest));
    }
    var defaults = [];
    if (!sequence) defaults.push("sequence length");
    if (!batch) defaults.push("batch");
    out.push("Assumed: " + dtype + " weights" +
      (size.from_name && !dataType ? " (assumed: the data has no size for this model)" : !dataType ? " (as published)" : "") +
      ", sequence length " + seq + " and batch " + n +
      (defaults.length ? " (" + defaults.join(" and ") + " by default)" : "") +
      "; KV cache = 2 x layers x key-value heads x head size x sequence x batch x bytes; headroom " + h +
      "% of weights and KV cache for activations, the compiled program and the runtime; each NeuronCore holds " +
      "its device's memory divided by its NeuronCores.");
    return out;
  }

  function nearest(fit, size, dtype, seq, batch, est, largest) {
    var order = fit.dtype_order, start = order.indexOf(dtype);
    if (start >= 0) {
      for (var i = start + 1; i < order.length; i++) {
        var smaller = order[i];
        if (fit.dtype_bytes[smaller] >= fit.dtype_bytes[dtype]) continue;
        var other = estimate(fit, size, smaller, seq, batch);
        var found = smallestFit(fit.places, other.need, smaller);
        if (found) {
          return "Nearest: at " + smaller + " it would fit " + found[0].instance + " with " + found[1] +
            " NeuronCores (it needs " + memoryText(fit, other.need) + ").";
        }
      }
    }
    var cores = Math.ceil(est.need / largest.core_bytes);
    var count = Math.ceil(cores / top(largest));
    return "Nearest: " + cores + " NeuronCores of " + largest.device_name + " (" + count + " x " +
      largest.instance + "), beyond one instance.";
  }

  return { memoryText: memoryText, parametersText: parametersText, sizeFromName: sizeFromName, lines: lines };
});
