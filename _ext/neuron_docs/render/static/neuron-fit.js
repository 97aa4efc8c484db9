/* Will it fit? The advisor's estimate of the memory a model needs, for the sequence length and batch a
 * reader gives. The formula and its sentences are the build's (neuron_docs/data/figures/fit.py,
 * lines_for); this script applies them to what is typed, with the constants, units, places, sizes and
 * sentences the build ships (data.fit, fit.fit_slice: the units a memory size and a parameter count are
 * shown in, the pattern of a size in a name, the templates of the sentences, fit.SENTENCES, with their
 * named fields; this script holds no units and no wording of its own), and tests/test_fit.py checks
 * that both write the same sentences:
 *
 *   need = (parameters x bytes + 2 x layers x kv heads x head size x sequence x batch x bytes) x (1 + headroom)
 *
 * held by d NeuronCores when need <= d x memory per NeuronCore. Loaded before neuron-advisor.js (which
 * calls window.NeuronFit and puts the sentences in the page as text, never as markup) and by node in
 * the tests (module.exports). Integers throughout, as bytes.
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
  /* A template of fit.sentences (fit.SENTENCES), each {field} replaced by its value once (a value is not
   * read again: a name with braces stays as typed); a template the data lacks, or a field it names that
   * the caller does not give, is a mistake of this script, thrown. Templates are named by property
   * (t.size), never by a string, so that this script holds no words of theirs. */
  function say(template, fields) {
    if (typeof template !== "string") throw new Error("neuron-fit.js: template absent");
    return template.replace(/\{(\w+)\}/g, function (whole, field) {
      if (!fields || !Object.prototype.hasOwnProperty.call(fields, field)) {
        throw new Error("neuron-fit.js: unfilled {" + field + "} in " + template);
      }
      return String(fields[field]);
    });
  }
  /* fit._word: the word of a count of one, or of more. */
  function word(one, many, count) { return say(count > 1 ? many : one); }

  /* fit.lines_for: the estimate in sentences. */
  function lines(fit, size, dataType, sequence, batch) {
    var places = fit.places, t = fit.sentences;
    var dtype = dataType || size.data_types[0];
    var seq = sequence || fit.defaults.sequence, n = batch || fit.defaults.batch;
    var est = estimate(fit, size, dtype, seq, n);
    var each = fit.dtype_bytes[dtype];
    var out = [say(t.label),
      say(t.size, { name: size.name, parameters: parametersText(fit, size.parameters), data_type: dtype, bytes: each,
                    byte_word: word(t.byte_one, t.byte_many, each),
                    origin: size.from_name ? say(t.origin_name) : "" })];
    var amounts = { need: memoryText(fit, est.need), weights: memoryText(fit, est.weights),
                    headroom: memoryText(fit, est.headroom), headroom_percent: fit.headroom_percent };
    if (est.counted) {
      amounts.kv_cache = memoryText(fit, est.kv);
      out.push(say(t.need_kv, amounts));
    } else {
      amounts.why = say(size.from_name ? t.no_kv_name : t.no_kv_data);
      out.push(say(t.need_no_kv, amounts));
    }
    var best = smallestFit(places, est.need);
    if (best) {
      out.push(say(t.smallest_fit, { instance: best[0].instance, cores: best[1],
                                     core_word: word(t.core_one, t.core_many, best[1]),
                                     memory: memoryText(fit, memory(best[0], best[1])) }));
      var devices = [];
      places.forEach(function (p) { if (devices.indexOf(p.device) < 0) devices.push(p.device); });
      devices.forEach(function (device) {
        var mine = places.filter(function (p) { return p.device === device; });
        var found = smallestFit(mine, est.need);
        if (!found) {
          var biggest = largestOf(mine);
          out.push(say(t.device_too_large, { device: biggest.device_name, instance: biggest.instance,
                                             memory: memoryText(fit, memory(biggest, top(biggest))) }));
        } else {
          out.push(say(t.device_fit, { device: found[0].device_name, instance: found[0].instance, cores: found[1],
                                       core_word: word(t.core_one, t.core_many, found[1]) }));
        }
      });
    } else if (places.length) {
      var largest = largestOf(places);
      out.push(say(t.too_large, { data_type: dtype, need: memoryText(fit, est.need), instance: largest.instance,
                                  memory: memoryText(fit, memory(largest, top(largest))), cores: top(largest) }));
      out.push(nearest(fit, size, dtype, seq, n, est, largest));
    }
    var defaults = [];
    if (!sequence) defaults.push(say(t.default_sequence));
    if (!batch) defaults.push(say(t.default_batch));
    var origin = dataType ? "" : say(size.from_name ? t.data_type_name : t.data_type_published);
    var given = defaults.length ? say(t.defaults, { given: defaults.join(say(t.and)) }) : "";
    out.push(say(t.assumed, { data_type: dtype, data_type_origin: origin, sequence: seq, batch: n, defaults: given,
                              headroom_percent: fit.headroom_percent }));
    return out;
  }

  function nearest(fit, size, dtype, seq, batch, est, largest) {
    var order = fit.dtype_order, start = order.indexOf(dtype), t = fit.sentences;
    if (start >= 0) {
      for (var i = start + 1; i < order.length; i++) {
        var smaller = order[i];
        if (fit.dtype_bytes[smaller] >= fit.dtype_bytes[dtype]) continue;
        var other = estimate(fit, size, smaller, seq, batch);
        var found = smallestFit(fit.places, other.need, smaller);
        if (found) {
          return say(t.nearest_data_type, { data_type: smaller, instance: found[0].instance, cores: found[1],
                                            need: memoryText(fit, other.need) });
        }
      }
    }
    var cores = Math.ceil(est.need / largest.core_bytes);
    var count = Math.ceil(cores / top(largest));
    return say(t.nearest_cores, { cores: cores, device: largest.device_name, count: count,
                                  instance: largest.instance });
  }

  return { memoryText: memoryText, parametersText: parametersText, sizeFromName: sizeFromName, lines: lines };
});
