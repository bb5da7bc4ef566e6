// trainruns serve, game mode: the table's page. Plain JS, no build step; common.js first.
// Every browser follows the server's changes (watch in common.js) and redraws when
// another one has acted.
"use strict";

let game = null;        // the server's /api/state (game mode)
let hexFilter = null;   // lay_tile choices shown for this hex (clicked on the map)
let declaring = null;   // {corporation, routes: [{train, stops}], current} while declaring a run
let bestRun = null;     // the best run of this version, once solved

// --- describing actions in the game's words ---------------------------------------------

function range(v) {
  return v && typeof v === "object" && "min" in v;
}

function describe(a) {
  const money = (v) => (range(v) ? `${v.min}–${v.max}` : `${v}`);
  switch (a.type) {
    case "pass": return "pass";
    case "buy_private": return `buy ${a.private}` + (a.from ? ` from ${a.from}` : "") +
      (a.price !== undefined ? ` for ${money(a.price)}` : "");
    case "bid": return `bid on ${a.private} (${money(a.price)})`;
    case "par": return `par ${a.corporation} at ${a.price}`;
    case "buy_shares": return `buy ${money(a.count ?? 1)} share${range(a.count) || a.count > 1 ? "s" : ""} of ${a.corporation} from ${a.from}` +
      (a.price !== undefined ? ` for ${money(a.price)}` : "");
    case "sell_shares": return `sell ${money(a.count)} share${range(a.count) || a.count > 1 ? "s" : ""} of ${a.corporation}`;
    case "lay_tile": return `tile #${a.tile} on ${a.hex} ↻${a.rotation}`;
    case "place_token": return (a.kind ? `${a.kind} token` : "token") + ` on ${a.hex}` + (a.stop !== undefined ? `.${a.stop}` : "");
    case "run_routes": return a.routes === "best" ? "run the best run" : "run the declared routes";
    case "dividend": return a.kind;
    case "buy_train": return `buy a ${a.train}-train from ${a.from}` + (a.price !== undefined ? ` for ${money(a.price)}` : "");
    case "discard_train": return `discard a ${a.train}-train`;
    case "protect": return `protect ${a.corporation}'s share price`;
    case "redeem": return `redeem a share of ${a.corporation}` + (a.from ? ` from ${a.from}` : "");
    case "reissue": return `reissue a share of ${a.corporation}`;
    case "exchange": return `exchange ${a.private} for a share of ${a.corporation}`;
    case "trade_private": return `buy ${a.private} from ${a.from} for ${money(a.price)}`;
    case "buy_token": return `buy a ${a.kind} token`;
    case "issue_shares": return `issue ${money(a.count)} share${a.count === 1 ? "" : "s"} of ${a.corporation}`;
    case "redeem_shares": return `redeem ${money(a.count)} share${a.count === 1 ? "" : "s"} of ${a.corporation}`;
    default: {
      const rest = Object.entries(a).filter(([k]) => !["type", "player", "corporation"].includes(k))
        .map(([k, v]) => `${k} ${range(v) ? money(v) : JSON.stringify(v)}`);
      return rest.join(", ") || a.type.replace(/_/g, " ");
    }
  }
}

function words(v) {
  // a value of an event in words: lists joined, objects as "key value", no JSON quotes
  if (Array.isArray(v)) return v.map(words).join(", ");
  if (v && typeof v === "object") return Object.entries(v).map(([k, x]) => `${k} ${words(x)}`).join(", ");
  return String(v);
}

const MONEY = new Set(["price", "cash", "cost", "revenue", "amount", "paid", "credit", "bonus", "total"]);

function eventText(e) {
  // what followed from a decision by rule, as a sentence (the engine's events: game/state.py)
  const f = { ...e };
  delete f.event;
  const $v = (k) => (MONEY.has(k) && typeof f[k] === "number" ? `$${f[k]}` : words(f[k]));
  const n = (k, one) => `${f[k]} ${one}${f[k] === 1 ? "" : "s"}`;
  const who = f.player || f.corporation || "";
  switch (e.event) {
    case "phase": return `phase ${f.phase} begins`;
    case "private_sold": return `${who || f.corporation} buys ${f.private}` + (f.seller ? ` from ${f.seller}` : "") +
      (f.price !== undefined ? ` for ${$v("price")}` : "");
    case "par": return `${f.player} starts ${f.corporation} at ${f.price !== undefined ? $v("price") : words(f.par)}`;
    case "buy": return `${who} buys ${f.count !== undefined ? n("count", "share") : f.kind || "a share"} of ${f.corporation}` +
      (f.source ? ` from ${f.source}` : "") + (f.price !== undefined ? ` at ${$v("price")}` : "");
    case "sell": return `${f.player} sells ${f.count !== undefined ? n("count", "share") : "shares"} of ${f.corporation}` +
      (f.price !== undefined ? ` at ${$v("price")}` : f.cash !== undefined ? ` for ${$v("cash")}` : "");
    case "price": return `${f.corporation}'s share price moves to ${f.price !== undefined ? $v("price") : `box ${words(f.cell)}`}`;
    case "float": return `${f.corporation} floats` + (f.cash !== undefined ? ` with ${$v("cash")}` : "");
    case "president": return `${f.player} becomes president of ${f.corporation}` + (f.previous ? ` (was ${f.previous})` : "");
    case "tile": return `${f.corporation} lays tile #${f.tile} on ${f.hex}` + (f.cost ? ` for ${$v("cost")}` : "");
    case "token": return `${f.corporation} places a token on ${f.hex}` + (f.reason === "home" ? " (home)" : "") +
      (f.cost ? ` for ${$v("cost")}` : "");
    case "run": return `${f.corporation} runs for ${$v("revenue")}` + (f.proven ? " (proven best)" : "");
    case "dividend": return `${f.corporation}: ${words(f.kind).replace(/_/g, " ")}` + (f.revenue !== undefined ? ` of ${$v("revenue")}` : "");
    case "rust": return `${f.train}-trains rust` + (f.corporations && f.corporations.length ? ` (${words(f.corporations)})` : "");
    case "private_closed": return `${f.private} closes` + (f.reason ? ` (${f.reason})` : "");
    case "operating_round": return "an operating round begins";
    case "income": return `${f.owner} earns ${$v("amount")} from ${f.private}`;
    case "game_end": return `the game ends: ${words(f.reason)}`;
    case "pass": return `${f.player} passes` + (f.reason ? ` (${f.reason})` : "");
    default: {
      const rest = Object.keys(f).filter((k) => !["player", "corporation"].includes(k) || !who).map((k) => `${k.replace(/_/g, " ")} ${$v(k)}`);
      return [who, e.event.replace(/_/g, " ")].filter((x) => x).join(": ") + (rest.length ? ` (${rest.join(", ")})` : "");
    }
  }
}

function roundLabel(r) {
  // the round a decision was taken in: "SR 2", "OR 1.2", "private auction"
  if (!r) return "";
  if (r.kind === "stock") return `SR ${r.number ?? ""}`;
  if (r.kind === "operating") return `OR ${r.number ?? ""}${r.or ? "." + r.or : ""}`;
  return `${r.kind.replace(/_/g, " ")} ${r.number ?? ""}`.trim();
}

function decisionText(a) {
  // a decision as the history says it: who, then what
  const by = a.corporation && !["par", "buy_shares", "sell_shares", "protect"].includes(a.type) ? a.corporation : a.player;
  return (by ? `${by}: ` : "") + describe(a);
}

const TYPE_NAMES = {
  buy_private: "Buy a private", bid: "Bid", par: "Start a corporation", buy_shares: "Buy shares",
  sell_shares: "Sell shares", lay_tile: "Lay a tile", place_token: "Place a token", run_routes: "Run trains",
  dividend: "Dividend", buy_train: "Buy a train", discard_train: "Discard a train", protect: "Protect a price",
  redeem: "Redeem a share", reissue: "Reissue a share", exchange: "Exchange a private", trade_private: "Trade a private",
  buy_token: "Buy a token", issue_shares: "Issue shares", redeem_shares: "Redeem shares", buy_ferry: "Buy a ferry",
  accept: "Accept",
};

// --- acting -------------------------------------------------------------------------------

async function act(action) {
  // every action names the version the player saw: one taken since refuses it
  try {
    show(await api("api/act", { action, version: game.version }));
  } catch (e) {
    toast(e.message);
  }
}

async function change(path, body) {
  try {
    show(await api(path, { ...body, version: game.version }));
  } catch (e) {
    toast(e.message);
  }
}

function controls() {
  const box = $("controls");
  const groups = new Map();
  for (const a of game.actions) {
    if (!groups.has(a.type)) groups.set(a.type, []);
    groups.get(a.type).push(a);
  }
  const parts = [];
  for (const [type, list] of groups) {
    if (type === "pass") continue;
    if (type === "par") {  // par.js: the market's own grid
      parts.push(parControl(list));
      continue;
    }
    let shown = list;
    const later = [];  // shown under the row
    if (type === "lay_tile") {
      const hexes = [...new Set(list.map((a) => a.hex))];
      if (hexFilter && hexes.includes(hexFilter)) shown = list.filter((a) => a.hex === hexFilter);
      parts.push(el("p", { class: "muted" }, `Click a highlighted hex to see its lays (${hexes.length} hexes).`));
    }
    const select = el("select", { id: `act-${type}`, "aria-label": TYPE_NAMES[type] || type },
      ...shown.map((a) => el("option", { value: String(list.indexOf(a)), "data-action": JSON.stringify(a) }, describe(a))));
    const amount = el("input", { id: `amount-${type}`, type: "number", class: "amount", hidden: "" });
    const fit = () => {
      const a = list[Number(select.value)];
      const key = a && Object.keys(a).find((k) => range(a[k]));
      amount.hidden = !key;
      if (key) {
        amount.min = a[key].min;
        amount.max = a[key].max;
        if (a[key].step) amount.step = a[key].step;
        if (!amount.value || Number(amount.value) < a[key].min || Number(amount.value) > a[key].max) amount.value = a[key].min;
      }
    };
    select.addEventListener("change", fit);
    if (type === "lay_tile" && hexFilter && shown !== list) {
      // the tile as it would lie, with its neighbours, before it is laid
      // (clicking it turns the tile to its next legal rotation)
      const preview = el("div", { id: "lay-preview", class: "preview", title: "click to turn the tile" });
      const draw = async () => {
        const a = list[Number(select.value)];
        const q = `hex=${encodeURIComponent(a.hex)}&tile=${encodeURIComponent(a.tile)}&rotation=${a.rotation}`;
        preview.setAttribute("aria-busy", "true");
        preview.dataset.drawing = q;
        preview.replaceChildren(el("p", { class: "muted drawing" }, `drawing tile #${a.tile} ↻${a.rotation}…`));
        try {
          const svg = await api("api/preview.svg?" + q);
          if (preview.dataset.drawing !== q) return;  // another rotation was asked for meanwhile
          showSvg(preview, svg);
          preview.dataset.shown = `${a.tile}/${a.rotation}`;
        } catch (e) {
          preview.replaceChildren(el("p", { class: "warn" }, e.message));
        }
        preview.removeAttribute("aria-busy");
      };
      preview.addEventListener("click", () => {
        const a = list[Number(select.value)];
        const same = shown.filter((b) => b.tile === a.tile);
        const next = same[(same.indexOf(a) + 1) % same.length];
        select.value = String(list.indexOf(next));
        draw();
      });
      select.addEventListener("change", draw);
      setTimeout(draw);
      later.push(preview);
    }
    const go = el("button", { id: `do-${type}`, class: "primary", onclick: () => {
      const a = JSON.parse(JSON.stringify(list[Number(select.value)]));
      for (const k of Object.keys(a)) {
        if (!range(a[k])) continue;
        const v = Number(amount.value), r = a[k];
        if (amount.value === "" || !Number.isInteger(v) || v < r.min || v > r.max || (r.step && (v - r.min) % r.step)) {
          toast(`the ${k} must be a whole number from ${r.min} to ${r.max}` + (r.step ? ` in steps of ${r.step}` : ""));
          return;
        }
        a[k] = v;
      }
      act(a);
    } }, "Do it");
    parts.push(el("div", { class: "act-row" }, el("span", { class: "act-name" }, TYPE_NAMES[type] || type),
      select, amount, go), ...later);
    setTimeout(fit);
  }
  const run = groups.get("run_routes");
  if (run) {
    const corp = run[0].corporation;
    const trains = (game.state.corporations.find((c) => c.id === corp) || {}).trains || [];
    parts.push(el("div", { class: "act-row" }, declaring
      ? el("div", { class: "declare" }, el("p", { class: "muted" }, "Pick a train, then click its stops on the map in order."),
        el("div", { id: "declare-routes" }), el("div", { id: "declare-choice" }),
        el("button", { id: "declare-run", class: "primary", onclick: () => act({ type: "run_routes", corporation: corp,
          routes: declaring.routes.filter((r) => r.stops.length).map((r) => ({ train: r.train, stops: r.stops })) }) },
        "Run these routes"), " ",
        el("button", { id: "declare-cancel", onclick: () => { declaring = null; controls(); drawDeclared(); } }, "Cancel"))
      : el("button", { id: "declare-start", onclick: () => {
        declaring = { corporation: corp, routes: trains.map((t) => ({ train: t, stops: [] })), current: 0 };
        controls();
        drawDeclared();
      } }, "Declare routes instead…")));
  }
  const pass = groups.get("pass");
  if (pass) parts.push(el("div", { class: "act-row" }, el("button", { id: "do-pass", onclick: () => act(pass[0]) }, "Pass")));
  if (!game.actions.length) parts.push(el("p", {}, game.state.finished ? "The game is over." : "No action now."));
  box.replaceChildren(...parts);
  if (declaring && $("declare-routes")) showRoutes($("declare-routes"), declaring, () => { controls(); drawDeclared(); });
}

// --- the operating turn's advice (docs/advise.md) -------------------------------------------

function adviceBox() {
  // during a company's operating turn: "Advise" ranks the turn's plans on the server
  const box = $("advice");
  const corp = game.active && game.active.corporation;
  if (game.state.finished || game.state.round.kind !== "operating" || !corp) {
    box.replaceChildren();
    return;
  }
  const horizon = el("select", { id: "advise-horizon", "aria-label": "score plans by" },
    el("option", { value: "1" }, "this round's run"), el("option", { value: "2" }, "this and the next round's runs"));
  const go = el("button", { id: "advise", onclick: async () => {
    go.disabled = true;
    $("advice-plans").replaceChildren();
    try {
      follow(await api("api/advise", { version: game.version, top: 5, horizon: Number(horizon.value) }), showAdvice);
    } catch (e) {
      go.disabled = false;
      toast(e.message);
    }
  } }, "Advise");
  box.replaceChildren(el("div", { class: "act-row" }, go, horizon),
    el("div", { id: "advice-status", class: "muted" }), el("ol", { id: "advice-plans", class: "plans" }));
}

function planText(a) {
  // a decision of a plan: its run as the revenue it earns, the rest as the controls say it
  return a.type === "run_routes" && Array.isArray(a.routes) ? `run for $${a.revenue}` : describe(a);
}

function showAdvice(job) {
  if (!game || job.version !== game.version || !$("advice-status")) return;
  const status = $("advice-status");
  if (job.status === "queued" || job.status === "running") {
    status.setAttribute("aria-busy", "true");
    status.textContent = progressText(job, "advising…");
    return;
  }
  status.removeAttribute("aria-busy");
  $("advise").disabled = false;
  if (job.status !== "done") {
    status.textContent = job.error || "the advice was cancelled";
    return;
  }
  const r = job.result;
  status.textContent = `${r.corporation}: ${r.considered} plans scored, ${r.pruned} ruled out by a bound, ` +
    `${r.merged} merged · ` + (!r.complete ? `stopped at the ${r.stopped === "memory" ? "memory budget" : "time limit"}: the best found so far`
      : r.exact ? "the ranking is exact" : "a run may not be the best (not proven)");
  const items = r.plans.map((p, i) => {
    const money = `$${p.revenue}` + (p.next_revenue !== undefined ? ` + $${p.next_revenue} next round` : "") +
      ` · costs $${p.cost} · leaves $${p.cash_left}`;
    const decisions = p.actions.filter((a) => a.type !== "pass" && a.type !== "dividend").map(planText);
    const take = el("button", { id: `advice-take-${i}`, onclick: (ev) => { ev.stopPropagation(); act(p.actions[0]); } },
      `Take: ${planText(p.actions[0])}`);
    const li = el("li", { "data-plan": String(i), onclick: () => {
      for (const x of $("advice-plans").children) x.classList.toggle("picked", x === li);
      drawRun({ lines: p.lines, colors: p.colors });
    } }, el("b", {}, money), el("span", { class: "decisions" }, decisions.join(" · ") || "nothing to decide"),
    p.note ? el("span", { class: "decisions" }, p.note) : "", take);
    return li;
  });
  $("advice-plans").replaceChildren(...items);
  if (!items.length) status.textContent += " · no plan found";
}

// --- what the table sees --------------------------------------------------------------------

function who(active) {
  if (!active) return "nobody";
  if (active.corporation) return `${active.corporation} (president ${active.player})`;
  return active.player;
}

function heading(st) {
  const r = st.round;
  let text = `${st.title} · ${r.kind.replace(/_/g, " ")} round ${r.number ?? ""}`;
  if (r.or) text += ` (OR ${r.or} of ${r.of})`;
  return `${text} · phase ${st.phase} · bank ${st.bank.cash}`;
}

function shares(map) {
  return Object.entries(map || {}).filter(([, n]) => n).map(([c, n]) => `${c} ${n}`).join(", ") || "—";
}

function table(id, head, rows) {
  $(id).replaceChildren(el("tr", {}, ...head.map((h) => el("th", {}, h))),
    ...rows.map((r) => el("tr", {}, ...r.map((c) => el("td", {}, c === null || c === undefined ? "—" : String(c))))));
}

function showMarket(market, corporations) {
  const box = $("market");
  if (!market) {
    box.replaceChildren(el("p", { class: "muted" }, "this title's engine keeps no market grid"));
    return;
  }
  const width = Math.max(...market.rows.map((r) => r.length));
  const rows = market.rows.map((row, r) => el("tr", {}, ...Array.from({ length: width }, (_, c) => {
    const box = row[c];
    if (!box) return el("td", { class: "none" });
    const stack = market.stacks[`${r},${c}`] || [];
    const price = box.preferred !== undefined ? `${box.price}/${box.preferred}` : String(box.price);
    return el("td", { class: `zone-${box.zone}`, title: price }, el("div", { class: "price" }, price),
      ...stack.map((id) => el("div", { class: "mtoken", "data-corporation": id,
        style: `background:${game.colors[id] || "#26364a"};color:${game.text_colors[id] || "#fff"}` }, id)));
  })));
  box.replaceChildren(el("table", { class: "market" }, ...rows));
}

function showRun(job) {
  // the operating company's best run: in the panel, and as a layer over the map
  if (!game || job.version !== game.version) return;
  $("run-box").hidden = false;
  if (job.status === "done") {
    const r = job.result;
    $("run-corp").textContent = r.corporation;
    $("revenue").textContent = r.revenue;
    $("run-status").textContent = r.optimal ? "proven best" : `best found; at most ${r.bound}`;
    $("run-routes").replaceChildren(...r.routes.map((x, i) => el("li", {},
      el("span", { class: "swatch", style: `background:${r.colors[i]}` }),
      el("b", {}, `${x.train}-train`), ` ${x.revenue}`, el("span", { class: "stops" }, x.stops.join(" → ")))));
    bestRun = { ...r, version: job.version };
    drawRun(r);
  } else if (job.status === "failed") {
    $("revenue").textContent = "—";
    $("run-status").textContent = job.error;
    drawRun({ lines: [], colors: [] });   // nothing to draw: this version's run is settled
  } else {
    $("revenue").textContent = "…";
    $("run-status").textContent = progressText(job);
    $("run-routes").replaceChildren();
  }
}

function clickHex(id, ev) {
  // the map is the controls: a stop of the run being declared; a token placed in the
  // city clicked; a hex's lays listed
  const point = clickPoint(ev);
  if (declaring) {
    const pick = (ref) => {
      declaring.routes[declaring.current]?.stops.push(ref);
      showRoutes($("declare-routes"), declaring, () => { controls(); drawDeclared(); });
      drawDeclared();
    };
    const k = nearestStop(id, point);
    if (k === null) toast(`${id} has no stop.`);
    else pick(`${id}.${k}`);
    return;
  }
  const tokens = game.actions.filter((a) => a.type === "place_token" && a.hex === id);
  if (tokens.length) {
    const k = nearestStop(id, point);
    const here = tokens.filter((a) => a.stop === undefined || a.stop === k);
    if (here.length === 1 || new Set(here.map((a) => a.kind || "")).size === 1) {
      act(here[0]);
      return;
    }
    const choices = here.length ? here : tokens;
    toast("", false);
    $("toast").replaceChildren(`Place which token on ${id}? `, ...choices.map((a) =>
      el("button", { class: "token-choice", onclick: () => { $("toast").hidden = true; act(a); } }, describe(a))));
    return;
  }
  hexFilter = id;
  markActions();
  controls();
  const stops = (game.hexes[id] || []).map((s, k) => `${id}.${k} ${s.kind}${s.name ? " " + s.name : ""} ${s.value}` +
    (s.kind === "city" ? ` [${s.tokens.join(", ") || "—"} / ${s.slots}]` : ""));
  if (stops.length) toast(stops.join(" · "), false);
}

async function loadMap(version, key) {
  // the board, fetched only when it has changed (a tile laid); else its layers redrawn
  const map = $("map");
  if (map.dataset.key === key && frame) {
    map.dataset.version = String(version);
    drawLayers();
    return;
  }
  try {
    // the board this page shows: the server may answer with just the hexes laid since
    const since = map.dataset.key && frame ? `&since=${encodeURIComponent(map.dataset.key)}` : "";
    const got = await api(`api/map.svg?version=${version}${since}`);
    if (game.version !== version) return;
    if (typeof got === "object" && got.hexes) {
      patchHexes(got.hexes);
      map.dataset.key = key;
      map.dataset.version = String(version);
      drawLayers();
    } else {
      showBoard(got, key, version);
      if (bestRun && bestRun.version === version) drawRun(bestRun);
    }
  } catch (e) { /* a newer version is on its way */ }
}

function showLast(last) {
  // the last decision and everything that followed from it, in words
  const box = $("last");
  if (!last) {
    box.replaceChildren();
    return;
  }
  if (last.undone) {
    box.replaceChildren(el("div", {}, `took back ${last.undone.length === 1 ? "" : last.undone.length + " decisions: "}`,
      last.undone.map((h) => decisionText(h.action)).join("; ")));
    return;
  }
  box.replaceChildren(el("div", {}, "last: ", decisionText(last.action)),
    el("ul", { class: "events" }, ...last.events.map((e) => el("li", {}, eventText(e)))));
}

function show(s) {
  // one version, one drawing: the answer to this page's own action and the event of it
  // may both bring it, and an older one may arrive after a newer one
  if (game && s.session === game.session && s.version <= game.version) return;
  game = s;
  document.body.dataset.version = String(s.version);
  document.body.classList.toggle("stock-round", s.state.round.kind !== "operating");
  const st = s.state;
  $("heading").textContent = heading(st);
  $("active").replaceChildren(st.finished ? `Game over (${st.end_reason}): ` +
    Object.entries(st.result || {}).map(([p, v]) => `${p} ${v}`).join(", ") : el("span", {}, "to act: ", el("b", {}, who(s.active))));
  $("undo").disabled = !s.undo;
  $("redo").disabled = !s.redo;
  $("redo").title = s.redo_next ? `take again: ${decisionText(s.redo_next)}` : "nothing taken back to take again";
  const q = TOKEN ? "?token=" + encodeURIComponent(TOKEN) : "";
  $("download-log").href = "api/log" + q;
  $("download-log").setAttribute("download", s.log);
  positionLink(s, q);
  showLast(s.last);
  showHistory(s.history);
  table("players", ["player", "cash", "certs", "shares", "privates", "value"],
    st.players.map((p) => [p.name + (p.name === st.priority ? " ★" : ""), p.cash, p.certificates, shares(p.shares),
      p.privates.join(", ") || "—", p.value]));
  const started = st.corporations.filter((c) => c.president || c.floated || c.par);
  table("corporations", ["corp", "pres.", "price", "cash", "trains", "tokens", "unsold shares"],
    (started.length ? started : st.corporations).map((c) => [c.id, c.president, priceCell(c), c.cash,
      c.trains.join(" ") || "—", `${c.tokens.length}+${c.tokens_left ?? "?"}`, sharesCell(c)]));
  showPrivates(st);  // facts.js
  $("depot").replaceChildren(el("p", {}, "Trains: ", ...st.depot.filter((d) => d.left !== 0).map((d) =>
    el("span", { class: "chip" }, `${d.train} ×${d.left ?? "∞"} · ${d.price}`))));
  showMarket(s.market, st.corporations);
  hexFilter = null;
  declaring = null;
  bestRun = null;
  $("run-box").hidden = true;
  drawRun(null);   // the run of the version before is gone at once, never shown on this one
  loadMap(s.version, s.map_key);
  if (s.solve) follow(s.solve, showRun);
  controls();
  adviceBox();
  for (const hook of gameShown) hook(s);  // facts.js, seat.js
}

// --- several browsers at one table ----------------------------------------------------------

$("undo").addEventListener("click", () => act({ type: "undo" }));
$("redo").addEventListener("click", () => change("api/redo", {}));

function positionLink(s, q) {
  // the position of a corporation (the one the map shows, or another started one)
  const pick = $("position-corp");
  const started = s.state.corporations.filter((c) => c.president).map((c) => c.id);
  const ids = started.length ? started : s.state.corporations.map((c) => c.id);
  const keep = ids.includes(pick.value) && pick.dataset.chosen ? pick.value : s.map_corporation;
  pick.replaceChildren(...ids.map((id) => el("option", { value: id }, id)));
  pick.value = keep;
  const link = () => {
    $("download-position").href = "api/position?corporation=" + encodeURIComponent(pick.value) + (q ? "&" + q.slice(1) : "");
  };
  pick.onchange = () => { pick.dataset.chosen = "1"; link(); };
  link();
}
function start() {
  api("api/state").then((s) => {
    show(s);
    // another browser's action: the new state, at once (common.js: events, else polling)
    watch(s.session, async (now) => {
      if (!game || now.version !== game.version) show(await api("api/state"));
    }, s.run);
  }).catch((e) => toast(e.message));
}
// the first state is drawn once every script of the page has run: a state that arrived
// before a later script (history.js) left the page without its controls
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
