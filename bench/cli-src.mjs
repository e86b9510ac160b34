// `sprat` from the TypeScript sources (through tsx), for the CLI start
// benchmark when there is no dist/ (bin/sprat.js runs dist/).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
