"use strict";
// The solving page: DATA (see solving.rs) drawn as two boards that step forwards and back.
const $ = (id) => document.getElementById(id);
const N = DATA.n;
const CELLS = N * N;

// Grids above 9×9 take the room the window has: a 16×16 cell holds 16 candidates.
document.body.classList.toggle("large", N > 9);
$("title").textContent = DATA.title;
$("summary").textContent = DATA.summary;

/** Builds an N×N board of cell divs inside `el`; ids are prefix + cell name. */
function buildGrid(el, prefix) {
  // minmax(0, 1fr): a cell's content never widens its row or column.
  el.style.gridTemplateColumns = `repeat(${N}, minmax(0, 1fr))`;
  el.style.gridTemplateRows = `repeat(${N}, minmax(0, 1fr))`;
  const cells = [];
  for (let c = 0; c < CELLS; c++) {
    const row = Math.floor(c / N), col = c % N;
    const div = document.createElement("div");
    div.className = "cell";
    div.id = prefix + DATA.names[c];
    div.dataset.cell = DATA.names[c];
    // Thick where the next cell lies in another box (a jigsaw's region).
    if (col < N - 1 && DATA.boxes[c] !== DATA.boxes[c + 1]) div.classList.add("box-right");
    if (row < N - 1 && DATA.boxes[c] !== DATA.boxes[c + N]) div.classList.add("box-bottom");
    if (DATA.givens[c]) div.classList.add("given");
    el.appendChild(div);
    cells.push(div);
  }
  return cells;
}

const SVG = "http://www.w3.org/2000/svg";

/** Draws the variant's rules on the board around `el`, in cell units: the shaded cells of
 *  its extra units (the diagonals, …), or each cage's dashed outline and its sum in the
 *  corner of its first cell. */
function drawRules(el, cells) {
  const svg = el.parentElement.querySelector(".rules");
  svg.setAttribute("viewBox", `0 0 ${N} ${N}`);
  const line = (cls, x1, y1, x2, y2) => {
    const l = document.createElementNS(SVG, "line");
    l.setAttribute("class", cls);
    for (const [k, v] of Object.entries({ x1, y1, x2, y2 })) l.setAttribute(k, v);
    svg.appendChild(l);
    return l;
  };
  for (const cell of DATA.shaded) cells[cell].classList.add("shaded");
  const cages = DATA.cages;
  if (!cages) return;
  el.classList.add("killer");
  for (const s of cages.segments) {
    line("cage", s.from[0], s.from[1], s.to[0], s.to[1]).setAttribute("stroke-dasharray", "0.07 0.06");
  }
  for (const { cell, sum } of cages.sums) {
    const t = document.createElementNS(SVG, "text");
    t.setAttribute("class", "sum");
    t.setAttribute("x", (cell % N) + cages.label_at[0]);
    t.setAttribute("y", Math.floor(cell / N) + cages.label_at[1]);
    t.setAttribute("font-size", cages.sum_size);
    t.dataset.cell = DATA.names[cell];
    t.textContent = sum;
    svg.appendChild(t);
    cells[cell].classList.add("cage-first");
  }
}

/** Font sizes that fit the board as drawn. */
function sizeFonts(el) {
  const cell = el.clientWidth / N;
  el.style.setProperty("--digit", `${Math.max(9, cell * 0.55)}px`);
  // Killer candidates share the cell with the cage lines and a sum: smaller. Letters of
  // a 16×16 fill more of their slot (they are narrow) to stay readable.
  const share = DATA.cages ? 0.55 : N > 12 ? 0.95 : 0.78;
  el.style.setProperty("--cand", `${Math.max(6, (cell / DATA.box_cols) * share)}px`);
}

// ---- Human steps -------------------------------------------------------------------

const stepCells = buildGrid($("grid"), "");
drawRules($("grid"), stepCells);
const steps = DATA.steps;
let cur = -1;          // the step shown: -1 the start, steps.length the end
let chainTimer = null; // the timer drawing a chain link by link

function showState(state) {
  for (let c = 0; c < CELLS; c++) {
    const div = stepCells[c];
    div.className = div.className.replace(/ (pattern|place|solved)/g, "");
    div.textContent = "";
    const v = state[c];
    if (v > 0) {
      div.textContent = DATA.symbols[v - 1];
      if (!DATA.givens[c]) div.classList.add("solved");
    } else {
      const box = document.createElement("div");
      box.className = "cands";
      box.style.gridTemplateColumns = `repeat(${DATA.box_cols}, minmax(0, 1fr))`;
      box.style.gridTemplateRows = `repeat(${DATA.box_rows}, minmax(0, 1fr))`;
      for (let d = 1; d <= N; d++) {
        const span = document.createElement("span");
        span.className = "cand";
        span.dataset.digit = d;
        span.textContent = (-v >> (d - 1)) & 1 ? DATA.symbols[d - 1] : "";
        box.appendChild(span);
      }
      div.appendChild(box);
    }
  }
}

function candidate(cell, digit) {
  return stepCells[cell].querySelector(`.cand[data-digit="${digit}"]`);
}

function go(index) {
  cur = Math.max(-1, Math.min(steps.length, index));
  const shown = Math.max(0, Math.min(cur, steps.length));
  showState(DATA.states[cur < 0 ? 0 : shown]);
  clearChains();
  const step = steps[cur];
  if (step) {
    for (const c of step.cells) stepCells[c].classList.add("pattern");
    for (const [c, d] of step.place) {
      stepCells[c].classList.add("place");
      const cand = candidate(c, d);
      if (cand) cand.classList.add("placing");
    }
    for (const [c, d] of step.remove) {
      const cand = candidate(c, d);
      if (cand) cand.classList.add("removed");
    }
    drawChains(step.chains);
  }
  $("counter").textContent = cur < 0 ? `start: ${steps.length} steps to go`
    : cur >= steps.length ? (DATA.completed ? "solved" : "the techniques ran out here")
    : `step ${cur + 1} of ${steps.length}`;
  $("step-text").textContent = step ? step.text : "";
  for (const li of $("step-list").children) li.classList.toggle("current", Number(li.dataset.step) === cur);
  // Keep the current step in view by scrolling the list only, never the page.
  const list = $("step-list");
  const item = list.children[cur];
  if (item && (item.offsetTop < list.scrollTop
      || item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight)) {
    list.scrollTop = item.offsetTop - list.clientHeight / 2;
  }
}

function clearChains() {
  clearInterval(chainTimer);
  $("overlay").replaceChildren();
}

/** Centre of a candidate on the overlay, in its pixels. */
function centre(cell, digit) {
  const board = $("overlay").getBoundingClientRect();
  const el = candidate(cell, digit) || stepCells[cell];
  const r = el.getBoundingClientRect();
  return [r.left + r.width / 2 - board.left, r.top + r.height / 2 - board.top];
}

/** Draws each chain one link at a time (all at once for readers who asked their browser
 *  for reduced motion): solid green into a candidate taken as true, dashed red into one
 *  taken as false. */
function drawChains(chains) {
  const links = [];
  for (const chain of chains) {
    for (let i = 0; i < chain.length; i++) links.push([chain[i - 1], chain[i]]);
  }
  if (!links.length) return;
  const svg = $("overlay");
  const box = svg.getBoundingClientRect();
  svg.setAttribute("viewBox", `0 0 ${box.width} ${box.height}`);
  let k = 0;
  const drawOne = () => {
    if (k >= links.length) return clearInterval(chainTimer);
    const [from, to] = links[k++];
    const [cell, digit, on] = to;
    const cand = candidate(cell, digit);
    if (cand) cand.classList.add(on ? "link-on" : "link-off");
    if (from) {
      const [x1, y1] = centre(from[0], from[1]);
      const [x2, y2] = centre(cell, digit);
      const line = document.createElementNS("http://www.w3.org/2000/svg", "line");
      line.setAttribute("x1", x1); line.setAttribute("y1", y1);
      line.setAttribute("x2", x2); line.setAttribute("y2", y2);
      line.setAttribute("stroke", on ? "#059669" : "#dc2626");
      line.setAttribute("stroke-width", "2");
      if (!on) line.setAttribute("stroke-dasharray", "5 4");
      line.classList.add("link");
      svg.appendChild(line);
    }
  };
  drawOne();
  if (matchMedia("(prefers-reduced-motion: reduce)").matches) {
    while (k < links.length) drawOne();
    return;
  }
  chainTimer = setInterval(drawOne, 1400 / Number($("speed").value));
}

// The Play button `id`: from `start()`, `step()` runs every `delay()` ms while it says
// there is more; pressed again, or at the end, it pauses.
function player(id, start, step, delay) {
  let timer = null;
  const pause = () => {
    clearTimeout(timer);
    timer = null;
    $(id).textContent = "Play";
    $(id).classList.remove("on");
  };
  $(id).onclick = () => {
    if (timer) return pause();
    start();
    $(id).textContent = "Pause";
    $(id).classList.add("on");
    const tick = () => {
      if (!step()) return pause();
      timer = setTimeout(tick, delay());
    };
    tick();
  };
  return pause;
}

const pause = player(
  "play",
  () => { if (cur >= steps.length) go(-1); },
  () => cur < steps.length && (go(cur + 1), true),
  () => 6000 / Number($("speed").value),
);

steps.forEach((s, i) => {
  const li = document.createElement("li");
  li.dataset.step = i;
  li.textContent = s.text;
  if (s.score > 2.3) li.classList.add("hard");
  li.addEventListener("click", () => { pause(); go(i); });
  $("step-list").appendChild(li);
});
$("first").onclick = () => { pause(); go(-1); };
$("prev").onclick = () => { pause(); go(cur - 1); };
$("next").onclick = () => { pause(); go(cur + 1); };
$("last").onclick = () => { pause(); go(steps.length); };

// ---- Backtracking search -----------------------------------------------------------

const S = DATA.search;
const searchCells = buildGrid($("sgrid"), "s-");
drawRules($("sgrid"), searchCells);
const values = DATA.givens.slice();
let at = 0;             // events applied
let tries = 0, backtracks = 0;

function apply(e) {
  const [kind, cell, digit] = S.events[e];
  if (kind === 0) { values[cell] = digit; tries++; }
  if (kind === 2) { values[cell] = 0; backtracks++; }
}

function paintCell(c) {
  const div = searchCells[c];
  div.textContent = values[c] ? DATA.symbols[values[c] - 1] : "";
  div.classList.toggle("tried", !DATA.givens[c] && values[c] > 0);
}

function showSearch() {
  for (const div of searchCells) div.classList.remove("current", "dead");
  if (at > 0) {
    const [kind, cell] = S.events[at - 1];
    searchCells[cell].classList.add(kind === 1 ? "dead" : "current");
  }
  $("tries").textContent = tries;
  $("backtracks").textContent = backtracks;
  $("event").textContent = at;
  const done = at >= S.events.length;
  $("search-status").textContent = !done ? ""
    : S.solved ? "solved" : "this page holds only the start of the search";
}

function forward(count) {
  for (let k = 0; k < count && at < S.events.length; k++) {
    apply(at);
    paintCell(S.events[at][1]);
    at++;
  }
  showSearch();
}

function seek(target) {
  values.splice(0, CELLS, ...DATA.givens);
  at = 0; tries = 0; backtracks = 0;
  while (at < Math.max(0, target) && at < S.events.length) apply(at++);
  for (let c = 0; c < CELLS; c++) paintCell(c);
  showSearch();
}

const DELAYS = [500, 250, 120, 60, 30, 15, 15, 15, 15, 15];
const BATCH = [1, 1, 1, 1, 1, 2, 6, 20, 60, 200];

const searchSpeed = () => Number($("sspeed").value) - 1;
const pauseSearch = player(
  "splay",
  () => { if (at >= S.events.length) seek(0); },
  () => at < S.events.length && (forward(BATCH[searchSpeed()]), true),
  () => DELAYS[searchSpeed()],
);

$("events").textContent = S.events.length;
$("search-total").textContent = `The whole search: ${S.tries} tries, ${S.backtracks} backtracks` +
  (S.truncated ? ` (only the first ${S.events.length} events are on this page).` : ".");
$("srestart").onclick = () => { pauseSearch(); seek(0); };
$("sprev").onclick = () => { pauseSearch(); seek(at - 1); };
$("snext").onclick = () => { pauseSearch(); forward(1); };

// ---- Tabs and keys -----------------------------------------------------------------

let tab = "steps";
function showTab(name) {
  tab = name;
  pause(); pauseSearch();
  for (const b of $("tabs").children) b.classList.toggle("on", b.dataset.tab === name);
  $("steps-view").hidden = name !== "steps";
  $("search-view").hidden = name !== "search";
  sizeFonts($(name === "steps" ? "grid" : "sgrid"));
  if (name === "steps") go(cur);
}
for (const b of $("tabs").children) b.onclick = () => showTab(b.dataset.tab);

document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "INPUT" && e.key !== " ") return;
  const keys = tab === "steps"
    ? { ArrowRight: "next", ArrowLeft: "prev", " ": "play", Home: "first", End: "last" }
    : { ArrowRight: "snext", ArrowLeft: "sprev", " ": "splay", Home: "srestart" };
  const button = keys[e.key];
  if (button) { e.preventDefault(); $(button).click(); }
});
window.addEventListener("resize", () => showTab(tab));

sizeFonts($("grid"));
// `page.html#s12` opens at step 12.
const linked = /^#s(\d+)$/.exec(location.hash);
go(linked ? Number(linked[1]) - 1 : -1);
seek(0);
