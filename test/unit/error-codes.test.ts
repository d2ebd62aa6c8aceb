// One error code means one exit code: every code the tool makes (read from the source with the
// TypeScript parser, whatever the error class or the call's layout) belongs to one class, hence one
// exit code; and a code the tool shares with the service (the sandbox's) means the same exit code
// whichever of the two says it (a create refused as invalid, HTTP 400/422, is exit 2 like the tool's own).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The exit code each error class means (src/domain/errors.ts, src/chain/chain-errors.ts). */
const EXIT_OF_CLASS: Record<string, number> = {
  UsageError: 2,
  ServiceRejectedError: 2,
  ApiError: 3,
  UncertainOutcomeError: 3,
  ChainUnreachableError: 3,
  ChainContradictionError: 3,
  ChainUnverifiedError: 3,
  TradeFailedError: 4,
  DeclinedError: 4,
  PendingError: 5,
  RefusedToSignError: 6,
  InterruptedError: 130,
};

interface Use {
  code: string;
  exit: number;
  where: string;
}

/** Every (code, exit code) the source makes: `new XError(…, 'CODE')`, `{ code: 'CODE' }` options, `super(…, 'CODE')` in a class, the transport's failure codes. */
function toolCodes(): Use[] {
  const uses: Use[] = [];
  const toolFiles = files(SRC).filter((f) => !f.includes(`${join('src', 'sandbox')}`));
  // Codes one module exports for others (`export const SERVICE_CONTRADICTION = '…'`), as imported.
  const exported = new Map<string, string>();
  for (const file of toolFiles)
    for (const m of readFileSync(file, 'utf8').matchAll(/^export const ([A-Z][A-Z0-9_]+) = '([A-Z][A-Z0-9_]+)';$/gm))
      exported.set(m[1]!, m[2]!);
  for (const file of toolFiles) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const constants = new Map<string, string>(exported);
    const literal = (node: ts.Node | undefined): string | null => {
      if (!node) return null;
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))
        return /^[A-Z][A-Z0-9_]+$/.test(node.text) ? node.text : null;
      if (ts.isIdentifier(node)) return constants.get(node.text) ?? null;
      // `trust?.code ?? 'REFUSED_TO_SIGN'`: the code the class makes of its own.
      if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken)
        return literal(node.right);
      return null;
    };
    const codeProperty = (node: ts.Node | undefined): string | null => {
      if (!node || !ts.isObjectLiteralExpression(node)) return null;
      const prop = node.properties.find((p) => ts.isPropertyAssignment(p) && p.name.getText(source) === 'code') as
        ts.PropertyAssignment | undefined;
      return literal(prop?.initializer);
    };
    const where = (node: ts.Node) =>
      `${file.slice(SRC.length + 1)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    const visit = (node: ts.Node, inClass: string | null) => {
      if (
        ts.isVariableDeclaration(node) &&
        ts.isIdentifier(node.name) &&
        node.initializer &&
        ts.isStringLiteral(node.initializer)
      )
        constants.set(node.name.text, node.initializer.text);
      let cls = inClass;
      if (ts.isClassDeclaration(node) && node.heritageClauses) {
        const parent = node.heritageClauses[0]!.types[0]!.expression.getText(source);
        cls =
          EXIT_OF_CLASS[node.name!.text] !== undefined
            ? node.name!.text
            : EXIT_OF_CLASS[parent] !== undefined
              ? parent
              : null;
      }
      if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.SuperKeyword && cls) {
        const code = literal(node.arguments[1]);
        if (code) uses.push({ code, exit: EXIT_OF_CLASS[cls]!, where: where(node) });
      }
      if (
        ts.isNewExpression(node) &&
        ts.isIdentifier(node.expression) &&
        EXIT_OF_CLASS[node.expression.text] !== undefined
      ) {
        const name = node.expression.text;
        const args = node.arguments ?? [];
        const code =
          name === 'ApiError' || name === 'UncertainOutcomeError' || name === 'ServiceRejectedError'
            ? codeProperty(args[1])
            : literal(args[1]);
        if (code) uses.push({ code, exit: EXIT_OF_CLASS[name]!, where: where(node) });
      }
      // The transport's failures become ApiErrors: failure('kind', 'CODE', …).
      if (
        ts.isCallExpression(node) &&
        ts.isIdentifier(node.expression) &&
        node.expression.text === 'failure' &&
        file.endsWith('transport.ts')
      ) {
        const code = literal(node.arguments[1]);
        if (code) uses.push({ code, exit: 3, where: where(node) });
      }
      ts.forEachChild(node, (child) => visit(child, cls));
    };
    visit(source, null);
  }
  return uses;
}

/** The sandbox's answers: (status, code) of every HttpError it throws. */
function serviceCodes(): Array<{ status: number; code: string; where: string }> {
  const out: Array<{ status: number; code: string; where: string }> = [];
  for (const file of files(join(SRC, 'sandbox'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/new HttpError\(\s*(\d{3}),\s*'([A-Z_]+)'/g))
      out.push({ status: Number(m[1]), code: m[2]!, where: file.slice(SRC.length + 1) });
  }
  return out;
}

describe('error codes', () => {
  const uses = toolCodes();

  it('the scan finds the codes of every error class (it would miss nothing it should see)', () => {
    const codes = new Set(uses.map((u) => u.code));
    for (const code of [
      'OVER_LIMIT',
      'NOT_CONFIGURED',
      'UNKNOWN_TOKEN',
      'SERVICE_CONTRADICTION',
      'UNEXPECTED_RESPONSE',
      'REQUEST_TIMEOUT',
      'NETWORK_ERROR',
      'TIMEOUT',
      'REFUSED_TO_SIGN',
      'DECLINED',
      'INTERRUPTED',
      'CHAIN_UNREACHABLE',
      'TRADE_NOT_COMPLETED',
    ]) {
      expect(codes, code).toContain(code);
    }
    expect(uses.length).toBeGreaterThan(60);
  });

  it('each code the tool makes has one exit code', () => {
    const exits = new Map<string, Map<number, string>>();
    for (const u of uses) {
      const byExit = exits.get(u.code) ?? new Map<number, string>();
      byExit.set(u.exit, byExit.get(u.exit) ?? u.where);
      exits.set(u.code, byExit);
    }
    const shared = [...exits]
      .filter(([, byExit]) => byExit.size > 1)
      .map(([code, byExit]) => `${code}: ${[...byExit].map(([exit, where]) => `exit ${exit} at ${where}`).join(', ')}`);
    expect(shared).toEqual([]);
  });

  it("a code the service also gives means the same exit code: a 400/422 (a create's refusal) is 2, any other answer 3", () => {
    const tool = new Map(uses.map((u) => [u.code, u]));
    const clashes = serviceCodes()
      .filter((s) => tool.has(s.code))
      .map((s) => ({
        ...s,
        serviceExit: s.status === 400 || s.status === 422 ? 2 : 3,
        toolExit: tool.get(s.code)!.exit,
      }))
      .filter((s) => s.serviceExit !== s.toolExit)
      .map(
        (s) =>
          `${s.code}: the service's ${s.status} (${s.where}) is exit ${s.serviceExit}, the tool's (${tool.get(s.code)!.where}) exit ${s.toolExit}`,
      );
    expect(clashes).toEqual([]);
    // UNKNOWN_TOKEN is said by both (a symbol the account never traded; a mint the service does not trade): exit 2 either way.
    expect(serviceCodes().some((s) => s.code === 'UNKNOWN_TOKEN' && s.status === 422)).toBe(true);
    expect(tool.get('UNKNOWN_TOKEN')?.exit).toBe(2);
  });
});
