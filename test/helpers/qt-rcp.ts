/**
 * Whether this machine's x86 RCPSS gives the reciprocals sprat's Qt port uses
 * (src/render/qtraster.ts RCP_MANTISSA, measured on the AMD CPU the Tiled
 * shape tests were made on). Qt's SSE4.1 unpremultiply uses RCPSS, whose last
 * bits differ between CPU makers, so tmxrasterizer's translucent pixels may
 * differ by one level on another CPU: where the reciprocals differ (or cannot
 * be measured: no C compiler, not x86), the pixel tests allow that one level.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RCP_MANTISSA } from '../../src/render/qtraster.js';

const PROGRAM = `#include <xmmintrin.h>
#include <stdio.h>
#include <string.h>
int main(void) {
  for (volatile int a = 1; a <= 254; a++) {
    float r = _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss((float)a)));
    unsigned u;
    memcpy(&u, &r, 4);
    printf("%u%s", u & 0x7fffffu, a < 254 ? "," : "\\n");
  }
  return 0;
}
`;

let cached: { same: boolean; why: string } | undefined;

/** Whether the machine's RCPSS equals the port's table, and why not. */
export function machineReciprocals(): { same: boolean; why: string } {
  if (cached) return cached;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-rcp-'));
  try {
    fs.writeFileSync(path.join(dir, 'rcp.c'), PROGRAM);
    execFileSync('cc', ['-O0', '-o', path.join(dir, 'rcp'), path.join(dir, 'rcp.c')], { stdio: 'pipe' });
    const got = execFileSync(path.join(dir, 'rcp'), { encoding: 'utf8' }).trim();
    const same = got === RCP_MANTISSA.join(',');
    cached = { same, why: same ? '' : "this CPU's RCPSS differs from the table's (Qt unpremultiplies with it)" };
  } catch (e) {
    cached = { same: false, why: `RCPSS not measured (${(e as Error).message.split('\n')[0]})` };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return cached;
}

/** Levels a translucent pixel may differ by from tmxrasterizer's on this machine: 0 where RCPSS is the table's. */
export function qtUnpremultiplyTolerance(): number {
  return machineReciprocals().same ? 0 : 1;
}
