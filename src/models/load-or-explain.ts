import { createError, isRouterError } from "../errors.js";

/** Turns a load failure of files that are present (damaged, foreign) into MODEL_LOAD_FAILED naming the folder. */
export async function loadOrExplain<T>(folder: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isRouterError(error)) throw error;
    throw createError("MODEL_LOAD_FAILED", `Cannot load the model in ${folder}: ${error instanceof Error ? error.message : String(error)}`, { folder });
  }
}
