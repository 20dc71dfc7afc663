// Usage: node scripts/code-measures.mjs [src|admin/src ...]; PER=1 lists casts per file.
import ts from 'typescript';
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
const dirs = process.argv.slice(2).length ? process.argv.slice(2) : ['src'];
const files = execSync(
  `git ls-files -co --exclude-standard ${dirs.map((d) => `'${d}/**.ts' '${d}/**.tsx'`).join(' ')}`,
  { encoding: 'utf8' },
)
  .split('\n')
  .filter(Boolean);
let as = 0,
  asUnknown = 0,
  bang = 0,
  longFns = [],
  longFiles = [];
const per = {};
for (const f of files) {
  const text = readFileSync(f, 'utf8');
  const sf = ts.createSourceFile(
    f,
    text,
    ts.ScriptTarget.Latest,
    true,
    f.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const lines = text.split('\n').length;
  if (lines > 300) longFiles.push(`${f} ${lines}`);
  const visit = (n) => {
    if (ts.isAsExpression(n) && !(ts.isTypeReferenceNode(n.type) && n.type.typeName.getText() === 'const')) {
      as++;
      per[f] = (per[f] ?? 0) + 1;
      if (ts.isAsExpression(n.expression) && n.expression.type.kind === ts.SyntaxKind.UnknownKeyword)
        asUnknown++;
    }
    if (ts.isNonNullExpression(n)) bang++;
    if (
      ts.isFunctionDeclaration(n) ||
      ts.isMethodDeclaration(n) ||
      ts.isArrowFunction(n) ||
      ts.isFunctionExpression(n)
    ) {
      const a = sf.getLineAndCharacterOfPosition(n.getStart()).line,
        b = sf.getLineAndCharacterOfPosition(n.getEnd()).line;
      if (b - a + 1 > 60)
        longFns.push(
          `${f}:${a + 1} ${b - a + 1} ${n.name?.getText?.() ?? n.parent?.name?.getText?.() ?? '(anon)'}`,
        );
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
}
console.log(`as ${as}; as unknown as ${asUnknown}; ! ${bang}`);
console.log('long files:', longFiles.join('; '));
console.log(`long functions (>60 lines):\n ${longFns.join('\n ')}`);
if (process.env.PER)
  console.log(
    Object.entries(per)
      .sort((a, b) => b[1] - a[1])
      .map(([f, n]) => `${n} ${f}`)
      .join('\n'),
  );
