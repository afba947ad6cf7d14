// The Python, Java and Go examples of docs/other-languages.md are the getting-started files of the test programs in
// test/languages/, which CI runs against the built packages: this keeps the two the same.
import * as fs from 'fs';
import * as path from 'path';

const root = path.join(__dirname, '..');
const page = fs.readFileSync(path.join(root, 'docs', 'other-languages.md'), 'utf8');

function fencedBlocks(markdown: string, language: string): string[] {
  return [...markdown.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((match) => match[1]);
}

test.each([
  ['python', 'test/languages/python/getting_started.py'],
  ['java', 'test/languages/java/src/main/java/com/example/admission/ReplicaLimitChart.java'],
  ['go', 'test/languages/go/main.go'],
])('docs/other-languages.md\'s one %s example is %s', (language, file) => {
  expect(fencedBlocks(page, language)).toEqual([fs.readFileSync(path.join(root, file), 'utf8')]);
});
