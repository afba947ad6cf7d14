/**
 * The subresources the library knows (the built-in schemas' and the connect ones), against the
 * apiserver's discovery: every `resource/subresource` that /api/v1 and each /apis group version
 * lists must be known, or a rule naming it would be warned as matching nothing. The library may
 * know more: the subresources of alpha APIs, which the oracle does not serve.
 */
import { BuiltinSchemas } from '../../../../src/schemas/builtin-schemas';
import { CONNECT_SUBRESOURCES } from '../../../../src/validation/discovery';
import { Oracle } from '../../oracle/oracle';
import { CaseOutcome } from '../../outcomes/suite-result';

/** `group/resource/subresource` of every subresource the apiserver's discovery lists. */
async function discoveredSubresources(oracle: Oracle): Promise<Set<string>> {
  const groupVersions = ['v1'];
  for (const g of (await oracle.request('GET', '/apis')).body.groups ?? []) {
    for (const v of g.versions ?? []) groupVersions.push(v.groupVersion);
  }
  const out = new Set<string>();
  for (const gv of groupVersions) {
    const body = (await oracle.request('GET', gv === 'v1' ? '/api/v1' : `/apis/${gv}`)).body;
    const group = gv.includes('/') ? gv.split('/')[0] : '';
    for (const r of body.resources ?? []) if (typeof r.name === 'string' && r.name.includes('/')) out.add(`${group}/${r.name}`);
  }
  return out;
}

export async function subresourceOutcomes(oracle: Oracle, minor: number): Promise<CaseOutcome[]> {
  const known = new Set([
    ...BuiltinSchemas.of(minor).subresources().map((r) => `${r.group}/${r.resource}/${r.subresource}`),
    ...CONNECT_SUBRESOURCES,
  ]);
  return [...await discoveredSubresources(oracle)].sort().map((entry) => ({
    name: `subresource ${entry} (discovery)`,
    apiserverAccepted: true,
    verdictAgrees: known.has(entry),
    library: known.has(entry) ? 'known' : 'unknown: a rule naming it is warned as matching nothing',
    apiserver: 'served',
  }));
}
