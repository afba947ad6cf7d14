// An explanation as text, for a terminal or a failing test's output: the request and decision,
// then every policy, with what kept it from acting or what its expressions gave.
import { ExplainedExpression, ExplainedPolicy, Explanation } from './explanation';

const INDENT = '  ';

export function explanationText(e: Omit<Explanation, 'text'>): string {
  const lines = [`${e.request}: ${decision(e)}`];
  for (const d of e.result.denials) lines.push(`${INDENT}denied: ${d.message} (${d.reason}, ${d.code})`);
  for (const w of e.result.warnings) lines.push(`${INDENT}warning: ${w}`);
  for (const [key, value] of Object.entries(e.result.auditAnnotations)) lines.push(`${INDENT}audit annotation ${key}: ${value}`);
  if (e.result.patchedObject !== undefined) lines.push(`${INDENT}the object was mutated (patchedObject)`);
  if (e.policies.length === 0) lines.push(`${INDENT}the tester has no admission policies`);
  for (const p of e.policies) lines.push(...policyLines(p));
  return lines.join('\n');
}

function decision(e: Omit<Explanation, 'text'>): string {
  const acted = e.policies.filter((p) => p.match.matched).length;
  const verdict = e.result.allowed ? 'allowed' : 'denied';
  if (acted === 0) return `${verdict}; no policy matched`;
  return `${verdict}; ${acted} of ${e.policies.length} ${e.policies.length === 1 ? 'policy binding' : 'policy bindings'} acted`;
}

function policyLines(p: ExplainedPolicy): string[] {
  const m = p.match;
  const name = `${m.policyKind} '${m.policy}'${m.binding !== undefined ? ` with binding '${m.binding}'` : ''}`;
  const lines = [m.matched ? `${name}: acted` : `${name}: did not act (${m.miss}): ${m.reason}`];
  for (const evaluation of p.evaluations) {
    let depth = 1;
    const labels = [evaluation.params !== undefined ? `params ${evaluation.params}` : '', evaluation.reinvocation ? 'reinvoked' : ''].filter((l) => l);
    if (labels.length > 0 || p.evaluations.length > 1) {
      lines.push(`${INDENT}evaluation${labels.length > 0 ? ` with ${labels.join(', ')}` : ''}:`);
      depth = 2;
    }
    for (const x of evaluation.expressions) lines.push(...expressionLines(x, depth));
  }
  return lines;
}

function expressionLines(x: ExplainedExpression, depth: number): string[] {
  const pad = INDENT.repeat(depth);
  const result = x.error !== undefined ? `error: ${x.error}` : x.value;
  const lines = [`${pad}${x.field}: ${oneLine(x.expression)} -> ${result}`];
  // A macro's deciding iteration heads the steps of its body, one level in.
  for (const s of x.steps) {
    const at = `${pad}${INDENT}${INDENT.repeat(2 * s.depth)}`;
    if (s.iteration !== undefined) lines.push(`${at.slice(INDENT.length)}${s.iteration}:`);
    const shown = !s.evaluated ? 'not evaluated' : s.error !== undefined ? `error: ${s.error}` : s.operation !== undefined ? `${s.operation} -> ${s.value}` : s.value;
    lines.push(`${at}${oneLine(s.expression)} = ${shown}`);
  }
  return lines;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
