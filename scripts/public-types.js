#!/usr/bin/env node
// After each build: rewrites the compiled declarations the package root
// reaches (lib/src/index.d.ts) that name zod's types, so that none of them
// imports zod. zod's declarations only compile with esModuleInterop (its
// locales are `export =` modules: colinhacks/zod#5160), which the tsconfig of
// `cdk8s init typescript-app` does not set. Each zod schema becomes
// SpecSchema<Output, Input> (src/cluster-spec/public-schema.ts); each type
// derived from one is written out in full. test/package.test.ts compiles the
// README's example against the result under cdk8s's compiler options.
'use strict';
const fs = require('fs');
const path = require('path');
const ts = require('typescript');

const root = path.resolve(__dirname, '..');
const libSrc = path.join(root, 'lib', 'src');
const SCHEMA_MODULE = path.join(libSrc, 'cluster-spec', 'public-schema');
const FLAGS = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.InTypeAlias | ts.TypeFormatFlags.UseStructuralFallback
  | ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType;

const namesZod = (text) => /from ['"]zod['"]|import\(["']zod["']\)/.test(text);

/** The declaration files `lib/src/index.d.ts` reaches: the public types. */
function publicDeclarations() {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file) || !fs.existsSync(file)) {
      return;
    }
    seen.add(file);
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:from\s+|import\()['"](\.[^'"]*)['"]/g)) {
      const target = path.resolve(path.dirname(file), m[1]);
      visit(fs.existsSync(`${target}.d.ts`) ? `${target}.d.ts` : path.join(target, 'index.d.ts'));
    }
  };
  visit(path.join(libSrc, 'index.d.ts'));
  return [...seen];
}

function rewrite() {
  const files = publicDeclarations().filter((f) => namesZod(fs.readFileSync(f, 'utf8')));
  if (files.length === 0) {
    return [];
  }
  const program = ts.createProgram(files, { esModuleInterop: true, skipLibCheck: true, strict: true, module: ts.ModuleKind.CommonJS, types: [] });
  const checker = program.getTypeChecker();
  const out = [];
  for (const file of files) {
    const source = program.getSourceFile(file);
    const print = (type, at) => checker.typeToString(type, at, FLAGS);
    const schemaType = (type, at) => {
      const output = type.getProperty('_output');
      const input = type.getProperty('_input');
      if (output && type.getProperty('_zod')) {
        const o = print(checker.getTypeOfSymbolAtLocation(output, at), at);
        const i = input ? print(checker.getTypeOfSymbolAtLocation(input, at), at) : o;
        return `SpecSchema<${o}, ${i}>`;
      }
      const isSchema = (t) => Boolean(t.getProperty('_zod') && t.getProperty('_output'));
      const props = type.getProperties();
      if (type.getCallSignatures().length === 0 && props.some((p) => isSchema(checker.getTypeOfSymbolAtLocation(p, at)))) {
        return `{\n${props.map((p) => `    readonly ${p.name}: ${schemaType(checker.getTypeOfSymbolAtLocation(p, at), at)};`).join('\n')}\n}`;
      }
      return print(type, at);
    };
    const parts = [];
    for (const st of source.statements) {
      const text = st.getFullText(source);
      if (ts.isImportDeclaration(st) && /^['"]zod['"]$/.test(st.moduleSpecifier.getText(source))) {
        continue;
      }
      if (!namesZod(text) && !/\bz\./.test(text)) {
        parts.push(text);
        continue;
      }
      const leading = text.slice(0, text.length - st.getText(source).length).replace(/^\s*\n/, '\n');
      if (ts.isVariableStatement(st)) {
        for (const d of st.declarationList.declarations) {
          parts.push(`${leading}export declare const ${d.name.getText(source)}: ${schemaType(checker.getTypeAtLocation(d.name), d)};`);
        }
      } else if (ts.isTypeAliasDeclaration(st)) {
        parts.push(`${leading}export type ${st.name.getText(source)} = ${print(checker.getTypeAtLocation(st.name), st)};`);
      } else if (ts.isFunctionDeclaration(st)) {
        const sig = checker.getSignatureFromDeclaration(st);
        const params = st.parameters.map((p) => p.getText(source)).join(', ');
        parts.push(`${leading}export declare function ${st.name.getText(source)}(${params}): ${schemaType(sig.getReturnType(), st)};`);
      } else {
        throw new Error(`public-types: ${path.relative(root, file)}: cannot write zod's types out of: ${st.getText(source).slice(0, 80)}`);
      }
    }
    let rel = path.relative(path.dirname(file), SCHEMA_MODULE).split(path.sep).join('/');
    rel = rel.startsWith('.') ? rel : `./${rel}`;
    const text = `import type { SpecSchema } from '${rel}';\n${parts.join('')}\n`;
    if (namesZod(text)) {
      throw new Error(`public-types: ${path.relative(root, file)} still names zod`);
    }
    out.push([file, text]);
  }
  for (const [file, text] of out) {
    fs.writeFileSync(file, text);
  }
  return out.map(([f]) => path.relative(root, f));
}

if (require.main === module) {
  rewrite();
}
module.exports = { rewrite };
