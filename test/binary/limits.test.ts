import { describe, expect, it } from 'vitest';
import { Budget, DEFAULT_LIMITS, LIMIT_SPECS, LimitError, limitsFrom } from '../../src/binary/limits.js';
import { OptionError } from '../../src/binary/errors.js';
import { runCli } from '../helpers/cli.js';

describe('limits', () => {
  it('has a default and an option for every limit', () => {
    for (const s of LIMIT_SPECS) {
      expect(DEFAULT_LIMITS[s.key]).toBe(s.default);
      expect(s.option).toMatch(/^max-[a-z-]+$/);
    }
  });

  it('reads --max-* values and rejects bad ones', () => {
    expect(limitsFrom({ 'max-pixels': '100' }).maxPixels).toBe(100);
    expect(limitsFrom({}).maxPixels).toBe(DEFAULT_LIMITS.maxPixels);
    expect(() => limitsFrom({ 'max-pixels': 'lots' })).toThrow(OptionError);
    expect(() => limitsFrom({ 'max-pixels': '0' })).toThrow(OptionError);
  });

  it('a budget spends across calls and names the option when it runs out', () => {
    const b = new Budget(limitsFrom({ 'max-pixels': '100' }));
    b.spend('maxPixels', 60, 'frame 1');
    expect(() => b.spend('maxPixels', 60, 'frame 2')).toThrow(LimitError);
    try {
      b.spend('maxPixels', 60, 'frame 2');
    } catch (e) {
      expect((e as Error).message).toBe('frame 2 would need 120 pixels, more than the limit of 100 (raise it with --max-pixels)');
    }
    expect(b.left('maxPixels')).toBe(40);
    expect(() => b.spend('maxPixels', Infinity, 'x')).toThrow(/more than \d+ pixels/);
  });

  it('every command accepts the --max-* options', async () => {
    const r = await runCli(['inspect', '--max-pixels', 'x', 'nothing.isprite']);
    expect(r.code).toBe(2);
  });
});

describe('a LimitError message', () => {
  it('is one line even when what it names has line breaks (a name from the input; found by the long fuzz run)', () => {
    const b = new Budget(limitsFrom({ 'max-pixels': '10' }));
    let message = '';
    try {
      b.spend('maxPixels', 100, 'animation "a\nb\rc" (100x1)');
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toBe('animation "a\\nb\\rc" (100x1) would need 100 pixels, more than the limit of 10 (raise it with --max-pixels)');
  });
});

describe('an OptionError message', () => {
  it('is one line even when it quotes names from the input', () => {
    expect(new OptionError('option --animation "x" names no animation (the file has: a\nb)').message).toBe(
      'option --animation "x" names no animation (the file has: a\\nb)',
    );
  });
});
