import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { globMatcher } from '../../src/node/files.js';

/**
 * The regular expression sprat matched globs with before globMatcher (kept
 * here as the reference): the same language, by a backtracking engine.
 */
function globToRegExp(pattern: string): RegExp {
  // `**/**` is `**` (and keeps the expression from backtracking over nested repeats)
  const glob = pattern.replace(/(^|\/)\*\*(?:\/\*\*)+(?=\/|$)/g, '$1**');
  let re = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const atStart = i === 0 || glob[i - 1] === '/';
        const atEnd = i + 2 === glob.length || glob[i + 2] === '/';
        if (atStart && atEnd) {
          if (glob[i + 2] === '/') {
            re += '(?:[^/]*/)*';
            i += 2;
          } else {
            re += '.*';
            i += 1;
          }
          continue;
        }
        i += 1; // `a**b` is `a*b`
      }
      re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close < 0) re += '\\[';
      else {
        let body = glob.slice(i + 1, close);
        const negate = body.startsWith('!') || body.startsWith('^');
        if (negate) body = body.slice(1);
        // Negated: no slash, then the class (a "/" inside the brackets would make a range of a leading "-").
        const chars = body.replace(/[\\\]^]/g, '\\$&');
        re += negate ? `(?!/)[^${chars}]` : `[${chars}]`;
        i = close;
      }
    } else if (c === '{') {
      braces++;
      re += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      re += ')';
    } else if (c === ',' && braces > 0) re += '|';
    else re += c.replace(/[.+^${}()|\\\]]/g, '\\$&');
  }
  while (braces-- > 0) re += ')';
  return new RegExp(`^${re}$`);
}

describe('globMatcher', () => {
  it('matches as the regular expression did, on random small globs and paths', () => {
    const globChar = fc.constantFrom('a', 'b', '/', '*', '?', '[', ']', '!', '{', '}', ',', '-', '.');
    const pathChar = fc.constantFrom('a', 'b', '/', '.', '-', '!', ',', '{', '}', '[', ']', '*');
    fc.assert(
      fc.property(
        fc.string({ unit: globChar, maxLength: 10 }),
        fc.array(fc.string({ unit: pathChar, maxLength: 10 }), { maxLength: 6 }),
        (glob, paths) => {
          let re: RegExp;
          try {
            re = globToRegExp(glob);
          } catch {
            return; // a class such as [b-a] was no regular expression at all
          }
          const m = globMatcher(glob);
          for (const p of paths) expect(m(p), `${glob} on ${p}`).toBe(re.test(p));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('does not backtrack: many stars against a long name that fails late', () => {
    // The regular expression took 14 s here (one more `*a`: over a minute); the automaton is linear.
    const name = `${'a'.repeat(200)}.dat`;
    expect(globMatcher('*a*a*a*a*b.dat')(name)).toBe(false);
    expect(globMatcher('*a*a*a*a*a*a*a*a*a*a*a*a*b.dat')(name)).toBe(false);
    expect(globMatcher('*a*a*a*a*a*a*a*a*a*a*a*a*.dat')(name)).toBe(true);
    expect(globMatcher(`{${'*a,'.repeat(30)}*b}*a*a*a*c`)('a'.repeat(5000))).toBe(false);
    expect(globMatcher('**/**/x/**/*a*a*a*b')(`${'a/'.repeat(500)}${'a'.repeat(500)}`)).toBe(false);
  });

  it('keeps classes, alternatives and folders', () => {
    expect(globMatcher('[a-c]?.{dat,lua}')('bx.lua')).toBe(true);
    expect(globMatcher('[!a-c]?.{dat,lua}')('bx.lua')).toBe(false);
    expect(globMatcher('[!a]')('/')).toBe(false);
    expect(globMatcher('x/**')('x/a/b')).toBe(true);
    expect(globMatcher('x/**/y')('x/y')).toBe(true);
    expect(globMatcher('{a,{b,c}d}e')('cde')).toBe(true);
    expect(globMatcher('{a,b')('b')).toBe(true);
    expect(globMatcher('')('')).toBe(true);
    expect(globMatcher('*')('')).toBe(true);
    expect(globMatcher('*')('a/b')).toBe(false);
  });

  it('says whether a path below a folder could match', () => {
    expect(globMatcher('a/*.dat').below('a')).toBe(true);
    expect(globMatcher('a/*.dat').below('a/b')).toBe(false);
    expect(globMatcher('a/**/*.dat').below('a/b/c')).toBe(true);
    expect(globMatcher('{a,b/c}/*.dat').below('b')).toBe(true);
    expect(globMatcher('{a,b/c}/*.dat').below('c')).toBe(false);
  });
});
