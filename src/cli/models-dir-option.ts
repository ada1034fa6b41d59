import { Option } from "commander";
import { DEFAULT_MODELS_DIR } from "../models/model-settings.js";

/** `--models-dir DIR`, shared by the commands that read or write model files; ROUTER_MODELS_DIR sets the default. */
export function modelsDirOption(): Option {
  return new Option("--models-dir <dir>", "folder of model files (<dir>/<hub repo>/...)").env("ROUTER_MODELS_DIR").default(DEFAULT_MODELS_DIR, "models/ of this installation");
}
