// What an error answer may echo of the request: enough to debug, never a copy of a huge request.
export const ECHOED_TEXT_CHARS = 200;
export const LISTED_IN_MESSAGE = 20;
export const LISTED_IN_DETAILS = 100;

/** `text`, cut to `chars` with an ellipsis when longer. */
export function clip(text: string, chars = ECHOED_TEXT_CHARS): string {
  return text.length > chars ? `${text.slice(0, chars)}…` : text;
}
