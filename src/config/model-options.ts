import type { ModelSettings } from "../models/model-settings.js";
import type { Settings } from "./settings.js";

/** What the models need of the settings: where their files are, which to load, how, and where a missing one comes from. */
export function modelOptions(settings: Settings): ModelSettings {
  return {
    modelsDir: settings.modelsDir,
    embedder: settings.embedder,
    dtype: settings.modelDtype,
    allowRemoteModels: settings.allowRemoteModels,
    threads: settings.modelThreads,
    hub: { endpoint: settings.hubEndpoint, ...(settings.hubToken ? { token: settings.hubToken } : {}) },
  };
}
