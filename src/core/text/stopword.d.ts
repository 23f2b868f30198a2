/** Types for the untyped `stopword@3` package (the subset Lore uses). */
declare module "stopword" {
  /** The stop word lists by ISO 639-3 code (`eng`, `rus`, …), lower case. */
  const stopword: Readonly<Record<string, readonly string[]>>;
  export default stopword;
}
