/** Scales a vector to unit length in place (cosine similarity becomes a dot product). */
export function normalise(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
}

/** Dot product of a vector with row `row` of a row-major matrix. */
export function dotRow(query: Float32Array, matrix: Float32Array, row: number, dimension: number): number {
  let sum = 0;
  const offset = row * dimension;
  for (let i = 0; i < dimension; i++) sum += query[i]! * matrix[offset + i]!;
  return sum;
}
