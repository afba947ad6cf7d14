// Entry point of vendor/cel-engine.cjs (built by scripts/bundle-cel-engine.ts). It re-exports the
// parts of @marcbachmann/cel-js and re2js that src/cel/ builds the Kubernetes CEL environment on.
// Only public classes of the engine's modules are re-exported; nothing of theirs is changed here.
export { Environment } from '@marcbachmann/cel-js';
export { ParseError, EvaluationError, TypeError, Optional } from '@marcbachmann/cel-js';
export { Duration, UnsignedInt } from '../node_modules/@marcbachmann/cel-js/lib/functions.js';
export { Parser, ASTNode } from '../node_modules/@marcbachmann/cel-js/lib/parser.js';
export { OPERATORS } from '../node_modules/@marcbachmann/cel-js/lib/operators.js';
export { Type, TypeDeclaration } from '../node_modules/@marcbachmann/cel-js/lib/registry.js';
export { RE2JS, RE2JSSyntaxException } from 're2js';
