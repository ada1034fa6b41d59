import fc from "fast-check";
import { Tiktoken } from "js-tiktoken/lite";
import o200kBase from "js-tiktoken/ranks/o200k_base";
import { describe, expect, it } from "vitest";
import { countTokens } from "../../src/text/token-count.js";
import { countMapLookups } from "../helpers/map-lookups.js";

const reference = new Tiktoken(o200kBase);
const plainCount = (text: string): number => reference.encode(text, [], []).length;

const PROSE = [
  "Extract text and tables from PDF files. Use when the user mentions PDFs, forms or scanned documents.",
  "# Deploy\n\n1. Run `kubectl apply -f k8s/` then\n2. check `kubectl get pods -n prod`.\n\n```bash\nexport KUBECONFIG=~/.kube/config\n```\n",
  "Utilisez cette compétence pour résumer des journaux; naïve café 😀 👨‍👩‍👧 <|endoftext|> don't we'll I'M",
  "当用户需要分析数据时使用。支持 CSV、Excel 和 JSON 格式。不要用于图片处理。",
  '{\n  "type": "function",\n  "function": {\n    "name": "get_weather",\n    "parameters": {}\n  }\n}',
];

describe("countTokens", () => {
  it("counts ordinary text exactly as js-tiktoken's encode does", () => {
    for (const text of PROSE) expect(countTokens(text), text).toBe(plainCount(text));
  });

  it("agrees with js-tiktoken on any short text", () => {
    const alphabet = fc.constantFrom("a", "B", "z", " ", "  ", "\n", "\t", "'s", "1", "42", ".", "/", "é", "中", "文", "😀", "\u200d", "<|endoftext|>", "-", "_");
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 80 }).map((parts) => parts.join("")),
        (text) => countTokens(text) === plainCount(text),
      ),
      { numRuns: 300 },
    );
  });

  it("counts runs that js-tiktoken's merging cannot (long unbroken text) exactly, in work linear in their length", () => {
    // js-tiktoken took 48 s on 25 KB of one letter, rescanning a piece after every merge; these are ten times that.
    for (const text of ["x".repeat(256 * 1024), "中文字符".repeat(64 * 1024), " ".repeat(256 * 1024), "ab".repeat(128 * 1024)]) {
      const { result, lookups } = countMapLookups(() => countTokens(text));
      const bytes = Buffer.byteLength(text);
      expect(result).toBeGreaterThan(0);
      expect(result).toBeLessThanOrEqual(bytes);
      // A pair is looked up once at the start and at most twice per merge after it; rescans would be some bytes² / 2.
      expect(lookups, text.slice(0, 4)).toBeLessThanOrEqual(3 * bytes);
    }
    // Exact on a run short enough for the reference to count in time.
    for (const text of ["x".repeat(1_200), "中".repeat(500), `${" ".repeat(1_000)}x`]) expect(countTokens(text)).toBe(plainCount(text));
  });
});
