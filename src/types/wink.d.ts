// The wink packages ship no type declarations; these cover the parts skill-router uses.
declare module "wink-nlp-utils/src/string-stem.js" {
  function stem(word: string): string;
  export default stem;
}

declare module "wink-nlp-utils/src/tokens-remove-words.js" {
  function removeWords(tokens: string[]): string[];
  export default removeWords;
}

declare module "wink-bm25-text-search" {
  interface Bm25Engine {
    defineConfig(config: { fldWeights: Record<string, number>; bm25Params?: { k1?: number; b?: number; k?: number }; ovFldNames?: string[] }): boolean;
    definePrepTasks(tasks: ((input: never) => unknown)[], field?: string): number;
    addDoc(doc: Record<string, unknown>, id: string | number): number;
    consolidate(precision?: number): boolean;
    search(text: string, limit?: number, filter?: (fieldValues: Record<string, unknown>, params: unknown) => boolean, params?: unknown): [string, number][];
    exportJSON(): string;
    importJSON(json: string): boolean;
  }
  function bm25(): Bm25Engine;
  export default bm25;
}
