import path from "node:path";

// The index holds no absolute path but its roots': a skill's source path is relative to its root's folder and its
// injection leaves the folder unnamed, so the index moves with its skills and can be served from another machine.

/** How a stored injection names the folder its supporting files are in; served injections name the real one. */
const UNNAMED_FOLDER = "the skill's folder";

/** The listing of supporting files after a skill's instructions, relative to `folder` (unnamed in the index). */
export function supportingFilesNote(files: string[], folder = UNNAMED_FOLDER): string {
  if (files.length === 0) return "";
  return `\n\nSupporting files (relative to ${folder}):\n${files.map((file) => `- ${file}`).join("\n")}`;
}

/**
 * The folder each indexed root is served from: the override at its position when one is given, else where it was
 * indexed. The override (`ROUTER_SKILLS_ROOT`) names the folders the roots are served from when they are not where
 * `router index` read them (an index built in CI, a volume mounted elsewhere), one per root in index order; an empty
 * entry keeps its root. A root that is a file is served from the folder that holds it.
 */
export function servedRootFolders(recorded: string[], override: string[] = []): string[] {
  return recorded.map((folder, position) => (override[position] ? path.resolve(override[position]) : folder));
}

/** The paths to index again where the roots are served (`router expand --import`): a root that was a file keeps its name. */
export function servedRootPaths(roots: { path: string; folder: string }[], override: string[] = []): string[] {
  const folders = servedRootFolders(
    roots.map((root) => root.folder),
    override,
  );
  return roots.map((root, position) => path.join(folders[position]!, path.relative(root.folder, root.path)));
}

/** A stored source path (relative to its root's folder) where the root is served from. */
export function servedSourcePath(rootFolder: string, relativePath: string): string {
  return path.join(rootFolder, ...relativePath.split("/"));
}

/** A stored injection with its supporting files listed in `folder`, the skill's folder where it is served. */
export function servedInjection(injection: string, files: string[], folder: string): string {
  const unnamed = supportingFilesNote(files);
  // Only the listing the indexer appended is renamed: the instructions before it are the skill's own text.
  if (unnamed === "" || !injection.endsWith(unnamed)) return injection;
  return injection.slice(0, -unnamed.length) + supportingFilesNote(files, folder);
}

/** A source path as the index stores it: relative to the root's folder, `/`-separated on every platform. */
export function relativeSourcePath(rootFolder: string, sourcePath: string): string {
  return path.relative(rootFolder, sourcePath).split(path.sep).join("/");
}
