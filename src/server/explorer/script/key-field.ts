import { byId } from "./dom.js";

const KEY_STORAGE = "skill-router-explorer-key";

export const keyField = byId("key", HTMLInputElement);

/** The key the user typed, or "" for none. */
export const apiKey = (): string => keyField.value.trim();

/** The key lives in this tab's sessionStorage and travels only as a Bearer header, never in a URL. */
export function setUpKeyField(onChange: () => void): void {
  keyField.value = sessionStorage.getItem(KEY_STORAGE) || "";
  keyField.addEventListener("change", () => {
    const key = apiKey();
    if (key) sessionStorage.setItem(KEY_STORAGE, key);
    else sessionStorage.removeItem(KEY_STORAGE);
    onChange();
  });
}
