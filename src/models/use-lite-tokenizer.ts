/** One entry of USE-lite's SentencePiece vocabulary: the piece and its log probability. */
export type VocabularyEntry = [piece: string, score: number];

// The first ids are control symbols (unknown, <s>, </s>, extras): never matched against text.
const RESERVED_IDS = 6;
const UNKNOWN_ID = 0;
const WORD_START = "\u2581";

interface TrieNode {
  children: Map<string, TrieNode>;
  id: number;
  score: number;
}

/**
 * USE-lite's tokenizer: the Viterbi segmentation of tfjs-models' universal-sentence-encoder (as shipped in
 * @energetic-ai/embeddings), producing the same ids, in time linear in the text (the reference copies the
 * rest of the text at every position, which is quadratic).
 */
export class UseLiteTokenizer {
  private readonly root: TrieNode = newNode();
  private readonly lengths: Int32Array;

  constructor(vocabulary: VocabularyEntry[]) {
    this.lengths = new Int32Array(vocabulary.length);
    vocabulary.forEach(([piece], id) => (this.lengths[id] = Array.from(piece).length));
    for (let id = RESERVED_IDS; id < vocabulary.length; id++) {
      const [piece, score] = vocabulary[id]!;
      let node = this.root;
      for (const symbol of piece) {
        let child = node.children.get(symbol);
        if (!child) node.children.set(symbol, (child = newNode()));
        node = child;
      }
      node.id = id;
      node.score = score;
    }
  }

  encode(text: string): number[] {
    const normalised = text.normalize("NFKC");
    if (normalised.length === 0) return [];
    const symbols = Array.from(WORD_START + normalised.replaceAll(" ", WORD_START));
    const size = symbols.length;
    // best[i]: score of the best segmentation of symbols[0, i); 0 means "none yet", as in the reference.
    const best = new Float64Array(size + 1);
    const last = new Int32Array(size + 1);
    for (let start = 0; start < size; start++) {
      let node = this.root.children.get(symbols[start]!);
      let matched = false;
      for (let end = start + 1; node; end++) {
        if (node.id >= 0) {
          matched = true;
          this.relax(best, last, start, end, node.id, node.score);
        }
        node = end < size ? node.children.get(symbols[end]!) : undefined;
      }
      // A symbol no piece starts with becomes one unknown token.
      if (!matched) this.relax(best, last, start, start + 1, UNKNOWN_ID, 0);
    }
    const reversed: number[] = [];
    for (let end = size; end > 0; end -= this.lengths[last[end]!]!) reversed.push(last[end]!);
    // Runs of unknown symbols collapse into one unknown token.
    const ids: number[] = [];
    for (let i = reversed.length - 1; i >= 0; i--) {
      const id = reversed[i]!;
      if (!(id === UNKNOWN_ID && ids.at(-1) === UNKNOWN_ID)) ids.push(id);
    }
    return ids;
  }

  private relax(best: Float64Array, last: Int32Array, start: number, end: number, id: number, score: number): void {
    const candidate = score + best[start]!;
    if (best[end] === 0 || candidate >= best[end]!) {
      best[end] = candidate;
      last[end] = id;
    }
  }
}

function newNode(): TrieNode {
  return { children: new Map(), id: -1, score: 0 };
}
