// trainruns serve, game mode: the game's history, every decision standing in words with
// its round and what followed from it, newest last; "undo to here" takes back a
// decision and every one after it, once confirmed. Plain JS, loaded before game.js, whose
// words (roundLabel, decisionText) it uses when drawn.
"use strict";

function showHistory(history) {
  const box = $("history");
  const follow = box.scrollHeight - box.scrollTop - box.clientHeight < 40;   // at the end: stay there
  let round = null;
  const items = [];
  history.forEach((h, i) => {
    const label = roundLabel(h.round);
    if (label !== round) {
      items.push(el("li", { class: "round" }, label || "—"));
      round = label;
    }
    const undo = el("button", { class: "undo-here", title: "take back this decision and every one after it",
      onclick: () => confirmTakeBack(item, i, history.length - i) }, "undo to here");
    const item = el("li", { class: "decision", "data-decision": String(i) },
      el("span", { class: "n" }, `${i + 1}.`), " ", decisionText(h.action), " ", undo,
      h.events.length ? el("ul", { class: "events" }, ...h.events.map((e) => el("li", {}, eventText(e)))) : "");
    items.push(item);
  });
  box.replaceChildren(...items);
  $("history-count").textContent = `${history.length} decision${history.length === 1 ? "" : "s"}`;
  if (follow) box.scrollTop = box.scrollHeight;
}

function confirmTakeBack(item, decision, count) {
  // asked on the entry itself: a slip of the mouse takes back nothing
  for (const old of document.querySelectorAll("#history .confirm")) old.remove();
  item.append(el("div", { class: "confirm", role: "alertdialog" },
    `Take back ${count === 1 ? "this decision" : `these ${count} decisions`}? `,
    el("button", { class: "primary confirm-yes", onclick: () => change("api/take-back", { decision }) },
      `Take back ${count}`), " ",
    el("button", { class: "confirm-no", onclick: (ev) => ev.target.closest(".confirm").remove() }, "Keep")));
}
