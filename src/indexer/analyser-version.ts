import { createHash } from "node:crypto";
import { analyseText } from "../text/analyse-text.js";

// Text that takes every path of the analyser: identifiers in both casings, stemming, stop words, CJK runs, Hangul.
const PROBE =
  "CrashLoopBackOff crashloopbackoff getCurrentWeather get_current_weather kubectl's pods were restarting the of and 生成季度销售报告 データベース 한국어로 번역 café naïve v2.1 C++ C# 2024-06-01";

/**
 * The analyser's version, as the index records it (meta `analyser_version`): a hash of what it makes of a probe text.
 * It changes whenever the analyser's output does, with no number to remember to bump; the evidence floor, measured
 * with BM25 over analysed text, is measured again when it changes.
 */
export function analyserVersion(analyse: (text: string) => string[] = analyseText): string {
  return createHash("sha256")
    .update(JSON.stringify(analyse(PROBE)))
    .digest("hex")
    .slice(0, 16);
}
