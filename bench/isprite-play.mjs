// ISPRITE playback: 100,000 players stepping through varied sequences.
// Prints steps per second for Player.step() and Player.update(), the heap
// growth and garbage collections during the measured steady state (0 minor
// GCs = no allocation per step), and the ratio against a plain player that
// walks the document objects (the reference model of the tests) in the same run.
// Run after `npm run build`: node --expose-gc bench/isprite-play.mjs
import { PerformanceObserver } from 'node:perf_hooks';
import { createIsprite } from '../dist/formats/isprite/model.js';
import { Player, prepareSprite } from '../dist/formats/isprite/play.js';

const PLAYERS = Number(process.env.PLAYERS ?? 100_000);
const ROUNDS = Number(process.env.ROUNDS ?? 100);

// A deterministic pseudo-random generator (mulberry32).
let seed = 12345;
const rand = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (n) => Math.floor(rand() * n);

function makeSprite() {
  const doc = createIsprite(60);
  for (let i = 0; i < 96; i++) {
    doc.frames.push({
      holdTime: 1 + pick(3),
      loopPoint: false,
      label: '',
      triggers: i % 8 === 3 ? `sfx${i}` : '',
      notes: '',
      elements: [],
    });
  }
  const names = ['idle', 'walk', 'run', 'jump', 'attack', 'hurt', 'crouch', 'climb'];
  const seqs = (prefix) =>
    names.map((name, k) => {
      const len = 1 + pick(12);
      const frames = Array.from({ length: len }, () => pick(96));
      // Every sequence keeps playing: it loops, or follows up into one that does.
      const followUp = k % 3 === 2 ? names[(k + 1) % names.length] : '';
      return { kind: 'sequence', name: prefix + name, loopPoint: followUp ? null : pick(len), followUp, frames };
    });
  doc.tree = [
    { kind: 'group', name: 'Armed', children: [...seqs(''), { kind: 'group', name: 'Mounted', children: seqs('') }] },
    ...seqs(''),
  ];
  doc.extraMeta = [
    ['default-sequence', 'Root/idle'],
    ['sequence-frame-rate:Root/Armed/run', '30'],
  ];
  return { doc, names };
}

// The plain player: the rules straight on the document objects.
class PlainPlayer {
  constructor(doc, seq) {
    this.doc = doc;
    this.triggers = 0;
    this.begin(seq);
  }
  find(name) {
    for (const n of this.doc.tree) if (n.kind === 'sequence' && n.name.toLowerCase() === name.toLowerCase()) return n;
    return null;
  }
  begin(s) {
    this.seq = s;
    this.pos = 0;
    this.held = 0;
    this.stopped = !s || s.frames.length === 0;
    if (!this.stopped && this.doc.frames[s.frames[0]].triggers) this.triggers++;
  }
  step() {
    if (this.stopped) return;
    const f = this.doc.frames[this.seq.frames[this.pos]];
    if (++this.held < Math.max(1, f.holdTime)) return;
    this.held = 0;
    if (this.pos + 1 < this.seq.frames.length) this.pos++;
    else if (this.seq.followUp) return this.begin(this.find(this.seq.followUp));
    else if (this.seq.loopPoint !== null && this.seq.loopPoint < this.seq.frames.length) this.pos = this.seq.loopPoint;
    else return void (this.stopped = true);
    if (this.doc.frames[this.seq.frames[this.pos]].triggers) this.triggers++;
  }
}

const { doc, names } = makeSprite();
const prepared = prepareSprite(doc);
let triggerCount = 0;
const onTrigger = () => {
  triggerCount++;
};
const groups = ['Root', 'Root/Armed', 'Root/Armed/Mounted'];
const players = [];
for (let i = 0; i < PLAYERS; i++) {
  const p = new Player(prepared, { onTrigger, collectTriggers: false });
  p.setGroup(groups[pick(3)]);
  p.setAnimation(names[pick(names.length)]);
  for (let k = pick(20); k > 0; k--) p.step();
  players.push(p);
}

let gcs = { minor: 0, major: 0 };
const obs = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = e.detail?.kind ?? e.kind;
    if (kind === 1) gcs.minor++;
    else gcs.major++;
  }
});
obs.observe({ entryTypes: ['gc'] });
const settle = () => new Promise((r) => setTimeout(r, 20));

// Each case runs REPEATS times (the machine is shared): the best run is the figure, the median is shown too.
const REPEATS = Number(process.env.REPEATS ?? 5);
async function measure(label, rounds, body, steps) {
  body(5); // warm up
  const rates = [];
  let worst = { heap: 0, minor: 0, major: 0 };
  for (let k = 0; k < REPEATS; k++) {
    globalThis.gc?.();
    await settle();
    gcs = { minor: 0, major: 0 };
    const heap0 = process.memoryUsage().heapUsed;
    const t0 = process.hrtime.bigint();
    body(rounds);
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const heap1 = process.memoryUsage().heapUsed;
    await settle();
    rates.push(steps(rounds) / seconds);
    worst = { heap: Math.max(worst.heap, heap1 - heap0), minor: Math.max(worst.minor, gcs.minor), major: Math.max(worst.major, gcs.major) };
  }
  rates.sort((a, b) => a - b);
  const best = rates[rates.length - 1];
  const median = rates[rates.length >> 1];
  console.log(
    `${label.padEnd(34)} ${(best / 1e6).toFixed(1).padStart(7)} M steps/s best, ${(median / 1e6).toFixed(1)} median ` +
      `(${REPEATS} x ${(steps(rounds) / 1e6).toFixed(0)} M steps; most heap growth in a run +${(worst.heap / 1024).toFixed(0)} KiB, ` +
      `most GCs in a run: ${worst.minor} minor / ${worst.major} major)`,
  );
  return best;
}

const stepRate = await measure(
  `Player.step() x ${PLAYERS.toLocaleString('en')}`,
  ROUNDS,
  (rounds) => {
    for (let r = 0; r < rounds; r++) for (let i = 0; i < players.length; i++) players[i].step();
  },
  (rounds) => rounds * players.length,
);

// update(): 1/60 s per call; at 60 fps (30 for Root/Armed/run) that is about one step per call.
await measure(
  `Player.update(1/60) x ${PLAYERS.toLocaleString('en')}`,
  ROUNDS,
  (rounds) => {
    for (let r = 0; r < rounds; r++) for (let i = 0; i < players.length; i++) players[i].update(1 / 60);
  },
  (rounds) => rounds * players.length,
);

const plain = [];
seed = 12345;
for (let i = 0; i < PLAYERS; i++) {
  const p = new PlainPlayer(doc, doc.tree.filter((n) => n.kind === 'sequence')[pick(names.length)]);
  plain.push(p);
}
const plainRate = await measure(
  `plain object-walking player`,
  ROUNDS,
  (rounds) => {
    for (let r = 0; r < rounds; r++) for (let i = 0; i < plain.length; i++) plain[i].step();
  },
  (rounds) => rounds * plain.length,
);
obs.disconnect();
console.log(`Player.step() vs plain player: ${(stepRate / plainRate).toFixed(2)}x; triggers seen: ${triggerCount.toLocaleString('en')}`);
console.log(`target: >= 20 M steps/s: ${stepRate >= 20e6 ? 'met' : 'NOT met'}`);
