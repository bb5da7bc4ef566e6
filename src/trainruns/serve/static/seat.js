// trainruns serve, game mode: a browser may sit as one player. It changes nothing about
// who may act (anyone at a shared screen still may); it says when that seat's turn comes:
// the tab's title and a short sound. The seat is kept in this browser (localStorage).
"use strict";

const seat = { name: null, mine: false, audio: null, title: document.title };

function seatKey() {
  return `trainruns-seat:${game ? game.log : ""}`;
}

function seatTurn(s) {
  // the seat acts now: as the player named, or as the president of the acting corporation
  const a = s.active;
  return Boolean(seat.name && a && !s.state.finished && a.player === seat.name);
}

function chime() {
  // a short two-note sound (Web Audio: no file to fetch); counted on the page for tests
  try {
    const ctx = seat.audio || (seat.audio = new AudioContext());
    if (ctx.state === "suspended") ctx.resume();
    const t = ctx.currentTime;
    for (const [f, at] of [[660, 0], [880, 0.12]]) {
      const o = ctx.createOscillator();
      const g = ctx.createGain();
      o.frequency.value = f;
      g.gain.setValueAtTime(0.0001, t + at);
      g.gain.exponentialRampToValueAtTime(0.2, t + at + 0.02);
      g.gain.exponentialRampToValueAtTime(0.0001, t + at + 0.2);
      o.connect(g).connect(ctx.destination);
      o.start(t + at);
      o.stop(t + at + 0.22);
    }
    document.body.dataset.chimes = String(Number(document.body.dataset.chimes || 0) + 1);
  } catch (e) { /* no sound on this device: the title still says it */ }
}

function seatControl(s) {
  let select = $("seat");
  if (!select) {
    select = el("select", { id: "seat", "aria-label": "sit as a player", title: "sit as a player: the tab's title and a sound say when it is your turn" });
    select.addEventListener("change", () => {
      seat.name = select.value || null;
      try { localStorage.setItem(seatKey(), select.value); } catch (e) { /* private mode */ }
      if (seat.name && !seat.audio) {
        try { seat.audio = new AudioContext(); } catch (e) { /* no sound */ }  // made in a click: allowed to play
      }
      seat.mine = false;
      showSeat(game);
    });
    $("games-open").before(select);
  }
  const names = s.state.players.map((p) => p.name);
  const want = ["", ...names];
  if ([...select.options].map((o) => o.value).join("\n") !== want.join("\n")) {
    select.replaceChildren(el("option", { value: "" }, "seat: anyone"), ...names.map((n) => el("option", { value: n }, `seat: ${n}`)));
  }
  if (seat.name === null) {
    let saved = null;
    try { saved = localStorage.getItem(seatKey()); } catch (e) { /* private mode */ }
    if (saved && names.includes(saved)) seat.name = saved;
  }
  if (seat.name && !names.includes(seat.name)) seat.name = null;
  select.value = seat.name || "";
}

function showSeat(s) {
  const mine = seatTurn(s);
  document.body.classList.toggle("my-turn", mine);
  document.title = mine ? `▶ Your turn, ${seat.name} · ${s.state.title} · trainruns` : `${s.state.title} · trainruns`;
  if (mine && !seat.mine) chime();
  seat.mine = mine;
}

gameShown.push((s) => {
  seatControl(s);
  showSeat(s);
});
