import type { ShareScaleMeasure } from "../calibrate/measure-share-scale.js";

/** What a share scale rests on, in a person's terms (`router index` and `router doctor` print it alike). */
export function shareScaleBasis({ samples, rankedFirst }: ShareScaleMeasure): string {
  return `${Math.round(rankedFirst * 100)}% of ${samples} requests held out of their skills ranked their own first`;
}
