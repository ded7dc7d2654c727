/** A Sierra or compiler version as written in the header of `sierra_program`. */
export interface VersionId {
  major: number;
  minor: number;
  patch: number;
}

/**
 * A generic argument of a type or libfunc declaration.
 *
 * - `userType`: a user type id (a felt, the hash of the user type's name),
 * - `type`: a concrete type id (index into {@link SierraProgram.typeDeclarations}),
 * - `value`: an integer value (may be negative),
 * - `userFunc`: a function id (index into {@link SierraProgram.funcs}),
 * - `libfunc`: a concrete libfunc id (index into {@link SierraProgram.libfuncDeclarations}).
 */
export type GenericArg =
  | { kind: 'userType'; id: bigint }
  | { kind: 'type'; id: number }
  | { kind: 'value'; value: bigint }
  | { kind: 'userFunc'; id: number }
  | { kind: 'libfunc'; id: number };

/** The properties a type declaration may carry (newer compilers write them, older ones do not). */
export interface DeclaredTypeInfo {
  storable: boolean;
  droppable: boolean;
  duplicatable: boolean;
  zeroSized: boolean;
}

/** A concrete type: a generic type (e.g. `Array`) with its generic arguments. */
export interface TypeDeclaration {
  /** The concrete type id: its index in the program's type declarations. */
  id: number;
  /** The generic type name, e.g. `felt252`, `Array`, `Enum`. */
  genericId: string;
  genericArgs: GenericArg[];
  declaredTypeInfo?: DeclaredTypeInfo;
}

/** A concrete libfunc: a generic libfunc (e.g. `store_temp`) with its generic arguments. */
export interface LibfuncDeclaration {
  /** The concrete libfunc id: its index in the program's libfunc declarations. */
  id: number;
  /** The generic libfunc name, e.g. `felt252_add`, `store_temp`, `function_call`. */
  genericId: string;
  genericArgs: GenericArg[];
}

/** Where a branch of an invocation continues: the next statement, or a statement index. */
export type BranchTarget = 'fallthrough' | number;

/** One branch of an invocation: its target and the variables it binds. */
export interface BranchInfo {
  target: BranchTarget;
  results: number[];
}

/** A Sierra statement: a libfunc invocation or a return of variables. */
export type Statement =
  | { kind: 'invocation'; libfuncId: number; args: number[]; branches: BranchInfo[] }
  | { kind: 'return'; vars: number[] };

/** A user function's signature: concrete type ids of its parameters and return values. */
export interface FunctionSignature {
  paramTypes: number[];
  retTypes: number[];
}

/** A user function parameter: its variable id and concrete type id. */
export interface Param {
  id: number;
  ty: number;
}

/** A user function of the program. */
export interface SierraFunction {
  /** The function id: its index in the program's functions. */
  id: number;
  signature: FunctionSignature;
  params: Param[];
  /** Index of the function's first statement. */
  entryPoint: number;
}

/** A Sierra program (without debug names). */
export interface SierraProgram {
  typeDeclarations: TypeDeclaration[];
  libfuncDeclarations: LibfuncDeclaration[];
  statements: Statement[];
  funcs: SierraFunction[];
}

/** The content of a contract class's `sierra_program`: the two versions of its header and the program. */
export interface DecodedSierraProgram {
  sierraVersion: VersionId;
  compilerVersion: VersionId;
  program: SierraProgram;
}
