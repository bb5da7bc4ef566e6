// trainruns serve, game mode: what each decision costs and does, and the game's facts
// (homes kept on the map, privates, shares, prices, the market's par boxes and legend).
// Every amount is the server's (/api/facts: the engine's own dry run of each action and
// the title's hooks); nothing here knows a rule. Loaded before game.js, which calls the
// functions in `gameShown` with each state it shows.
"use strict";

const gameShown = [];     // game.js: each hook is called with every state shown
let facts = null;         // /api/facts of the version on screen
const privateInfo = {};   // private id -> {name, ability, revenue} (the same all game)
const parBoxes = { cells: {}, boxes: null };   // par price -> box, and every par box (the same all game)

// --- the facts of the version shown ---------------------------------------------------------

gameShown.push(async (s) => {
  facts = null;
  try {
    const f = await api(`api/facts?version=${s.version}`);
    if (!game || game.version !== f.version || game.session !== s.session) return;
    facts = f;
    for (const p of f.game.privates) privateInfo[p.id] = p;
    Object.assign(parBoxes.cells, f.game.par_cells);
    parBoxes.boxes = f.game.par_boxes;
    document.body.dataset.facts = String(f.version);
    showPrivates(game.state);
    decorateControls();
    markMap();
    markMarket();
    fillPar();
  } catch (e) { /* a newer version is on its way */ }
});

function canonical(v) {
  // one text per action, whatever the order of its keys
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v && typeof v === "object") return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(",")}}`;
  return JSON.stringify(v);
}

function factsOf(action, amount) {
  // the dry run's answer for one listed action (a free amount: for that amount)
  if (!facts || !game) return null;
  const key = canonical(action);
  const i = game.actions.findIndex((a) => canonical(a) === key);
  const found = facts.actions.find((x) => x.index === i);
  if (!found) return null;
  const f = found.facts;
  if (f.by) return f.values[String(amount ?? action[f.by].min)] || null;
  return f;
}

// --- what a decision costs and does, in words --------------------------------------------------

function money(n) {
  return `$${n}`;
}

function priceMove(f) {
  if (!f.price) return "";
  const parts = Object.entries(f.price).filter(([, [a, b]]) => a !== null && a !== undefined).map(([k, [a, b]]) => {
    const what = k === "price" ? "price" : `${k} price`;
    return a === b ? `${what} stays ${a}` : `${what} ${a} → ${b}`;
  });
  return parts.join(", ");
}

function shortFacts(f) {
  // the few words shown in the choice itself
  const out = [];
  if (f.dividend) {
    const d = f.dividend;
    if (d.per_share !== null && d.per_share !== undefined && Object.keys(d.holders).length) out.push(`${money(d.per_share)} a share`);
    else if (Object.keys(d.holders).length) out.push(Object.entries(d.holders).map(([h, v]) => `${h} ${money(v)}`).join(", "));
    else out.push(`keeps ${money(d.kept)}`);
  } else if (f.pays > 0) out.push(money(f.pays));
  else if (f.pays < 0) out.push(`+${money(-f.pays)}`);
  const move = priceMove(f);
  if (move) out.push(move);
  return out.join("; ");
}

function longFacts(f) {
  // everything the dry run says, under the control
  const out = [];
  if (f.dividend) {
    const d = f.dividend;
    let text = `${d.kind} of ${money(d.revenue)}`;
    if (d.company_adds) text += ` (+${money(d.company_adds)} from the treasury)`;
    if (d.per_share !== null && d.per_share !== undefined && Object.keys(d.holders).length) text += `: ${money(d.per_share)} a share`;
    out.push(text);
    const holders = Object.entries(d.holders).map(([h, v]) => `${h} ${money(v)}`);
    if (holders.length) out.push(`paid: ${holders.join(", ")}`);
    if (d.kept) out.push(`${f.actor} keeps ${money(d.kept)}`);
  } else if (f.pays > 0) out.push(`${f.actor} pays ${money(f.pays)}`);
  else if (f.pays < 0) out.push(`${f.actor} receives ${money(-f.pays)}`);
  if (f.corporation_gets) out.push(`the corporation ${f.corporation_gets > 0 ? "receives" : "pays"} ${money(Math.abs(f.corporation_gets))}`);
  const move = priceMove(f);
  if (move) out.push(move);
  return out.join(" · ");
}

function decorateControls() {
  // each priced choice of "Now" says what it costs and does; the chosen one in full below
  if (!facts) return;
  for (const select of document.querySelectorAll('#controls select[id^="act-"]')) {
    const type = select.id.slice(4);
    for (const o of select.options) {
      if (o.dataset.facts || !o.dataset.action) continue;
      const f = factsOf(JSON.parse(o.dataset.action));
      o.dataset.facts = "1";
      if (f) o.textContent += ` — ${shortFacts(f)}`;
    }
    let line = document.getElementById(`fact-${type}`);
    if (!line) {
      line = el("div", { id: `fact-${type}`, class: "fact", "aria-live": "polite" });
      select.closest(".act-row").after(line);
      const amount = document.getElementById(`amount-${type}`);
      select.addEventListener("change", () => explain(select, line, amount));
      amount?.addEventListener("input", () => explain(select, line, amount));
    }
    explain(select, line, document.getElementById(`amount-${type}`));
  }
}

function explain(select, line, amount) {
  const o = select.options[select.selectedIndex];
  const a = o && o.dataset.action ? JSON.parse(o.dataset.action) : null;
  const f = a && factsOf(a, amount && !amount.hidden ? Number(amount.value) : undefined);
  line.textContent = f ? longFacts(f) : "";
  line.hidden = !f;
}

new MutationObserver(() => decorateControls()).observe($("controls"), { childList: true });

// --- the game's facts ----------------------------------------------------------------------------

function showPrivates(st) {
  // each private: its name, what it does, its revenue, and who holds it
  const rows = st.privates.map((p) => {
    const info = privateInfo[p.id] || {};
    const owner = p.owner ? `${p.owner}` : `for sale · ${money(p.price)}`;
    return el("li", { class: "private" + (p.open ? "" : " closed"), "data-private": p.id },
      el("b", {}, `${p.id} ${p.name || info.name || ""}`), ` · revenue ${money(p.revenue)} · ${p.open ? owner : "closed"}`,
      ...(info.ability ? [el("div", { class: "ability muted" }, info.ability)] : []));
  });
  $("privates").replaceChildren(...(rows.length ? [el("ul", { class: "privates" }, ...rows)] : []));
}

function sharesCell(c) {
  // where a corporation's unsold shares are: its initial offering, its treasury, the market
  const sh = c.shares || {};
  const parts = [["ipo", sh.ipo], ["treasury", sh.treasury], ["market", sh.market]].filter(([, n]) => n)
    .map(([k, n]) => `${k} ${n}`);
  return parts.join(" · ") || "—";
}

function priceCell(c) {
  // 1831 4.3: common and preferred prices
  if (c.price === null || c.price === undefined) return null;
  return c.preferred_price !== undefined && c.preferred_price !== null
    ? `${c.price} / pref. ${c.preferred_price}` : String(c.price);
}

function markMap() {
  // the home cities kept for corporations that have not placed their home token
  const svg = $("map").querySelector("svg");
  if (!svg || !facts) return;
  for (const old of svg.querySelectorAll(".home-reserved")) old.remove();
  const NS = "http://www.w3.org/2000/svg";
  const byHex = {};
  for (const h of facts.game.homes) (byHex[h.hex] = byHex[h.hex] || []).push(h);
  for (const [hex, homes] of Object.entries(byHex)) {
    const g = document.getElementById("hex-" + hex);
    if (!g) continue;
    const box = g.getBBox();
    const size = box.height * 0.16;
    homes.forEach((h, i) => {
      const mark = document.createElementNS(NS, "g");
      mark.setAttribute("class", "home-reserved");
      mark.setAttribute("data-corporation", h.corporation);
      const x = box.x + box.width / 2 + (i - (homes.length - 1) / 2) * size * 2.6;
      const y = box.y + box.height * 0.82;
      const r = document.createElementNS(NS, "rect");
      for (const [k, v] of Object.entries({ x: x - size * 1.25, y: y - size * 0.75, width: size * 2.5, height: size * 1.4,
        rx: size * 0.3, fill: game.colors[h.corporation] || "#26364a", "fill-opacity": "0.85" })) r.setAttribute(k, v);
      const t = document.createElementNS(NS, "text");
      for (const [k, v] of Object.entries({ x, y: y + size * 0.2, "text-anchor": "middle", "font-size": size * 0.8,
        fill: game.text_colors[h.corporation] || "#fff" })) t.setAttribute(k, v);
      t.textContent = h.corporation;
      const title = document.createElementNS(NS, "title");
      title.textContent = `${h.corporation}'s home: kept until it places its home token`;
      mark.append(title, r, t);
      g.append(mark);
    });
  }
}

function keyboardHexes() {
  // every hex of the map is a control: reached by Tab, pressed by Enter or Space
  const svg = $("map").querySelector("svg");
  if (!svg) return;
  for (const g of svg.querySelectorAll('g[id^="hex-"]')) {
    if (g.hasAttribute("tabindex")) continue;
    g.setAttribute("tabindex", "0");
    g.setAttribute("role", "button");
    g.setAttribute("aria-label", `hex ${g.id.slice(4)}`);
    g.addEventListener("keydown", (e) => {
      if (e.key !== "Enter" && e.key !== " ") return;
      e.preventDefault();
      g.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    });
  }
}

new MutationObserver(() => { keyboardHexes(); markMap(); }).observe($("map"), { childList: true });

// the first Tab stop: straight to "Now", past the header and every hex of the map
document.body.prepend(el("a", { id: "skip-to-now", class: "skip", href: "#turn-box",
  onclick: (e) => { e.preventDefault(); $("turn-box").scrollIntoView(); ($("controls").querySelector("button, select, input") || $("turn-box")).focus(); } },
"Skip to Now"));

function markMarket() {
  // the par boxes outlined, and what each zone means
  const table = $("market").querySelector("table.market");
  if (!table || !facts || !game.market) return;
  for (const [r, c] of facts.game.par_boxes) table.rows[r]?.cells[c]?.classList.add("par");
  const zones = [...new Set(game.market.rows.flat().filter(Boolean).map((b) => b.zone))];
  const legend = facts.game.legend;
  const items = [];
  if (facts.game.par_boxes.length) items.push(el("li", {}, el("span", { class: "key par" }), legend.par || "a par price"));
  for (const z of zones) {
    if (z === "white" && !legend.white) continue;
    items.push(el("li", { "data-zone": z }, el("span", { class: `key zone-${z}` }), legend[z] || z));
  }
  let box = $("market-legend");
  if (!box) {
    box = el("ul", { id: "market-legend", class: "legend" });
    $("market").after(box);
  }
  box.replaceChildren(...items);
}

new MutationObserver(() => markMarket()).observe($("market"), { childList: true });
