// trainruns serve, game mode: starting a corporation on the market's own grid. The par
// prices offered now are buttons on their boxes (the server says which box each price is:
// the market's par_cell); every other box is shown as the market shows it.
"use strict";

let parChoice = null;   // the corporation chosen to start

function parControl(list) {
  // game.js: the control of the "par" actions (list: the engine's par actions)
  const corps = [...new Set(list.map((a) => a.corporation))];
  if (!corps.includes(parChoice)) parChoice = corps[0];
  const select = el("select", { id: "par-corporation", "aria-label": "corporation to start" },
    ...corps.map((c) => el("option", { value: c }, c)));
  select.value = parChoice;
  select.addEventListener("change", () => { parChoice = select.value; fillPar(); });
  const box = el("div", { id: "par-box", class: "act-row" }, el("span", { class: "act-name" }, "Start a corporation"),
    select, el("span", { class: "muted" }, "at a par price:"), el("div", { id: "par-grid", class: "par-grid" }));
  box.parList = list;
  setTimeout(fillPar);
  return box;
}

function fillPar() {
  const box = $("par-box");
  const grid = $("par-grid");
  if (!box || !grid || !game.market) return;
  const offered = box.parList.filter((a) => a.corporation === parChoice);
  const current = facts && game && facts.version === game.version;
  if (!parBoxes.boxes || (!current && offered.some((a) => !parBoxes.cells[String(a.price)]))) {
    // the boxes of these prices come with the facts of this version (facts.js)
    grid.replaceChildren(el("p", { class: "muted" }, "the market's par boxes…"));
    return;
  }
  const at = {};   // "r,c" -> the par action on that box
  const loose = [];  // a price the market has no box for (shown after the grid)
  for (const a of offered) {
    const cell = parBoxes.cells[String(a.price)];
    if (cell) at[cell.join(",")] = a;
    else loose.push(a);
  }
  const button = (a) => el("button", {
    class: "par-price", "data-price": String(a.price), "data-corporation": a.corporation,
    "aria-label": `start ${a.corporation} at ${a.price}`, onclick: () => act(JSON.parse(JSON.stringify(a))) }, String(a.price));
  const width = Math.max(...game.market.rows.map((r) => r.length));
  const used = new Set(Object.keys(at).map((k) => Number(k.split(",")[0])));
  const parRows = new Set(parBoxes.boxes.map(([r]) => r));
  // only the rows that hold par boxes: the rest of the market is shown below as it is
  const rows = game.market.rows.map((row, r) => [row, r]).filter(([, r]) => parRows.has(r) || used.has(r));
  const table = el("table", { class: "market par-market" }, ...rows.map(([row, r]) => el("tr", {},
    ...Array.from({ length: width }, (_, c) => {
      const b = row[c];
      if (!b) return el("td", { class: "none" });
      const price = b.preferred !== undefined ? `${b.price}/${b.preferred}` : String(b.price);
      const a = at[`${r},${c}`];
      if (!a) return el("td", { class: `zone-${b.zone}` }, el("div", { class: "price" }, price));
      return el("td", { class: `zone-${b.zone} par` }, button(a));
    }))));
  // a wide market keeps only the columns around its par boxes
  const cols = Object.keys(at).map((k) => Number(k.split(",")[1]));
  grid.replaceChildren(table, ...loose.map(button));
  if (cols.length) {
    const lo = Math.max(0, Math.min(...cols) - 1);
    const hi = Math.min(width - 1, Math.max(...cols) + 1);
    for (const tr of table.rows) for (let c = width - 1; c >= 0; c--) if (c < lo || c > hi) tr.deleteCell(c);
  }
}
