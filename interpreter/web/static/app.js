// The Rulewright table: plain JavaScript, no build step. Every text from the server is set with
// textContent (never as HTML), and the page sends only ids, numbers and names, never a file path.
// Every change is a JSON POST (the server refuses any other, and any from another site); a choice
// names the decision it answers and undo/redo the version of the table they were clicked on, so a
// double click does nothing twice. In hot-seat mode the screen is covered whenever the seat shown
// changes (a move, undo, redo, a load), until the next player says they are at it.
"use strict";

const $ = (id) => document.getElementById(id);
let SPECS = [];
let GAME = null;        // the last table JSON of the game on screen
let SHOWN_VIEWER = null; // whose view the screen shows (hot-seat hands over between seats)
let LIMITS = {};
let LAST_ERROR = null;   // the body of the last failed request (a bad target's diagnostics are in it)

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) if (kid !== null && kid !== undefined) e.append(kid);
  return e;
}

function showError(msg) {
  const box = $("error");
  box.textContent = msg;
  box.hidden = !msg;
}

async function api(method, path, body) {
  const opts = { method, headers: {}, credentials: "same-origin" };
  if (body !== undefined || method !== "GET") {
    opts.body = JSON.stringify(body === undefined ? {} : body);
    opts.headers["content-type"] = "application/json";
  }
  // Every failure is shown in the error bar and answered with null (callers stop there); a 409 (the
  // request answered a decision no longer open: a double click, another tab) shows the table as it is now.
  let r, data;
  try { r = await fetch(path, opts); } catch (e) { showError(`the table's server cannot be reached (${e})`); return null; }
  try { data = await r.json(); } catch (e) { data = { error: `the server answered ${r.status}` }; }
  if (r.status === 409 && data.table) { showGame(data.table); showError(data.error); return null; }
  if (!r.ok) { LAST_ERROR = data; showError(data.error || `error ${r.status}`); return null; }
  LAST_ERROR = null;
  showError("");
  return data;
}

const seatName = (p) => (p === -1 || p === null || p === undefined) ? "spectator" : p === -2 ? "everyone" : `P${p + 1}`;

// -- tabs ------------------------------------------------------------------------------
function showTab(name) {
  for (const t of document.querySelectorAll(".tab")) t.classList.toggle("active", t.dataset.tab === name);
  for (const p of document.querySelectorAll(".page")) p.hidden = p.id !== name;
}
for (const b of document.querySelectorAll(".subtab")) {
  b.addEventListener("click", () => {
    for (const t of document.querySelectorAll(".subtab")) t.classList.toggle("active", t === b);
    for (const p of document.querySelectorAll(".subpage")) p.hidden = p.id !== b.dataset.sub;
  });
}
for (const b of document.querySelectorAll(".tab")) {
  b.addEventListener("click", () => {
    showTab(b.dataset.tab);
    if (b.dataset.tab === "logs") refreshLogs($("log-pick").value || undefined);
  });
}

// -- setup -----------------------------------------------------------------------------
function currentSpec(select) { return SPECS.find((s) => s.id === $(select).value); }

function valueInput(name, values, dflt) {
  const sel = el("select", { name });
  for (const v of values) sel.append(el("option", { value: JSON.stringify(v), text: String(v), selected: v === dflt }));
  return sel;
}

function buildSetup() {
  const s = currentSpec("spec");
  if (!s) return;
  const pl = $("players");
  pl.min = s.min_players; pl.max = s.max_players;
  if (+pl.value < s.min_players || +pl.value > s.max_players) pl.value = s.min_players;
  buildSeats();
  const opts = $("options");
  opts.replaceChildren(el("legend", { text: "Options" }));
  for (const o of s.options) opts.append(el("label", { title: o.rule || "" }, `${o.label} `, valueInput(o.name, o.values, o.default)));
  if (!s.options.length) opts.append(el("span", { class: "note", text: "none" }));
  const rd = $("readings");
  rd.replaceChildren(el("legend", { text: "Readings of unclear rules" }));
  for (const a of s.ambiguities) {
    const sel = el("select", { name: a.name });
    for (const [k, desc] of Object.entries(a.interpretations))
      sel.append(el("option", { value: k, text: `${k}${k === a.default ? " (default)" : ""}`, title: desc, selected: k === a.default }));
    rd.append(el("label", { title: a.quote }, `${a.name} `, sel));
  }
  if (!s.ambiguities.length) rd.append(el("span", { class: "note", text: "none" }));
}

function buildSeats() {
  const n = +$("players").value;
  const box = $("seats");
  const old = [...box.querySelectorAll("select")].map((x) => x.value);
  box.replaceChildren(el("legend", { text: "Seats" }));
  for (let k = 0; k < n; k++) {
    const sel = el("select", { name: `seat${k}`, id: `seat${k}` });
    for (const v of ["person", "random", "greedy", "mcts:50", "mcts:200", "first"])
      sel.append(el("option", { value: v, text: v }));
    sel.value = old[k] || (k === 0 ? "person" : "random");
    box.append(el("label", {}, `P${k + 1} `, sel));
  }
}

function settingsFromForm() {
  const s = currentSpec("spec");
  const n = +$("players").value;
  const options = {}, readings = {};
  for (const sel of $("options").querySelectorAll("select")) options[sel.name] = JSON.parse(sel.value);
  for (const sel of $("readings").querySelectorAll("select")) readings[sel.name] = sel.value;
  const seats = [];
  for (let k = 0; k < n; k++) seats.push($(`seat${k}`).value);
  const seed = $("seed").value.trim();  // empty: the server deals from a fresh random seed, and keeps it
  return { spec: s.id, players: n, seed: seed === "" ? null : +seed, options, readings, seats, hotseat: $("hotseat").checked,
    undo: $("allow-undo").checked };
}

$("spec").addEventListener("change", buildSetup);
$("players").addEventListener("change", buildSeats);
$("setup-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const g = await api("POST", "/api/games", settingsFromForm());
  if (!g) return;
  SHOWN_VIEWER = null;
  showGame(g);
});
$("load-file").addEventListener("change", async (ev) => {
  const f = ev.target.files[0];
  if (!f) return;
  let data;
  try { data = JSON.parse(await f.text()); } catch (e) { showError(`${f.name} is not JSON`); return; }
  ev.target.value = "";
  const g = await api("POST", "/api/games/load", data);
  if (!g) return;
  SHOWN_VIEWER = null;
  showGame(g);
});

// -- the table ---------------------------------------------------------------------------
function card(label) { return el("div", { class: "card", title: label }, el("span", { text: label })); }

function renderZones(box, g) {
  box.replaceChildren(el("h2", { text: "Zones" }));
  const shared = g.zones.filter((z) => z.owner === null);
  const owned = g.zones.filter((z) => z.owner !== null);
  const row = (z) => {
    const cards = el("div", { class: "cards" });
    if (z.visible) {
      for (const c of z.cards) cards.append(card(c));
      if (!z.cards.length) cards.append(el("span", { class: "empty", text: "empty" }));
    } else {
      for (let i = 0; i < Math.min(z.count, 6); i++) cards.append(el("div", { class: "card back", title: "face down" }));
      cards.append(z.count === 0 ? el("span", { class: "empty", text: "empty" }) : el("span", { class: "count", text: `${z.count} face down` }));
    }
    const who = z.owner === null ? "" : `${seatName(z.owner)}${z.owner === g.viewer ? " (you)" : ""}: `;
    return el("div", { class: `zone${z.visible ? "" : " hidden-zone"}${z.secret ? " secret" : ""}`, "data-zone": z.id },
      el("div", { class: "zone-label", text: `${who}${z.label}${z.secret ? " (face down at the table)" : ""}`, title: z.id }), cards);
  };
  for (const z of shared) box.append(row(z));
  const seats = [...new Set(owned.map((z) => z.owner))];
  for (const p of seats) {
    const group = el("div", { class: `seat-zones${p === g.current ? " current" : ""}` },
      el("h3", { text: `${seatName(p)}${p === g.viewer ? " (you)" : ""}${p === g.current ? " \u2014 to play" : ""}` }));
    for (const z of owned.filter((z) => z.owner === p)) group.append(row(z));
    box.append(group);
  }
}

let ALL_COUNTERS = false;  // counters still at their start value are folded away unless asked for
function renderCounters(box, g) {
  const toggle = el("label", { class: "check inline" }, el("input", { type: "checkbox", checked: ALL_COUNTERS,
    onchange: (ev) => { ALL_COUNTERS = ev.target.checked; renderCounters(box, g); } }), " every counter");
  box.replaceChildren(el("h2", {}, "Counters ", toggle));
  const c = g.counters;
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const n = g.settings.players;
  const head = el("tr", {}, el("th", { text: "" }));
  for (let p = 0; p < n; p++) head.append(el("th", { class: p === g.current ? "current" : "", text: `${seatName(p)}${p === g.viewer ? " (you)" : ""}` }));
  const t = el("table", { class: "counters" }, el("thead", {}, head));
  const body = el("tbody");
  let folded = 0;
  for (const r of c.players) {
    if (!ALL_COUNTERS && !r.score && r.values.every((v) => same(v, r.start))) { folded++; continue; }
    const tr = el("tr", { class: r.score ? "score" : "" }, el("td", { text: r.label, title: r.name }));
    for (const v of r.values) tr.append(el("td", { text: fmt(v) }));
    body.append(tr);
  }
  t.append(body);
  box.append(t);
  const rest = [...c.global.map((x) => [x, ""]), ...c.turn.map((x) => [x, "this turn: "])]
    .filter(([x]) => ALL_COUNTERS || !same(x.value, x.start) || (folded++, false));
  if (rest.length) {
    const ul = el("ul", { class: "globals" });
    for (const [x, pre] of rest) ul.append(el("li", {}, el("span", { text: `${pre}${x.label}: ` }), el("b", { text: fmt(x.value) })));
    box.append(ul);
  }
  if (folded) box.append(el("p", { class: "note", text: `${folded} more counter${folded === 1 ? "" : "s"} at the start value` }));
}

function fmt(v) {
  if (v === true) return "yes";
  if (v === false) return "no";
  if (Array.isArray(v)) return v.join(", ");
  if (v !== null && typeof v === "object") return Object.entries(v).map(([k, x]) => `${k} ${fmt(x)}`).join(", ");
  if (typeof v === "number" && !Number.isInteger(v)) return String(+v.toPrecision(4));
  return String(v);
}

function renderStatus(box, g, extra) {
  const seed = g.settings.seed === null ? "seed kept by the table until the game is over" : `seed ${g.settings.seed}`;
  const bits = [el("b", { text: g.game }), ` \u00b7 ${g.settings.players} players \u00b7 ${seed}`,
    ` \u00b7 turn ${g.turn}`, g.phase ? ` \u00b7 phase ${g.phase}` : "", ` \u00b7 viewing as ${seatName(g.viewer)}`];
  if (g.result) {
    const r = g.result;
    const who = r.winners.length ? r.winners.map(seatName).join(" and ") : "nobody";
    bits.push(el("div", { class: "result", text: r.status === "finished"
      ? `Game over after ${r.turns} turns: ${who} ${r.winners.length === 1 ? "wins" : "win"}` + (r.scores ? ` (scores ${r.scores.join(", ")})` : "")
      : `The game ${r.status} after ${r.turns} turns: ${r.reason || ""}` }));
  } else if (g.decision) {
    bits.push(el("div", { class: "turn", text: `${seatName(g.decision.player)} to choose` + (g.decision.person ? "" : " (a bot)") }));
  }
  if (g.note) bits.push(el("div", { class: "note", text: g.note }));
  if (g.agreed && g.agreed.length && !g.revealed)
    bits.push(el("div", { class: "note", text: `${g.agreed.map(seatName).join(" and ")} agreed to show everything; waiting for the others` }));
  if (extra) bits.push(extra);
  box.replaceChildren(...bits);
}

function renderLog(box, lines, rules) {
  // Each rulebook sentence is quoted in full where it first applies; later lines carry a "rule" toggle.
  box.replaceChildren();
  const quoted = new Set();
  for (const l of lines) {
    const li = el("li", { class: `ev-${l.kind}` }, el("span", { class: "text", text: l.text }));
    const rule = l.rule === null || l.rule === undefined ? null : rules[l.rule];
    if (rule) {
      const q = el("blockquote", { class: "rule", text: rule });
      if (quoted.has(rule)) {
        q.hidden = true;
        li.append(el("button", { class: "rule-toggle", title: rule, text: "\u00b6", onclick: () => { q.hidden = !q.hidden; } }));
      }
      quoted.add(rule);
      li.append(q);
    }
    box.append(li);
  }
  box.scrollTop = box.scrollHeight;
}

function renderDecision(box, g) {
  box.replaceChildren();
  $("whynot").hidden = true;
  const d = g.decision;
  if (!d) { box.append(el("p", { text: g.result ? "The game is over." : "" })); return; }
  if (d.options === undefined) { box.append(el("p", { text: `Waiting for ${seatName(d.player)}.` })); return; }
  box.append(el("h2", { text: `${seatName(d.player)}, ${d.prompt}` }));
  const opts = el("div", { class: "options" });
  d.options.forEach((label, i) => opts.append(el("button", { class: "option", "data-index": i, text: label,
    onclick: () => choose(i, d.id) })));
  box.append(opts);
  if (d.refused && d.refused.length) {
    const ref = el("div", { class: "refused" }, el("span", { class: "note", text: "Not allowed now (click for why): " }));
    d.refused.forEach((w) => ref.append(el("button", { class: "refused-action", "data-action": w.action, text: w.label,
      onclick: () => showWhyNot(w) })));
    box.append(ref);
  }
}

function showWhyNot(w) {
  const box = $("whynot");
  box.hidden = false;
  box.replaceChildren(...[el("h3", { text: `Why not \u201c${w.label}\u201d?` }),
    el("ul", {}, w.reasons.map((r) => el("li", { text: r }))),
    w.values.length ? el("p", { class: "values", text: `now: ${w.values.join(", ")}` }) : null,
    w.rule ? el("blockquote", { class: "rule", text: w.rule }) : null,
    w.where ? el("p", { class: "note", text: `spec: ${w.where}` }) : null,
    el("button", { text: "Close", onclick: () => { box.hidden = true; } })].filter((x) => x !== null));
}

async function choose(i, decision) {
  for (const b of document.querySelectorAll(".option")) b.disabled = true;  // one answer per decision
  const g = await api("POST", `/api/games/${GAME.id}/choose`, { option: i, decision });
  if (g) showGame(g);
  else for (const b of document.querySelectorAll(".option")) b.disabled = false;
}

let continuing = null;  // the bots were stopped (their thinking time per request): ask them to go on
async function keepThinking(g) {
  if (continuing === g.id) return;
  continuing = g.id;
  const next = await api("POST", `/api/games/${g.id}/continue`, {});
  continuing = null;
  if (next && GAME && GAME.id === next.id) showGame(next);
}

function showGame(g) {
  GAME = g;
  $("setup").hidden = true;
  $("game").hidden = false;
  // Hot-seat: whenever the seat to show is not the one on the screen (a move, undo, redo, a new or loaded
  // game), the screen is covered and the next seat's cards are not even drawn until that player is at it.
  const handover = g.settings.hotseat && g.viewer >= 0 && g.viewer !== SHOWN_VIEWER;
  if (handover) {
    $("game").hidden = true;
    for (const id of ["status", "decision", "zones", "counters", "log", "whynot"]) $(id).replaceChildren();
    $("handover").hidden = false;
    $("handover-text").textContent = `Pass the screen to ${seatName(g.viewer)}.`;
    $("handover-ok").onclick = () => { $("handover").hidden = true; SHOWN_VIEWER = g.viewer; showGame(g); };
    document.body.dataset.covered = String(g.choices);
    return;
  }
  delete document.body.dataset.covered;
  $("handover").hidden = true;
  SHOWN_VIEWER = g.viewer;
  document.body.dataset.choices = String(g.choices);  // how far the game on screen is (tests wait on it)
  renderStatus($("status"), g);
  renderDecision($("decision"), g);
  renderZones($("zones"), g);
  renderCounters($("counters"), g);
  renderLog($("log"), g.log, g.rules);
  const botsOnly = !g.settings.seats.includes("person");
  $("watch").hidden = !botsOnly;
  if (botsOnly) {
    const sel = $("watch-seat");
    const want = g.viewer === -1 ? "spectator" : String(g.viewer + 1);
    if (sel.options.length !== g.settings.players + 1)
      sel.replaceChildren(el("option", { value: "spectator", text: "a spectator" }),
        ...Array.from({ length: g.settings.players }, (_, k) => el("option", { value: String(k + 1), text: `P${k + 1}` })));
    sel.value = want;
  }
  $("to-slider").disabled = !(botsOnly || g.result || g.revealed);
  $("reveal").hidden = botsOnly || !!g.result || g.revealed || (g.agreed || []).includes(g.viewer);
  $("undo").disabled = !g.can_undo;
  $("redo").disabled = !g.can_redo;
  $("save").href = `/api/games/${g.id}/save`;
  if (g.bots_to_move) keepThinking(g);
}

for (const what of ["undo", "redo"]) {
  $(what).addEventListener("click", async () => {
    const g = await api("POST", `/api/games/${GAME.id}/${what}`, { version: GAME.version });
    if (g) showGame(g);  // the seat shown stays SHOWN_VIEWER: another seat's turn covers the screen
  });
}
$("reveal").addEventListener("click", async () => {
  if (!confirm(`${seatName(GAME.viewer)}: show every hand, the deck and the seed now? It happens once every person at the table agrees.`)) return;
  const g = await api("POST", `/api/games/${GAME.id}/reveal`, { version: GAME.version });
  if (g) showGame(g);
});
$("watch-seat").addEventListener("change", async () => {
  const g = await api("GET", `/api/games/${GAME.id}?seat=${encodeURIComponent($("watch-seat").value)}`);
  if (g) showGame(g);
});
$("to-slider").addEventListener("click", async () => {
  const r = await api("POST", `/api/games/${GAME.id}/replay`, {});
  if (!r) return;
  showTab("logs");
  $("log-step").value = 0;
  await refreshLogs(r.id);
});
$("new-game").addEventListener("click", () => { $("game").hidden = true; $("setup").hidden = false; });

// -- logged games -------------------------------------------------------------------------
let LOGS = [];
async function refreshLogs(pick) {
  const d = await api("GET", "/api/logs");
  if (!d) return;
  LOGS = d.logs;
  const sel = $("log-pick");
  sel.replaceChildren(...LOGS.map((l) => el("option", { value: l.id, text: `${l.name} (${l.game}, ${l.players} players, seed ${l.seed})` })));
  if (pick) sel.value = pick;
  if (LOGS.length) pickLog();
}

function pickLog() {
  const l = LOGS.find((x) => x.id === $("log-pick").value);
  if (!l) return;
  const seat = $("log-seat");
  const keep = seat.value;
  seat.replaceChildren(el("option", { value: "everyone", text: "everyone (the full record)" }),
    el("option", { value: "spectator", text: "a spectator" }),
    ...Array.from({ length: l.players }, (_, k) => el("option", { value: String(k + 1), text: `P${k + 1}` })));
  if ([...seat.options].some((o) => o.value === keep)) seat.value = keep;
  const s = $("log-step");
  s.max = l.steps;
  if (+s.value > l.steps) s.value = l.steps;
  $("log-note").textContent = l.note || "";
  showStep();
}

let stepTimer = null;
function showStep() {
  clearTimeout(stepTimer);
  stepTimer = setTimeout(async () => {
    const id = $("log-pick").value;
    const k = $("log-step").value;
    const g = await api("GET", `/api/logs/${encodeURIComponent(id)}?step=${k}&seat=${encodeURIComponent($("log-seat").value)}`);
    if (!g) return;
    $("log-game").hidden = false;
    $("log-pos").textContent = `step ${g.step} of ${g.steps}`;
    renderStatus($("log-status"), g);
    renderZones($("log-zones"), g);
    renderCounters($("log-counters"), g);
    renderLog($("log-lines"), g.log, g.rules);
  }, 80);
}

$("log-pick").addEventListener("change", pickLog);
$("log-seat").addEventListener("change", showStep);
$("log-step").addEventListener("input", showStep);
$("log-prev").addEventListener("click", () => { $("log-step").stepDown(); showStep(); });
$("log-next").addEventListener("click", () => { $("log-step").stepUp(); showStep(); });
$("log-file").addEventListener("change", async (ev) => {
  const f = ev.target.files[0];
  if (!f) return;
  const text = await f.text();
  ev.target.value = "";
  const r = await api("POST", "/api/logs", { name: f.name, text });
  if (!r) return;
  $("log-step").value = 0;
  await refreshLogs(r.id);
});

// -- the ambiguity lab ------------------------------------------------------------------------
function fitPlayers(input, s) {  // the spec's player range; out of it, two players (or the nearest allowed)
  input.min = s.min_players; input.max = s.max_players;
  if (+input.value < s.min_players || +input.value > s.max_players) input.value = Math.max(s.min_players, Math.min(2, s.max_players));
}

function buildLab() {
  const s = currentSpec("lab-spec");
  if (!s) return;
  fitPlayers($("lab-players"), s);
  const box = $("lab-ambiguities");
  box.replaceChildren(el("legend", { text: "Ambiguities" }));
  for (const a of s.ambiguities)
    box.append(el("label", { class: "check", title: a.quote }, el("input", { type: "checkbox", value: a.name, checked: true }), ` ${a.name}`));
  if (!s.ambiguities.length) box.append(el("span", { class: "note", text: "this spec declares none" }));
}
$("lab-spec").addEventListener("change", buildLab);

$("lab-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const names = [...$("lab-ambiguities").querySelectorAll("input:checked")].map((x) => x.value);
  const job = await api("POST", "/api/lab", { spec: $("lab-spec").value, players: +$("lab-players").value,
    games: +$("lab-games").value, seed: +$("lab-seed").value, ambiguities: names });
  if (job) runJob("lab", job, renderReport);
});

// A lab run or a search: the same queue on the server, the same progress bar here; a search has a Stop
// button (it stops between batches; a lab run plays its games in one batch, so it has none).
function runJob(kind, job, render) {
  $(`${kind}-start`).disabled = true;
  const stop = $(`${kind}-cancel`);
  if (stop) {
    stop.hidden = false;
    stop.disabled = false;
    stop.onclick = async () => { stop.disabled = true; await api("POST", `/api/${kind}/${job.id}/cancel`, {}); };
  }
  $(`${kind}-progress`).hidden = false;
  $(`${kind}-report`).hidden = true;
  pollJob(kind, job.id, render);
}

async function pollJob(kind, id, render) {
  const job = await api("GET", `/api/${kind}/${id}`);
  const over = () => { $(`${kind}-start`).disabled = false; if ($(`${kind}-cancel`)) $(`${kind}-cancel`).hidden = true; };
  if (!job) { over(); return; }
  $(`${kind}-bar`).max = job.total || 1;
  $(`${kind}-bar`).value = job.done;
  $(`${kind}-count`).textContent = `${job.stopping ? "stopping" : job.state}: ${job.done} of ${job.total} ${job.unit} (${job.seconds} s)`;
  if (job.state === "queued" || job.state === "running") { setTimeout(() => pollJob(kind, id, render), 400); return; }
  over();
  if (job.state === "failed") { showError(job.error); return; }
  if (job.state === "done") render(job);
}

// Rendered generically: verdict strings become CSS classes, and every field the lab reports is shown,
// so a new verdict or a new field (a margin, a count) appears without changing this page.
function verdictBadge(v) { return el("span", { class: `verdict verdict-${String(v).replace(/[^a-z_-]/gi, "")}`, text: String(v) }); }

function fieldTable(rows, skip) {
  const keys = [];
  for (const r of rows) for (const k of Object.keys(r)) if (!keys.includes(k) && !(skip || []).includes(k)) keys.push(k);
  const t = el("table", { class: "fields" }, el("thead", {}, el("tr", {}, keys.map((k) => el("th", { text: k })))));
  const body = el("tbody");
  for (const r of rows) body.append(el("tr", {}, keys.map((k) => {
    const v = r[k];
    if (k === "verdict") return el("td", {}, verdictBadge(v));
    if (typeof v === "number") return el("td", { class: "num", text: String(+v.toPrecision(4)) });
    return el("td", { text: v === undefined ? "" : fmt(v) });
  })));
  t.append(body);
  return t;
}

function renderReport(job) {
  const r = job.report;
  const box = $("lab-report");
  box.hidden = false;
  // the run's settings: unset ones (null) left out, numbers rounded, each margin as it was set
  const top = Object.entries(r).filter(([k, v]) => k !== "ambiguities" && k !== "baseline" && v !== null && typeof v !== "object");
  const margins = Object.entries(r.margins || {}).map(([k, m]) => el("span", { class: "kv" }, `${k} \u00b1`,
    el("b", { text: m.relative ? `${m.set} (${fmt(m.value)})` : fmt(m.value) })));
  box.replaceChildren(el("h2", { text: `What each reading of ${r.spec} changes` }),
    el("p", { id: "lab-settings" }, top.map(([k, v]) => el("span", { class: "kv" }, `${k}: `, el("b", { text: k === "seconds" ? `${fmt(v)} s` : fmt(v) })))),
    ...(margins.length ? [el("p", { id: "lab-margins" }, "Margins: ", margins)] : []),
    el("h3", { text: "Default readings" }), fieldTable([r.baseline]));
  if (job.note) box.append(el("p", { class: "note", text: job.note }));
  const summary = r.ambiguities.map((a) => Object.fromEntries(Object.entries(a).filter(([k, v]) => typeof v !== "object" || v === null)));
  box.append(el("h3", { text: "Verdicts" }), fieldTable(summary));
  for (const a of r.ambiguities) {
    const readings = el("div", { class: "readings" });
    for (const it of a.interpretations || []) {
      readings.append(el("h4", {}, `${it.interpretation} `, verdictBadge(it.verdict)), el("p", { class: "note", text: it.description || "" }));
      const scalars = Object.fromEntries(Object.entries(it).filter(([k, v]) => !Array.isArray(v) && k !== "description"));
      readings.append(fieldTable([scalars]));
      for (const [k, v] of Object.entries(it))
        if (Array.isArray(v) && v.length && typeof v[0] === "object") readings.append(el("h5", { text: k }), fieldTable(v));
    }
    const png = job.plots.find((p) => p === `${a.ambiguity}.png`);
    const plot = png ? el("img", { class: "plot", src: `/api/lab/${job.id}/plots/${encodeURIComponent(png)}`, alt: `differences for ${a.ambiguity}` }) : null;
    box.append(el("section", { class: "ambiguity", "data-ambiguity": a.ambiguity },
      el("h3", {}, `${a.ambiguity}: `, verdictBadge(a.verdict)),
      a.quote ? el("blockquote", { class: "rule", text: a.quote }) : null,
      el("div", { class: "ambiguity-body" }, readings, plot)));
  }
}

// -- the variant search (tune) ----------------------------------------------------------------
// The page offers only the spec's own names and values, and sends them as JSON values; the targets go as
// the lines typed, and the server reads them with the command line's parser (a bad one comes back as its
// diagnostics, shown under the box). The server checks all of it again, and its caps are its own.
function buildTune() {
  const s = currentSpec("tune-spec");
  if (!s) return;
  fitPlayers($("tune-players"), s);
  const box = $("tune-vary");
  box.replaceChildren(el("legend", { text: "What may vary" }));
  for (const o of s.options) box.append(varyRow(o.name, "option", o.label || o.rule || "", o.values, o.default));
  for (const a of s.ambiguities) box.append(varyRow(a.name, "reading", a.quote, Object.keys(a.interpretations), a.default));
  if (!s.options.length && !s.ambiguities.length)
    box.append(el("span", { class: "note", text: "this spec declares no options or ambiguities: a variant that declares one of its numbers as an option makes it tunable" }));
  countSpace();
}

function varyRow(name, kind, title, values, dflt) {
  const vals = el("span", { class: "vary-values" });
  for (const v of values)
    vals.append(el("label", { class: "inline-check" }, el("input", { type: "checkbox", class: "vary-value",
      value: JSON.stringify(v), checked: true, disabled: true, onchange: countSpace }), ` ${String(v)}${v === dflt ? " (default)" : ""}`));
  const pick = el("input", { type: "checkbox", class: "vary-name", value: name, onchange: (ev) => {
    for (const x of vals.querySelectorAll("input")) x.disabled = !ev.target.checked;
    countSpace();
  } });
  return el("div", { class: "vary", "data-name": name },
    el("label", { class: "vary-label", title }, pick, ` ${name} `, el("span", { class: "note", text: kind })), vals);
}

function tuneVary() {
  const out = [];
  for (const row of $("tune-vary").querySelectorAll("div.vary")) {
    if (!row.querySelector("input.vary-name").checked) continue;
    out.push({ name: row.dataset.name, values: [...row.querySelectorAll("input.vary-value:checked")].map((x) => JSON.parse(x.value)) });
  }
  return out;
}

function countSpace() {
  const vary = tuneVary();
  const agents = $("tune-agents").querySelectorAll("input:checked").length;
  const caps = LIMITS.tune || {};
  const n = vary.reduce((k, v) => k * v.values.length, 1);
  $("tune-space").textContent = !vary.length ? "tick at least one name to vary" :
    `${n} variant${n === 1 ? "" : "s"}${agents > 1 ? ` under each of ${agents} policies` : ""}; ` +
    (n <= caps.variants ? "every one is played" : caps.optuna ? `this server plays at most ${caps.variants}: Optuna chooses which`
      : `this server plays at most ${caps.variants}: vary fewer`) + `; at most ${caps.games} games per variant`;
}

$("tune-spec").addEventListener("change", buildTune);
$("tune-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const targets = $("tune-targets").value.split("\n").map((t) => t.trim()).filter((t) => t);
  const agents = [...$("tune-agents").querySelectorAll("input:checked")].map((x) => x.value);
  $("tune-diagnostics").hidden = true;
  const job = await api("POST", "/api/tune", { spec: $("tune-spec").value, players: +$("tune-players").value,
    seed: +$("tune-seed").value, games: +$("tune-games").value, max_games: +$("tune-max-games").value,
    vary: tuneVary(), targets, agents });
  if (!job) {
    if (LAST_ERROR && LAST_ERROR.diagnostics) { $("tune-diagnostics").textContent = LAST_ERROR.diagnostics; $("tune-diagnostics").hidden = false; }
    return;
  }
  runJob("tune", job, renderTune);
});

function renderTune(job) {
  const r = job.report;
  const box = $("tune-report");
  box.hidden = false;
  const kv = (k, v) => el("span", { class: "kv" }, `${k}: `, el("b", { text: fmt(v) }));
  const parts = [el("h2", { text: `Tuning ${r.game}` }),
    el("p", { id: "tune-settings" }, kv("players", r.players), kv("seed", r.seed), kv("variants", r.space),
      kv("first batch", r.first_batch), kv("games per variant at most", r.max_games), kv("confidence", r.confidence),
      kv("search", r.mode), el("span", { class: "kv" }, "time: ", el("b", { text: `${fmt(r.seconds)} s` }))),
    el("p", { class: "note", text: `Intervals: ${r.intervals}. inside: the whole interval lies in the band; outside: none of it does; undecided: neither yet. A variant meets the targets when every band is inside. * marks the variants no other beats (surely better on a target, surely worse on none); \u2020 a reading the rulebook's words rule out.` }),
    el("h3", { text: "Targets" }), el("ul", { id: "tune-targets-list" }, r.targets.map((t) => el("li", {}, el("code", { text: t.target }))))];
  for (const n of r.sensitivity) parts.push(el("p", { class: "warning" }, el("b", { text: "warning: " }), n));
  if (job.note) parts.push(el("p", { class: "note", text: job.note }));
  const name = job.downloads[0];
  parts.push(name
    ? el("p", {}, el("a", { id: "tune-download", class: "button", href: `/api/tune/${job.id}/downloads/${encodeURIComponent(name)}`, download: name,
        text: `Download the best variant (${name})` }), el("span", { class: "note", text: " a spec that extends the searched one: save it beside it" }))
    : el("p", { class: "note", id: "tune-no-download", text: "no variant meets the targets, or may meet them: there is no variant to download" }));
  if (job.files.includes("index.html"))
    parts.push(el("p", {}, el("a", { href: `/api/tune/${job.id}/report/index.html`, target: "_blank", rel: "noopener", text: "the HTML report" }),
      el("span", { class: "note", text: " (as rulewright tune --report writes it)" })));
  r.policies.forEach((p, i) => parts.push(renderSearch(r, p, job, (r.plots || [])[i] || [])));
  box.replaceChildren(...parts);
}

function renderSearch(r, p, job, plots) {
  const what = p.mode === "exhaustive" ? "every variant" : `${p.tried} of ${r.space} variants (Optuna TPE)`;
  const sec = el("section", { class: "tune-search", "data-policy": p.policy },
    el("h3", { text: `${p.policy} players` }),
    el("p", { text: `${what}; ${p.games.toLocaleString("en")} games in all; ${fmt(p.seconds)} s (CPU ${fmt(p.cpu_seconds)} s)` }));
  const head = el("tr", {}, ["#", "variant", "meets", ...r.targets.map((t) => t.target), "games", "stopped"].map((h) => el("th", { text: h })));
  const body = el("tbody");
  const rank = Object.fromEntries(p.candidates.map((c) => [c.label, c.rank]));
  for (const c of p.candidates) {
    const tr = el("tr", { "data-variant": c.label, class: c.pareto ? "pareto" : "" },
      el("td", { class: "num", text: `${c.rank}${c.pareto ? "*" : ""}` }),
      el("td", { title: c.label, text: `${c.changes}${c.against_text.length ? " \u2020" : ""}${c.checked_for_another_policy ? " (checked for another policy)" : ""}` }));
    if (c.error) {
      tr.append(el("td", {}, verdictBadge("error")), el("td", { colspan: r.targets.length + 2, text: c.error }));
      body.append(tr);
      continue;
    }
    tr.append(el("td", {}, verdictBadge(String(c.meets))));
    for (const e of c.targets) tr.append(el("td", { class: "estimate" }, `${e.shown} `, e.verdict ? verdictBadge(e.verdict) : null));
    tr.append(el("td", { class: "num", text: c.games.toLocaleString("en") }),
      el("td", { text: c.stopped + (c.same_games_as ? ` (the games of #${rank[c.same_games_as]})` : "") }));
    body.append(tr);
  }
  sec.append(el("table", { class: "fields tune-table" }, el("thead", {}, head), body));
  const count = (m) => p.candidates.filter((c) => String(c.meets) === m).length;
  sec.append(el("p", { class: "tune-counts", text: `meet every target: ${count("true")}; undecided: ${count("undecided")}; fail: ${count("false")}` }));
  const twins = p.candidates.filter((c) => c.same_games_as).length;
  if (twins) sec.append(el("p", { class: "note", text: `${twins} variant(s) played exactly the games of a better-ranked one: what they change never happens in these games, or changes nothing` }));
  const front = p.candidates.filter((c) => c.pareto).map((c) => c.changes + (c.against_text.length ? " \u2020" : ""));
  sec.append(el("p", { class: "tune-pareto", text: `the Pareto set (no other variant beats these: surely better on a target, surely worse on none): ${front.join("; ") || "none"}` }));
  const best = p.candidates.find((c) => c.label === p.best);
  sec.append(el("p", { class: "tune-best" }, "best: ", el("b", { text: p.best || "none" }),
    best ? ` (meets: ${best.meets})${best.against_text.length ? `; it reads ${best.against_text.join(", ")} against the rulebook's words` : ""}` : ""));
  for (const [k, png] of plots.entries())
    if (job.plots.includes(png))
      sec.append(el("img", { class: "plot", src: `/api/tune/${job.id}/report/${encodeURIComponent(png)}`, alt: `${r.targets[k].target} across the searched values` }));
  return sec;
}

// -- start ------------------------------------------------------------------------------------
(async function init() {
  const d = await api("GET", "/api/specs");
  if (!d) return;
  SPECS = d.specs;
  LIMITS = d.limits;
  for (const id of ["spec", "lab-spec", "tune-spec"])
    $(id).replaceChildren(...SPECS.map((s) => el("option", { value: s.id, text: `${s.name} (${s.id})` })));
  $("lab-games").max = d.limits.lab_games;
  $("tune-games").max = $("tune-max-games").max = d.limits.tune.games;
  const agents = $("tune-agents");
  for (const a of d.limits.tune.agents)
    agents.append(el("label", { class: "inline-check" }, el("input", { type: "checkbox", value: a, checked: a === "random", onchange: countSpace }), ` ${a}`));
  buildSetup();
  buildLab();
  buildTune();
  document.body.dataset.ready = "1";
})();
