// trainruns serve, position mode: the page. Plain JS, no build step; common.js first.
"use strict";

let state = null;          // the server's /api/state
let tool = "tiles";        // tiles | tokens | audit
let selected = null;       // hex id clicked last
let audit = { routes: [], current: 0 };

async function change(body) {
  try {
    show(await api("api/edit", body));
  } catch (e) {
    toast(e.message);
  }
}

// --- the map ----------------------------------------------------------------------------

function setMap(svgText) {
  showSvg($("map"), svgText, clickHex);
  mark();
}

function mark() {
  for (const g of document.querySelectorAll("#map g.selected, #map g.picked")) g.classList.remove("selected", "picked");
  const picked = new Set(audit.routes.flatMap((r) => r.stops.map((s) => s.split(".")[0])));
  for (const h of picked) document.getElementById("hex-" + h)?.classList.add("picked");
  if (selected) document.getElementById("hex-" + selected)?.classList.add("selected");
}

async function loadBoard() {
  const v = state.version;
  try {
    const svg = await api(`api/map.svg?version=${v}&what=board`);
    if (state.version === v && !$("map").dataset.best) setMap(svg);
  } catch (e) { /* a newer version is on its way */ }
}

function clickHex(id) {
  selected = id;
  mark();
  if (tool === "tiles") showLays(id);
  else if (tool === "tokens") showTokenStops(id);
  else pickStop(id);
}

// --- what the server says -----------------------------------------------------------

function show(s) {
  const before = state ? state.version : null;
  state = s;
  $("side").hidden = !!s.empty;
  if (s.empty) {
    $("heading").textContent = "no position open";
    $("map").innerHTML = '<p class="hint">Open a position file (JSON) with <b>Open…</b> above, ' +
      'or start or load a game with <b>Games…</b>.</p>';
    return;
  }
  // a custom map has no tiles to lay: no Tiles tab, no ranking of lays
  document.querySelector('.tab[data-tool="tiles"]').hidden = !s.tiled;
  $("rank-box").hidden = !s.tiled;
  if (!s.tiled && tool === "tiles") selectTool("tokens");
  $("heading").textContent = [s.title || "custom map", s.corporation, "phase " + s.phase,
    "trains " + (s.trains.join(", ") || "none")].join(" · ");
  $("undo").disabled = !s.undo;
  $("download").href = "api/position" + (TOKEN ? "?token=" + encodeURIComponent(TOKEN) : "");
  $("download").setAttribute("download", s.name.endsWith(".json") ? s.name : s.name + ".json");
  $("corp").value = s.corporation;
  if (!$("token-corp").value) $("token-corp").value = s.corporation;
  const phase = $("phase");
  phase.replaceChildren(...(s.phases.length ? s.phases : [s.phase]).map((p) => el("option", { value: p }, p)));
  phase.value = s.phase;
  showTrains(s);
  if (before !== s.version) {
    delete $("map").dataset.best;
    loadBoard();
    $("lays").replaceChildren();
    $("rank-list").replaceChildren();
    $("rank-status").textContent = "";
    $("audit-verdict").replaceChildren();
    audit = { routes: s.trains.map((t) => ({ train: t, stops: [] })), current: 0 };
    showAudit();
    if (selected && tool === "tiles") showLays(selected);
    if (selected && tool === "tokens") showTokenStops(selected);
  }
  if (s.solve) follow(s.solve, showSolve);
}

function showTrains(s) {
  $("trains").replaceChildren(...s.trains.map((t, i) =>
    el("span", { class: "chip" }, `${t}`, el("button", {
      class: "x", title: `remove the ${t}-train`, "aria-label": `remove ${t}`,
      onclick: () => change({ op: "trains", trains: s.trains.filter((_, j) => j !== i) }),
    }, "×"))));
  const add = $("add-train");
  const named = $("add-train-name");
  if (s.trains_to_buy === null) {
    add.hidden = true;
    named.hidden = false;
  } else {
    named.hidden = true;
    add.hidden = false;
    add.replaceChildren(el("option", { value: "" }, "+ add a train"),
      ...s.trains_to_buy.map((t) => el("option", { value: t }, `${t}-train`)));
  }
}

// --- jobs (solve, audit, rank) ---------------------------------------------------------

function showSolve(job) {
  if (!state || job.version !== state.version) return;
  const routes = $("run-routes");
  if (job.status === "done") {
    const r = job.result;
    $("revenue").textContent = r.revenue;
    $("run-status").textContent = r.optimal ? `proven best · ${r.seconds.toFixed(1)} s`
      : `best found; at most ${r.bound} (not proven in the time limit)`;
    $("run-status").className = r.optimal ? "muted" : "warn";
    routes.replaceChildren(...r.routes.map((x, i) => el("li", {},
      el("span", { class: "swatch", style: `background:${r.colors[i]}` }),
      el("b", {}, `${x.train}-train`), ` ${x.revenue}`, el("span", { class: "stops" }, x.stops.join(" → ")))));
    for (const t of r.idle || []) routes.append(el("li", { class: "muted" }, `${t}-train idle`));
    const v = job.version;
    api(`api/map.svg?version=${v}&what=best`).then((svg) => {
      if (state.version !== v) return;
      setMap(svg);
      $("map").dataset.best = "1";
    }).catch(() => { /* a newer version is on its way */ });
  } else if (job.status === "failed") {
    $("revenue").textContent = "—";
    $("run-status").textContent = job.error;
    $("run-status").className = "warn";
  } else {
    $("revenue").textContent = "…";
    const p = job.progress || {};
    $("run-status").textContent = progressText(job) + ` · ${job.seconds.toFixed(0)} s` +
      (p.stage === "assign" ? ` · at most ${p.bound}` : "");
    $("run-status").className = "muted";
    routes.replaceChildren();
  }
}

// --- tiles ------------------------------------------------------------------------------

async function showLays(id) {
  const box = $("lays");
  box.replaceChildren(el("p", {}, `${id}: looking up legal lays…`));
  try {
    const r = await api("api/lays?hex=" + encodeURIComponent(id));
    if (r.hex !== selected) return;
    if (!r.lays.length) {
      box.replaceChildren(el("p", {}, el("b", {}, id), ": no legal lay for ", state.corporation, " here now."));
      return;
    }
    const preview = el("div", { id: "lay-preview" });
    box.replaceChildren(el("p", {}, el("b", {}, id), `: ${r.lays.length} legal lay(s); pick one to see it`),
      el("div", { class: "choices" }, ...r.lays.map((m) => el("button", {
        class: "choice", "data-tile": m.tile, "data-rotation": m.rotation,
        onclick: (ev) => previewLay(ev.currentTarget, id, m, preview),
      }, `#${m.tile} ↻${m.rotation}` + (m.replaces ? ` (on #${m.replaces})` : "")))), preview);
  } catch (e) {
    box.replaceChildren(el("p", { class: "warn" }, e.message));
  }
}

async function previewLay(button, id, m, box) {
  for (const b of document.querySelectorAll("#lays .choice")) b.classList.toggle("active", b === button);
  const q = `hex=${encodeURIComponent(id)}&tile=${encodeURIComponent(m.tile)}&rotation=${m.rotation}`;
  box.replaceChildren(el("p", { class: "muted" }, "drawing…"));
  try {
    const svg = await api("api/preview.svg?" + q);
    const pic = el("div", { class: "preview" });
    pic.innerHTML = svg;
    pic.querySelector("svg")?.removeAttribute("width");
    pic.querySelector("svg")?.removeAttribute("height");
    box.replaceChildren(pic, el("div", { class: "row" },
      el("button", { id: "lay-confirm", class: "primary",
        onclick: () => change({ op: "lay", hex: id, tile: String(m.tile), rotation: m.rotation }) },
      `Lay #${m.tile} ↻${m.rotation} on ${id}`),
      el("button", { onclick: () => { box.replaceChildren(); button.classList.remove("active"); } }, "Cancel")));
  } catch (e) {
    box.replaceChildren(el("p", { class: "warn" }, e.message));
  }
}

// --- tokens -----------------------------------------------------------------------------

function showTokenStops(id) {
  const corp = $("token-corp").value.trim() || state.corporation;
  const stops = (state.hexes[id] || []).map((s, k) => [s, k]).filter(([s]) => s.kind === "city");
  const box = $("token-stops");
  if (!stops.length) {
    box.replaceChildren(el("p", {}, `${id} has no city.`));
    return;
  }
  box.replaceChildren(...stops.map(([s, k]) => el("div", { class: "row" }, stopLabel(id, k, s), " ",
    el("button", { onclick: () => change({ op: "token", hex: id, stop: k, corporation: corp }) },
      s.tokens.includes(corp) ? `remove ${corp}` : `place ${corp}`))));
}

// --- audit ------------------------------------------------------------------------------

function showAudit() {
  showRoutes($("audit-trains"), audit, () => { showAudit(); mark(); });
  mark();
}

function pickStop(id) {
  chooseStop(state.hexes, id, $("audit-choice"), (ref) => {
    const r = audit.routes[audit.current];
    if (r) r.stops.push(ref);
    showAudit();
  });
}

function showVerdict(job) {
  const box = $("audit-verdict");
  if (job.status === "done") {
    const r = job.result;
    box.replaceChildren(
      el("p", { class: r.legal ? "good" : "warn" }, r.verdict),
      el("p", {}, `Declared ${r.declared_revenue}; best ${r.best_revenue}.`),
      ...r.problems.map((p) => el("p", { class: "problem" }, `${p.train}-train [${p.rule}]: ${p.message}`)),
      el("button", { id: "show-best", onclick: () => api("api/state").then((s) => { state = null; show(s); }) },
        "Show the best run again"));
    setMap(r.svg);
    $("map").dataset.best = "";
  } else if (job.status === "failed") {
    box.replaceChildren(el("p", { class: "warn" }, job.error));
  } else {
    box.replaceChildren(el("p", { class: "muted" }, "auditing… " + progressText(job)));
  }
}

// --- ranking ----------------------------------------------------------------------------

function showRank(job) {
  if (!state || job.version !== state.version) return;
  if (job.status === "done") {
    const r = job.result;
    $("rank-status").textContent = `${r.considered} legal lays; best run now ${r.current_revenue}` +
      (r.current_optimal ? "" : " (not proven)");
    $("rank-list").replaceChildren(...r.moves.slice(0, 15).map((m) => el("li", {},
      el("span", { class: "rev" }, `${m.revenue}`), el("span", { class: m.gain > 0 ? "gain good" : "gain" },
        `${m.gain >= 0 ? "+" : ""}${m.gain}`),
      el("span", { class: "what" }, `#${m.move.tile} on ${m.move.hex} ↻${m.move.rotation}` + (m.optimal ? "" : " (not proven)")),
      el("button", { onclick: () => change({ op: "lay", hex: m.move.hex, tile: String(m.move.tile), rotation: m.move.rotation }) }, "lay"))));
  } else if (job.status === "failed") {
    $("rank-status").textContent = job.error;
  } else {
    $("rank-status").textContent = progressText(job);
  }
}

// --- wiring -----------------------------------------------------------------------------

function selectTool(name) {
  tool = name;
  for (const t of document.querySelectorAll(".tab")) t.classList.toggle("active", t.dataset.tool === name);
  for (const t of ["tiles", "tokens", "audit"]) $("tool-" + t).hidden = t !== name;
  if (selected && tool === "tiles") showLays(selected);
  if (selected && tool === "tokens") showTokenStops(selected);
}

for (const b of document.querySelectorAll(".tab")) b.addEventListener("click", () => selectTool(b.dataset.tool));
$("undo").addEventListener("click", () => change({ op: "undo" }));
$("phase").addEventListener("change", (e) => change({ op: "phase", phase: e.target.value }));
$("corp").addEventListener("change", (e) => change({ op: "corporation", corporation: e.target.value.trim() }));
$("add-train").addEventListener("change", (e) => {
  if (e.target.value) change({ op: "trains", trains: [...state.trains, e.target.value] });
});
$("add-train-name").addEventListener("change", (e) => {
  if (e.target.value.trim()) change({ op: "trains", trains: [...state.trains, e.target.value.trim()] });
  e.target.value = "";
});
$("audit-clear").addEventListener("click", () => {
  audit = { routes: state.trains.map((t) => ({ train: t, stops: [] })), current: 0 };
  $("audit-verdict").replaceChildren();
  showAudit();
});
$("audit-run").addEventListener("click", async () => {
  const routes = audit.routes.filter((r) => r.stops.length).map((r) => ({ train: r.train, stops: r.stops }));
  try {
    follow(await api("api/audit", { routes }), showVerdict);
  } catch (e) {
    toast(e.message);
  }
});
$("rank").addEventListener("click", async () => {
  try {
    follow(await api("api/rank", {}), showRank);
  } catch (e) {
    toast(e.message);
  }
});
$("open-file").addEventListener("change", async (e) => {
  const file = e.target.files[0];
  if (!file) return;
  try {
    const position = JSON.parse(await file.text());
    show(await api("api/open", { position }));
  } catch (err) {
    toast(`${file.name}: ${err.message}`);
  }
  e.target.value = "";
});

api("api/state").then((s) => {
  show(s);
  // another browser's change: the new state (common.js: events, else polling)
  watch(s.session, async (now) => {
    if (!state || now.version > state.version) {
      const fresh = await api("api/state");
      if (!state || fresh.version > state.version) show(fresh);  // not when this page's own change came first
    }
  }, s.run);
}).catch((e) => toast(e.message));
