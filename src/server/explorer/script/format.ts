// Rounded without a minus sign on zero (a cosine of -0.001 reads 0.00).
export const fixed = (value: number | null | undefined, digits = 2): string => (typeof value === "number" ? value.toFixed(digits).replace(/^-(0\.?0*)$/, "$1") : "–");
export const duration = (ms: number): string => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);
export const percent = (share: number | null | undefined): string => (typeof share === "number" ? `${(share * 100).toFixed(1)}%` : "–");
export const words = (code: string): string => code.replace(/_/g, " ");
