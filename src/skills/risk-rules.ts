import type { RiskRule } from "../store/records.js";

/**
 * The rules a skill or tool text is flagged by, each written from what an attack does rather than from the words of
 * any sample: get an unknown program run (a download, an archive locked against scanners, a paste site, an encoded
 * command, a remote shell), send secrets out, or talk to the model behind the user's back. Each looks at one line of
 * visible text, with the lines around it where an instruction spans a list. Well-known installers (`curl
 * https://sh.rustup.rs | sh`) match none of them: only hosts nobody can vouch for (a bare IP address, a paste site) do.
 */
export interface RiskRuleCheck {
  rule: RiskRule;
  /** What the rule flags, in a person's words. */
  meaning: string;
  /** Matches somewhere in every text a line of which breaks the rule: tested once per text, it spares the lines of most texts the rule's own patterns. */
  gate: RegExp;
  /** The matched text when line `index` breaks the rule. */
  check(lines: string[], index: number): string | undefined;
}

const EXECUTABLE = String.raw`\b[\w-][\w.-]{0,80}\.(?:exe|msi|scr|bat|cmd|ps1|vbs|jar|dmg|pkg|app|appimage|apk)\b`;
const ARCHIVE_OR_EXECUTABLE_URL = String.raw`https?://\S{1,300}?\.(?:exe|msi|scr|bat|cmd|ps1|vbs|jar|dmg|pkg|appimage|apk|zip|rar|7z)\b`;
const RUN = String.raw`\b(?:run|runs|running|launch|execute|executing|start|double[- ]click|open)\b`;
// Hosts that serve whatever anyone pasted, with no owner to vouch for it.
const PASTE_SITE = String.raw`\b(?:glot\.io|pastebin\.com|paste\.ee|rentry\.(?:co|org)|hastebin\.com|ghostbin\.\w+|dpaste\.\w+|controlc\.com|justpaste\.it|privatebin\.\w+|termbin\.com|ix\.io|sprunge\.us|0x0\.st|paste\.rs|pastes\.io|bpa\.st|snippet\.host|pastecode\.io)\b`;
const SHELL_SINK = String.raw`(?:\|\s*(?:sudo\s+)?(?:ba|z|da|k|fi)?sh\b|\|\s*(?:python\d?|perl|ruby|node|php)\b|\|\s*iex\b|Invoke-Expression)`;
const DECODE = String.raw`(?:base64\s+(?:-d|-D|--decode)\b|b64decode|FromBase64String|atob\(|xxd\s+-r\b|openssl\s+(?:enc\s+)?(?:-d|-base64\s+-d)\b|uudecode\b)`;
const IP_URL = String.raw`https?://\d{1,3}(?:\.\d{1,3}){3}\b`;
const SECRET = String.raw`(?:api[\s_-]?keys?|access[\s_-]?keys?|secret[\s_-]?keys?|private[\s_-]?keys?|ssh[\s_-]?keys?|auth(?:entication)?[\s_-]?tokens?|tokens|credentials?|passwords|secrets|cookies|seed[\s_-]?phrases?|mnemonics?|\b[A-Z][A-Z0-9_]{0,40}_(?:API_KEY|KEY|TOKEN|SECRET)\b)`;
const SENSITIVE_FILE = String.raw`(?:~/\.ssh\b|\bid_rsa\b|\bid_ed25519\b|\.aws/credentials|\.netrc\b|\.git-credentials|\.npmrc\b|\.pypirc\b|\bmcp\.json\b|auth-profiles\.json|\.kube/config|/etc/shadow|\bwallet\.dat\b|\.config/gcloud)`;
// Secrets as an attack asks for them: all of them, another service's by its variable's name, or a private file.
// ("Send your API key to https://api.example.com" is how a service's own docs say where its key goes.)
const GATHERED_SECRET = String.raw`\b(?:all|any|every|each|available|these|those)\s+(?:\w{1,30}\s+){0,2}?${SECRET}|\b[A-Z][A-Z0-9_]{0,40}_(?:API_KEY|TOKEN|SECRET)\b|${SENSITIVE_FILE}`;
const DESTINATION = String.raw`(?:https?://\S|\bwebhook\b|\bendpoint\b|\bserver\b|[\w.+-]{1,64}@[\w-]{1,63}\.[\w.]{1,63})`;
const SEND = String.raw`\b(?:send|sends|post|upload|transmit|forward|exfiltrate|submit|output|deliver|share)\b`;
// Secrets as they are sent in a request's own headers: the documented way to call an API, not a leak.
const HEADER_USE = /\b(?:header|authorization|bearer)\b/i;

const CONCEAL =
  /\b(?:do not|don't|dont|never|must not|should not|without)\s+(?:\w{1,30}\s+){0,2}?(?:(?:tell|telling|inform|informing|notify|notifying|alert|alerting|warn|warning)\s+(?:the\s+|your\s+)?users?\b(?!\s+to\s+\w)|(?:mention|mentioning|reveal|revealing|disclose|disclosing|show|showing|say|saying)\b[^.\n]{0,50}?\bto\s+(?:the\s+|your\s+)?users?\b|let(?:ting)?\s+(?:the\s+|your\s+)?users?\s+know\b)|\b(?:the\s+)?user\s+(?:must|should|need|needs)\s*(?:not|never|n't)\s+(?:to\s+)?(?:know|see|be told|find out|notice)\b|\b(?:secretly|covertly|stealthily|silently)\s+(?:send|upload|post|forward|collect|exfiltrate|transmit|copy)\b/i;
// What an attack keeps from the user: where data goes, which secrets or files it touches, which step it slips in.
const HIDDEN_MATTER = new RegExp(
  String.raw`https?://|${SECRET}|${SENSITIVE_FILE}|\b(?:this|these|that)\s+(?:url|link|endpoint|step|instructions?|request|upload|command|file)\b|\b(?:read|send|upload|post|collect|access)\b[^\n]{0,30}\bfiles?\b`,
  "i",
);
// Words that report an attack's phrase rather than say it: "emails that ask you to ignore previous instructions".
const REPORTED = /\b(?:ask|asks|asking|tell|tells|telling|try|tries|trying|attempts?|like|such as|e\.g\.|says?|claims?|contains?|containing)\b[^.\n]{0,25}$/i;

/** Inside a quotation on its line: how security skills cite an attack's words ("ignore previous instructions") as an example. */
function quoted(line: string, index: number): boolean {
  const before = line.slice(0, index);
  const count = (pattern: RegExp) => (before.match(pattern) ?? []).length;
  return count(/"/g) % 2 === 1 || count(/`/g) % 2 === 1 || count(/[“]/g) > count(/[”]/g) || /['‘]\s*$/.test(before);
}

function lineMatch(pattern: RegExp, options: { unquoted?: boolean } = {}): RiskRuleCheck["check"] {
  return (lines, index) => {
    const line = lines[index]!;
    const match = pattern.exec(line);
    if (!match || (options.unquoted && (quoted(line, match.index) || REPORTED.test(line.slice(0, match.index))))) return undefined;
    return match[0];
  };
}

/** Lines `index - before` to `index + after`, as one text. */
function around(lines: string[], index: number, before: number, after: number): string {
  return lines.slice(Math.max(0, index - before), index + after + 1).join("\n");
}

const namedExecutableRun = new RegExp(String.raw`${RUN}[^\n]{0,60}?${EXECUTABLE}|${EXECUTABLE}[^\n]{0,40}\b(?:before|first|must be running|is running)`, "i");
const downloadOfProgram = new RegExp(ARCHIVE_OR_EXECUTABLE_URL, "i");
const pasteSite = new RegExp(PASTE_SITE, "i");
const commandWords = /\b(?:run|execute|terminal|command|install|curl|wget|bash|sh|powershell)\b/i;
const secretsSentTo = new RegExp(String.raw`${SEND}[^.\n]{0,60}?(?:${GATHERED_SECRET})[^.\n]{0,80}?\b(?:to|into)\b[^.\n]{0,40}?${DESTINATION}`, "i");
const secretsToBeSent = new RegExp(
  String.raw`(?:${SECRET}|${SENSITIVE_FILE})[^.\n]{0,120}?\b(?:should|must|will|are to|is to)\s+be\s+(?:sent|posted|uploaded|forwarded|transmitted|submitted)\s+to\b[^.\n]{0,40}?${DESTINATION}`,
  "i",
);
const sentToUrl = new RegExp(String.raw`${SEND}[^\n]{0,60}?\bto\b[^\n]{0,20}?https?://\S{1,200}`, "i");
const secretsGathered = new RegExp(
  String.raw`\b(?:check|read|collect|gather|list|dump|extract|harvest|grab|copy|find|search|compile)\b[^\n]{0,60}?(?:\b(?:all|any|every|available)\s+(?:\w{1,30}\s+){0,2}?${SECRET}|${SENSITIVE_FILE})`,
  "i",
);
const fileHandedOver = new RegExp(String.raw`${SENSITIVE_FILE}[^\n]{0,80}?\bpass\b[^\n]{0,30}?\b(?:content|contents)\b`, "i");
const runTheDownload = /\b(?:run|launch|execute|double[- ]click)\b[^\n]{0,30}?\b(?:the|this)\s+(?:executable|binary|installer|program|app|tool)\b/i;

export const RISK_RULES: RiskRuleCheck[] = [
  {
    rule: "download-and-run",
    meaning: "tells the agent or user to download a program or archive and run it",
    gate: downloadOfProgram,
    check(lines, index) {
      const line = lines[index]!;
      const run = namedExecutableRun.exec(line) ?? runTheDownload.exec(line);
      // The download may be a few lines up or down: a numbered "1. Download ... 3. Run" list.
      return run && downloadOfProgram.test(around(lines, index, 5, 5)) ? run[0] : undefined;
    },
  },
  {
    rule: "password-protected-archive",
    meaning: "hands out an archive or program with its password: packing that keeps virus scanners from reading it",
    gate: /extract|unzip|unpack|unrar|decompress|\.(?:zip|rar|7z|exe)\b/i,
    check: lineMatch(
      /\b(?:extract|unzip|unpack|unrar|decompress)\b[^\n]{0,40}?\b(?:pass(?:word|phrase)?|pwd)\b[\x60'"*]*\s*(?:[:=]|\s[\x60'"])|\.(?:zip|rar|7z|exe)\b[^\n]{0,30}\(\s*pass(?:word)?\s*[:=]/i,
    ),
  },
  {
    rule: "command-from-paste-site",
    meaning: "has the agent or user run a command kept on a paste site, which anyone can change and nobody vouches for",
    gate: pasteSite,
    check(lines, index) {
      const paste = pasteSite.exec(lines[index]!);
      return paste && commandWords.test(around(lines, index, 2, 2)) ? paste[0] : undefined;
    },
  },
  {
    rule: "remote-script-from-ip",
    meaning: "pipes a script from a bare IP address into a shell",
    gate: /https?:\/\/\d/i,
    check: lineMatch(
      new RegExp(String.raw`\b(?:curl|wget|iwr|Invoke-WebRequest)\b[^\n]{0,200}?${IP_URL}[^\n]{0,200}?${SHELL_SINK}|(?:ba)?sh\s+-c\s*["']?\$\(\s*(?:curl|wget)\b[^\n)]{0,200}${IP_URL}`, "i"),
    ),
  },
  {
    rule: "decoded-to-shell",
    meaning: "decodes hidden text and runs it as a command",
    gate: /base64|b64decode|atob\(|xxd|openssl|uudecode|powershell|exec/i,
    check: lineMatch(
      new RegExp(
        String.raw`${DECODE}[^\n]{0,200}?${SHELL_SINK}|\b(?:eval|exec|iex|(?:ba)?sh\s+-c)\b[^\n]{0,20}\$\([^\n]{0,300}?${DECODE}|powershell[^\n]{0,200}\s-e(?:nc(?:odedcommand)?)?\s+[A-Za-z0-9+/=]{20}|\bexec\s*\(\s*[\w.]{0,60}(?:b64decode|decompress|fromhex)\(`,
        "i",
      ),
    ),
  },
  {
    rule: "reverse-shell",
    meaning: "opens a shell for a remote machine to control",
    gate: /\/dev\/tcp\/|\bnc(?:at)?\b|\bsocat\b|\bbash\s+-i|\bmkfifo\b|\bpty\.spawn\(/i,
    check: lineMatch(
      /\/dev\/tcp\/[^\s/]{1,100}\/\d|\bnc(?:at)?\b[^\n]{0,100}\s-[ec]\s+\/bin\/(?:ba)?sh|\bsocat\b[^\n]{0,100}\bexec:[^\n]{0,100}\bsh\b|\bbash\s+-i\s*>&|\bmkfifo\s+\/tmp\/\w{1,40}[^\n]{0,200}\|\s*nc\b|\bpty\.spawn\(\s*["']\/bin\/(?:ba)?sh/i,
    ),
  },
  {
    rule: "credential-exfiltration",
    meaning: "tells the agent to send secrets or private files somewhere",
    gate: new RegExp(String.raw`${SEND}|\bbe\s+(?:sent|posted|uploaded|forwarded|transmitted|submitted)\b|\bpass\b`, "i"),
    check(lines, index) {
      const line = lines[index]!;
      const direct = secretsSentTo.exec(line);
      if (direct && !quoted(line, direct.index) && !HEADER_USE.test(line)) return direct[0];
      const passive = secretsToBeSent.exec(line);
      if (passive && !quoted(line, passive.index)) return passive[0];
      // Secrets gathered in one step of a list and sent on in a later one.
      const sent = sentToUrl.exec(line);
      if (sent && !HEADER_USE.test(line) && secretsGathered.test(around(lines, index, 6, 0))) return sent[0];
      // A private file read and handed over as a tool argument (the MCP "sidenote" attack).
      return fileHandedOver.exec(line)?.[0];
    },
  },
  {
    rule: "conceal-from-user",
    meaning: "tells the agent to keep from the user where data goes or what it runs",
    gate: /user|secretly|covertly|stealthily|silently/i,
    check(lines, index) {
      const line = lines[index]!;
      const hide = CONCEAL.exec(line);
      // "Don't mention the model switch unless the user asks" is manners; hiding a URL, a secret or a step is not.
      if (!hide || quoted(line, hide.index) || /\bunless\b/i.test(line.slice(hide.index))) return undefined;
      return HIDDEN_MATTER.test(around(lines, index, 2, 2)) ? hide[0] : undefined;
    },
  },
  {
    rule: "override-instructions",
    meaning: "talks to the model over the user's head: overrides its instructions or poses as the system",
    gate: /ignore|disregard|forget|override|bypass|<\/?system>|you are now in/i,
    check: lineMatch(
      /\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+)?(?:(?:the|your|my|of the)\s+)?(?:previous|prior|above|earlier|preceding|former|original|system)\s+(?:instructions?|prompts?|rules|directions|directives|guidelines|messages)\b|<\/?system>|\byou are now in\s+\w{1,30}\s+mode\b/i,
      { unquoted: true },
    ),
  },
];
