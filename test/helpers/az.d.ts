/** Types for the untyped `az@0.2` package (the subset the word-form tests use). */
declare module "az" {
  /** A grammatical tag: its grammemes are truthy properties (`tag.NOUN`, `tag.INFN`). */
  export interface AzTag {
    readonly [grammeme: string]: unknown;
  }
  /** One parse of a word: its tag, and the word inflected into other grammemes. */
  export interface AzParse {
    word: string;
    tag: AzTag;
    /** The same lexeme with these grammemes; `false` when the form does not exist. */
    inflect(grammemes: string[]): AzParse | false;
  }
  const Az: {
    Morph: {
      (word: string): AzParse[];
      /** Loads the OpenCorpora dictionaries from a folder. */
      init(path: string, callback: (error?: unknown) => void): void;
    };
  };
  export default Az;
}
