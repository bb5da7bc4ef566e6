// trainruns serve: what both pages share (talking to the server, building elements,
// showing the map, following jobs). Plain JS, no build step.
"use strict";

const TOKEN = new URLSearchParams(location.search).get("token");
const $ = (id) => document.getElementById(id);
let SESSION = null;        // the game or position this page shows (the server's session)
let RUN = null;            // the server run it came from (a restarted server has another)

// --- talking to the server -------------------------------------------------------------

async function api(path, body) {
  const headers = {};
  if (TOKEN) headers["X-Trainruns-Token"] = TOKEN;
  const opts = { headers };
  if (body !== undefined) {
    opts.method = "POST";
    headers["Content-Type"] = "application/json";
    // a change meant for what this page shows: refused if another game was opened since
    if (SESSION !== null && !path.startsWith("api/games/")) headers["X-Trainruns-Session"] = `${RUN || ""}:${SESSION}`;
    opts.body = JSON.stringify(body);
  }
  const r = await fetch(path, opts);
  const type = r.headers.get("content-type") || "";
  const data = type.includes("json") ? await r.json() : await r.text();
  if (!r.ok) {
    // a refused action names its rule: "[rule-id] message"
    // (a message that names its place already is not prefixed with it again)
    const text = data.error ? (data.rule ? `[${data.rule}] ${data.error}`
      : data.where && !data.error.startsWith(data.where + ":") ? `${data.where}: ${data.error}` : data.error)
      : r.statusText;
    throw new Error(text);
  }
  return data;
}

function toast(text, bad = true) {
  const t = $("toast");
  t.textContent = text;
  t.className = bad ? "bad" : "";
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (t.hidden = true), 6000);
}

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "class") e.className = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

function showSvg(box, svgText, onHex) {
  // trainruns.services.draw's SVG; each hex is a <g id="hex-ID"> (see serve/picture.py)
  box.innerHTML = svgText;
  const svg = box.querySelector("svg");
  if (!svg) return;
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  if (!onHex) return;
  for (const g of svg.querySelectorAll('g[id^="hex-"]')) {
    const id = g.id.slice(4);
    g.addEventListener("click", (ev) => onHex(id, ev));
  }
}

let polling = {};          // job kind -> timer

function follow(job, render, asked = 0) {
  // a job's progress until it ends: asked again soon at first (most solves of a game
  // end in a few tens of milliseconds), then less often, at most every 600 ms
  clearTimeout(polling[job.kind]);
  if (job.status === "done" && !("result" in job)) {
    // a summary (from /api/state): fetch the job with its result
    api("api/job/" + job.id).then((full) => follow(full, render, asked)).catch((e) => toast(e.message));
    return;
  }
  render(job);
  if (job.status === "queued" || job.status === "running") {
    polling[job.kind] = setTimeout(async () => {
      try {
        follow(await api("api/job/" + job.id), render, asked + 1);
      } catch (e) {
        toast(e.message);
      }
    }, Math.min(600, 40 * 2 ** asked));
  }
}

function progressText(job, working = "solving…") {
  // what a running job has done so far, as its last progress report says it
  const p = job.progress || {};
  if (p.stage === "routes") return `listing routes: ${p.routes.toLocaleString()} from ${p.roots_done}/${p.roots} tokens`;
  if (p.stage === "assign") return `searching: ${p.nodes.toLocaleString()} nodes, best ${p.best}, bound ${p.bound}`;
  if (p.stage === "variants") return `${p.done} of ${p.total} lays solved`;
  if (p.stage === "advise") return `advising… ${p.considered} plans scored, ${p.pruned} ruled out`;
  return job.status === "queued" ? "waiting…" : working;
}


// --- declaring a run: each train's stops, clicked on the map in order ------------------------

function stopLabel(id, k, s) {
  const name = s.name ? ` ${s.name}` : "";
  const tokens = s.kind === "city" ? ` [${s.tokens.join(", ") || "—"} / ${s.slots}]` : "";
  return `${id}.${k} ${s.kind}${name} ${s.value}${tokens}`;
}

function chooseStop(hexes, id, box, onPick) {
  // a hex's stop: the only one, or the one picked from a short list (Atlanta, OO tiles)
  const stops = hexes[id] || [];
  box.replaceChildren();
  const pick = (k) => { box.replaceChildren(); onPick(`${id}.${k}`); };
  if (!stops.length) box.append(el("p", {}, `${id} has no stop.`));
  else if (stops.length === 1) pick(0);
  else box.append(el("p", {}, `Which stop of ${id}? `, ...stops.map((s, k) =>
    el("button", { onclick: () => pick(k) }, stopLabel(id, k, s)))));
}

function showRoutes(box, picked, redraw) {
  // picked = {routes: [{train, stops}], current}: the train being declared is highlighted
  box.replaceChildren(...picked.routes.map((r, i) => el("div", {
    class: "audit-train" + (i === picked.current ? " current" : ""),
    onclick: () => { picked.current = i; redraw(); },
  }, el("b", {}, `${r.train}-train`), ": ", r.stops.length ? r.stops.join(" → ") : el("span", { class: "muted" }, "no stops yet"),
    r.stops.length ? el("button", { class: "x", title: "take back the last stop",
      onclick: (ev) => { ev.stopPropagation(); r.stops.pop(); redraw(); } }, "⌫") : "")));
}


// --- following the server: other browsers' changes ------------------------------------------

function watch(session, onChange, run) {
  // Server-Sent Events (/api/events): each change (another browser's action) arrives at
  // once. Where EventSource is missing, or the server refuses the stream, poll
  // /api/version every 1.5 s instead. Another game opened elsewhere, or the server
  // started again (another run: its versions count from 1 again), reloads the page.
  SESSION = session;
  RUN = run || null;
  const seen = (now) => {
    if (now.session !== SESSION || (RUN && now.run && now.run !== RUN)) location.reload();
    else onChange(now);
  };
  const poll = async () => {
    try {
      seen(await api("api/version"));
    } catch (e) { /* the server may be restarting; try again */ }
    setTimeout(poll, 1500);
  };
  if (typeof EventSource === "undefined") {
    document.body.dataset.follow = "poll";
    poll();
    return;
  }
  const source = new EventSource("api/events" + (TOKEN ? "?token=" + encodeURIComponent(TOKEN) : ""));
  source.addEventListener("change", (e) => seen(JSON.parse(e.data)));
  source.addEventListener("open", () => { document.body.dataset.follow = "events"; });
  source.addEventListener("error", () => {
    // CONNECTING: the browser reconnects by itself (a restarting server); CLOSED: it gave up
    if (source.readyState === EventSource.CLOSED) {
      document.body.dataset.follow = "poll";
      poll();
    }
  });
}

// --- the Games dialog: start a new game, open a saved one, upload a log -----------------------

async function openGames() {
  let info;
  try {
    info = await api("api/games");
  } catch (e) {
    toast(e.message);
    return;
  }
  const dlg = $("games");
  const error = el("p", { id: "games-error", class: "warn", role: "alert" });
  const fail = (e) => { error.textContent = e.message; };
  const opened = () => { location.reload(); };
  const title = el("select", { id: "new-title" }, ...info.titles.map((t) => el("option", { value: t }, t)));
  const players = el("input", { id: "new-players", placeholder: "Ann, Bob, Cat", size: "28" });
  const variants = el("input", { id: "new-variants", placeholder: "none", size: "20" });
  // the chosen title's variants ([17] in 1832): names to type, each with what it changes
  const known = el("span", { id: "new-variant-names", class: "muted" });
  const showKnown = () => {
    const names = (info.variants || {})[title.value] || {};
    known.replaceChildren(...Object.keys(names).flatMap((v, i) => [i ? ", " : " ",
      el("code", { title: names[v] }, v)]));
  };
  title.addEventListener("change", showKnown);
  showKnown();
  const seed = el("input", { id: "new-seed", type: "number", placeholder: "random", size: "8" });
  const config = el("input", { id: "new-config", type: "file", accept: ".json,application/json" });
  const stamp = new Date().toISOString().slice(0, 16).replace(/[-:T]/g, "");
  const name = el("input", { id: "new-name", size: "24", value: `game-${stamp}` });
  const start = el("button", { id: "new-start", class: "primary", type: "submit" }, "Start the game");
  const form = el("form", { id: "new-game", class: "games-form", method: "dialog" },
    el("label", {}, "Title ", title), el("label", {}, "Players ", players, el("span", { class: "muted" }, " in seating order")),
    el("label", {}, "Variants ", variants, known), el("label", {}, "Seed ", seed),
    el("label", {}, "Config ", config, el("span", { class: "muted" }, " optional (1831: docs/game-1831.md)")),
    el("label", {}, "Log file ", name, el("span", { class: "muted" }, ".json in the games folder")), el("div", {}, start));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    try {
      const body = { title: title.value, name: name.value.trim(),
        players: players.value.split(",").map((p) => p.trim()).filter((p) => p),
        variants: variants.value.split(",").map((v) => v.trim()).filter((v) => v) };
      if (seed.value !== "") body.seed = Number(seed.value);
      if (config.files[0]) {
        try {
          body.config = JSON.parse(await config.files[0].text());
        } catch (e) {
          throw new Error(`${config.files[0].name}: not JSON (${e.message})`);
        }
      }
      await api("api/games/new", body);
      opened();
    } catch (e) { fail(e); }
  });
  const saved = el("ul", { id: "saved-games", class: "saved" }, ...info.logs.map((g) => el("li", {},
    el("button", { "data-name": g.name, onclick: async () => {
      error.textContent = "";
      try {
        await api("api/games/load", { name: g.name });
        opened();
      } catch (e) { fail(e); }
    } }, "Open"), " ", el("b", {}, g.name), ` · ${g.title} · ${(g.players || []).join(", ")} · ${g.actions} decisions`,
    g.name === info.current ? el("span", { class: "muted" }, " (open now)") : "")));
  const upload = el("input", { id: "load-file", type: "file", accept: ".json,application/json" });
  upload.addEventListener("change", async () => {
    const file = upload.files[0];
    if (!file) return;
    error.textContent = "";
    try {
      let log;
      try {
        log = JSON.parse(await file.text());
      } catch (e) {
        throw new Error(`${file.name}: not JSON (${e.message})`);
      }
      // a downloaded file may be "table (1).json": the folder takes plain names only
      const name = file.name.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[.-]+/, "") || "uploaded.json";
      await api("api/games/load", { name, log });
      opened();
    } catch (e) { fail(e); }
    upload.value = "";
  });
  dlg.replaceChildren(el("h2", {}, "New game"), form,
    el("h2", {}, "Saved games"), el("p", { class: "muted" }, `in ${info.folder}`),
    info.logs.length ? saved : el("p", { class: "muted" }, "none yet"),
    el("label", { class: "button" }, "Upload a log…", upload), error,
    el("div", { class: "row" }, el("span", { class: "spacer" }),
      el("button", { id: "games-close", onclick: () => dlg.close() }, "Close")));
  if (!dlg.open) dlg.showModal();
}

// the pages load their scripts at the end of <body>: the header is there already
document.body.append(el("dialog", { id: "games", "aria-label": "games" }));
$("games-open")?.addEventListener("click", openGames);
