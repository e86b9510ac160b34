// ISPRITE playback: many players stepping through varied sequences, in
// steps per second, for Player.step() and Player.update(), against a plain
// player that walks the document objects (the rules, unprepared) in the same
// rounds; and the heap growth over the measured rounds (none expected: no
// allocation per step).
import { beginSuite, compare, config, log } from './lib.mjs';
import { sprat } from './sprat.mjs';

const { createIsprite, Player, prepareSprite } = sprat.isprite;

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

export async function run() {
  beginSuite('isprite-play');
  const PLAYERS = config.mode === 'tiny' ? 1000 : config.mode === 'quick' ? 20_000 : 100_000;
  seed = 12345;
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
  const plain = [];
  seed = 12345;
  const seqs = doc.tree.filter((n) => n.kind === 'sequence');
  for (let i = 0; i < PLAYERS; i++) plain.push(new PlainPlayer(doc, seqs[pick(names.length)]));
  const plainPeer = {
    name: 'plain object-walking player',
    fn: () => {
      for (let i = 0; i < plain.length; i++) plain[i].step();
    },
    check: false,
    checkNote: 'same rules, no groups (a floor)',
  };
  globalThis.gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  await compare(`Player.step() x ${PLAYERS.toLocaleString('en')} players`, {
    amount: PLAYERS,
    unit: 'M steps/s',
    peers: [
      {
        name: 'sprat Player.step',
        fn: () => {
          for (let i = 0; i < players.length; i++) players[i].step();
        },
      },
      plainPeer,
    ],
    target: { rate: 20 },
  });
  await compare(`Player.update(1/60) x ${PLAYERS.toLocaleString('en')} players`, {
    amount: PLAYERS,
    unit: 'M steps/s',
    peers: [
      {
        name: 'sprat Player.update',
        fn: () => {
          for (let i = 0; i < players.length; i++) players[i].update(1 / 60);
        },
      },
      plainPeer,
    ],
  });
  globalThis.gc?.();
  log(
    `   heap after the rounds: ${((process.memoryUsage().heapUsed - heap0) / 1024).toFixed(0)} KiB more than before (${globalThis.gc ? 'after a full GC' : 'run with --expose-gc for a full GC first'}); triggers seen: ${triggerCount.toLocaleString('en')}`,
  );
}
