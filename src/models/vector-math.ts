/** Scales a vector to unit length in place (cosine similarity becomes a dot product). */
export function normalise(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
}

/** Dot product of a vector with row `row` of a row-major matrix (four accumulators: the hot loop of routing). */
export function dotRow(query: Float32Array, matrix: Float32Array, row: number, dimension: number): number {
  const offset = row * dimension;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < dimension; i += 4) {
    s0 += query[i]! * matrix[offset + i]!;
    s1 += query[i + 1]! * matrix[offset + i + 1]!;
    s2 += query[i + 2]! * matrix[offset + i + 2]!;
    s3 += query[i + 3]! * matrix[offset + i + 3]!;
  }
  for (; i < dimension; i++) s0 += query[i]! * matrix[offset + i]!;
  return s0 + s1 + s2 + s3;
}
