// trainruns serve: what both pages share (talking to the server, building elements,
// showing the map, following jobs). Plain JS, no build step.
"use strict";

const TOKEN = new URLSearchParams(location.search).get("token");
const $ = (id) => document.getElementById(id);

// --- talking to the server -------------------------------------------------------------

async function api(path, body) {
  const headers = {};
  if (TOKEN) headers["X-Trainruns-Token"] = TOKEN;
  const opts = { headers };
  if (body !== undefined) {
    opts.method = "POST";
    headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const r = await fetch(path, opts);
  const type = r.headers.get("content-type") || "";
  const data = type.includes("json") ? await r.json() : await r.text();
  if (!r.ok) {
    // a refused action names its rule: "[rule-id] message"
    const text = data.error ? (data.rule ? `[${data.rule}] ${data.error}` : data.where ? `${data.where}: ${data.error}` : data.error)
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
  // trainruns.draw's SVG; each hex is a <g id="hex-ID"> (see serve/picture.py)
  box.innerHTML = svgText;
  const svg = box.querySelector("svg");
  if (!svg) return;
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  if (!onHex) return;
  for (const g of svg.querySelectorAll('g[id^="hex-"]')) {
    const id = g.id.slice(4);
    g.addEventListener("click", () => onHex(id));
  }
}

let polling = {};          // job kind -> timer

function follow(job, render) {
  clearTimeout(polling[job.kind]);
  if (job.status === "done" && !("result" in job)) {
    // a summary (from /api/state): fetch the job with its result
    api("api/job/" + job.id).then((full) => follow(full, render)).catch((e) => toast(e.message));
    return;
  }
  render(job);
  if (job.status === "queued" || job.status === "running") {
    polling[job.kind] = setTimeout(async () => {
      try {
        follow(await api("api/job/" + job.id), render);
      } catch (e) {
        toast(e.message);
      }
    }, 600);
  }
}

function progressText(job) {
  const p = job.progress || {};
  if (p.stage === "routes") return `listing routes: ${p.routes.toLocaleString()} from ${p.roots_done}/${p.roots} tokens`;
  if (p.stage === "assign") return `searching: ${p.nodes.toLocaleString()} nodes, best ${p.best}, bound ${p.bound}`;
  if (p.stage === "variants") return `${p.done} of ${p.total} lays solved`;
  return job.status === "queued" ? "waiting…" : "solving…";
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
