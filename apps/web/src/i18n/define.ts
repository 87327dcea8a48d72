/** Same keys, any strings: what a translation must provide for a feature's English messages. */
export type Shape<T> = { readonly [K in keyof T]: T[K] extends string ? string : Shape<T[K]> };

/**
 * A feature's messages in both languages. The Chinese object must have exactly the English keys
 * (the type checker refuses a missing or extra key), so no string is left untranslated.
 */
export function defineMessages<const E extends object>(en: E, zh: Shape<E>): { readonly en: E; readonly zh: Shape<E> } {
  return { en, zh };
}
