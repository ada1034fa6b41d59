const NONE = -1;

/**
 * Items 0 to size - 1 in order of last use, as a doubly linked list in two typed arrays: moving or dropping an item is
 * constant time, and walking from the oldest never crosses dropped items (a Map used this way keeps their holes at its
 * front until it rehashes, and every walk from its start skipped them).
 */
export class RecencyList {
  private readonly older: Int32Array;
  private readonly newer: Int32Array;
  private readonly listed: Uint8Array;
  private oldestItem = NONE;
  private newestItem = NONE;

  constructor(size: number) {
    this.older = new Int32Array(size).fill(NONE);
    this.newer = new Int32Array(size).fill(NONE);
    this.listed = new Uint8Array(size);
  }

  /** Makes `item` the most recently used, listing it if it was not. */
  touch(item: number): void {
    if (this.listed[item] === 1) {
      if (item === this.newestItem) return;
      this.unlink(item);
    }
    this.listed[item] = 1;
    this.older[item] = this.newestItem;
    this.newer[item] = NONE;
    if (this.newestItem === NONE) this.oldestItem = item;
    else this.newer[this.newestItem] = item;
    this.newestItem = item;
  }

  remove(item: number): void {
    if (this.listed[item] === 0) return;
    this.unlink(item);
    this.listed[item] = 0;
  }

  /** The least recently used item for which `skip` is false, or undefined. */
  oldest(skip: (item: number) => boolean): number | undefined {
    for (let item = this.oldestItem; item !== NONE; item = this.newer[item]!) if (!skip(item)) return item;
    return undefined;
  }

  private unlink(item: number): void {
    const older = this.older[item]!;
    const newer = this.newer[item]!;
    if (older === NONE) this.oldestItem = newer;
    else this.newer[older] = newer;
    if (newer === NONE) this.newestItem = older;
    else this.older[newer] = older;
  }
}
