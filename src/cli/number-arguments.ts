import { InvalidArgumentError } from "commander";

/** A share strictly between 0 and 1 (a split, a routing rate to aim for). */
export function parseFraction(value: string): number {
  const number = Number(value);
  if (!(number > 0 && number < 1)) throw new InvalidArgumentError("must be a number between 0 and 1");
  return number;
}

/** A probability or rate, 0 and 1 included. */
export function parseShare(value: string): number {
  const number = Number(value);
  if (!(number >= 0 && number <= 1)) throw new InvalidArgumentError("must be a number from 0 to 1");
  return number;
}
