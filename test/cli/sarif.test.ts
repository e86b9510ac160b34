import { afterAll, describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Ajv } from 'ajv';
import { runCli } from '../helpers/cli.js';
import { CORPUS, SAMPLES } from '../helpers/paths.js';

/** The parts of the SARIF 2.1.0 schema a log must have for code scanning: required fields and their types. */
const SARIF_SUBSET = {
  type: 'object',
  required: ['version', 'runs'],
  properties: {
    version: { const: '2.1.0' },
    $schema: { type: 'string' },
    runs: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['tool', 'results'],
        properties: {
          tool: {
            type: 'object',
            required: ['driver'],
            properties: {
              driver: {
                type: 'object',
                required: ['name', 'rules'],
                properties: {
                  name: { type: 'string' },
                  rules: {
                    type: 'array',
                    items: {
                      type: 'object',
                      required: ['id', 'shortDescription', 'defaultConfiguration'],
                      properties: {
                        id: { type: 'string', pattern: '^[a-z-]+$' },
                        shortDescription: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } },
                        defaultConfiguration: { type: 'object', properties: { level: { enum: ['none', 'note', 'warning', 'error'] } } },
                      },
                    },
                  },
                },
              },
            },
          },
          originalUriBaseIds: { type: 'object', additionalProperties: { type: 'object', required: ['uri'] } },
          results: {
            type: 'array',
            items: {
              type: 'object',
              required: ['ruleId', 'ruleIndex', 'level', 'message', 'locations'],
              properties: {
                ruleId: { type: 'string' },
                ruleIndex: { type: 'integer', minimum: 0 },
                level: { enum: ['none', 'note', 'warning', 'error'] },
                message: { type: 'object', required: ['text'], properties: { text: { type: 'string', minLength: 1 } } },
                locations: {
                  type: 'array',
                  minItems: 1,
                  items: {
                    type: 'object',
                    required: ['physicalLocation'],
                    properties: {
                      physicalLocation: {
                        type: 'object',
                        required: ['artifactLocation'],
                        properties: {
                          artifactLocation: {
                            type: 'object',
                            required: ['uri'],
                            properties: { uri: { type: 'string', minLength: 1 }, uriBaseId: { type: 'string' } },
                          },
                          region: {
                            type: 'object',
                            minProperties: 1,
                            additionalProperties: false,
                            properties: {
                              startLine: { type: 'integer', minimum: 1 },
                              startColumn: { type: 'integer', minimum: 1 },
                              byteOffset: { type: 'integer', minimum: 0 },
                            },
                          },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
};

const validateSarif = new Ajv({ allErrors: true }).compile(SARIF_SUBSET);

interface Result {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string }; region?: Record<string, number> } }[];
}

function check(log: unknown): { rules: { id: string }[]; results: Result[] } {
  const ok = validateSarif(log);
  expect(validateSarif.errors ?? [], JSON.stringify(validateSarif.errors)).toEqual([]);
  expect(ok).toBe(true);
  const run = (log as { runs: { tool: { driver: { rules: { id: string }[] } }; results: Result[] }[] }).runs[0]!;
  for (const r of run.results) expect(run.tool.driver.rules[r.ruleIndex]!.id).toBe(r.ruleId);
  return { rules: run.tool.driver.rules, results: run.results };
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-sarif-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('sprat check --sarif', () => {
  it("the corpus quest's real problems: valid SARIF 2.1.0, one rule, each result on its file relative to the folder", async () => {
    const cwd = path.join(CORPUS, 'solarus/quest-editor-initial');
    const text = await runCli(['check', 'data'], cwd);
    const r = await runCli(['check', 'data', '--sarif'], cwd);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    const log = JSON.parse(r.stdout);
    const { rules, results } = check(log);
    expect(rules.map((x) => x.id)).toEqual(['frame-outside-image']);
    expect(results).toHaveLength(text.stdout.split('\n').filter((l) => /: error: /.test(l)).length);
    expect(log.runs[0].originalUriBaseIds['%SRCROOT%'].uri).toBe(pathToFileURL(cwd + path.sep).href);
    for (const x of results) {
      expect(x.level).toBe('error');
      expect(x.locations[0]!.physicalLocation.artifactLocation).toEqual({ uri: 'data/sprites/hero/tunic1.dat', uriBaseId: '%SRCROOT%' });
    }
  });

  it('lines and columns for text formats, byte offsets for binary ones, a rule per kind of problem', async () => {
    const put = (rel: string, data: Uint8Array | string) => {
      fs.mkdirSync(path.dirname(path.join(tmp, rel)), { recursive: true });
      fs.writeFileSync(path.join(tmp, rel), data);
    };
    const slime = fs.readFileSync(path.join(SAMPLES, 'solarus/sprites/slime.dat'), 'utf8');
    put('p/sprites/bad.dat', 'walking enemies/slime.png 4 x 0\n');
    put('p/sprites/warn.dat', slime.replace(/^(stopped enemies\/slime\.png 4 0 -1)/, '$1 extra'));
    put('p/sprites/enemies/slime.png', fs.readFileSync(path.join(SAMPLES, 'solarus/sprites/enemies/slime.png')));
    put('p/bad.isprite', fs.readFileSync(path.join(SAMPLES, 'isprite/hero.isprite')).subarray(0, 30));
    put('p/hero.json', fs.readFileSync(path.join(SAMPLES, 'interop/hero.json')));
    put('p/img/hero.json', fs.readFileSync(path.join(SAMPLES, 'interop/hero.json')));
    put('p/img/hero.png', 'not a png');
    const r = await runCli(['check', 'p', '--sarif'], tmp);
    expect(r.code).toBe(1);
    const { rules, results } = check(JSON.parse(r.stdout));
    const by = (uri: string) => results.find((x) => x.locations[0]!.physicalLocation.artifactLocation.uri === uri)!;
    expect(by('p/sprites/bad.dat')).toMatchObject({ ruleId: 'format-error', level: 'error' });
    expect(by('p/sprites/bad.dat').locations[0]!.physicalLocation.region).toEqual({ startLine: 1, startColumn: expect.any(Number) });
    expect(by('p/sprites/warn.dat')).toMatchObject({ ruleId: 'format-warning', level: 'warning' });
    expect(by('p/bad.isprite').locations[0]!.physicalLocation.region).toEqual({ byteOffset: expect.any(Number) });
    expect(by('p/hero.json').ruleId).toBe('missing-reference');
    expect(by('p/img/hero.json').ruleId).toBe('bad-image');
    expect(rules.map((x) => x.id).sort()).toEqual(['bad-image', 'format-error', 'format-warning', 'missing-reference']);
    expect((await runCli(['check', 'p', '--sarif', '--json'], tmp)).code).toBe(2);
  });
});
