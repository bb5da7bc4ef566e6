// trainruns serve, game mode: the map as one SVG drawn by the server once per board
// (tiles), with layers the page draws over it: the tokens, the best run, the run being
// declared and the marks of what the operating company may do. A new run or token
// redraws a layer, never the map. Plain JS, no build step; common.js first.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
let frame = null;   // {svg, a, b, c, d}: the drawing's data coordinates -> the SVG's (x' = a x + b, y' = c y + d)

function svgEl(tag, attrs = {}, ...children) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
}

function fitFrame(centres) {
  // Where the server drew each hex (its outline's box) against its centre in data
  // coordinates (serve/picture.py): a least-squares fit of scale and offset per axis.
  const svg = $("map").querySelector("svg");
  if (!svg || !svg.getCTM()) return null;
  const root = svg.getCTM().inverse();
  const xs = [], ys = [];
  for (const [id, [x, y]] of Object.entries(centres)) {
    const g = document.getElementById("hex-" + id);
    if (!g || !g.getCTM()) continue;
    const box = g.getBBox();
    const p = new DOMPoint(box.x + box.width / 2, box.y + box.height / 2).matrixTransform(root.multiply(g.getCTM()));
    xs.push([x, p.x]);
    ys.push([y, p.y]);
  }
  const fit = (pairs) => {
    const n = pairs.length;
    const mx = pairs.reduce((s, [u]) => s + u, 0) / n, my = pairs.reduce((s, [, v]) => s + v, 0) / n;
    let sxy = 0, sxx = 0;
    for (const [u, v] of pairs) { sxy += (u - mx) * (v - my); sxx += (u - mx) ** 2; }
    const k = sxx ? sxy / sxx : 1;
    return [k, my - k * mx];
  };
  if (xs.length < 2) return null;
  const [a, b] = fit(xs), [c, d] = fit(ys);
  return { svg, a, b, c: Math.abs(c) > 1e-9 ? c : a, d, unit: Math.abs(a) };
}

function at(p) {
  return [frame.a * p[0] + frame.b, frame.c * p[1] + frame.d];
}

function stopAt(ref) {
  const [hex, k] = ref.split(".");
  return ((game.hexes[hex] || [])[Number(k)]) || null;
}

function layer(id) {
  // a layer over the map, above everything drawn; they never catch clicks (style.css)
  let g = frame.svg.querySelector(`#${id}`);
  if (!g) {
    g = svgEl("g", { id, class: "layer" });
    frame.svg.append(g);
  }
  return g;
}

function drawTokens() {
  // every token on the map, on its slot, in its company's colours
  if (!frame) return;
  const parts = [];
  const r = 0.2 * frame.unit;
  for (const [hex, stops] of Object.entries(game.hexes)) {
    stops.forEach((s, k) => (s.tokens || []).forEach((corp, i) => {
      const [x, y] = at((s.slots_at || [])[i] || s.at);
      parts.push(svgEl("g", { class: "token", "data-token": `${corp}@${hex}.${k}` },
        svgEl("circle", { cx: x, cy: y, r, fill: game.colors[corp] || "#26364a", stroke: "black", "stroke-width": r * 0.15 }),
        svgEl("text", { x, y, "text-anchor": "middle", "dominant-baseline": "central", "font-weight": "bold",
          "font-size": (0.32 / Math.max(2.2, corp.slice(0, 4).length)) * frame.unit * 1.35,
          fill: game.text_colors[corp] || "#fff" }, corp.slice(0, 4))));
    }));
  }
  layer("layer-tokens").replaceChildren(...parts);
}

function routeShape(points, stops, color, dashed) {
  // a route as the server's drawing shows one: a coloured line with a white edge,
  // a ring round each stop
  const u = frame.unit;
  const line = points.map(at).map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`).join(" ");
  const parts = [svgEl("polyline", { points: line, fill: "none", stroke: "white", "stroke-width": 0.22 * u,
    "stroke-linejoin": "round", "stroke-linecap": "round" }),
  svgEl("polyline", { points: line, fill: "none", stroke: color, "stroke-width": 0.16 * u,
    "stroke-linejoin": "round", "stroke-linecap": "round", ...(dashed ? { "stroke-dasharray": `${0.3 * u} ${0.15 * u}` } : {}) })];
  for (const ref of stops) {
    const s = stopAt(ref);
    if (!s) continue;
    const [x, y] = at(s.at);
    parts.push(svgEl("circle", { cx: x, cy: y, r: (s.r + 0.07) * u, fill: "none", stroke: color,
      "stroke-width": 0.07 * u, "data-stop": ref }));
  }
  return parts;
}

function drawRun(result) {
  // the best run (a job's result for this version) as a layer; null clears it
  if (!frame) return;
  const g = layer("layer-run");
  if (!result) {
    g.replaceChildren();
    delete $("map").dataset.run;
    return;
  }
  g.replaceChildren(...(result.lines || []).flatMap((r, i) => routeShape(r.points, r.stops, result.colors[i], false)));
  $("map").dataset.run = String(game.version);
}

function drawDeclared() {
  // the run being declared, stop by stop as clicked: straight lines between its stops
  if (!frame) return;
  const g = layer("layer-declared");
  if (!declaring) {
    g.replaceChildren();
    layer("layer-run").removeAttribute("visibility");
    return;
  }
  layer("layer-run").setAttribute("visibility", "hidden");   // the best run would hide the one declared
  g.replaceChildren(...declaring.routes.flatMap((r, i) => {
    const pts = r.stops.map(stopAt).filter((s) => s).map((s) => s.at);
    return pts.length ? routeShape(pts, r.stops, game.train_colors[i % game.train_colors.length], true) : [];
  }));
}

function markActions() {
  // what the operating company may do on the map: the hexes it may lay a tile on, the
  // cities it may place a token in; the hex clicked
  const svg = $("map").querySelector("svg");
  if (!svg) return;
  for (const g of svg.querySelectorAll("g.can-lay, g.can-token, g.selected")) g.classList.remove("can-lay", "can-token", "selected");
  for (const a of game.actions) {
    if (a.type === "lay_tile") for (const g of faces(a.hex)) g.classList.add("can-lay");
    if (a.type === "place_token") for (const g of faces(a.hex)) g.classList.add("can-token");
  }
  if (hexFilter) for (const g of faces(hexFilter)) g.classList.add("selected");
}

function nearestStop(hex, point) {
  // the stop of ``hex`` nearest where the map was clicked (an OO tile has two cities)
  const stops = game.hexes[hex] || [];
  if (stops.length < 2 || !point || !frame) return stops.length ? 0 : null;
  let best = 0, dist = Infinity;
  stops.forEach((s, k) => {
    const [x, y] = at(s.at);
    const d = (x - point.x) ** 2 + (y - point.y) ** 2;
    if (d < dist) { best = k; dist = d; }
  });
  return best;
}

function clickPoint(ev) {
  // where a click landed, in the SVG's coordinates
  if (!ev || !frame) return null;
  const m = frame.svg.getScreenCTM();
  return m ? new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m.inverse()) : null;
}

function showBoard(svgText, key, version) {
  // a new board (tiles changed): the server's drawing, then every layer over it
  showSvg($("map"), svgText, (id, ev) => clickHex(id, ev));
  $("map").dataset.key = key;
  $("map").dataset.version = String(version);
  frame = fitFrame(game.centres);
  drawLayers();
}

function drawLayers() {
  drawTokens();
  drawDeclared();
  markActions();
}

let patches = 0;   // hexes laid over the board so far (their SVG ids made unique by it)

function patchHexes(hexes) {
  // tiles laid since the board was drawn: each hex drawn alone by the server, scaled
  // onto the board's own drawing of that hex and clipped to its outline, under the layers
  for (const [id, text] of Object.entries(hexes)) {
    const under = document.getElementById("hex-" + id);
    if (!under || !frame) continue;
    const p = `p${++patches}-`;
    const renamed = text.replace(/\bid="([^"]+)"/g, `id="${p}$1"`).replace(/url\(#([^)]+)\)/g, `url(#${p}$1)`)
      .replace(/href="#([^"]+)"/g, `href="#${p}$1"`);
    const doc = new DOMParser().parseFromString(renamed, "image/svg+xml").documentElement;
    for (const old of frame.svg.querySelectorAll(`g.patch[data-hex="${id}"]`)) old.remove();
    const inner = svgEl("g");
    inner.append(...[...doc.childNodes].map((n) => document.importNode(n, true)));
    const patch = svgEl("g", { class: "patch", "data-hex": id }, inner);
    frame.svg.insertBefore(patch, frame.svg.querySelector("g.layer"));
    const face = inner.querySelector(`[id="${p}hex-${id}"]`);
    const outline = face && face.querySelector("path");
    if (!outline) { patch.remove(); continue; }
    face.setAttribute("data-face", id);
    face.removeAttribute("id");
    const a = outline.getBBox(), b = under.getBBox();
    const m = frame.svg.getCTM().inverse().multiply(under.getCTM());
    const c = new DOMPoint(b.x + b.width / 2, b.y + b.height / 2).matrixTransform(m);
    const k = (b.width * Math.hypot(m.a, m.b)) / a.width;
    inner.setAttribute("transform", `translate(${c.x} ${c.y}) scale(${k}) translate(${-(a.x + a.width / 2)} ${-(a.y + a.height / 2)})`);
    const clip = svgEl("clipPath", { id: `${p}clip` }, svgEl("path", { d: outline.getAttribute("d") }));
    inner.prepend(clip);
    inner.setAttribute("clip-path", `url(#${p}clip)`);
  }
}

function faces(id) {
  // a hex's outline on the board, and on a tile laid over it since
  return [document.getElementById("hex-" + id), ...document.querySelectorAll(`#map g[data-face="${id}"]`)].filter((g) => g);
}
