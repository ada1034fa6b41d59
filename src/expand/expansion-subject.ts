import type { SkillKind, SkillMetadata } from "../skills/types.js";

/** What an expander reads of a skill. */
export interface ExpansionSubject {
  id: string;
  name: string;
  kind: SkillKind;
  description: string;
  body: string;
  contentHash: string;
  metadata: SkillMetadata;
}
