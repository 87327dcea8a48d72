/**
 * The placeholders of a template, read by the type checker: "{{size, int}} B at {{addr}}" →
 * "size" | "addr". A text is made with exactly the values its template names, so a template and
 * its call sites cannot drift apart.
 */
type Trim<S extends string> = S extends ` ${infer R}` ? Trim<R> : S extends `${infer R} ` ? Trim<R> : S;
type NameOf<S extends string> = S extends `${infer N},${string}` ? Trim<N> : Trim<S>;

export type Placeholders<T extends string> = T extends `${string}{{${infer Inside}}}${infer Rest}`
  ? NameOf<Inside> | Placeholders<Rest>
  : never;

/** The values a template takes: none, or one number or string per placeholder. */
export type ValuesArg<T extends string> = [Placeholders<T>] extends [never]
  ? []
  : [values: { readonly [K in Placeholders<T>]: number | string }];

/** The placeholders of a template at run time, sorted, with their formats: ["addr", "size, int"]. */
export function placeholdersOf(template: string): string[] {
  return [...template.matchAll(/\{\{\s*(\w+)\s*(?:,\s*(\w+)\s*)?\}\}/g)]
    .map((m) => (m[2] === undefined ? (m[1] ?? '') : `${m[1]}, ${m[2]}`))
    .sort();
}
