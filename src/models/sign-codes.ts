/** One bit per dimension (its sign), packed into 32-bit words, for each of `rows` vectors. */
export function signCodes(matrix: Float32Array, rows: number, dimension: number): Uint32Array {
  const words = Math.ceil(dimension / 32);
  const codes = new Uint32Array(rows * words);
  for (let row = 0; row < rows; row++) {
    for (let i = 0; i < dimension; i++) if (matrix[row * dimension + i]! > 0) codes[row * words + (i >>> 5)]! |= 1 << (i & 31);
  }
  return codes;
}
