/** The page's element with this id, of the type the markup (page-html.ts) gives it: a missing one is a bug in the page. */
export function byId<T extends Element>(id: string, type: abstract new () => T): T {
  const node = document.getElementById(id);
  if (!(node instanceof type)) throw new Error(`The explorer page has no ${type.name} #${id}`);
  return node;
}

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}
