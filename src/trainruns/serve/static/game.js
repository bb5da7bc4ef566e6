// trainruns serve, game mode: the table's page. Plain JS, no build step; common.js first.
// Every browser follows the server's changes (watch in common.js) and redraws when
// another one has acted.
"use strict";

let game = null;        // the server's /api/state (game mode)
let hexFilter = null;   // lay_tile choices shown for this hex (clicked on the map)
let declaring = null;   // {corporation, routes: [{train, stops}], current} while declaring a run

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
    case "buy_shares": return `buy ${a.count} share${a.count > 1 ? "s" : ""} of ${a.corporation} from ${a.from}` +
      (a.price !== undefined ? ` for ${money(a.price)}` : "");
    case "sell_shares": return `sell ${a.count} share${a.count > 1 ? "s" : ""} of ${a.corporation}`;
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
  try {
    show(await api("api/act", { action }));
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
      const preview = el("div", { id: "lay-preview", class: "preview" });
      const draw = async () => {
        const a = list[Number(select.value)];
        const q = `hex=${encodeURIComponent(a.hex)}&tile=${encodeURIComponent(a.tile)}&rotation=${a.rotation}`;
        try {
          showSvg(preview, await api("api/preview.svg?" + q));
        } catch (e) {
          preview.replaceChildren(el("p", { class: "warn" }, e.message));
        }
      };
      select.addEventListener("change", draw);
      setTimeout(draw);
      later.push(preview);
    }
    const go = el("button", { id: `do-${type}`, class: "primary", onclick: () => {
      const a = JSON.parse(JSON.stringify(list[Number(select.value)]));
      for (const k of Object.keys(a)) if (range(a[k])) a[k] = Number(amount.value);
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
        el("button", { onclick: () => { declaring = null; controls(); } }, "Cancel"))
      : el("button", { id: "declare-start", onclick: () => {
        declaring = { corporation: corp, routes: trains.map((t) => ({ train: t, stops: [] })), current: 0 };
        controls();
      } }, "Declare routes instead…")));
  }
  const pass = groups.get("pass");
  if (pass) parts.push(el("div", { class: "act-row" }, el("button", { id: "do-pass", onclick: () => act(pass[0]) }, "Pass")));
  if (!game.actions.length) parts.push(el("p", {}, game.state.finished ? "The game is over." : "No action now."));
  box.replaceChildren(...parts);
  if (declaring && $("declare-routes")) showRoutes($("declare-routes"), declaring, controls);
}

function highlightLays() {
  // the hexes where a tile may be laid now, outlined on the map
  for (const a of game.actions) if (a.type === "lay_tile") document.getElementById("hex-" + a.hex)?.classList.add("can-lay");
  if (hexFilter) document.getElementById("hex-" + hexFilter)?.classList.add("selected");
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
    const v = job.version;
    api(`api/map.svg?version=${v}&what=best`).then((svg) => {
      if (game.version !== v) return;
      showSvg($("map"), svg, clickHex);
      $("map").dataset.key = "run";
      $("map").dataset.version = String(v);
      highlightLays();
    }).catch(() => { /* a newer version is on its way */ });
  } else if (job.status === "failed") {
    $("revenue").textContent = "—";
    $("run-status").textContent = job.error;
  } else {
    $("revenue").textContent = "…";
    $("run-status").textContent = progressText(job);
    $("run-routes").replaceChildren();
  }
}

function clickHex(id) {
  if (declaring) {
    chooseStop(game.hexes, id, $("declare-choice"), (ref) => {
      declaring.routes[declaring.current]?.stops.push(ref);
      showRoutes($("declare-routes"), declaring, controls);
    });
    return;
  }
  hexFilter = id;
  for (const g of document.querySelectorAll("#map g.selected")) g.classList.remove("selected");
  document.getElementById("hex-" + id)?.classList.add("selected");
  controls();
  const stops = (game.hexes[id] || []).map((s, k) => `${id}.${k} ${s.kind}${s.name ? " " + s.name : ""} ${s.value}` +
    (s.kind === "city" ? ` [${s.tokens.join(", ") || "—"} / ${s.slots}]` : ""));
  if (stops.length) toast(stops.join(" · "), false);
}

async function loadMap(version, key) {
  // the map without a run; fetched only when it has changed (not in a stock round)
  const map = $("map");
  if (map.dataset.key === key) {
    map.dataset.version = String(version);
    for (const g of map.querySelectorAll("g.can-lay, g.selected")) g.classList.remove("can-lay", "selected");
    highlightLays();
    return;
  }
  try {
    const svg = await api(`api/map.svg?version=${version}`);
    if (game.version === version && !(map.dataset.key === "run" && map.dataset.version === String(version))) {
      showSvg(map, svg, clickHex);
      map.dataset.key = key;
      map.dataset.version = String(version);
      highlightLays();
    }
  } catch (e) { /* a newer version is on its way */ }
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
  const q = TOKEN ? "?token=" + encodeURIComponent(TOKEN) : "";
  $("download-log").href = "api/log" + q;
  $("download-log").setAttribute("download", s.log);
  $("download-position").href = "api/position" + q;
  $("last").replaceChildren(...(s.last ? [el("div", {}, "last: ", describe(s.last.action)),
    ...s.last.events.slice(0, 8).map((e) => el("div", {}, Object.entries(e).map(([k, v]) => k === "event" ? v : `${k} ${JSON.stringify(v)}`).join(" ")))] : []));
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
  $("run-box").hidden = true;
  loadMap(s.version, s.map_key);
  if (s.solve) follow(s.solve, showRun);
  controls();
  for (const hook of gameShown) hook(s);  // facts.js, seat.js
}

// --- several browsers at one table ----------------------------------------------------------

$("undo").addEventListener("click", () => act({ type: "undo" }));
api("api/state").then((s) => {
  show(s);
  // another browser's action: the new state, at once (common.js: events, else polling)
  watch(s.session, async (now) => {
    if (!game || now.version !== game.version) show(await api("api/state"));
  });
}).catch((e) => toast(e.message));
