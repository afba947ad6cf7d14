/** Ad-hoc: print the apiserver's answer for expressions given on the command line, in a validation. */
import { PLACEMENTS } from './placements';
import { collectionPath, dryRunCreate } from '../../oracle/dry-run';
import { Oracle } from '../../oracle/oracle';

async function main(): Promise<void> {
  const oracle = await Oracle.start();
  try {
    for (const expression of process.argv.slice(2)) {
      const manifest = PLACEMENTS[0].build(expression);
      const v = await dryRunCreate(oracle, collectionPath(manifest.kind, manifest.apiVersion), manifest);
      console.log(expression, '=>', v.accepted ? 'accepted' : v.messages.join(' | '));
    }
  } finally {
    await oracle.stop();
  }
}
void main();
