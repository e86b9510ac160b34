/**
 * The docs a newcomer reads (CONTRIBUTING.md, "Docs"): a README short enough
 * to read (at most 300 lines), every relative link in README.md,
 * CONTRIBUTING.md and docs/ resolving to a file there (and a `#anchor` to a
 * heading of that file, by GitHub's slug rules), a page per CLI command in
 * docs/commands/, and source comments that cite the project's own documents
 * (docs/spec/...), never the shared folder beside the checkout or an issue
 * number.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { COMMANDS } from '../../src/cli/main.js';
import { ROOT } from '../helpers/paths.js';

function walk(dir: string, keep: (p: string) => boolean, skip: (p: string) => boolean = () => false): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir).sort()) {
    const p = path.join(dir, e);
    if (skip(p)) continue;
    if (statSync(p).isDirectory()) out.push(...walk(p, keep, skip));
    else if (keep(p)) out.push(p);
  }
  return out;
}

/** The Markdown files of the guide (docs/api/html is TypeDoc's output, not committed). */
function markdownFiles(): string[] {
  return [
    path.join(ROOT, 'README.md'),
    path.join(ROOT, 'CONTRIBUTING.md'),
    ...walk(
      path.join(ROOT, 'docs'),
      (p) => p.endsWith('.md'),
      (p) => p === path.join(ROOT, 'docs', 'api', 'html'),
    ),
  ];
}

/** The text outside fenced code blocks, with inline code spans blanked (their brackets are no links). */
function prose(text: string): string {
  return text
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, (block) => block.replace(/[^\n]/g, ' '))
    .replace(/(`+)[^`\n][\s\S]*?\1/g, (span) => span.replace(/[^\n]/g, 'x'));
}

/** GitHub's heading anchors: the heading's text lower-cased, punctuation dropped, each space a '-'; repeats get -1, -2, ... */
function headingSlugs(markdown: string): Set<string> {
  const slugs = new Set<string>();
  const seen = new Map<string, number>();
  const text = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const m of text.matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm)) {
    const rendered = m[1]!
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link's text
      .replace(/`([^`]*)`/g, '$1') // code spans' text
      .replace(/<[^>]+>/g, ''); // inline HTML
    const base = rendered
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    slugs.add(n === 0 ? base : `${base}-${n}`);
  }
  return slugs;
}

interface Link {
  from: string;
  line: number;
  target: string;
}

function linksOf(file: string): Link[] {
  const text = prose(readFileSync(file, 'utf8'));
  const out: Link[] = [];
  for (const m of text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    out.push({ from: path.relative(ROOT, file), line: text.slice(0, m.index).split('\n').length, target: m[1]! });
  }
  return out;
}

/** Why a relative link does not resolve, or undefined when it does. */
function brokenLink(link: Link): string | undefined {
  const { target } = link;
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto:: not this test's business
  const hash = target.indexOf('#');
  const file = hash < 0 ? target : target.slice(0, hash);
  const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
  if (file.startsWith('/')) return 'an absolute path (use a relative one)';
  const resolved = file === '' ? path.join(ROOT, link.from) : path.resolve(path.dirname(path.join(ROOT, link.from)), decodeURI(file));
  if (!resolved.startsWith(ROOT + path.sep) && resolved !== ROOT) return 'leaves the repository';
  if (!existsSync(resolved)) return 'no such file';
  if (anchor === undefined || anchor === '') return undefined;
  if (!resolved.endsWith('.md')) return `an anchor into a file that is not Markdown`;
  if (!headingSlugs(readFileSync(resolved, 'utf8')).has(anchor)) return `no heading "#${anchor}" there`;
  return undefined;
}

describe('the docs', () => {
  it('the README is at most 300 lines', () => {
    const lines = readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n');
    if (lines.at(-1) === '') lines.pop();
    expect(lines.length).toBeLessThanOrEqual(300);
  });

  it('every relative link in README.md, CONTRIBUTING.md and docs/ resolves (anchors to a heading there)', () => {
    const broken: string[] = [];
    let count = 0;
    for (const file of markdownFiles()) {
      for (const link of linksOf(file)) {
        count++;
        const why = brokenLink(link);
        if (why) broken.push(`${link.from}:${link.line}: ${link.target}: ${why}`);
      }
    }
    expect(broken).toEqual([]);
    expect(count).toBeGreaterThan(200);
  });

  it('the link checker catches what it should', () => {
    expect([...headingSlugs('# Tiled ↔ LevelModel\n## Sprites from frames: `sprat new`\n## A\n## A\n')]).toEqual([
      'tiled--levelmodel',
      'sprites-from-frames-sprat-new',
      'a',
      'a-1',
    ]);
    const from = 'docs/commands/README.md';
    expect(brokenLink({ from, line: 1, target: 'check.md' })).toBeUndefined();
    expect(brokenLink({ from, line: 1, target: '#exit-status-and-errors' })).toBeUndefined();
    expect(brokenLink({ from, line: 1, target: 'nope.md' })).toBe('no such file');
    expect(brokenLink({ from, line: 1, target: 'check.md#nope' })).toBe('no heading "#nope" there');
    expect(brokenLink({ from, line: 1, target: '../../../shared/contract/README.md' })).toBe('leaves the repository');
    expect(linksOf(path.join(ROOT, 'README.md')).map((l) => l.target)).toContain('docs/commands/check.md');
  });

  it('every CLI command has its page in docs/commands/', () => {
    expect(COMMANDS.length).toBeGreaterThanOrEqual(10);
    const missing = COMMANDS.map((c) => c.name).filter((name) => !existsSync(path.join(ROOT, 'docs', 'commands', `${name}.md`)));
    expect(missing).toEqual([]);
  });

  it('the generated tables have their markers: the matrix in the README, the benchmarks in docs/performance.md', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(readme).toMatch(/<!-- matrix:start -->[\s\S]*<!-- matrix:end -->/);
    const perf = readFileSync(path.join(ROOT, 'docs', 'performance.md'), 'utf8');
    expect(perf).toMatch(/<!-- bench-table:start -->[\s\S]*<!-- bench-table:end -->/);
  });

  it('no source comment in src/ or web/ cites the shared contract folder or an issue number', () => {
    const found: string[] = [];
    const sources = [path.join(ROOT, 'src'), path.join(ROOT, 'web')].flatMap((d) =>
      walk(d, (p) => /\.(ts|mts|js|mjs|css|html|wat)$/.test(p)),
    );
    expect(sources.length).toBeGreaterThan(100);
    for (const file of sources) {
      const text = readFileSync(file, 'utf8');
      const rel = path.relative(ROOT, file);
      if (text.includes('shared/contract')) found.push(`${rel}: cites shared/contract (cite docs/spec/...)`);
      const comments = [
        ...[...text.matchAll(/\/\*[\s\S]*?\*\//g)].map((m) => m[0]),
        ...[...text.matchAll(/(?:^|[^:\\])\/\/(.*)$/gm)].map((m) => m[1]!),
        ...[...text.matchAll(/<!--[\s\S]*?-->/g)].map((m) => m[0]),
        ...[...text.matchAll(/;;(.*)$/gm)].map((m) => m[1]!),
      ];
      for (const c of comments) {
        const m = /\b(?:issue|pull request|PR)s?\s*#?\d+|(?:^|[\s(])#\d+\b(?![0-9a-f])/i.exec(c);
        if (m) found.push(`${rel}: cites an issue: "${m[0].trim()}"`);
      }
    }
    expect(found).toEqual([]);
  });
});
