import { starknetKeccak } from '../starknetKeccak.js';
import type {
  BranchInfo,
  GenericArg,
  LibfuncDeclaration,
  SierraFunction,
  SierraProgram,
  Statement,
  TypeDeclaration,
} from '../types.js';
import { SierraRunError } from './SierraRunError.js';

/** A program parsed from Sierra text, with the debug names the text carries. */
export interface ParsedSierraText {
  program: SierraProgram;
  typeNames: string[];
  libfuncNames: string[];
  /** Function id → name (e.g. `astro::main`). */
  funcNames: Map<number, string>;
}

/** Splits at commas outside `<>`, `()` and `[]`. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '<' || c === '(' || c === '[') depth++;
    else if ((c === '>' && text[i - 1] !== '-') || c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = text.slice(start).trim();
  if (last !== '' || parts.length > 0) parts.push(last);
  return parts;
}

/** `Generic<args>` → generic id and the argument texts. */
function splitGeneric(text: string): [string, string[]] {
  const lt = text.indexOf('<');
  if (lt < 0) return [text, []];
  if (!text.endsWith('>')) throw new SierraRunError(`bad generic: ${text}`);
  return [text.slice(0, lt), splitTopLevel(text.slice(lt + 1, -1))];
}

/** Index of the first `(` outside angle brackets. */
function openParen(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '<') depth++;
    else if (c === '>' && text[i - 1] !== '-') depth--;
    else if (c === '(' && depth === 0) return i;
  }
  return -1;
}

const varIds = (text: string): number[] => [...text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));

const TYPE_LINE =
  /^type (.+?) = (.+?)(?: \[storable: (true|false), drop: (true|false), dup: (true|false), zero_sized: (true|false)\])?;$/;
const LIBFUNC_LINE = /^libfunc (.+?) = (.+);$/;
const STATEMENT_LINE = /^(.*); \/\/ (\d+)$/;
const FUNC_LINE = /^(.+?)@(\d+)\((.*)\) -> \((.*)\);$/;

/**
 * Parses the Sierra text the Cairo compiler prints (`type … = …;`, `libfunc … = …;`, statements each followed by
 * `// index`, then `name@entry(params) -> (returns);`), with debug names as ids (`replace_ids`) or with numeric
 * ids (`[0]`), into the same {@link SierraProgram} the felt decoder gives. User type ids are the starknet_keccak
 * of their names, as the compiler computes them.
 *
 * Throws `SierraRunError` on a line it cannot read or a reference to an undeclared name.
 */
export function parseSierraText(text: string): ParsedSierraText {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const typeLines: RegExpExecArray[] = [];
  const libfuncLines: RegExpExecArray[] = [];
  const statementLines: string[] = [];
  const funcLines: RegExpExecArray[] = [];
  for (const line of lines) {
    const typeLine = TYPE_LINE.exec(line);
    const libfuncLine = typeLine ? null : LIBFUNC_LINE.exec(line);
    const statementLine = typeLine || libfuncLine ? null : STATEMENT_LINE.exec(line);
    const funcLine = typeLine || libfuncLine || statementLine ? null : FUNC_LINE.exec(line);
    if (typeLine) typeLines.push(typeLine);
    else if (libfuncLine) libfuncLines.push(libfuncLine);
    else if (statementLine) {
      if (Number(statementLine[2]) !== statementLines.length) {
        throw new SierraRunError(`statement out of order: ${line}`);
      }
      statementLines.push(statementLine[1]!);
    } else if (funcLine) funcLines.push(funcLine);
    else throw new SierraRunError(`cannot parse Sierra line: ${line}`);
  }
  const typeIds = new Map<string, number>(typeLines.map((m, i) => [m[1]!, i]));
  const libfuncIds = new Map<string, number>(libfuncLines.map((m, i) => [m[1]!, i]));
  const funcIds = new Map<string, number>(funcLines.map((m, i) => [m[1]!, i]));
  const lookup = (ids: Map<string, number>, name: string, what: string): number => {
    const id = ids.get(name);
    if (id === undefined) throw new SierraRunError(`unknown ${what}: ${name}`);
    return id;
  };
  const parseArg = (arg: string): GenericArg => {
    if (/^-?\d+$/.test(arg)) return { kind: 'value', value: BigInt(arg) };
    if (arg.startsWith('ut@')) {
      const name = arg.slice(3);
      return { kind: 'userType', id: /^\[\d+\]$/.test(name) ? BigInt(name.slice(1, -1)) : starknetKeccak(name) };
    }
    if (arg.startsWith('user@')) return { kind: 'userFunc', id: lookup(funcIds, arg.slice(5), 'function') };
    const t = typeIds.get(arg);
    if (t !== undefined) return { kind: 'type', id: t };
    return { kind: 'libfunc', id: lookup(libfuncIds, arg, 'type or libfunc') };
  };
  const typeDeclarations: TypeDeclaration[] = typeLines.map((m, id) => {
    const [genericId, args] = splitGeneric(m[2]!);
    const decl: TypeDeclaration = { id, genericId, genericArgs: args.map(parseArg) };
    if (m[3] !== undefined) {
      decl.declaredTypeInfo = {
        storable: m[3] === 'true',
        droppable: m[4] === 'true',
        duplicatable: m[5] === 'true',
        zeroSized: m[6] === 'true',
      };
    }
    return decl;
  });
  const libfuncDeclarations: LibfuncDeclaration[] = libfuncLines.map((m, id) => {
    const [genericId, args] = splitGeneric(m[2]!);
    return { id, genericId, genericArgs: args.map(parseArg) };
  });
  const statements: Statement[] = statementLines.map((line): Statement => {
    const p = openParen(line);
    if (p < 0) throw new SierraRunError(`cannot parse statement: ${line}`);
    const name = line.slice(0, p);
    const close = line.indexOf(')', p);
    const args = varIds(line.slice(p, close + 1));
    if (name === 'return') return { kind: 'return', vars: args };
    const rest = line.slice(close + 1).trim();
    let branches: BranchInfo[];
    if (rest.startsWith('->')) branches = [{ target: 'fallthrough', results: varIds(rest) }];
    else if (rest.startsWith('{')) {
      branches = [...rest.matchAll(/(fallthrough|\d+)\(([^)]*)\)/g)].map((b) => ({
        target: b[1] === 'fallthrough' ? 'fallthrough' : Number(b[1]),
        results: varIds(b[2]!),
      }));
    } else throw new SierraRunError(`cannot parse statement: ${line}`);
    return { kind: 'invocation', libfuncId: lookup(libfuncIds, name, 'libfunc'), args, branches };
  });
  const funcs: SierraFunction[] = funcLines.map((m, id) => {
    const params = splitTopLevel(m[3]!).map((p) => {
      const pm = /^\[(\d+)\]: (.+)$/.exec(p);
      if (!pm) throw new SierraRunError(`cannot parse parameter: ${p}`);
      return { id: Number(pm[1]), ty: lookup(typeIds, pm[2]!, 'type') };
    });
    const retTypes = splitTopLevel(m[4]!).map((t) => lookup(typeIds, t, 'type'));
    return {
      id,
      signature: { paramTypes: params.map((p) => p.ty), retTypes },
      params,
      entryPoint: Number(m[2]),
    };
  });
  return {
    program: { typeDeclarations, libfuncDeclarations, statements, funcs },
    typeNames: typeLines.map((m) => m[1]!),
    libfuncNames: libfuncLines.map((m) => m[1]!),
    funcNames: new Map(funcLines.map((m, i) => [i, m[1]!])),
  };
}
