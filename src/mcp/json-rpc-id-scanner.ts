/** A JSON-RPC request id: a string or a whole number (JSON-RPC 2.0 §4). */
export type ScannedId = string | number;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/** Bytes kept of a top-level key (enough to tell `"id"` from any other key). */
const KEY_BYTES = 8;
/** Bytes kept of the id's value; a longer one is not an id we can answer to. */
const VALUE_BYTES = 512;

/**
 * Finds the top-level `"id"` of a JSON-RPC message fed in pieces, without keeping the
 * message: memory stays under 1 KB however long the message is, and each byte is looked at
 * once (strings are skipped with `indexOf`). Used to answer a message too large to read
 * with an error that names its request (JSON-RPC 2.0 §5: `id` null only when it cannot be
 * detected) — the MCP SDK's clients write `id` last, so it must be found at any place.
 *
 * Only the outermost object's own `id` counts: `{"params": {"id": 1}}` has none, a batch
 * (`[`…) has none, and an id that is neither a string nor a whole number is none.
 */
export class JsonRpcIdScanner {
  /** Nesting of objects and arrays outside strings; 1 inside the top-level object. */
  private depth = 0;
  private inString = false;
  /** The byte before was an unescaped backslash inside a string. */
  private escaped = false;
  /** At depth 1, the next string is a key (after `{` or `,`). */
  private expectKey = false;
  /** The key string being read at depth 1, if any, and its bytes so far. */
  private key: number[] | undefined;
  private lastKey = "";
  /** The bytes of the `id` value being read, from after its `:`. */
  private value: number[] | undefined;
  private found: ScannedId | null = null;
  /** Nothing more to learn: the id was read, or the message is not an object. */
  private done = false;

  /** Feeds the next piece of the message (any split, even inside a string or escape). */
  feed(piece: Uint8Array): void {
    let i = 0;
    const end = piece.length;
    while (i < end && !this.done) {
      if (this.inString) {
        i = this.skipString(piece, i);
        continue;
      }
      this.step(piece[i] as number);
      i++;
    }
  }

  /** The id found so far: the top-level `id`, or null when there is none (yet). */
  id(): ScannedId | null {
    return this.found;
  }

  /** Reads string bytes from `i`; returns the index after the closing quote, or `end`. */
  private skipString(piece: Uint8Array, i: number): number {
    const quote = piece.indexOf(QUOTE, i);
    const stop = quote === -1 ? piece.length : quote;
    this.keep(piece, i, stop);
    // Whether the byte at `stop` is escaped: the run of backslashes before it, plus the
    // carried state when the run reaches back to `i` (a piece may end after a backslash).
    let run = 0;
    while (stop - run - 1 >= i && piece[stop - run - 1] === BACKSLASH) run++;
    const escapedAtStop =
      run === stop - i ? (run + (this.escaped ? 1 : 0)) % 2 === 1 : run % 2 === 1;
    if (quote === -1) {
      this.escaped = escapedAtStop;
      return stop;
    }
    this.escaped = false;
    if (escapedAtStop) {
      this.keep(piece, quote, quote + 1);
      return quote + 1;
    }
    this.inString = false;
    if (this.key !== undefined) {
      this.lastKey = String.fromCharCode(...this.key);
      this.key = undefined;
    } else this.keep(piece, quote, quote + 1);
    return quote + 1;
  }

  /** Copies string bytes into the key or value being read (each bounded). */
  private keep(piece: Uint8Array, from: number, to: number): void {
    if (this.key !== undefined) pushBounded(this.key, piece, from, to, KEY_BYTES + 1);
    else if (this.value !== undefined) pushBounded(this.value, piece, from, to, VALUE_BYTES + 1);
  }

  /** One byte outside any string. */
  private step(byte: number): void {
    if (this.depth === 0) {
      if (byte === OPEN_BRACE) {
        this.depth = 1;
        this.expectKey = true;
      } else if (!isSpace(byte)) this.done = true;
      return;
    }
    if (this.value !== undefined && this.depth === 1 && (byte === COMMA || byte === CLOSE_BRACE)) {
      this.finishValue();
      return;
    }
    if (this.value !== undefined && this.depth === 1) this.value.push(byte);
    switch (byte) {
      case QUOTE:
        this.inString = true;
        this.escaped = false;
        if (this.depth === 1 && this.expectKey) {
          this.key = [];
          this.expectKey = false;
        }
        return;
      case OPEN_BRACE:
      case OPEN_BRACKET:
        this.depth++;
        return;
      case CLOSE_BRACE:
      case CLOSE_BRACKET:
        this.depth--;
        if (this.depth === 0) this.done = true;
        return;
      case COMMA:
        if (this.depth === 1) this.expectKey = true;
        return;
      case COLON:
        if (this.depth === 1 && this.lastKey === "id") this.value = [];
        return;
      default:
        return;
    }
  }

  /** The id's raw value is complete: keep it when it is a string or a whole number. */
  private finishValue(): void {
    const raw = this.value ?? [];
    this.value = undefined;
    this.done = true;
    if (raw.length > VALUE_BYTES) return;
    try {
      const parsed: unknown = JSON.parse(Buffer.from(raw).toString("utf8"));
      if (typeof parsed === "string" || (typeof parsed === "number" && Number.isInteger(parsed))) {
        this.found = parsed;
      }
    } catch {
      // Not a JSON value: no id to answer to.
    }
  }
}

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

function pushBounded(into: number[], piece: Uint8Array, from: number, to: number, max: number) {
  for (let i = from; i < to && into.length < max; i++) into.push(piece[i] as number);
}
