/**
 * How the published declarations (`lib/**.d.ts`) describe a zod schema: what
 * it parses into. zod's own declarations only compile with `esModuleInterop`
 * (its locales are `export =` modules), which the tsconfig of
 * `cdk8s init typescript-app` does not set, so `scripts/public-types.js`
 * writes this type in their place after each build; the sources keep zod's.
 */
export interface SpecSchema<Output, Input = Output> {
  /** The type a successful parse gives (zod's `z.output`). */
  readonly _output: Output;
  /** The type it accepts (zod's `z.input`). */
  readonly _input: Input;
  parse(data: unknown): Output;
  safeParse(data: unknown): SpecSchemaResult<Output>;
}

/** What `safeParse` gives. */
export type SpecSchemaResult<T> =
  { readonly success: true; readonly data: T } | { readonly success: false; readonly error: { readonly issues: readonly SpecSchemaIssue[] } };

/** One problem `safeParse` found. */
export interface SpecSchemaIssue {
  readonly code: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
}
