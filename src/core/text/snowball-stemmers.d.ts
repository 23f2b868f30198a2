/** Types for the untyped `snowball-stemmers@0.6` package (the subset Lore uses). */
declare module "snowball-stemmers" {
  /** A Snowball stemmer for one language; `stem` expects a lower-case word. */
  export interface Stemmer {
    stem(word: string): string;
  }
  const snowball: {
    /** @throws Error for an unknown algorithm name. */
    newStemmer(language: string): Stemmer;
    algorithms(): string[];
  };
  export default snowball;
}
